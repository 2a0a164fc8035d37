#include "timer/options.hpp"

#include <cmath>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/option_rules.hpp"

namespace lat {

lat_timer_options timer_defaults() {
  lat_timer_options o{};
  o.nr = int64_t{1} << 24;
  o.timer = LAT_TIMER_MPI_WTIME;
  o.rank = LAT_ALL_RANKS;
  o.timeout_s = 0.0;
  o.progress = 0;
  return o;
}

std::string check_timer_options(const lat_timer_options &o, int nprocs, int rank) {
  if (o.nr < 1) return got("nr must be >= 1", o.nr);
  if (std::string bad = check_timer_kind(o.timer); !bad.empty()) return bad;
  if (o.rank != LAT_ALL_RANKS && (o.rank < 0 || o.rank >= nprocs))
    return got("rank must be -1 (all ranks) or in 0.." + std::to_string(nprocs - 1), o.rank);
  if ((o.rank == LAT_ALL_RANKS || o.rank == rank) && !timer_available(o.timer))
    return std::string("timer ") + timer_name(o.timer) + " is not available on this machine";
  if (std::string bad = check_flag("progress", o.progress); !bad.empty()) return bad;
  return check_timeout(o.timeout_s);
}

std::vector<Shared> timer_shared_values(const lat_timer_options &o) {
  return {Shared::integer("nr", o.nr), Shared::integer("timer", o.timer), Shared::integer("rank", o.rank),
          Shared::real("timeout_s", o.timeout_s)};
}

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
