// fit.hpp: lat_fit_maxrate: the regimes (short, eager, rendezvous) of a (k, n, T) table, and in each the
// models of Gropp, Olson and Samfass (2016) (maxrate/models.hpp). A pure function: no MPI.
#pragma once

#include <cstdint>
#include <vector>

#include "maxrate/models.hpp"
#include "mpilat.h"

namespace lat {

/// Thresholds of the regimes from the curves of every k at once (the smallest time of each k at each size
/// measured with every k), by segmented regression with the cuts shared (maxrate/regimes.hpp); from the
/// one-pair curve alone where fewer than 4 sizes have every k. Up to LAT_MAX_REGIMES - 1, ascending; each is
/// the last size of the lower regime.
std::vector<int64_t> detect_regime_thresholds(const std::vector<lat_maxrate_obs> &obs, double noise_rel);

struct MaxrateFit {
  lat_fit_summary summary{};
  std::vector<lat_model_fit> models;  // regime-major: regime * LAT_NMODELS + model
  std::vector<std::vector<double>> rel_err;  // per model, per observation (input order)
};

/// The runs test of the signs of a model's relative errors (rel_err[i] of obs[i]; those within 1e-6 of 0
/// have no sign and are left out), ordered by k within each size and by size within each k: the lower z
/// (0 with fewer than 10 errors, -infinity when all have one sign). Noise gives z near 0; a model that misses
/// a trend in k or in size gives long runs of one sign, z far below 0.
double runs_z(const std::vector<lat_maxrate_obs> &obs, const std::vector<double> &rel_err);

/// Whether the runs test can find a systematic error among n signed errors at all: its most extreme arrangement
/// (two runs of a balanced split) below -LAT_VERDICT_RUNS_Z. False below 16 observations.
bool runs_test_can_reject(int64_t n);

/// The Bayesian information criterion of a least-squares fit of n relative errors: n ln(sse / n) + params ln n
/// (sse / n floored at 1e-12, rounding).
double bic_of(double sse, int64_t n, int params);

/// lat_fit_maxrate().
MaxrateFit fit_maxrate(const lat_fit_options &opts, const std::vector<lat_maxrate_obs> &obs);

}  // namespace lat

struct lat_maxrate_fit_s {
  lat::MaxrateFit r;
};
