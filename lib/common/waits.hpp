// waits.hpp: the waits of ranks that are not measuring: they poll a non-blocking call with a short sleep,
// so that on an oversubscribed node they give their core to the measuring ranks, and they give up after the
// caller's timeout with a message naming the ranks waited for and the phase.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "common/stats.hpp"

namespace lat {

/**
 * What a rank waits for, and what the watchdog says when it waits too long: "rank 0: timeout: no
 * answer from rank 1 within 2 s (phase 'trials': the hand-shake before a trial)".
 */
struct Waiting {
  int rank = 0;               // the waiting rank, in the library's communicator
  const char *peers = "";     // "rank 1", "ranks 0..7"
  const char *phase = "";     // "phase 'trials': the hand-shake before a trial"
  double timeout_s = 0.0;     // 0: no limit
};

class FailureListener;

/// Waits for req by MPI_Test and a short sleep, so a waiting rank gives its core to the measuring ones.
/// TimeoutError after w.timeout_s; throws a failure reported to listener (may be null).
void wait_yielding(MPI_Request &req, const Waiting &w, FailureListener *listener = nullptr);

/// Waits for req by MPI_Test alone, for the measuring ranks between timed loops; TimeoutError as above.
void wait_spinning(MPI_Request &req, const Waiting &w, FailureListener *listener = nullptr);

/// Waits for req yielding (wait_yielding) or spinning (wait_spinning): for the ranks whose way of waiting is
/// chosen at run time (more ranks than processors: yield).
inline void wait_as(bool yield, MPI_Request &req, const Waiting &w, FailureListener *listener = nullptr) {
  if (yield) wait_yielding(req, w, listener);
  else wait_spinning(req, w, listener);
}

/// Completes n requests by MPI_Testall and sched_yield(): for timed regions on an oversubscribed machine,
/// where a blocking call would spin through its time slice while the partner waits for the processor (the
/// time would be the scheduler's, milliseconds). Returns MPI's code; no watchdog (use StallWatch).
int complete_yielding(MPI_Request *reqs, int n);

/// A barrier that yields: MPI_Ibarrier then wait_yielding. Never the last wait before a clock is read:
/// a rank may still be asleep when it completes (barrier_before_timing).
void barrier_yielding(MPI_Comm comm, const Waiting &w);

/// The barrier before a timed region, the one way the ranks of a timed loop meet. A wait that may sleep
/// never ends inside a timed region: where waiting ranks yield (more ranks than processors), the ranks meet
/// first in barrier_yielding (the long wait, asleep), then in a barrier polled without sleeping (MPI_Test,
/// and sched_yield between tests), so that every rank is awake before any rank leaves it and reads its
/// clock. A rank asleep as the first barrier completed would otherwise wake up to 0.5 ms later, inside its
/// partner's timed loop (nodecomm's k pairs measured 10-20x too slow on 16 cores, issue 31). Where each
/// rank has a processor: one barrier, spinning.
void barrier_before_timing(MPI_Comm comm, bool yield, const Waiting &w, FailureListener *listener = nullptr);

/// Test hook of barrier_before_timing (tests/core/test_waits_mpi.cpp): the rank of MPI_COMM_WORLD that
/// pauses before each such barrier, and for how long; -1: none. Never set outside the tests.
struct TimingBarrierHold {
  int world_rank = -1;
  double seconds = 0.0;
};
extern TimingBarrierHold g_timing_barrier_hold;

/// Test hook of barrier_before_timing: where set, every rank notes when it last woke from a nap of a
/// sleeping wait, and at each barrier_before_timing, that time and when it left the barrier (seconds of
/// steady_clock, one clock for the processes of a host) with the size of the barrier's communicator. The
/// claim it tests: no rank wakes from a nap after a rank has left the barrier and started its timed region.
struct TimingBarrierTrace {
  struct Meeting {
    int comm_size;
    double last_wake_s;  // -1: no nap since the previous barrier_before_timing
    double left_s;
  };
  double last_wake_s = -1.0;
  std::vector<Meeting> meetings;
};
extern TimingBarrierTrace *g_timing_barrier_trace;

/// MPI_Ibcast then wait_yielding.
void bcast_yielding(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const Waiting &w,
                    FailureListener *listener = nullptr);

/// Sends root's bytes (any length) to every rank of comm; bytes is resized where it is not root.
void share_bytes_from_root(std::vector<char> &bytes, int root, MPI_Comm comm, const Waiting &w,
                           FailureListener *listener = nullptr);

/// Sends root's result (a plain struct of `bytes` bytes) to every rank, and root's distribution to every
/// rank if any rank wants it; dist is left empty where want_dist is false. Collective, yielding waits
/// limited by w; listener (may be null) lets a waiting rank learn that a measuring rank failed.
/// extra (may be null, the same on every rank): more of root's doubles, shared with the distribution.
void share_from_root(void *result, size_t bytes, Distribution &dist, bool want_dist, int root, MPI_Comm comm,
                     const Waiting &w, FailureListener *listener = nullptr, std::vector<double> *extra = nullptr);

}  // namespace lat
