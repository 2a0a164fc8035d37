// distribution.cpp: the C shims of frequency tables (lat_histogram) and of statistics on given samples.
#include <cmath>

#include "common/distribution_handle.hpp"
#include "common/stats.hpp"
#include "guard.hpp"

extern "C" {

int lat_histogram_size(lat_histogram hist, int64_t *nvalues) {
  return lat::guard([&] {
    lat::require_nonnull(hist, "hist");
    lat::require_nonnull(nvalues, "nvalues");
    *nvalues = static_cast<int64_t>(hist->dist.values.size());
    return LAT_SUCCESS;
  });
}

int lat_histogram_get(lat_histogram hist, int64_t n, double *values_us, int64_t *counts) {
  return lat::guard([&] {
    lat::require_nonnull(hist, "hist");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    const int64_t size = static_cast<int64_t>(hist->dist.values.size());
    const int64_t m = n < size ? n : size;
    if (m > 0) {
      lat::require_nonnull(values_us, "values_us");
      lat::require_nonnull(counts, "counts");
    }
    for (int64_t i = 0; i < m; ++i) {
      values_us[i] = hist->dist.values[static_cast<size_t>(i)];
      counts[i] = hist->dist.counts[static_cast<size_t>(i)];
    }
    return LAT_SUCCESS;
  });
}

int lat_histogram_free(lat_histogram *hist) {
  return lat::guard([&] {
    return lat::free_handle(hist, "hist");
  });
}

int lat_stats_compute(int64_t n, const double *values_us, int64_t bytes, lat_stats *stats) {
  return lat::guard([&] {
    lat::require_nonnull(stats, "stats");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    if (bytes < 0) throw lat::ArgError(lat::got("bytes must be >= 0", bytes));
    if (n > 0) lat::require_nonnull(values_us, "values_us");
    lat::Tally tally;
    for (int64_t i = 0; i < n; ++i) {
      if (!std::isfinite(values_us[i]))
        throw lat::ArgError("values_us[" + std::to_string(i) + "] must be finite, got " + std::to_string(values_us[i]));
      tally.add(values_us[i]);
    }
    *stats = lat::describe(lat::distribution_of(tally, [](double v) { return v; }), bytes);
    return LAT_SUCCESS;
  });
}

}  // extern "C"
