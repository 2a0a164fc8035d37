// clock_sync.hpp: every rank's clock line to rank 0's clock over a communicator, by HCA's tree (Hunold and
// Carpen-Amarie, "Hierarchical clock synchronization in MPI", 2018): in round r the ranks i with
// i mod 2^(r+1) = 2^r fit their line to rank i - 2^r from bursts of timestamped exchanges; then, in the
// rounds' reverse order, each reference sends its own line to rank 0 and its clients compose theirs with it.
// log2(p) rounds each way. The residual after it is measured against rank 0, one rank at a time.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>

#include "collective/clock_model.hpp"

namespace lat {

class FailureListener;
class StallWatch;

struct ClockSyncOptions {
  int fit_points = 10;      // offset points per line
  int burst = 20;           // exchanges per point (the least delayed is kept)
  double spacing_s = 0.01;  // between points: the line's time base is (fit_points - 1) x spacing
};

/// How the ranks that are not exchanging wait. With more ranks than processors the pairs of a round take
/// turns (one pair at a time) and the others sleep between polls; otherwise a round's pairs run at once.
struct SyncWaits {
  bool one_pair_at_a_time = false;
  bool yield = false;
  double timeout_s = 0.0;
  FailureListener *listener = nullptr;
  /// The exchanges are blocking (polling would change what they measure): a watchdog covers each one when
  /// given, with watched its running count (unique per watch, as the watchdog needs).
  StallWatch *watch = nullptr;
  int64_t *watched = nullptr;
};

/// This rank's line to rank 0's clock (rank 0: the identity), and the smallest round trip of its own fit
/// (0 on rank 0). Collective over comm; now() is this rank's clock (a test passes a skewed one).
struct ClockSync {
  ClockLine to_root;
  double rtt_min_s = 0.0;
};
ClockSync synchronise_clocks(MPI_Comm comm, const ClockSyncOptions &o, const std::function<double()> &now,
                             const SyncWaits &w = {});

/// After a synchronisation: rank 0's time minus this rank's time on the synchronised clocks (offset) and the
/// round trip of the least delayed of `burst` exchanges with rank 0 (the offset is known within +-rtt/2);
/// rank 0: zeros. Rank 0 serves one rank at a time, the others wait for their turn. Collective over comm.
OffsetPoint residual_offset(MPI_Comm comm, const ClockSync &sync, int burst, const std::function<double()> &now,
                            const SyncWaits &w = {});

}  // namespace lat
