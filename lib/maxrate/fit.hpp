// fit.hpp: the max-rate model of Gropp, Olson and Samfass (2016), T = alpha + k n / min(RN, k RC),
// its four-parameter refinement T = alpha + k n / min(RN, RCb + (k-1) RCi) and the postal model
// T = alpha + n / RC, fitted per regime (short, eager, rendezvous) by least squares of the relative error,
// to the global optimum. A pure function of (k, n, T) observations: no MPI.
#pragma once

#include <cstdint>
#include <vector>

#include "mpilat.h"

namespace lat {

/// One fitted model: times in us, rates in bytes/us = MB/s; rn = +inf where the network never limits.
struct RateModel {
  double alpha = 0.0, rc = 0.0, rn = 0.0, rci = 0.0;
  double sse = 0.0;  // sum of squared relative errors over the points fitted
  bool ok = false;
};

/// The core of every fit, exact: T = alpha + n * max(k * bN, bC * h[k]) over alpha >= 0, bC >= 0,
/// bN >= 0 (bN = 0: no network limit), least squares of the relative error, for given per-k factors h
/// (h[k] = 1: the three-parameter model; h[k] = k / (1 + (k-1) rho): the four-parameter one at rho).
/// The optimum is global: see docs/method.md ("Max-rate fit").
struct Sloped {
  double alpha = 0.0, bc = 0.0, bn = 0.0, sse = 0.0;
  bool ok = false;
};
Sloped fit_sloped(const std::vector<lat_maxrate_obs> &obs, const std::vector<double> &h, bool network);

/// The three-parameter max-rate model (global optimum by enumeration).
RateModel fit_maxrate3(const std::vector<lat_maxrate_obs> &obs);

/// The four-parameter model: the exact inner fit over a search of rho = RCi / RCb (a dense grid over its
/// whole admissible range, refined around the best points; rho = 1 included, so never worse than fit_maxrate3).
RateModel fit_maxrate4(const std::vector<lat_maxrate_obs> &obs);

/// The postal model T = alpha + n / RC on obs.
RateModel fit_postal(const std::vector<lat_maxrate_obs> &obs);

/// k*: from this many pairs on the network limits. RN / RC for the three-parameter model; for the
/// four-parameter one the k where RCb + (k - 1) RCi reaches RN, 1 + (RN - RCb) / RCi (1 where the aggregate
/// does not grow and RN <= RCb); infinity where RN is infinite and for the postal models.
double k_star_of(const RateModel &m, int kind);

/// The model's time for one observation.
double model_time(const RateModel &m, int kind, int64_t k, int64_t n);

/// Thresholds of the regimes from the one-pair curve (the smallest time of k = 1 at each size), by
/// segmented regression (maxrate/regimes.hpp): up to LAT_MAX_REGIMES - 1, ascending; each is the last size
/// of the lower regime.
std::vector<int64_t> detect_regime_thresholds(const std::vector<lat_maxrate_obs> &obs, double noise_rel);

struct MaxrateFit {
  lat_fit_summary summary{};
  std::vector<lat_model_fit> models;  // regime-major: regime * LAT_NMODELS + model
  std::vector<std::vector<double>> rel_err;  // per model, per observation (input order)
};

/// lat_fit_maxrate().
MaxrateFit fit_maxrate(const lat_fit_options &opts, const std::vector<lat_maxrate_obs> &obs);

}  // namespace lat

struct lat_maxrate_fit_s {
  lat::MaxrateFit r;
};
