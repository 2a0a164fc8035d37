#include "latency/options.hpp"

#include <climits>
#include <cmath>

#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "generated/spec_options.hpp"
#include "timer/options.hpp"

namespace lat {

lat_pingpong_options pingpong_defaults() {
  lat_pingpong_options o;
  spec_defaults(o);
  return o;
}

std::string check_pingpong_options(const lat_pingpong_options &o, int nprocs, int rank, const lat_timer_result *cal) {
  if (std::string bad = check_pair_of_ranks("ping-pong", o.source, o.dest, nprocs); !bad.empty()) return bad;
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  if (o.bytes == -1 && o.n < 0) return got("n must be >= 0", o.n);
  if (o.bytes == -1 && o.n > INT_MAX) return got("n must be <= " + std::to_string(INT_MAX), o.n);
  // A run shorter than 0.6 s may hold no trial at all (a median of nothing): refused, not reported as 0 us.
  if (o.minutes > 0.0 && o.minutes < 0.01)
    return got("minutes must be 0 (ntrial as given) or at least 0.01 (0.6 s of trials)", o.minutes);
  if (o.minutes > 0.0 && o.npp != 0 && o.estimate == 0)
    return "minutes needs Part 2 (the npp estimate) to time a trial: it cannot be given with npp and estimate = 0";
  const bool estimating = o.npp == 0 || o.estimate != 0;
  if (estimating && o.npptrial < 1) return got("npptrial must be >= 1", o.npptrial);
  if (estimating && o.npp_init < 1) return got("npp_init must be >= 1", o.npp_init);
  if (estimating && o.npp_init > LAT_NPP_MAX) return got("npp_init must be <= " + std::to_string(LAT_NPP_MAX), o.npp_init);
  if (estimating && o.res_npp < 1) return got("res_npp must be >= 1", o.res_npp);
  return rank == o.source ? check_calibration(cal, o.timer, o.nr) : "";
}

std::vector<Shared> pingpong_shared_values(const lat_pingpong_options &o) { return spec_shared_values(o); }

std::string check_study_values(const int64_t *values, int nvalues, bool by_res_npp, const lat_pingpong_options &opts) {
  const char *name = by_res_npp ? "res_npp study" : "npp study";
  if (nvalues < 1 || nvalues > LAT_STUDY_MAX)
    return got(std::string("the ") + name + " must have 1 to " + shown_value(LAT_STUDY_MAX) + " values", nvalues);
  if (values == nullptr) return std::string("the ") + name + " values must not be NULL";
  for (int i = 0; i < nvalues; ++i) {
    if (values[i] < 1 || values[i] > LAT_NPP_MAX)
      return got(std::string("the ") + name + " values must be in 1.." + shown_value(LAT_NPP_MAX), values[i]);
    for (int j = 0; j < i; ++j)
      if (values[j] == values[i]) return std::string("the ") + name + " has the value " + shown_value(values[i]) + " twice";
  }
  if (opts.npp != 0) return got("npp must be 0 (not given) in an npp study, which sets it per value", opts.npp);
  if (opts.minutes != 0.0) return got("minutes must be 0 in an npp study (ntrial is per value)", opts.minutes);
  if (opts.precision_pct != 0.0)
    return got("precision_pct must be 0 in an npp study (its values take turns until each has ntrial)", opts.precision_pct);
  return "";
}

}  // namespace lat
