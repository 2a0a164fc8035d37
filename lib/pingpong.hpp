// pingpong.hpp: ping-pong statistics between two ranks (Luecke et al. 2009, sections 3.2-3.4).
#pragma once

#include <mpi.h>

#include <string>

#include "mpilat.h"
#include "stats.hpp"

namespace lat {

struct PingPong {
  lat_pingpong_result result{};
  Distribution dist;  // ping-pong times divided by two, microseconds
  int code = LAT_SUCCESS;  // LAT_ERR_TIMEOUT on the source rank when the watchdog ended the trials
  std::string message;     // why, when code is not LAT_SUCCESS
};

/// lat_pingpong_stats(): collective over user_comm. calibration: the source's, or nullptr to calibrate
/// on source with opts.nr pairs. dist is filled on ranks where want_dist is true.
PingPong pingpong_stats(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                        bool want_dist);

/// This rank's complaint about opts on a communicator of size ranks ("" if none).
std::string check_pingpong_options(const lat_pingpong_options &opts, const lat_timer_result *calibration,
                                   int rank, int size);

}  // namespace lat
