// pingpong.hpp: ping-pong statistics between two ranks (Luecke et al. 2009, sections 3.2-3.4).
#pragma once

#include <mpi.h>

#include <exception>
#include <string>
#include <vector>

#include "mpilat.h"
#include "common/stats.hpp"
#include "common/run_levels.hpp"

namespace lat {

struct PingPong {
  lat_pingpong_result result{};
  Distribution dist;  // ping-pong times divided by two, microseconds
  std::vector<TrialChunk> chunks;  // the run over time (where dist is)
  // On the source rank, when the watchdog ended the trials: the TimeoutError, thrown by the C shim after
  // it has handed out what was measured.
  std::exception_ptr failure;
};

/// lat_pingpong_stats(): collective over user_comm. calibration: the source's, or nullptr to calibrate
/// on source with opts.nr pairs. dist is filled on ranks where want_dist is true.
PingPong pingpong_stats(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                        bool want_dist);

/// lat_npp_study(): the result's Part 2 and calibration fields, and a row per value.
struct NppStudy {
  lat_pingpong_result result{};
  std::vector<lat_npp_study_row> rows;
};

/// lat_npp_study(): collective over user_comm.
NppStudy npp_study(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                   const int64_t *values, int nvalues, bool by_res_npp);

}  // namespace lat
