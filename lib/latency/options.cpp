#include "latency/options.hpp"

#include <climits>
#include <cmath>

#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "timer/options.hpp"

namespace lat {

lat_pingpong_options pingpong_defaults() {
  lat_pingpong_options o{};
  o.n = 1;
  o.bytes = -1;
  o.nr = int64_t{1} << 24;
  o.npptrial = int64_t{1} << 23;
  o.npp_init = 10;
  o.res_npp = 50;
  o.npp = 0;
  o.ntrial = int64_t{1} << 23;
  o.cut_coef = 2.0;
  o.source = 0;
  o.dest = LAT_LAST_RANK;
  o.timer = LAT_TIMER_MPI_WTIME;
  o.progress = 0;
  o.timeout_s = 0.0;
  o.estimate = 1;
  o.minutes = 0.0;
  return o;
}

std::string check_pingpong_options(const lat_pingpong_options &o, int nprocs, int rank, const lat_timer_result *cal) {
  if (std::string bad = check_pair_of_ranks("ping-pong", o.source, o.dest, nprocs); !bad.empty()) return bad;
  if (o.bytes < -1) return got("bytes must be >= 0 (or -1: use n)", o.bytes);
  if (o.bytes > INT_MAX) return got("bytes must be <= " + std::to_string(INT_MAX), o.bytes);
  if (o.bytes == -1 && o.n < 0) return got("n must be >= 0", o.n);
  if (o.bytes == -1 && o.n > INT_MAX) return got("n must be <= " + std::to_string(INT_MAX), o.n);
  if (o.npp < 0) return got("npp must be >= 0 (0: calculate)", o.npp);
  if (o.npp > LAT_NPP_MAX) return got("npp must be <= " + std::to_string(LAT_NPP_MAX), o.npp);
  if (std::string bad = check_flag("estimate", o.estimate); !bad.empty()) return bad;
  if (!(o.minutes >= 0.0) || !std::isfinite(o.minutes)) return got("minutes must be a finite number > 0 (0: use ntrial)", o.minutes);
  if (o.minutes > 0.0 && o.npp != 0 && o.estimate == 0)
    return "minutes needs Part 2 (the npp estimate) to time a trial: it cannot be given with npp and estimate = 0";
  const bool estimating = o.npp == 0 || o.estimate != 0;
  if (estimating && o.npptrial < 1) return got("npptrial must be >= 1", o.npptrial);
  if (estimating && o.npp_init < 1) return got("npp_init must be >= 1", o.npp_init);
  if (estimating && o.npp_init > LAT_NPP_MAX) return got("npp_init must be <= " + std::to_string(LAT_NPP_MAX), o.npp_init);
  if (estimating && o.res_npp < 1) return got("res_npp must be >= 1", o.res_npp);
  if (o.ntrial < 1) return got("ntrial must be >= 1", o.ntrial);
  if (!(o.cut_coef > 0.0) || !std::isfinite(o.cut_coef)) return got("cut_coef must be a finite number > 0", o.cut_coef);
  if (std::string bad = first_complaint({check_timer_kind(o.timer), check_flag("progress", o.progress),
                                         check_timeout(o.timeout_s)});
      !bad.empty())
    return bad;
  return rank == o.source ? check_calibration(cal, o.timer, o.nr) : "";
}

std::vector<Shared> pingpong_shared_values(const lat_pingpong_options &o) {
  return {Shared::integer("source", o.source),     Shared::integer("dest", o.dest),
          Shared::integer("n", o.n),               Shared::integer("bytes", o.bytes),
          Shared::integer("npp", o.npp),           Shared::integer("npptrial", o.npptrial),
          Shared::integer("npp_init", o.npp_init), Shared::integer("res_npp", o.res_npp),
          Shared::integer("ntrial", o.ntrial),     Shared::integer("timer", o.timer),
          Shared::real("cut_coef", o.cut_coef),    Shared::real("timeout_s", o.timeout_s),
          Shared::integer("estimate", o.estimate), Shared::real("minutes", o.minutes)};
}

}  // namespace lat
