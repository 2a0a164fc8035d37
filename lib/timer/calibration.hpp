// calibration.hpp: timer resolution and minimum overhead (Luecke et al. 2009, section 3.1).
#pragma once

#include <mpi.h>

#include <string>

#include "mpilat.h"
#include "common/stats.hpp"

namespace lat {

struct Calibration {
  lat_timer_result result{};
  Distribution dist;  // the differences in microseconds
  bool interrupted = false;
};

/// How much longer than the watchdog's timeout a rank may wait while another calibrates nr pairs:
/// 1 us a pair, some 30 times what a pair of reads costs.
inline double calibration_allowance_s(int64_t nr) { return static_cast<double>(nr) * 1e-6; }

/// nr back-to-back pairs of reads of the clock on this rank; no MPI communication.
Calibration calibrate_here(int timer, int64_t nr, int rank, bool progress);

/// The measurement frame's calibration on the leader: the caller's (given, not null), or one made here;
/// interrupted when lat_request_stop() ended it.
Calibration leader_calibration(const lat_timer_result *given, int timer, int64_t nr, int rank, bool progress);

/// How much longer than the timeout a follower's first wait may last: the leader's calibration, when it is
/// made here (given is null).
inline double follower_first_wait_s(const lat_timer_result *given, int64_t nr) {
  return given == nullptr ? calibration_allowance_s(nr) : 0.0;
}

/// lat_calibrate_timer(): collective over user_comm; dist is filled where want_dist is true.
Calibration calibrate_timer(MPI_Comm user_comm, const lat_timer_options &opts, bool want_dist);

}  // namespace lat
