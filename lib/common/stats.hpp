// stats.hpp: statistics over a distribution (distinct values with counts), with the definitions of
// include/mpilat.h. Computing from counts is exact: the same sums a direct pass over the raw samples makes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "mpilat.h"
#include "common/tally.hpp"

namespace lat {

/// One chunk of a run's samples in time order: its count, its start and end in seconds since the run began,
/// and its minimum, median, first trial, p90, p99, mean and maximum (us) (latency/run_levels.hpp tells the
/// levels and state changes of a run from them).
struct TrialChunk {
  int64_t first_trial = 0, count = 0;
  double start_s = 0.0, end_s = 0.0, min_us = 0.0, median_us = 0.0, first_us = 0.0;
  double p90_us = 0.0, p99_us = 0.0, mean_us = 0.0, max_us = 0.0;
  /// Trials per second of wall clock (0 for a chunk of no length).
  double rate() const { return end_s > start_s ? static_cast<double>(count) / (end_s - start_s) : 0.0; }
};

/// Distinct values in ascending order with their counts (the frequency table of the paper).
struct Distribution {
  std::vector<double> values;
  std::vector<int64_t> counts;
  int64_t total() const;
  bool empty() const { return values.empty(); }
};

/// The tally's tick values mapped by an increasing function (ticks -> microseconds), merging values that
/// the mapping makes equal.
template <class Map>
Distribution distribution_of(const Tally &tally, Map map) {
  std::vector<int64_t> ticks, counts;
  tally.sorted(ticks, counts);
  Distribution d;
  d.values.reserve(ticks.size());
  d.counts.reserve(ticks.size());
  for (size_t k = 0; k < ticks.size(); ++k) {
    const double v = map(ticks[k]);
    if (!d.values.empty() && d.values.back() == v) {
      d.counts.back() += counts[k];
    } else {
      d.values.push_back(v);
      d.counts.push_back(counts[k]);
    }
  }
  return d;
}

/// The distribution of raw values (any order): sorted, equal values merged.
Distribution distribution_of_values(std::vector<double> values);

/// The k-th smallest value (0-based) of the distribution.
double kth_value(const Distribution &d, int64_t k);

/// Median: the middle value, or the mean of the two middle ones for an even count.
double median_of(const Distribution &d);

/// The median of v (the mean of the two middle values for an even count; 0 for none); v is reordered.
double median_in_place(std::vector<double> &v);

/// The mean and the sample standard deviation (n - 1) of v; sd 0 for fewer than 2 values, both 0 for none.
struct MeanSd {
  double mean = 0.0, sd = 0.0;
};
MeanSd mean_and_sd(const std::vector<double> &v);

/// The nearest rank (1-based) of the pct-th percentile of n values: ceil(pct / 100 n), within 1..n.
inline int64_t nearest_rank(double pct, int64_t n) {
  return std::clamp<int64_t>(static_cast<int64_t>(std::ceil(pct / 100.0 * static_cast<double>(n) - 1e-9)), 1, n);
}

/// The lower median of v (one of its values: the ((n+1)/2)-th smallest); v is reordered and not empty.
template <class T>
T lower_median_in_place(std::vector<T> &v) {
  const size_t mid = (v.size() - 1) / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  return v[mid];
}

/// The least-squares line y = intercept + slope x through n points (slope 0 where the x are all equal).
struct Line {
  double intercept = 0.0, slope = 0.0;
};
/// x(k) and y(k) give point k of 0..n-1.
template <class X, class Y>
Line least_squares_line(size_t n, X &&x, Y &&y) {
  Line l;
  if (n == 0) return l;
  double mx = 0.0, my = 0.0;
  for (size_t k = 0; k < n; ++k) mx += x(k), my += y(k);
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0.0, sxy = 0.0;
  for (size_t k = 0; k < n; ++k) {
    const double dx = x(k) - mx;
    sxx += dx * dx;
    sxy += dx * (y(k) - my);
  }
  l.slope = sxx > 0.0 ? sxy / sxx : 0.0;
  l.intercept = my - l.slope * mx;
  return l;
}

/// The least-squares line through (x[k], y[k]) and how well it fits: R^2 = 1 - (residual sum of squares) /
/// (total sum of squares about the mean; where that is 0, 1 if the residuals are 0 too), 0 with fewer than
/// 3 points (two points always lie on a line), and the largest |residual|.
struct LineFit {
  Line line;
  size_t n = 0;
  double r2 = 0.0, residual_max = 0.0;
};
LineFit fit_line(const std::vector<double> &x, const std::vector<double> &y);

/// The values <= cut, with their counts.
Distribution at_most(const Distribution &d, double cut);

/// All statistics of lat_stats (zeroed for an empty distribution); rates for a message of bytes bytes.
lat_stats describe(const Distribution &d, int64_t bytes);

/// The percent levels of lat_quantiles.level.
extern const double kPercentLevels[LAT_NPERCENTILES];

/// The standard normal quantile: x with P(Z <= x) = p.
double normal_quantile(double p);

/// The 1-based ranks (l, u) of the order statistics that bound a distribution-free confidence interval of
/// the q-quantile (0 < q < 1) of n samples with coverage >= 1 - alpha: l the largest with P(B < l) <= alpha/2,
/// u the smallest with P(B >= u) <= alpha/2, B ~ Binomial(n, q). l = 0 or u = n + 1: that end is unbounded.
/// Exact at every n: Boost.Math's binomial distribution, searched by bisection.
std::pair<int64_t, int64_t> order_statistic_interval(int64_t n, double q, double alpha = 0.05);

/// Percentiles (nearest rank) and the 95 % intervals of the median and p99 (zeroed for no values).
lat_quantiles quantiles_of(const Distribution &d);

/// Counts in the Appendix A bins of LAT_BIN_WIDTH_US; negative values are not counted.
void fill_bins(const Distribution &d, int64_t bins[LAT_NBINS]);

}  // namespace lat
