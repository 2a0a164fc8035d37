#include "common/stats.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
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

LineFit fit_line(const std::vector<double> &x, const std::vector<double> &y) {
  LineFit f;
  f.n = std::min(x.size(), y.size());
  f.line = least_squares_line(f.n, [&](size_t k) { return x[k]; }, [&](size_t k) { return y[k]; });
  double mean = 0.0;
  for (size_t k = 0; k < f.n; ++k) mean += y[k];
  mean = f.n > 0 ? mean / static_cast<double>(f.n) : 0.0;
  double ss_res = 0.0, ss_tot = 0.0;
  for (size_t k = 0; k < f.n; ++k) {
    const double r = y[k] - (f.line.intercept + f.line.slope * x[k]);
    ss_res += r * r;
    ss_tot += (y[k] - mean) * (y[k] - mean);
    f.residual_max = std::max(f.residual_max, std::fabs(r));
  }
  if (f.n >= 3) f.r2 = ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : (ss_res == 0.0 ? 1.0 : 0.0);
  return f;
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

const double kPercentLevels[LAT_NPERCENTILES] = {1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99};

MeanSd mean_and_sd(const std::vector<double> &v) {
  MeanSd out;
  const size_t n = v.size();
  if (n == 0) return out;
  for (double x : v) out.mean += x;
  out.mean /= static_cast<double>(n);
  if (n < 2) return out;
  double ss = 0.0;
  for (double x : v) ss += (x - out.mean) * (x - out.mean);
  out.sd = std::sqrt(ss / static_cast<double>(n - 1));
  return out;
}

double median_in_place(std::vector<double> &v) {
  const size_t n = v.size(), mid = n / 2;
  if (n == 0) return 0.0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (n % 2 == 1) return v[mid];
  const double upper = v[mid];
  return 0.5 * (upper + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)));
}

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) return p <= 0.0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  return boost::math::quantile(boost::math::normal_distribution<double>(), p);
}

std::pair<int64_t, int64_t> order_statistic_interval(int64_t n, double q, double alpha) {
  const double half = alpha / 2.0;
  const boost::math::binomial_distribution<double> b(static_cast<double>(n), q);
  const auto cdf = [&](int64_t k) { return boost::math::cdf(b, static_cast<double>(k)); };
  // The smallest k in [0, n] with P(B <= k) above (or at least, when inclusive) the level; n + 1 if none.
  const auto first_k = [&](double level, bool inclusive) {
    int64_t lo = 0, hi = n + 1;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const double c = cdf(mid);
      if (inclusive ? c >= level : c > level) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  // l - 1 is the largest k with P(B <= k) <= alpha/2; u - 1 the smallest k with P(B <= k) >= 1 - alpha/2.
  const int64_t l = first_k(half, false);
  const int64_t u = std::min<int64_t>(first_k(1.0 - half, true) + 1, n + 1);
  return {l, u};
}

lat_quantiles quantiles_of(const Distribution &d) {
  lat_quantiles q{};
  for (int i = 0; i < LAT_NPERCENTILES; ++i) q.level[i] = kPercentLevels[i];
  const int64_t n = d.total();
  if (n == 0) return q;
  // Every rank asked for (1-based), in one ascending walk of the table.
  const auto [ml, mu] = order_statistic_interval(n, 0.5);
  const auto [pl, pu] = order_statistic_interval(n, 0.99);
  std::vector<std::pair<int64_t, double *>> asks;
  for (int i = 0; i < LAT_NPERCENTILES; ++i) asks.push_back({nearest_rank(kPercentLevels[i], n), &q.p_us[i]});
  const double inf = std::numeric_limits<double>::infinity();
  q.median_ci_us[0] = q.p99_ci_us[0] = -inf;
  q.median_ci_us[1] = q.p99_ci_us[1] = inf;
  if (ml >= 1) asks.push_back({ml, &q.median_ci_us[0]});
  if (mu <= n) asks.push_back({mu, &q.median_ci_us[1]});
  if (pl >= 1) asks.push_back({pl, &q.p99_ci_us[0]});
  if (pu <= n) asks.push_back({pu, &q.p99_ci_us[1]});
  std::sort(asks.begin(), asks.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  int64_t seen = 0;
  size_t i = 0;
  for (size_t a = 0; a < asks.size(); ++a) {
    while (seen + d.counts[i] < asks[a].first) seen += d.counts[i++];
    *asks[a].second = d.values[i];
  }
  return q;
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
