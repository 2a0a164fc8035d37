#include "common/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lat {

int64_t Distribution::total() const { return std::accumulate(counts.begin(), counts.end(), int64_t{0}); }

Distribution distribution_of_values(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  Distribution d;
  for (double v : values) {
    if (!d.values.empty() && d.values.back() == v) {
      ++d.counts.back();
    } else {
      d.values.push_back(v);
      d.counts.push_back(1);
    }
  }
  return d;
}

double kth_value(const Distribution &d, int64_t k) {
  int64_t seen = 0;
  for (size_t i = 0; i < d.values.size(); ++i) {
    seen += d.counts[i];
    if (k < seen) return d.values[i];
  }
  return d.values.empty() ? 0.0 : d.values.back();
}

double median_of(const Distribution &d) {
  const int64_t n = d.total();
  if (n == 0) return 0.0;
  if (n % 2 == 1) return kth_value(d, n / 2);
  return 0.5 * (kth_value(d, n / 2 - 1) + kth_value(d, n / 2));
}

Distribution at_most(const Distribution &d, double cut) {
  Distribution kept;
  for (size_t i = 0; i < d.values.size() && d.values[i] <= cut; ++i) {
    kept.values.push_back(d.values[i]);
    kept.counts.push_back(d.counts[i]);
  }
  return kept;
}

namespace {
double rate_mbs(int64_t bytes, double time_us) { return time_us > 0.0 ? static_cast<double>(bytes) / time_us : 0.0; }
}  // namespace

lat_stats describe(const Distribution &d, int64_t bytes) {
  lat_stats s{};
  const int64_t n = d.total();
  s.count = n;
  if (n == 0) return s;
  // long double sums: with counts up to 2^25 and values of a few decimal digits the result matches a
  // direct double pass over the raw samples to the last few ulps.
  long double sum = 0.0L;
  for (size_t i = 0; i < d.values.size(); ++i) sum += static_cast<long double>(d.counts[i]) * d.values[i];
  const long double mean = sum / static_cast<long double>(n);
  long double ss = 0.0L;
  for (size_t i = 0; i < d.values.size(); ++i) {
    const long double dev = d.values[i] - mean;
    ss += static_cast<long double>(d.counts[i]) * dev * dev;
  }
  s.min_us = d.values.front();
  s.max_us = d.values.back();
  s.median_us = median_of(d);
  s.mean_us = static_cast<double>(mean);
  s.variance_us2 = n > 1 ? static_cast<double>(ss / static_cast<long double>(n - 1)) : 0.0;
  s.stddev_us = std::sqrt(s.variance_us2);
  s.cv_percent = s.mean_us != 0.0 ? 100.0 * s.stddev_us / s.mean_us : 0.0;
  s.stderr_us = s.stddev_us / std::sqrt(static_cast<double>(n));
  s.rse = s.mean_us != 0.0 ? s.stderr_us / s.mean_us : 0.0;
  s.rate_min_mbs = rate_mbs(bytes, s.min_us);
  s.rate_median_mbs = rate_mbs(bytes, s.median_us);
  s.rate_mean_mbs = rate_mbs(bytes, s.mean_us);
  s.rate_max_mbs = rate_mbs(bytes, s.max_us);
  return s;
}

void fill_bins(const Distribution &d, int64_t bins[LAT_NBINS]) {
  // Edge i is i / 5.0, the double nearest to the printed decimal edge (0.6, not 3 * 0.2 =
  // 0.6000000000000001), so a value lands in the bin its printed label promises.
  const double per_us = 1.0 / LAT_BIN_WIDTH_US;
  auto edge = [per_us](int i) { return static_cast<double>(i) / per_us; };
  for (int b = 0; b < LAT_NBINS; ++b) bins[b] = 0;
  for (size_t i = 0; i < d.values.size(); ++i) {
    const double v = d.values[i];
    if (v < 0.0) continue;
    int b = LAT_NBINS - 1;
    if (v < edge(LAT_NBINS - 1)) {
      b = static_cast<int>(v * per_us);
      if (b < LAT_NBINS - 1 && v >= edge(b + 1)) ++b;
      if (b > 0 && v < edge(b)) --b;
    }
    bins[b] += d.counts[i];
  }
}

}  // namespace lat
