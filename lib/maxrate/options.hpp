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
/// The most pair counts (columns of times) a nodecomm table read back may hold: 8 nodes' worth of 128 cores.
constexpr int64_t kMaxTablePairs = 1024;

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
