#include "maxrate/fit.hpp"

#include "maxrate/options.hpp"
#include "maxrate/regimes.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "common/error.hpp"
#include "common/stats.hpp"

namespace lat {

double runs_z(const std::vector<lat_maxrate_obs> &obs, const std::vector<double> &rel_err) {
  constexpr double kExact = 1e-6;  // an error this small is the arithmetic's, not the model's: no sign
  std::vector<size_t> kept;
  for (size_t i = 0; i < obs.size(); ++i)
    if (std::fabs(rel_err[i]) > kExact) kept.push_back(i);
  if (kept.size() < 10) return 0.0;
  auto z_of = [&](bool k_inner) {
    std::vector<size_t> order = kept;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const lat_maxrate_obs &x = obs[a], &y = obs[b];
      if (k_inner) return x.bytes != y.bytes ? x.bytes < y.bytes : x.k < y.k;
      return x.k != y.k ? x.k < y.k : x.bytes < y.bytes;
    });
    double pos = 0.0, runs = 1.0;
    for (size_t j = 0; j < order.size(); ++j) {
      pos += rel_err[order[j]] > 0.0;
      if (j > 0 && (rel_err[order[j]] > 0.0) != (rel_err[order[j - 1]] > 0.0)) runs += 1.0;
    }
    const double n = static_cast<double>(order.size()), neg = n - pos;
    if (pos == 0.0 || neg == 0.0) return -std::numeric_limits<double>::infinity();  // every error one way
    const double mu = 2.0 * pos * neg / n + 1.0, var = (mu - 1.0) * (mu - 2.0) / (n - 1.0);
    return var > 0.0 ? (runs - mu) / std::sqrt(var) : 0.0;
  };
  return std::min(z_of(true), z_of(false));
}

bool runs_test_can_reject(int64_t n) {
  if (n < 10) return false;  // runs_z's own floor
  const double dn = static_cast<double>(n), pos = std::floor(dn / 2.0), neg = dn - pos;
  const double mu = 2.0 * pos * neg / dn + 1.0, var = (mu - 1.0) * (mu - 2.0) / (dn - 1.0);
  return var > 0.0 && (2.0 - mu) / std::sqrt(var) < -LAT_VERDICT_RUNS_Z;
}

double bic_of(double sse, int64_t n, int params) {
  constexpr double kFloor = 1e-12;  // (1e-6)^2: below it a mean squared relative error is rounding
  const double dn = static_cast<double>(n);
  return dn * std::log(std::max(sse / dn, kFloor)) + static_cast<double>(params) * std::log(dn);
}

namespace {

/// k -> size -> the smallest time observed at it: the curve of each pair count.
std::map<int64_t, std::map<int64_t, double>> fastest_times(const std::vector<lat_maxrate_obs> &obs) {
  std::map<int64_t, std::map<int64_t, double>> by_k;
  for (const lat_maxrate_obs &o : obs) {
    auto [it, fresh] = by_k[o.k].emplace(o.bytes, o.time_us);
    if (!fresh) it->second = std::min(it->second, o.time_us);
  }
  return by_k;
}

}  // namespace

std::vector<int64_t> detect_regime_thresholds(const std::vector<lat_maxrate_obs> &obs, double noise_rel) {
  const std::map<int64_t, std::map<int64_t, double>> by_k = fastest_times(obs);  // k -> size -> its smallest time
  // The sizes every k was measured at: there each column is a curve of its own, and a boundary holds for all.
  std::vector<int64_t> sizes;
  for (const auto &[n, t] : by_k.begin()->second) {
    bool everywhere = true;
    for (const auto &[k, column] : by_k) everywhere = everywhere && column.count(n) > 0;
    if (everywhere) sizes.push_back(n);
  }
  std::vector<std::vector<double>> columns;
  const bool one_pair_only = by_k.begin()->first != 1 || sizes.size() < 4;
  if (one_pair_only) {  // too few common sizes: the one-pair curve decides alone, as before 0.10
    sizes.clear();
    columns.emplace_back();
    if (auto one = by_k.find(1); one != by_k.end())
      for (const auto &[n, t] : one->second) sizes.push_back(n), columns.back().push_back(t);
  } else {
    for (const auto &[k, column] : by_k) {
      columns.emplace_back();
      for (int64_t n : sizes) columns.back().push_back(column.at(n));
    }
  }
  return segment_thresholds(sizes, columns, LAT_MAX_REGIMES - 1, noise_rel);
}

namespace {

int parameters_of(int model) {
  switch (model) {
    case LAT_MODEL_MAXRATE:
    case LAT_MODEL_MAXPOSTAL: return 3;
    case LAT_MODEL_MAXRATE4: return 4;
    default: return 2;
  }
}

/// Whether the regime's sizes span enough to fix a rate at all: the least-squares slope of its one-pair times
/// against the size, significant at 95 % (t test, three sizes at least). Where it is not, the regime is too
/// narrow (or too flat) for any rate: the rates are shown as bounds, RC >= 1 / (the slope's upper limit).
/// Returns that bound, or NaN where the slope is significant or cannot be judged (fewer than 3 sizes).
double unfixed_rate_bound(const std::vector<lat_maxrate_obs> &part) {
  const auto by_k = fastest_times(part);
  const auto found = by_k.find(1);
  const std::map<int64_t, double> one = found == by_k.end() ? std::map<int64_t, double>{} : found->second;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (one.size() < 3) return nan;
  const std::vector<std::pair<int64_t, double>> points(one.begin(), one.end());
  const Line line = least_squares_line(points.size(), [&](size_t k) { return static_cast<double>(points[k].first); },
                                       [&](size_t k) { return points[k].second; });
  const double n = static_cast<double>(points.size());
  double mx = 0.0, sxx = 0.0, rss = 0.0;
  for (const auto &[x, y] : points) mx += static_cast<double>(x) / n;
  for (const auto &[x, y] : points) {
    sxx += std::pow(static_cast<double>(x) - mx, 2);
    rss += std::pow(y - line.intercept - line.slope * static_cast<double>(x), 2);
  }
  if (!(sxx > 0.0)) return nan;
  const double slope = line.slope;
  const double se = std::sqrt(rss / (n - 2.0) / sxx);
  const double t = boost::math::quantile(boost::math::students_t_distribution<double>(n - 2.0), 0.975);
  if (slope - t * se > 0.0) return nan;  // fixed
  const double upper = slope + t * se;  // us per byte
  return upper > 0.0 ? 1.0 / upper : std::numeric_limits<double>::infinity();
}

/// lat_model_fit.latency_growth of one model in one regime: at each of the regime's smaller sizes (the lower
/// half) measured with 1 and with K pairs, (T(K) / model(K)) / (T(1) / model(1)) - 1, from the relative errors
/// e = (model - T) / T, as (1 + e(1)) / (1 + e(K)) - 1; their median. NaN where no such size exists.
template <class RegimeOf>
double latency_growth_of(int g, const std::vector<lat_maxrate_obs> &obs, const std::vector<double> &rel_err,
                         const RegimeOf &regime_of, int64_t kmax_here) {
  std::set<int64_t> sizes;
  for (const lat_maxrate_obs &x : obs)
    if (regime_of(x.bytes) == g) sizes.insert(x.bytes);
  std::vector<int64_t> lower(sizes.begin(), sizes.end());
  lower.resize((lower.size() + 1) / 2);
  std::map<int64_t, std::pair<const lat_maxrate_obs *, double>> one, most;  // size -> fastest observation, its error
  for (size_t i = 0; i < obs.size(); ++i) {
    const lat_maxrate_obs &x = obs[i];
    if (regime_of(x.bytes) != g || x.bytes > lower.back() || (x.k != 1 && x.k != kmax_here)) continue;
    auto &slot = x.k == 1 ? one : most;
    auto it = slot.find(x.bytes);
    if (it == slot.end() || x.time_us < it->second.first->time_us) slot[x.bytes] = {&x, rel_err[i]};
  }
  std::vector<double> growth;
  for (const auto &[n, a] : one)
    if (auto b = most.find(n); b != most.end()) growth.push_back((1.0 + a.second) / (1.0 + b->second.second) - 1.0);
  if (growth.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(growth.begin(), growth.end());
  const size_t h = growth.size() / 2;
  return growth.size() % 2 ? growth[h] : 0.5 * (growth[h - 1] + growth[h]);
}

/// The verdicts of regime g's models (docs/method.md, "Does the model fit?"): a runs test of each model's
/// relative errors, and for the k-dependent models the BIC gain over the postal model, below which the
/// network limit is not claimed.
template <class RegimeOf>
void judge_regime(int g, const std::vector<lat_maxrate_obs> &part, const std::vector<lat_maxrate_obs> &obs,
                  const RegimeOf &regime_of, int64_t kmax, MaxrateFit &r) {
  const int64_t n = static_cast<int64_t>(part.size());
  const double postal_sse = r.models[static_cast<size_t>(g * LAT_NMODELS + LAT_MODEL_POSTAL_ALL)].rel_err_sq;
  double aggregate = 0.0;  // the largest aggregate rate seen: RN is at least this
  int64_t kmax_here = 1;
  for (const lat_maxrate_obs &x : part) {
    aggregate = std::max(aggregate, static_cast<double>(x.k) * static_cast<double>(x.bytes) / x.time_us);
    kmax_here = std::max(kmax_here, x.k);
  }
  for (int m = 0; m < LAT_NMODELS; ++m) {
    lat_model_fit &f = r.models[static_cast<size_t>(g * LAT_NMODELS + m)];
    std::vector<double> errors;
    for (size_t i = 0; i < obs.size(); ++i)
      if (regime_of(obs[i].bytes) == g) errors.push_back(r.rel_err[static_cast<size_t>(m)][i]);
    f.verdict = LAT_VERDICT_FITS;
    f.latency_growth = std::numeric_limits<double>::quiet_NaN();
    if (std::isnan(f.alpha_us)) {  // not fitted (no k = 1 point here)
      f.runs_z = f.bic_gain = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    f.runs_z = runs_z(part, errors);
    const bool k_dependent = m == LAT_MODEL_MAXRATE || m == LAT_MODEL_MAXRATE4 || m == LAT_MODEL_MAXPOSTAL;
    // A latency that grows with k is no term of any model here; the runs test finds it on large tables only,
    // so the smaller sizes' growth from 1 to K pairs is compared with the model's directly.
    if (k_dependent && kmax_here > 1)
      f.latency_growth = latency_growth_of(g, obs, r.rel_err[static_cast<size_t>(m)], regime_of, kmax_here);
    // Errors all within rounding: the model is the data (fits). Too few to test: never "fits".
    const bool exact = std::all_of(errors.begin(), errors.end(), [](double e) { return std::fabs(e) <= 1e-6; });
    if (f.runs_z < -LAT_VERDICT_RUNS_Z || f.latency_growth > LAT_VERDICT_LATENCY_GROWTH) f.verdict = LAT_VERDICT_MISFIT;
    else if (!exact && !runs_test_can_reject(n)) f.verdict = LAT_VERDICT_UNTESTED;
    if (!k_dependent || kmax == 1) continue;
    f.bic_gain = bic_of(postal_sse, n, 2) - bic_of(f.rel_err_sq, n, parameters_of(m));
    if (f.verdict != LAT_VERDICT_MISFIT && f.bic_gain < LAT_VERDICT_BIC_GAIN) {
      if (f.verdict == LAT_VERDICT_FITS) f.verdict = LAT_VERDICT_NO_K;
      if (std::isfinite(f.rn_mbs)) {
        f.rn_mbs = std::numeric_limits<double>::infinity();
        f.rn_min_mbs = aggregate;
        f.bounded |= LAT_BOUND_RN;
      }
      f.k_star = std::numeric_limits<double>::infinity();
    }
  }
}

}  // namespace

MaxrateFit fit_maxrate(const lat_fit_options &o, const std::vector<lat_maxrate_obs> &obs) {
  if (std::string bad = check_fit_options(o); !bad.empty()) throw ArgError(bad);
  std::set<int64_t> sizes;
  for (size_t i = 0; i < obs.size(); ++i) {
    const lat_maxrate_obs &x = obs[i];
    if (x.k < 1) throw ArgError("obs[" + std::to_string(i) + "].k must be >= 1, got " + std::to_string(x.k));
    if (x.bytes < 0) throw ArgError("obs[" + std::to_string(i) + "].bytes must be >= 0, got " + std::to_string(x.bytes));
    if (!(x.time_us > 0.0) || !std::isfinite(x.time_us))
      throw ArgError("obs[" + std::to_string(i) + "].time_us must be a finite time > 0, got " + std::to_string(x.time_us));
    sizes.insert(x.bytes);
  }
  if (sizes.size() < 3) throw ArgError(got("a fit needs at least 3 message sizes", sizes.size()));
  MaxrateFit r;
  lat_fit_summary &s = r.summary;
  s.nobs = static_cast<int64_t>(obs.size());
  for (const lat_maxrate_obs &x : obs) s.kmax = std::max(s.kmax, x.k);
  if (std::string bad = fit_bounds_complaint(s.nobs, static_cast<int64_t>(sizes.size()), s.kmax); !bad.empty())
    throw ArgError(bad);
  std::vector<int64_t> cut;
  if (o.nthresholds < 0) {
    cut = detect_regime_thresholds(obs, o.noise_rel);
    s.thresholds_detected = 1;
  } else {
    cut.assign(o.thresholds, o.thresholds + o.nthresholds);  // ascending: check_fit_options
  }
  auto regime_of = [&](int64_t n) {
    int g = 0;
    while (g < static_cast<int>(cut.size()) && n > cut[static_cast<size_t>(g)]) ++g;
    return g;
  };
  const int nregimes = static_cast<int>(cut.size()) + 1;
  std::vector<std::vector<lat_maxrate_obs>> part(static_cast<size_t>(nregimes));
  std::vector<std::set<int64_t>> part_sizes(static_cast<size_t>(nregimes));
  for (const lat_maxrate_obs &x : obs) {
    part[static_cast<size_t>(regime_of(x.bytes))].push_back(x);
    part_sizes[static_cast<size_t>(regime_of(x.bytes))].insert(x.bytes);
  }
  for (int g = 0; g < nregimes; ++g)
    if (part_sizes[static_cast<size_t>(g)].size() < 2) {
      std::string list;
      for (int64_t c : cut) list += (list.empty() ? "" : ", ") + std::to_string(c);
      throw ArgError("regime " + std::to_string(g) + " has " + std::to_string(part_sizes[static_cast<size_t>(g)].size()) +
                     " message size(s): a fit needs at least 2 (thresholds " + (list.empty() ? "none" : list) + ")");
    }
  s.nregimes = nregimes;
  s.nthresholds = nregimes - 1;
  for (size_t g = 0; g < cut.size(); ++g) s.thresholds[g] = cut[g];
  for (int g = 0; g < nregimes; ++g) {
    s.regime_first[g] = *part_sizes[static_cast<size_t>(g)].begin();
    s.regime_last[g] = *part_sizes[static_cast<size_t>(g)].rbegin();
  }
  r.rel_err.assign(LAT_NMODELS, std::vector<double>(obs.size(), 0.0));
  r.models.resize(static_cast<size_t>(nregimes * LAT_NMODELS));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int g = 0; g < nregimes; ++g) {
    const std::vector<lat_maxrate_obs> &p = part[static_cast<size_t>(g)];
    const std::vector<PairGroup> groups = pair_groups(p);
    const double rate_bound = unfixed_rate_bound(p);
    for (int m = 0; m < LAT_NMODELS; ++m) {
      RateModel fit;
      int64_t nfit = static_cast<int64_t>(p.size());
      switch (m) {
        case LAT_MODEL_POSTAL_1PAIR:
        case LAT_MODEL_POSTAL_KPAIRS: {  // one group: k = 1, or the most pairs of the regime
          const PairGroup &one = m == LAT_MODEL_POSTAL_1PAIR ? groups.front() : groups.back();
          if (m == LAT_MODEL_POSTAL_1PAIR && one.k != 1) break;  // not fitted: no k = 1 point here
          fit = fit_postal({one});
          nfit = static_cast<int64_t>(one.count);
          break;
        }
        case LAT_MODEL_POSTAL_ALL: fit = fit_postal(groups); break;
        case LAT_MODEL_MAXRATE: fit = fit_maxrate3(groups); break;
        case LAT_MODEL_MAXRATE4: fit = fit_maxrate4(groups); break;
        default: fit = fit_maxpostal(p); break;
      }
      lat_model_fit &f = r.models[static_cast<size_t>(g * LAT_NMODELS + m)];
      f.model = m;
      f.regime = g;
      f.npoints = static_cast<int64_t>(p.size());
      f.nfit = nfit;
      if (!fit.ok) {  // e.g. no k = 1 point in this regime: the variant cannot be fitted
        f.alpha_us = f.rc_mbs = f.rci_mbs = f.rn_mbs = f.rn_min_mbs = f.k_star = f.rel_err_sum = f.rel_err_sq =
            f.rel_err_max = f.sse_gap = nan;
        continue;
      }
      f.bounded = fit.bounded;
      f.alpha_us = (fit.bounded & LAT_BOUND_ALPHA) ? fit.alpha_bound : fit.alpha;
      f.rc_mbs = (fit.bounded & LAT_BOUND_RC) ? fit.rc_bound : fit.rc;
      f.rci_mbs = (fit.bounded & LAT_BOUND_RCI) ? nan : fit.rci;
      f.rn_mbs = fit.rn;
      f.rn_min_mbs = fit.rn_min;
      f.k_star = k_star_of(fit, m);
      // RN - RCb over an RCi the data do not determine is no number either.
      if (m == LAT_MODEL_MAXRATE4 && (fit.bounded & LAT_BOUND_RCI)) f.k_star = nan;
      if (s.kmax == 1 && (m == LAT_MODEL_MAXRATE || m == LAT_MODEL_MAXRATE4 || m == LAT_MODEL_MAXPOSTAL)) {
        // One pair: T = alpha + n / min(RN, RC). Only the smaller rate is seen; RN, RCi and k* are not
        // identifiable, and a figure for them would be made up.
        f.rc_mbs = std::fmin(f.rc_mbs, f.rn_mbs);
        f.rn_mbs = f.rn_min_mbs = f.rci_mbs = f.k_star = nan;
        f.bounded &= ~(LAT_BOUND_RN | LAT_BOUND_RCI);
      }
      if (!std::isnan(rate_bound) && !(f.bounded & LAT_BOUND_RC) && !std::isnan(f.rc_mbs)) {
        // Too narrow a regime to fix a rate: RC is a bound, and what is derived from it (k*, RCi) no number.
        f.bounded |= LAT_BOUND_RC | LAT_BOUND_NARROW;
        f.rc_mbs = rate_bound;
        f.k_star = nan;
        if (m == LAT_MODEL_MAXRATE4) f.rci_mbs = nan, f.bounded |= LAT_BOUND_RCI;
      }
      f.sse_gap = fit.gap;
      f.certified = fit.certified ? 1 : 0;
      for (size_t i = 0; i < obs.size(); ++i) {
        if (regime_of(obs[i].bytes) != g) continue;
        const double e = (model_time(fit, m, obs[i].k, obs[i].bytes) - obs[i].time_us) / obs[i].time_us;
        r.rel_err[static_cast<size_t>(m)][i] = e;
        f.rel_err_sum += std::fabs(e);
        f.rel_err_sq += e * e;
        f.rel_err_max = std::max(f.rel_err_max, std::fabs(e));
      }
    }
    judge_regime(g, p, obs, regime_of, s.kmax, r);
  }
  return r;
}

}  // namespace lat
