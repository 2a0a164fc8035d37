#include "maxrate/options.hpp"

#include <climits>
#include <cmath>

#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "timer/options.hpp"

namespace lat {

lat_nodecomm_options nodecomm_defaults() {
  lat_nodecomm_options o{};
  o.size_last = int64_t{1} << 20;
  o.reps = 5;
  o.max_pairs = 0;
  o.nr = int64_t{1} << 18;
  o.timeout_s = 0.0;
  o.adaptive = 1;
  o.timer = LAT_TIMER_MPI_WTIME;
  o.progress = 0;
  o.sides = LAT_SIDES_NODE;
  return o;
}

std::string check_nodecomm_options(const lat_nodecomm_options &o, int64_t nsizes, const int64_t *sizes) {
  if (o.size_last < 1 || o.size_last > kMaxSizeLast)
    return got("size_last must be in 1.." + std::to_string(kMaxSizeLast), o.size_last);
  if (o.reps < 1) return got("reps must be >= 1", o.reps);
  if (o.max_pairs < 0) return got("max_pairs must be >= 0 (0: as many as possible)", o.max_pairs);
  if (o.sides != LAT_SIDES_NODE && o.sides != LAT_SIDES_SOCKET)
    return got("sides must be LAT_SIDES_NODE (0) or LAT_SIDES_SOCKET (1)", o.sides);
  if (std::string bad = first_complaint({check_flag("adaptive", o.adaptive), check_flag("progress", o.progress),
                                         check_timer_kind(o.timer), check_timeout(o.timeout_s)});
      !bad.empty())
    return bad;
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
  return {Shared::integer("size_last", o.size_last), Shared::integer("reps", o.reps),
          Shared::integer("max_pairs", o.max_pairs), Shared::integer("nr", o.nr),
          Shared::real("timeout_s", o.timeout_s),    Shared::integer("adaptive", o.adaptive),
          Shared::integer("timer", o.timer),         Shared::integer("nsizes", nsizes),
          Shared::integer("sides", o.sides),
          Shared::weighted_sum("sizes (weighted sum)", sizes, sizes != nullptr && nsizes > 0 ? static_cast<size_t>(nsizes) : 0)};
}

lat_fit_options fit_defaults() {
  lat_fit_options o{};
  o.nthresholds = -1;
  o.noise_rel = 0.002;
  return o;
}

std::string check_fit_options(const lat_fit_options &o) {
  if (!(o.noise_rel > 0.0) || !(o.noise_rel < 1.0)) return got("noise_rel must be in (0, 1)", o.noise_rel);
  if (o.nthresholds < -1 || o.nthresholds > LAT_MAX_REGIMES - 1)
    return got("nthresholds must be -1 (detect) or 0.." + std::to_string(LAT_MAX_REGIMES - 1), o.nthresholds);
  for (int64_t i = 0; i < o.nthresholds; ++i) {
    if (o.thresholds[i] < 0) return "thresholds[" + std::to_string(i) + "] must be >= 0, got " + std::to_string(o.thresholds[i]);
    if (i > 0 && o.thresholds[i] <= o.thresholds[i - 1])
      return "thresholds must ascend, got " + std::to_string(o.thresholds[i - 1]) + " and " + std::to_string(o.thresholds[i]);
  }
  return "";
}

}  // namespace lat
