// fit.hpp: lat_fit_maxrate: the regimes (short, eager, rendezvous) of a (k, n, T) table, and in each the
// models of Gropp, Olson and Samfass (2016) (maxrate/models.hpp). A pure function: no MPI.
#pragma once

#include <cstdint>
#include <vector>

#include "maxrate/models.hpp"
#include "mpilat.h"

namespace lat {

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
