// options.hpp: the ping-pong's options (lat_pingpong_options): defaults (the paper's Appendix C), checks
// and the values every rank must share, the one place each is written.
#pragma once

#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"

namespace lat {

/// lat_pingpong_defaults(): Appendix C's values.
lat_pingpong_options pingpong_defaults();

/// "" or what is wrong with opts on a communicator of nprocs ranks, as rank `rank` sees it: the source rank
/// also checks the calibration it will use (the one passed, or with NULL the nr and timer of its own).
std::string check_pingpong_options(const lat_pingpong_options &opts, int nprocs, int rank,
                                   const lat_timer_result *calibration);

/// The values that must be equal on every rank (all but progress).
std::vector<Shared> pingpong_shared_values(const lat_pingpong_options &opts);

/// "" or what is wrong with an npp study's values (count, range, duplicates) and options.
std::string check_study_values(const int64_t *values, int nvalues, bool by_res_npp, const lat_pingpong_options &opts);

}  // namespace lat
