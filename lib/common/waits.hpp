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

/// A barrier that yields: MPI_Ibarrier then wait_yielding.
void barrier_yielding(MPI_Comm comm, const Waiting &w);

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
