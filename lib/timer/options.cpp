#include "timer/options.hpp"

#include <cmath>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "generated/spec_options.hpp"

namespace lat {

lat_timer_options timer_defaults() {
  lat_timer_options o;
  spec_defaults(o);
  return o;
}

std::string check_timer_options(const lat_timer_options &o, int nprocs, int rank) {
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  if (o.rank != LAT_ALL_RANKS && (o.rank < 0 || o.rank >= nprocs))
    return got("rank must be -1 (all ranks) or in 0.." + std::to_string(nprocs - 1), o.rank);
  if ((o.rank == LAT_ALL_RANKS || o.rank == rank) && !timer_available(o.timer))
    return std::string("timer ") + timer_name(o.timer) + " is not available on this machine";
  return "";
}

std::vector<Shared> timer_shared_values(const lat_timer_options &o) { return spec_shared_values(o); }

std::string check_calibration(const lat_timer_result *cal, int timer, int64_t nr) {
  if (cal == nullptr) {
    if (nr < 1) return got("nr must be >= 1", nr);
    if (!timer_available(timer)) return std::string("timer ") + timer_name(timer) + " is not available here";
    return "";
  }
  if (!(cal->res_timing_us >= 0.0) || !std::isfinite(cal->res_timing_us))
    return got("calibration res_timing_us must be a finite number >= 0", cal->res_timing_us);
  if (!(cal->min_ov_us >= 0.0) || !std::isfinite(cal->min_ov_us))
    return got("calibration min_ov_us must be a finite number >= 0", cal->min_ov_us);
  if (cal->timer != timer)
    return std::string("the calibration is of timer ") + timer_name(cal->timer) + " but the options ask for timer " +
           timer_name(timer);
  return "";
}

}  // namespace lat
