// calibrate.hpp: timer resolution and minimum overhead (Luecke et al. 2009, section 3.1).
#pragma once

#include <mpi.h>

#include "mpilat.h"
#include "stats.hpp"

namespace lat {

struct Calibration {
  lat_timer_result result{};
  Distribution dist;  // the differences in microseconds
  bool interrupted = false;
};

/// nr back-to-back pairs of reads of the clock on this rank; no MPI communication.
Calibration calibrate_here(int timer, int64_t nr, int rank, bool progress);

/// lat_calibrate_timer(): collective over user_comm; dist is filled where want_dist is true.
Calibration calibrate_timer(MPI_Comm user_comm, const lat_timer_options &opts, bool want_dist);

}  // namespace lat
