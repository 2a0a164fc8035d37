// distribution.cpp: the C shims of frequency tables (lat_histogram) and of statistics on given samples.
#include <cmath>

#include "common/distribution_handle.hpp"
#include "common/stats.hpp"
#include "guard.hpp"

namespace {

/// The caller's n values, each checked to be finite.
std::vector<double> finite_values(int64_t n, const double *values_us) {
  std::vector<double> v(values_us, values_us + n);
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(v[static_cast<size_t>(i)]))
      throw lat::ArgError("values_us[" + std::to_string(i) + "] must be finite, got " + std::to_string(v[static_cast<size_t>(i)]));
  return v;
}

}  // namespace

extern "C" {

int lat_histogram_size(lat_histogram hist, int64_t *nvalues) {
  return lat::guard([&] {
    const lat_histogram_s &h = lat::deref(hist, "hist");
    lat::require_nonnull(nvalues, "nvalues");
    *nvalues = static_cast<int64_t>(h.dist.values.size());
    return LAT_SUCCESS;
  });
}

int lat_histogram_get(lat_histogram hist, int64_t n, double *values_us, int64_t *counts) {
  return lat::guard([&] {
    const lat_histogram_s &h = lat::deref(hist, "hist");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    const int64_t size = static_cast<int64_t>(h.dist.values.size());
    const int64_t m = n < size ? n : size;
    if (m > 0) {
      lat::require_nonnull(values_us, "values_us");
      lat::require_nonnull(counts, "counts");
    }
    for (int64_t i = 0; i < m; ++i) {
      values_us[i] = h.dist.values[static_cast<size_t>(i)];
      counts[i] = h.dist.counts[static_cast<size_t>(i)];
    }
    return LAT_SUCCESS;
  });
}

int lat_stats_compute(int64_t n, const double *values_us, int64_t bytes, lat_stats *stats) {
  return lat::guard([&] {
    lat::require_nonnull(stats, "stats");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    if (bytes < 0) throw lat::ArgError(lat::got("bytes must be >= 0", bytes));
    if (n > 0) lat::require_nonnull(values_us, "values_us");
    *stats = lat::describe(lat::distribution_of_values(finite_values(n, values_us)), bytes);
    return LAT_SUCCESS;
  });
}

int lat_quantiles_compute(int64_t n, const double *values_us, lat_quantiles *q) {
  return lat::guard([&] {
    lat::require_nonnull(q, "q");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    if (n > 0) lat::require_nonnull(values_us, "values_us");
    *q = lat::quantiles_of(lat::distribution_of_values(finite_values(n, values_us)));
    return LAT_SUCCESS;
  });
}

}  // extern "C"
