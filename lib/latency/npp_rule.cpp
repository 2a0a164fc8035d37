#include "latency/npp_rule.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "mpilat.h"

namespace lat {

int64_t npp_rule(int64_t res_npp, double res_timing_us, double median_ppt_us) {
  const double wanted = static_cast<double>(res_npp) * res_timing_us;
  if (!(median_ppt_us > 0.0)) return wanted > 0.0 ? LAT_NPP_MAX : 1;
  const double x = std::max(1.0, wanted / median_ppt_us);
  if (x >= static_cast<double>(LAT_NPP_MAX)) return LAT_NPP_MAX;
  return static_cast<int64_t>(std::llround(x));  // Fortran nint: halves away from zero
}

int64_t npp_for_precision(int64_t res_npp, double res_timing_us, double median_ppt_us) {
  const double wanted = static_cast<double>(res_npp) * res_timing_us;
  if (!(median_ppt_us > 0.0)) return wanted > 0.0 ? LAT_NPP_MAX : 1;
  const double x = wanted / median_ppt_us;
  int64_t held = 1;
  while (static_cast<double>(held) < x && held <= LAT_NPP_MAX / 2) held *= 2;
  return static_cast<double>(held) >= x ? held : LAT_NPP_MAX;  // past the largest power of two under the cap
}

NppEstimate guarded_npp_estimate(int64_t npp_init, int64_t res_npp, double res_timing_us,
                                 const std::function<double(int64_t, bool &)> &median_at) {
  NppEstimate e;
  e.npp_init = npp_init;
  for (int doubling = 0;; ++doubling) {
    const auto start = std::chrono::steady_clock::now();
    e.median_ppt_us = median_at(e.npp_init, e.stopped);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (e.stopped || e.median_ppt_us > 0.0) break;
    if (doubling == kNppDoublings || 2 * e.npp_init > LAT_NPP_MAX || 2.0 * took > kNppGuardSeconds) {
      e.npp = 0;
      return e;
    }
    e.npp_init *= 2;
  }
  e.npp = e.median_ppt_us > 0.0 ? npp_rule(res_npp, res_timing_us, e.median_ppt_us) : 0;
  return e;
}

}  // namespace lat
