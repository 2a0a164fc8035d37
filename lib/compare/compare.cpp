#include "compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "common/error.hpp"
#include "generated/spec_options.hpp"

namespace lat {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

int verdict_of(double low, double high) {
  if (low > 1.0) return LAT_VERDICT_B_HIGHER;
  if (high < 1.0) return LAT_VERDICT_B_LOWER;
  return LAT_VERDICT_UNRESOLVED;
}

/// The value at the 1-based rank k of d (k in 1..n).
double at_rank(const Distribution &d, int64_t k) { return kth_value(d, k - 1); }

/// P(U <= u), u = 0 .. na nb, for Mann-Whitney's U of groups of na and nb with no shift: exact by the
/// recursion p(m, n, u) = m/(m+n) p(m-1, n, u-n) + n/(m+n) p(m, n-1, u), or the normal approximation with a
/// continuity correction where na nb exceeds 40,000.
std::vector<double> mann_whitney_cdf(size_t na, size_t nb) {
  const size_t total = na * nb;
  std::vector<double> cdf(total + 1);
  if (total > 40000) {
    const double mean = static_cast<double>(total) / 2.0;
    const double sd = std::sqrt(static_cast<double>(total) * static_cast<double>(na + nb + 1) / 12.0);
    for (size_t u = 0; u <= total; ++u) cdf[u] = 0.5 * std::erfc(-(static_cast<double>(u) + 0.5 - mean) / (sd * std::sqrt(2.0)));
    return cdf;
  }
  // row[n] holds p(m, n, .) for the current m.
  std::vector<std::vector<double>> row(nb + 1);
  for (size_t n = 0; n <= nb; ++n) row[n] = {1.0};  // m = 0: U = 0
  for (size_t m = 1; m <= na; ++m) {
    std::vector<std::vector<double>> next(nb + 1);
    next[0] = {1.0};
    for (size_t n = 1; n <= nb; ++n) {
      std::vector<double> p(m * n + 1, 0.0);
      const double wm = static_cast<double>(m) / static_cast<double>(m + n), wn = 1.0 - wm;
      for (size_t u = 0; u < row[n].size(); ++u) p[u + n] += wm * row[n][u];  // the largest is an a: U += n
      for (size_t u = 0; u < next[n - 1].size(); ++u) p[u] += wn * next[n - 1][u];
      next[n] = std::move(p);
    }
    row = std::move(next);
  }
  double sum = 0.0;
  for (size_t u = 0; u <= total; ++u) cdf[u] = sum += row[nb][u];
  return cdf;
}

}  // namespace

lat_compare_options compare_defaults() {
  lat_compare_options o;
  spec_defaults(o);
  return o;
}

std::string check_compare_options(const lat_compare_options &o) {
  return spec_check_fields(o);
}


lat_compare_result compare_launches(const std::vector<double> &a, const std::vector<double> &b,
                                    const lat_compare_options &opts) {
  if (std::string bad = check_compare_options(opts); !bad.empty()) throw ArgError(bad);
  for (const auto *g : {&a, &b}) {
    if (g->size() < 3)
      throw ArgError(got("a bootstrap over launches needs at least 3 launches a group", static_cast<int64_t>(g->size())));
    for (double v : *g)
      if (!(v > 0.0) || !std::isfinite(v)) throw ArgError(got("launch values must be finite and > 0", v));
  }
  lat_compare_result r{};
  std::vector<double> work = a;
  r.a_value = median_in_place(work);
  work = b;
  r.b_value = median_in_place(work);
  r.a_count = static_cast<int64_t>(a.size());
  r.b_count = static_cast<int64_t>(b.size());
  r.confidence = opts.confidence;
  r.method = LAT_METHOD_LAUNCHES;
  // The exact rank interval (Hodges-Lehmann and Mann-Whitney) of the shift of the launches' log values:
  // d = ln b_j - ln a_i over all pairs, sorted; [d_(k), d_(N+1-k)] covers the shift with probability
  // >= 1 - 2 P(U <= k - 1), U Mann-Whitney's statistic with no shift. Exact at every group size.
  std::vector<double> d;
  d.reserve(a.size() * b.size());
  for (double x : a)
    for (double y : b) d.push_back(std::log(y) - std::log(x));
  std::sort(d.begin(), d.end());
  work = d;
  r.ratio = std::exp(median_in_place(work));
  const std::vector<double> cdf = mann_whitney_cdf(a.size(), b.size());
  const double tail = (1.0 - opts.confidence) / 2.0;
  r.max_confidence = 1.0 - 2.0 * cdf[0];
  size_t k = 0;  // the largest k >= 1 with P(U <= k - 1) <= tail; 0: none
  while (k < cdf.size() && cdf[k] <= tail * (1.0 + 1e-12)) ++k;
  if (k == 0) {
    r.ratio_low = 0.0;
    r.ratio_high = kInf;
  } else {
    r.ratio_low = std::exp(d[k - 1]);
    r.ratio_high = std::exp(d[d.size() - k]);
  }
  r.verdict = verdict_of(r.ratio_low, r.ratio_high);
  return r;
}

QuantileInterval quantile_interval(const Distribution &d, double q, double confidence) {
  const int64_t n = d.total();
  QuantileInterval qi;
  const int64_t k = nearest_rank(100.0 * q, n);
  qi.value = at_rank(d, k);
  const auto [l, u] = order_statistic_interval(n, q, 1.0 - confidence);
  qi.low = l >= 1 ? at_rank(d, l) : -kInf;
  qi.high = u <= n ? at_rank(d, u) : kInf;
  return qi;
}

lat_compare_result compare_tables(const Distribution &a, const Distribution &b, double q, const lat_compare_options &opts) {
  if (std::string bad = check_compare_options(opts); !bad.empty()) throw ArgError(bad);
  if (!(q > 0.0 && q < 1.0)) throw ArgError(got("q must be in (0, 1)", q));
  for (const Distribution *d : {&a, &b}) {
    if (d->total() <= 0) throw ArgError("each table must hold at least one trial");
    if (!(d->values.front() > 0.0)) throw ArgError(got("values must be > 0 (a ratio of times)", d->values.front()));
  }
  // Bonferroni: each quantile's interval at 1 - (1 - confidence)/2, so both hold together at >= confidence.
  const double each = 1.0 - (1.0 - opts.confidence) / 2.0;
  const QuantileInterval qa = quantile_interval(a, q, each), qb = quantile_interval(b, q, each);
  lat_compare_result r{};
  r.a_value = qa.value;
  r.b_value = qb.value;
  r.ratio = qb.value / qa.value;
  r.ratio_low = std::isinf(qa.high) || std::isinf(qb.low) ? 0.0 : qb.low / qa.high;
  r.ratio_high = std::isinf(qa.low) || std::isinf(qb.high) ? kInf : qb.high / qa.low;
  r.a_count = a.total();
  r.b_count = b.total();
  r.confidence = opts.confidence;
  r.method = LAT_METHOD_TRIALS;
  r.verdict = verdict_of(r.ratio_low, r.ratio_high);
  return r;
}

}  // namespace lat
