// regimes.hpp: where a measured latency curve changes regime (short, eager, rendezvous), by segmented
// regression: the curve (or the curves of every k at once) is cut into up to max_breaks + 1 straight pieces, each fitted by least squares of
// the relative error, and the number of pieces is the one the Bayesian information criterion prefers. A
// rise, a drop and a change of slope are all found; a curve that a smooth polynomial describes as well is
// not cut (docs/method.md, "Regimes").
#pragma once

#include <cstdint>
#include <vector>

namespace lat {

/// The criterion's value for the best smooth curve through the points (a polynomial of degree 2 or 3 in
/// the size or in its logarithm, or a power of the size): a cut into regimes is kept only where it beats this.
/// With several columns (the times of k = 1..K pairs at the same sizes), each has its own coefficients of one
/// shape.
double smooth_curve_bic(const std::vector<int64_t> &sizes, const std::vector<std::vector<double>> &columns, double noise_rel);
double smooth_curve_bic(const std::vector<int64_t> &sizes, const std::vector<double> &times, double noise_rel);

/// The breakpoints of the curve (sizes ascending and distinct, times > 0): for each boundary the last size
/// of the lower piece, ascending; at most max_breaks, none when one line fits best. Each piece holds at
/// least three sizes. noise_rel: the relative error below which a piece counts as exact (the criterion's
/// floor), so that noise-free data are not cut further than they need.
std::vector<int64_t> segment_thresholds(const std::vector<int64_t> &sizes, const std::vector<double> &times,
                                        int max_breaks, double noise_rel);

/// The same over several columns (the times of k = 1..K pairs at the same sizes): the cuts shared, a line for
/// each column in each piece, so a boundary is decided by every column's evidence and one column's noise
/// cannot cut alone.
std::vector<int64_t> segment_thresholds(const std::vector<int64_t> &sizes, const std::vector<std::vector<double>> &columns,
                                        int max_breaks, double noise_rel);

}  // namespace lat
