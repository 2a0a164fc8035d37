// clock_sync.hpp: every rank's clock line to rank 0's clock over a communicator, by HCA's tree (Hunold and
// Carpen-Amarie): in round r the ranks i with i mod 2^(r+1) = 2^r fit their line to rank i - 2^r from
// bursts of timestamped exchanges; then, in the rounds' reverse order, each reference sends its own line to
// rank 0 and its clients compose theirs with it. log2(p) rounds each way. (Issue 25, begun: not yet behind
// the C ABI.)
#pragma once

#include <mpi.h>

#include <functional>

#include "collective/clock_model.hpp"

namespace lat {

struct ClockSyncOptions {
  int fit_points = 10;      // offset points per line
  int burst = 20;           // exchanges per point (the least delayed is kept)
  double spacing_s = 0.01;  // between points: the line's time base is (fit_points - 1) x spacing
};

/// This rank's line to rank 0's clock (rank 0: the identity), and the smallest round trip of its own fit
/// (0 on rank 0). Collective over comm; now() is this rank's clock (a test passes a skewed one).
struct ClockSync {
  ClockLine to_root;
  double rtt_min_s = 0.0;
};
ClockSync synchronise_clocks(MPI_Comm comm, const ClockSyncOptions &o, const std::function<double()> &now);

/// After a synchronisation: rank 0's time minus this rank's time on the synchronised clocks, from the least
/// delayed of `burst` exchanges with rank 0 (rank 0: 0); its error is within +-rtt/2. Collective over comm.
double residual_offset_s(MPI_Comm comm, const ClockSync &sync, int burst, const std::function<double()> &now);

}  // namespace lat
