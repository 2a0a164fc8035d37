#include "maxrate/fit.hpp"

#include "maxrate/options.hpp"
#include "maxrate/regimes.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "common/error.hpp"

namespace lat {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Least squares of the relative error: rows x_i / T_i against 1. Returns false when the columns are
/// not independent on these points (the coefficients would not be determined).
bool relative_lsq(const std::vector<lat_maxrate_obs> &obs, int ncols,
                  const std::function<void(const lat_maxrate_obs &, double *)> &row, Eigen::VectorXd &coef,
                  double &sse) {
  const Eigen::Index n = static_cast<Eigen::Index>(obs.size());
  Eigen::MatrixXd a(n, ncols);
  double x[3];
  for (Eigen::Index i = 0; i < n; ++i) {
    row(obs[static_cast<size_t>(i)], x);
    for (int c = 0; c < ncols; ++c) a(i, c) = x[c] / obs[static_cast<size_t>(i)].time_us;
  }
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  if (qr.rank() < ncols) return false;
  coef = qr.solve(b);
  sse = (a * coef - b).squaredNorm();
  return std::isfinite(sse);
}

double slope_factor(const std::vector<double> &h, int64_t k) { return h[static_cast<size_t>(k)]; }

}  // namespace

Sloped fit_sloped(const std::vector<lat_maxrate_obs> &obs, const std::vector<double> &h, bool network) {
  Sloped best;
  best.sse = kInf;
  auto consider = [&](double alpha, double bc, double bn, double sse) {
    // Ties (to 1e-12 of the objective) go to the candidate seen first: the simpler model.
    if (alpha < 0.0 || bc < 0.0 || bn < 0.0 ||
        !(sse < best.sse - 1e-12 * (1.0 + (std::isfinite(best.sse) ? best.sse : 0.0))))
      return;
    best = {alpha, bc, bn, sse, true};
  };
  // Every linear piece twice: with alpha free, and on the face alpha = 0 (a latency cannot be negative).
  // cols(o, x) fills the slope columns; accept(c) maps the coefficients (alpha first) to a candidate.
  auto piece = [&](int nslopes, const std::function<void(const lat_maxrate_obs &, double *)> &cols,
                   const std::function<void(double, const double *, double)> &accept) {
    Eigen::VectorXd c;
    double sse = 0.0;
    double slopes[2] = {0.0, 0.0};
    if (relative_lsq(obs, 1 + nslopes, [&](const lat_maxrate_obs &o, double *x) { x[0] = 1.0, cols(o, x + 1); }, c, sse)) {
      for (int i = 0; i < nslopes; ++i) slopes[i] = c[1 + i];
      accept(c[0], slopes, sse);
    }
    if (nslopes > 0 && relative_lsq(obs, nslopes, cols, c, sse)) {
      for (int i = 0; i < nslopes; ++i) slopes[i] = c[i];
      accept(0.0, slopes, sse);
    }
  };
  // The constant model (bC = bN = 0): the face where both slopes vanish.
  piece(0, [](const lat_maxrate_obs &, double *) {}, [&](double a, const double *, double sse) { consider(a, 0, 0, sse); });
  // No network limit: T = alpha + n bC h_k.
  piece(1, [&](const lat_maxrate_obs &o, double *x) { x[0] = static_cast<double>(o.bytes) * slope_factor(h, o.k); },
        [&](double a, const double *b, double sse) { consider(a, b[0], 0.0, sse); });
  if (!network) return best;
  // q = bN / bC decides which k are network-bound: those with u_k = h_k / k <= q. Between two consecutive
  // values of u the split is fixed and the model linear; at each value of u, q is fixed and the model linear.
  std::set<double> us;
  for (const lat_maxrate_obs &o : obs) us.insert(slope_factor(h, o.k) / static_cast<double>(o.k));
  const std::vector<double> u(us.begin(), us.end());
  for (size_t j = 0; j < u.size(); ++j) {
    const double q = u[j];
    // At the smallest u every k has k q <= h_k: the network limits nothing, which is the piece above.
    if (j > 0)
      piece(1, [&](const lat_maxrate_obs &o, double *x) {
              x[0] = static_cast<double>(o.bytes) * std::max(slope_factor(h, o.k), static_cast<double>(o.k) * q);
            },
            [&](double a, const double *b, double sse) { consider(a, b[0], q * b[0], sse); });
    if (j + 1 == u.size()) continue;  // q above every u: all network-bound, the boundary piece covers it
    piece(2, [&](const lat_maxrate_obs &o, double *x) {
            const bool bound = slope_factor(h, o.k) / static_cast<double>(o.k) <= q;
            x[0] = bound ? 0.0 : static_cast<double>(o.bytes) * slope_factor(h, o.k);
            x[1] = bound ? static_cast<double>(o.bytes) * static_cast<double>(o.k) : 0.0;
          },
          [&](double a, const double *b, double sse) {
            // Interior only: the split must be the one the coefficients make (q in [u_j, u_j+1)).
            if (b[0] > 0.0 && b[1] > 0.0 && b[1] / b[0] >= u[j] && b[1] / b[0] < u[j + 1]) consider(a, b[0], b[1], sse);
          });
  }
  return best;
}

namespace {

std::vector<double> ones(int64_t kmax) { return std::vector<double>(static_cast<size_t>(kmax + 1), 1.0); }

int64_t kmax_of(const std::vector<lat_maxrate_obs> &obs) {
  int64_t k = 1;
  for (const lat_maxrate_obs &o : obs) k = std::max(k, o.k);
  return k;
}

RateModel model_of(const Sloped &s, double rho) {
  RateModel m;
  m.ok = s.ok;
  m.alpha = s.alpha;
  m.rc = s.bc > 0.0 ? 1.0 / s.bc : kInf;
  m.rn = s.bn > 0.0 ? 1.0 / s.bn : kInf;
  m.rci = std::isfinite(m.rc) ? rho * m.rc : 0.0;
  m.sse = s.sse;
  return m;
}

std::vector<double> h_of_rho(int64_t kmax, double rho) {
  std::vector<double> h(static_cast<size_t>(kmax + 1), 1.0);
  for (int64_t k = 1; k <= kmax; ++k)
    h[static_cast<size_t>(k)] = static_cast<double>(k) / (1.0 + static_cast<double>(k - 1) * rho);
  return h;
}

}  // namespace

RateModel fit_postal(const std::vector<lat_maxrate_obs> &obs) {
  RateModel m = model_of(fit_sloped(obs, ones(kmax_of(obs)), false), 0.0);
  m.rn = kInf;
  return m;
}

RateModel fit_maxrate3(const std::vector<lat_maxrate_obs> &obs) {
  RateModel m = model_of(fit_sloped(obs, ones(kmax_of(obs)), true), 0.0);
  m.rci = 0.0;
  return m;
}

RateModel fit_maxrate4(const std::vector<lat_maxrate_obs> &obs) {
  const int64_t kmax = kmax_of(obs);
  // rho = RCi / RCb; the aggregate core rate RCb (1 + (k-1) rho) must stay positive up to K.
  auto at = [&](double rho) { return fit_sloped(obs, h_of_rho(kmax, rho), true); };
  Sloped best = at(1.0);  // the three-parameter model: never worse than it
  double best_rho = 1.0;
  if (kmax < 2) return model_of(best, best_rho);
  const double lo = -1.0 / static_cast<double>(kmax - 1), hi = 16.0;
  std::vector<double> grid = {0.0, 1.0};
  for (int i = 1; i <= 240; ++i) grid.push_back(lo + (2.0 - lo) * i / 241.0);                       // linear to 2
  for (int i = 0; i <= 160; ++i) grid.push_back(lo + std::pow(10.0, -7.0 + 8.2 * i / 160.0));        // near lo, to hi
  std::sort(grid.begin(), grid.end());
  grid.erase(std::remove_if(grid.begin(), grid.end(), [&](double r) { return !(r > lo) || r > hi; }), grid.end());
  std::vector<double> sse(grid.size());
  for (size_t i = 0; i < grid.size(); ++i) {
    const Sloped s = at(grid[i]);
    sse[i] = s.ok ? s.sse : kInf;
    if (s.ok && s.sse < best.sse) best = s, best_rho = grid[i];
  }
  // Golden-section refinement between the neighbours of the grid profile's local minima, the lowest 4.
  std::vector<size_t> minima;
  for (size_t i = 0; i < grid.size(); ++i)
    if (!((i > 0 && sse[i - 1] < sse[i]) || (i + 1 < grid.size() && sse[i + 1] < sse[i]) || !std::isfinite(sse[i])))
      minima.push_back(i);
  std::sort(minima.begin(), minima.end(), [&](size_t x, size_t y) { return sse[x] < sse[y]; });
  if (minima.size() > 4) minima.resize(4);
  for (size_t i : minima) {
    double a = i > 0 ? grid[i - 1] : std::max(lo + 1e-12, grid[i] - 1e-3), b = i + 1 < grid.size() ? grid[i + 1] : grid[i];
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    Sloped f1 = at(x1), f2 = at(x2);
    for (int it = 0; it < 60 && b - a > 1e-10 * (1.0 + std::fabs(a)); ++it) {
      if ((f1.ok ? f1.sse : kInf) < (f2.ok ? f2.sse : kInf)) {
        b = x2, x2 = x1, f2 = f1, x1 = b - g * (b - a), f1 = at(x1);
      } else {
        a = x1, x1 = x2, f1 = f2, x2 = a + g * (b - a), f2 = at(x2);
      }
    }
    for (const auto &[x, f] : {std::make_pair(x1, f1), std::make_pair(x2, f2)})
      if (f.ok && f.sse < best.sse) best = f, best_rho = x;
  }
  return model_of(best, best_rho);
}

double k_star_of(const RateModel &m, int kind) {
  if (!std::isfinite(m.rn)) return kInf;  // postal models, and a network that never limits
  if (kind == LAT_MODEL_MAXRATE) return m.rn / m.rc;
  if (kind != LAT_MODEL_MAXRATE4) return kInf;
  // RCb + (k - 1) RCi = RN: where the cores' aggregate rate reaches the network's.
  if (m.rci > 0.0) return 1.0 + (m.rn - m.rc) / m.rci;
  return m.rn <= m.rc ? 1.0 : kInf;  // an aggregate that does not grow: the network limits from the start, or never
}

double model_time(const RateModel &m, int kind, int64_t k, int64_t n) {
  const double kd = static_cast<double>(k), nd = static_cast<double>(n);
  switch (kind) {
    case LAT_MODEL_MAXRATE: return m.alpha + kd * nd / std::min(m.rn, kd * m.rc);
    case LAT_MODEL_MAXRATE4: return m.alpha + kd * nd / std::min(m.rn, m.rc + (kd - 1.0) * m.rci);
    default: return m.alpha + nd / m.rc;
  }
}

std::vector<int64_t> detect_regime_thresholds(const std::vector<lat_maxrate_obs> &obs, double noise_rel) {
  std::map<int64_t, double> one_pair;  // size -> smallest time of k = 1
  for (const lat_maxrate_obs &o : obs)
    if (o.k == 1) {
      auto it = one_pair.find(o.bytes);
      if (it == one_pair.end() || o.time_us < it->second) one_pair[o.bytes] = o.time_us;
    }
  std::vector<int64_t> sizes;
  std::vector<double> times;
  for (const auto &[n, t] : one_pair) sizes.push_back(n), times.push_back(t);
  return segment_thresholds(sizes, times, LAT_MAX_REGIMES - 1, noise_rel);
}

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
  s.kmax = kmax_of(obs);
  std::vector<int64_t> cut;
  if (o.nthresholds < 0) {
    cut = detect_regime_thresholds(obs, o.noise_rel);
    s.thresholds_detected = 1;
  } else {
    cut.assign(o.thresholds, o.thresholds + o.nthresholds);
    if (cut.size() == 2 && !(cut[0] < cut[1]))
      throw ArgError("thresholds must ascend, got " + std::to_string(cut[0]) + " and " + std::to_string(cut[1]));
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
    if (part_sizes[static_cast<size_t>(g)].size() < 2)
      throw ArgError("regime " + std::to_string(g) + " has " + std::to_string(part_sizes[static_cast<size_t>(g)].size()) +
                     " message size(s): a fit needs at least 2 (thresholds " +
                     (cut.empty() ? std::string("none") : std::to_string(cut.front()) + (cut.size() > 1 ? ", " + std::to_string(cut.back()) : "")) + ")");
  s.nregimes = nregimes;
  s.nthresholds = nregimes - 1;
  for (size_t g = 0; g < cut.size(); ++g) s.thresholds[g] = cut[g];
  for (int g = 0; g < nregimes; ++g) {
    s.regime_first[g] = *part_sizes[static_cast<size_t>(g)].begin();
    s.regime_last[g] = *part_sizes[static_cast<size_t>(g)].rbegin();
  }
  r.rel_err.assign(LAT_NMODELS, std::vector<double>(obs.size(), 0.0));
  r.models.resize(static_cast<size_t>(nregimes * LAT_NMODELS));
  for (int g = 0; g < nregimes; ++g) {
    const std::vector<lat_maxrate_obs> &p = part[static_cast<size_t>(g)];
    const int64_t kmax = kmax_of(p);
    std::vector<lat_maxrate_obs> one, most;
    for (const lat_maxrate_obs &x : p) {
      if (x.k == 1) one.push_back(x);
      if (x.k == kmax) most.push_back(x);
    }
    for (int m = 0; m < LAT_NMODELS; ++m) {
      RateModel fit;
      int64_t nfit = static_cast<int64_t>(p.size());
      switch (m) {
        case LAT_MODEL_POSTAL_1PAIR: fit = fit_postal(one), nfit = static_cast<int64_t>(one.size()); break;
        case LAT_MODEL_POSTAL_KPAIRS: fit = fit_postal(most), nfit = static_cast<int64_t>(most.size()); break;
        case LAT_MODEL_POSTAL_ALL: fit = fit_postal(p); break;
        case LAT_MODEL_MAXRATE: fit = fit_maxrate3(p); break;
        default: fit = fit_maxrate4(p); break;
      }
      lat_model_fit &f = r.models[static_cast<size_t>(g * LAT_NMODELS + m)];
      f.model = m;
      f.regime = g;
      f.npoints = static_cast<int64_t>(p.size());
      f.nfit = nfit;
      const double nan = std::numeric_limits<double>::quiet_NaN();
      if (!fit.ok) {  // e.g. no k = 1 point in this regime: the variant cannot be fitted
        f.alpha_us = f.rc_mbs = f.rci_mbs = f.rn_mbs = f.k_star = f.rel_err_sum = f.rel_err_sq = f.rel_err_max = nan;
        continue;
      }
      f.alpha_us = fit.alpha;
      f.rc_mbs = fit.rc;
      f.rci_mbs = fit.rci;
      f.rn_mbs = fit.rn;
      f.k_star = k_star_of(fit, m);
      for (size_t i = 0; i < obs.size(); ++i) {
        if (regime_of(obs[i].bytes) != g) continue;
        const double e = (model_time(fit, m, obs[i].k, obs[i].bytes) - obs[i].time_us) / obs[i].time_us;
        r.rel_err[static_cast<size_t>(m)][i] = e;
        f.rel_err_sum += std::fabs(e);
        f.rel_err_sq += e * e;
        f.rel_err_max = std::max(f.rel_err_max, std::fabs(e));
      }
    }
  }
  return r;
}

}  // namespace lat
