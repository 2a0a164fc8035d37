// options.hpp: the options of the nodecomm measurement (lat_nodecomm_options) and of the max-rate fit
// (lat_fit_options): defaults, checks and the values every rank must share, the one place each is written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"

namespace lat {

constexpr int64_t kMaxSizeLast = int64_t{1} << 30;  // nodecomm's largest message
/// How long one measurement of k pairs lasts (n_avg ping-pongs, one at least): far above the clock's error and
/// the pairs' start skew after their barrier (a few us), short enough that a large message is timed once.
constexpr double kNodecommSampleS = 0.5e-3;
/// The max-rate fit's bounds (docs/hostile-input.md), which bound its time and memory: the regimes' segmented
/// regression takes time with the square of the sizes, the models' fits with the observations (about 2 KB of
/// memory each). Pair counts k: 8 nodes' worth of 128 cores; sizes: 16 times the sweep's 256; observations:
/// 256 sizes of 256 pairs. A nodecomm table read back, and a nodecomm run before it measures, stay within them.
constexpr int64_t kMaxTablePairs = 1024;
constexpr int64_t kMaxFitSizes = 4096;
constexpr int64_t kMaxFitObservations = 65536;
/// The most sizes nodecomm's size sweep chooses.
constexpr int64_t kNodecommMaxSizes = 256;
/// The fit's bounds for obs (nobs of them): "" or what exceeds them.
std::string fit_bounds_complaint(int64_t nobs, int64_t nsizes, int64_t kmax);

/// lat_nodecomm_defaults(): sizes to 1 MiB refined by the sweep engine, 5 measurements per (k, n).
lat_nodecomm_options nodecomm_defaults();

/// "" or what is wrong with the options and the size list (nsizes == 0: the grid of opts).
std::string check_nodecomm_options(const lat_nodecomm_options &opts, int64_t nsizes, const int64_t *sizes);

/// The values that must be equal on every rank (all but progress) and the size list.
std::vector<Shared> nodecomm_shared_values(const lat_nodecomm_options &opts, int64_t nsizes, const int64_t *sizes);

/// lat_fit_defaults(): thresholds detected from every k's curve by segmented regression, noise floor 0.2 %.
lat_fit_options fit_defaults();

/// "" or what is wrong with the fit's options.
std::string check_fit_options(const lat_fit_options &opts);

}  // namespace lat
