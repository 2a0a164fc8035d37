// options.hpp: the timer calibration's options (lat_timer_options): their defaults, their checks and the
// values every rank must share, the one place each is written.
#pragma once

#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"

namespace lat {

/// lat_timer_defaults(): 2^24 pairs (the paper's Part 1), MPI_Wtime, every rank its own clock.
lat_timer_options timer_defaults();

/// "" or what is wrong with opts on a communicator of nprocs ranks, as seen from rank `rank`
/// (the clock must exist where it is read; LAT_ALL_RANKS: on every rank).
std::string check_timer_options(const lat_timer_options &opts, int nprocs, int rank);

/// The values that must be equal on every rank.
std::vector<Shared> timer_shared_values(const lat_timer_options &opts);

/// "" or what is wrong with a calibration passed in (cal), or, when cal is NULL, with the options of the
/// calibration the measurement will make itself (timer, nr pairs).
std::string check_calibration(const lat_timer_result *cal, int timer, int64_t nr);

}  // namespace lat
