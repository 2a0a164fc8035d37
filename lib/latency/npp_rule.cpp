#include "latency/npp_rule.hpp"

#include <algorithm>
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

}  // namespace lat
