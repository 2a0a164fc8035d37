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
  r.ratio = r.b_value / r.a_value;
  r.a_count = static_cast<int64_t>(a.size());
  r.b_count = static_cast<int64_t>(b.size());
  r.confidence = opts.confidence;
  r.method = LAT_METHOD_LAUNCHES;
  // Percentile bootstrap: each resample draws every group's launches again with replacement.
  std::mt19937_64 rng(static_cast<uint64_t>(opts.seed));
  std::vector<double> ratios(static_cast<size_t>(opts.resamples)), ra(a.size()), rb(b.size());
  for (double &ratio : ratios) {
    for (double &x : ra) x = a[rng() % a.size()];
    for (double &x : rb) x = b[rng() % b.size()];
    ratio = median_in_place(rb) / median_in_place(ra);
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1.0 - opts.confidence) / 2.0;
  const auto at = [&](double p) {
    const double pos = p * static_cast<double>(ratios.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(lo + 1, ratios.size() - 1);
    return ratios[lo] + (pos - static_cast<double>(lo)) * (ratios[hi] - ratios[lo]);
  };
  r.ratio_low = at(tail);
  r.ratio_high = at(1.0 - tail);
  r.verdict = verdict_of(r.ratio_low, r.ratio_high);
  return r;
}

QuantileInterval quantile_interval(const Distribution &d, double q, double confidence) {
  const int64_t n = d.total();
  QuantileInterval qi;
  const int64_t k = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(q * static_cast<double>(n) - 1e-9)), 1, n);
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
