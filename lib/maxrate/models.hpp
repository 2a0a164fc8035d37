// models.hpp: each rate model fitted on one regime's observations, by least squares of the relative error
// (T_model - T) / T (docs/method.md, "Max-rate fit"):
//   postal           T = alpha + n / RC                                  exact (a linear least squares)
//   max-rate         T = alpha + k n / min(RN, k RC)                     exact (finitely many linear pieces)
//   four-parameter   T = alpha + k n / min(RN, RCb + (k - 1) RCi)        certified: branch and bound over
//                                                                        RC(K) / RC(k0), exact inside
//   modified (5)     T = max(alpha + n / RC, k n / RN)                   exact for each RC / RN, searched over it
// The fits work on sums per pair count (PairGroup), so one evaluation costs O(K), not O(observations).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "mpilat.h"

namespace lat {

/// One fitted model: times in us, rates in bytes/us = MB/s; rn = +inf where the network never limits.
struct RateModel {
  double alpha = 0.0, rc = 0.0, rn = 0.0, rci = 0.0;
  double rn_min = std::numeric_limits<double>::quiet_NaN();  // with LAT_BOUND_RN: the smallest RN the data allow
  double rc_bound = 0.0, alpha_bound = 0.0;   // with LAT_BOUND_RC / LAT_BOUND_ALPHA: what is reported instead
                                             // of rc / alpha (which stay the fitted values, for predictions)
  double sse = 0.0;      // sum of squared relative errors over the points fitted
  double gap = 0.0;      // the certificate (lat_model_fit.sse_gap)
  int bounded = 0;       // lat_fit_bound bits
  bool certified = true;
  bool ok = false;
};

/// The observations of one pair count k, summed as the relative least squares needs them.
struct PairGroup {
  int64_t k = 0;
  double count = 0.0;                              // observations
  double s0 = 0.0, s1 = 0.0, s2 = 0.0;             // sum 1/T^2, n/T^2, n^2/T^2
  double t0 = 0.0, t1 = 0.0;                       // sum 1/T, n/T
  double min_t_per_byte = 0.0;                     // min T/n over n > 0 (infinity if none)
  bool has_slope() const { return s2 > 0.0; }      // holds a size n > 0: its time depends on a rate
};

/// The groups of obs, ascending in k.
std::vector<PairGroup> pair_groups(const std::vector<lat_maxrate_obs> &obs);

/// The core of the max-rate fits, exact: T = alpha + n max(k bN, bC h_k) over alpha >= 0, bC >= 0, bN >= 0
/// (bN = 0: no network limit), for given per-group factors h (h = 1: the max-rate model; h_k = k / RC(k)
/// relative to RC(k0): the four-parameter one). The global optimum: every linear piece (which groups the
/// network limits, alpha free or 0) is solved and only solutions consistent with their piece are kept.
struct Sloped {
  double alpha = 0.0, bc = 0.0, bn = 0.0, sse = 0.0;
  int core_groups = 0, network_groups = 0;  // groups with sizes the cores (bC h_k >= k bN) or the network limit
  int strictly_core = 0;                     // core-bound and not on the edge: these fix bC
  bool ok = false;
};
Sloped fit_sloped(const std::vector<PairGroup> &groups, const std::vector<double> &h, bool network);
/// The same on observations, h indexed by k (for tests).
Sloped fit_sloped(const std::vector<lat_maxrate_obs> &obs, const std::vector<double> &h_of_k, bool network);

/// The postal model T = alpha + n / RC.
RateModel fit_postal(const std::vector<PairGroup> &groups);
/// The max-rate model, global optimum.
RateModel fit_maxrate3(const std::vector<PairGroup> &groups);
/// The four-parameter model: branch and bound over the ratio of the aggregate core rates at the most and
/// the fewest pairs, each evaluation exact; gap and certified as lat_model_fit.sse_gap and .certified.
/// evaluations (optional) receives how many inner fits it took.
RateModel fit_maxrate4(const std::vector<PairGroup> &groups, int64_t *evaluations = nullptr);
/// The paper's modified model (5), T = max(alpha + n / RC, k n / RN): for each RC / RN the exact optimum
/// (a sweep over where each observation changes face), searched over RC / RN; not certified.
RateModel fit_maxpostal(const std::vector<lat_maxrate_obs> &obs);

/// k*: from this many pairs on the network limits. RN / RC for the max-rate and modified models;
/// 1 + (RN - RCb) / RCi for the four-parameter one (1 where the aggregate does not grow and RN <= RCb);
/// infinity where RN is infinite and for the postal models.
double k_star_of(const RateModel &m, int kind);

/// The model's time for one observation.
double model_time(const RateModel &m, int kind, int64_t k, int64_t n);

}  // namespace lat
