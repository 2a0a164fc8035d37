#include "maxrate/options.hpp"

#include <climits>
#include <cmath>

#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "generated/spec_options.hpp"
#include "timer/options.hpp"

namespace lat {

lat_nodecomm_options nodecomm_defaults() {
  lat_nodecomm_options o;
  spec_defaults(o);
  return o;
}

std::string check_nodecomm_options(const lat_nodecomm_options &o, int64_t nsizes, const int64_t *sizes) {
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  if (nsizes < 0) return got("nsizes must be >= 0 (0: the grid of opts)", nsizes);
  if (nsizes > 0 && sizes == nullptr) return "sizes must not be NULL when nsizes > 0";
  for (int64_t i = 0; i < nsizes; ++i) {
    if (sizes[i] < 0 || sizes[i] > INT_MAX)
      return "sizes[" + std::to_string(i) + "] must be in 0.." + std::to_string(INT_MAX) + ", got " + std::to_string(sizes[i]);
    if (i > 0 && sizes[i] <= sizes[i - 1])
      return "sizes must ascend, got " + std::to_string(sizes[i - 1]) + " then " + std::to_string(sizes[i]);
  }
  return check_calibration(nullptr, o.timer, o.nr);
}

std::vector<Shared> nodecomm_shared_values(const lat_nodecomm_options &o, int64_t nsizes, const int64_t *sizes) {
  std::vector<Shared> shared = spec_shared_values(o);
  shared.insert(shared.end(), {Shared::integer("nsizes", nsizes), Shared::weighted_sum("sizes (weighted sum)", sizes, sizes != nullptr && nsizes > 0 ? static_cast<size_t>(nsizes) : 0)});
  return shared;
}

lat_fit_options fit_defaults() {
  lat_fit_options o;
  spec_defaults(o);
  return o;
}

std::string fit_bounds_complaint(int64_t nobs, int64_t nsizes, int64_t kmax) {
  if (kmax > kMaxTablePairs) return got("the fit takes pair counts k up to " + std::to_string(kMaxTablePairs), kmax);
  if (nsizes > kMaxFitSizes) return got("the fit takes at most " + std::to_string(kMaxFitSizes) + " message sizes", nsizes);
  if (nobs > kMaxFitObservations)
    return got("the fit takes at most " + std::to_string(kMaxFitObservations) + " observations (sizes x pair counts)", nobs);
  return "";
}

std::string check_fit_options(const lat_fit_options &o) {
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  for (int64_t i = 0; i < o.nthresholds; ++i) {
    if (o.thresholds[i] < 0) return "thresholds[" + std::to_string(i) + "] must be >= 0, got " + std::to_string(o.thresholds[i]);
    if (i > 0 && o.thresholds[i] <= o.thresholds[i - 1])
      return "thresholds must ascend, got " + std::to_string(o.thresholds[i - 1]) + " and " + std::to_string(o.thresholds[i]);
  }
  return "";
}

}  // namespace lat
