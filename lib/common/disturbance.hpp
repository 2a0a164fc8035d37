// disturbance.hpp: whether the machine took the processors from the measuring ranks. Every measurement but the
// ping-pong's (which has its run over time) measures it around its body: the share of each measuring rank's
// wall clock that its thread spent runnable but waiting for a processor (Linux's schedstat), the largest of
// them reported with its rank, a warning at LAT_DISTURBED_SHARE (docs/method.md, "A disturbed run").
#pragma once

#include <mpi.h>

#include "common/waits.hpp"
#include "mpilat.h"

namespace lat {

/// The thread's time on a processor and on a run queue so far (seconds), from /proc/thread-self/schedstat;
/// negative where the kernel does not say (no such file: no CONFIG_SCHED_INFO, or not Linux).
struct SchedTimes {
  double on_cpu_s = -1.0, waiting_s = -1.0;
};
SchedTimes sched_times();

/// A body's run-queue share on this thread between construction and share(): of the time it wanted a
/// processor (on one, or waiting on a run queue), the part it waited. A rank that sleeps in its waits (a
/// yielding nodecomm) is judged on the time it was runnable: beside two busy loops its share of the wall
/// clock read 3.6 %, of its runnable time far more.
class RunQueueMeter {
 public:
  RunQueueMeter();
  /// Counts from now on (what came before was not the measurement's).
  void restart();
  /// The share so far, in 0..1; negative where the kernel does not say.
  double share() const;
  /// The seconds waited so far; negative where the kernel does not say.
  double waited_s() const;

 private:
  SchedTimes start_;
};

/// Whether a rank that waited `waited_s` for a processor, `share` of its measurement, disturbed it.
inline bool is_disturbed(double share, double waited_s) {
  return share >= LAT_DISTURBED_SHARE && waited_s >= LAT_DISTURBED_MIN_WAIT_S;
}

/// The most disturbed measuring rank: its share of wall clock waiting for a processor (negative: not known on
/// any rank), its rank in the library's communicator (-1: not known) and the seconds it waited.
struct Disturbance {
  double runqueue_share_max = -1.0;
  int rank = -1;
  double waited_s = -1.0;
  bool disturbed() const { return is_disturbed(runqueue_share_max, waited_s); }
};

/// A result summary's runqueue_share_max and runqueue_rank from d.
template <class Summary>
void set_disturbance(Summary &s, const Disturbance &d) {
  s.runqueue_share_max = d.runqueue_share_max;
  s.runqueue_rank = d.rank;
  s.runqueue_wait_s = d.waited_s;
}

/// Collective over the measuring ranks' communicator: every member's share (and its rank in the library's
/// communicator) to the member of index `leader`, which returns the largest; the others return {}. Waits
/// spinning within w's timeout; a failure told to listener ends the wait.
Disturbance gather_disturbance(MPI_Comm members, int leader, int lib_rank, const RunQueueMeter &meter,
                               const Waiting &w, FailureListener *listener);

}  // namespace lat
