// compare.hpp: is a difference real? Two groups of results compared with the launch as the unit (a
// bootstrap over launches), or, with fewer than three launches, over the trials with distribution-free
// order-statistic intervals (docs/method.md, "Comparing results"). No MPI.
#pragma once

#include <string>
#include <vector>

#include "common/stats.hpp"
#include "mpilat.h"

namespace lat {

/// lat_compare_defaults(): 95 %, 10,000 resamples, seed 1.
lat_compare_options compare_defaults();

/// "" or what is wrong with opts.
std::string check_compare_options(const lat_compare_options &opts);

/// lat_compare_launches(): each group's value the median of its launches, the interval of B/A the
/// percentile bootstrap over launches. Throws ArgError for fewer than 3 launches or a value <= 0.
lat_compare_result compare_launches(const std::vector<double> &a, const std::vector<double> &b,
                                    const lat_compare_options &opts);

/// lat_compare_distributions(): the q-quantiles (nearest rank) of two tables, the interval of B/A from each
/// quantile's order-statistic interval at 1 - (1 - confidence)/2. Throws ArgError for an empty table or a
/// value <= 0.
lat_compare_result compare_tables(const Distribution &a, const Distribution &b, double q, const lat_compare_options &opts);

/// The q-quantile of a table by the nearest rank, and its order-statistic interval at `confidence` (an end
/// the table cannot give is -inf or inf).
struct QuantileInterval {
  double value = 0.0, low = 0.0, high = 0.0;
};
QuantileInterval quantile_interval(const Distribution &d, double q, double confidence);

}  // namespace lat
