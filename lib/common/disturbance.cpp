#include "common/disturbance.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/communicator.hpp"
#include "mpilat.h"

namespace lat {


SchedTimes sched_times() {
  // "time on the cpu (ns) time waiting on a run queue (ns) timeslices".
  std::FILE *f = std::fopen("/proc/thread-self/schedstat", "r");
  if (f == nullptr) return {};
  unsigned long long on_cpu = 0, waiting = 0;
  const int got = std::fscanf(f, "%llu %llu", &on_cpu, &waiting);
  std::fclose(f);
  if (got != 2) return {};
  return {static_cast<double>(on_cpu) * 1e-9, static_cast<double>(waiting) * 1e-9};
}

RunQueueMeter::RunQueueMeter() : start_(sched_times()) {}

void RunQueueMeter::restart() { start_ = sched_times(); }

double RunQueueMeter::waited_s() const {
  const SchedTimes now = sched_times();
  return start_.waiting_s < 0.0 || now.waiting_s < 0.0 ? -1.0 : std::max(0.0, now.waiting_s - start_.waiting_s);
}

double RunQueueMeter::share() const {
  const SchedTimes now = sched_times();
  if (start_.waiting_s < 0.0 || now.waiting_s < 0.0) return -1.0;
  const double waited = std::max(0.0, now.waiting_s - start_.waiting_s);
  const double runnable = waited + std::max(0.0, now.on_cpu_s - start_.on_cpu_s);
  return runnable > 0.0 ? std::min(1.0, waited / runnable) : 0.0;
}

Disturbance gather_disturbance(MPI_Comm members, int leader, int lib_rank, const RunQueueMeter &meter,
                               const Waiting &w, FailureListener *listener) {
  int me = 0, n = 0;
  check_mpi(MPI_Comm_rank(members, &me), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(members, &n), "MPI_Comm_size");
  const double mine[3] = {meter.share(), static_cast<double>(lib_rank), meter.waited_s()};
  std::vector<double> all(me == leader ? 3 * static_cast<size_t>(n) : 0);
  MPI_Request req;
  check_mpi(MPI_Igather(mine, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, leader, members, &req), "MPI_Igather (disturbance)");
  wait_spinning(req, w, listener);
  // The most disturbed rank: a disturbed one before any other, then the largest share.
  Disturbance d;
  for (size_t k = 0; k < all.size(); k += 3) {
    const bool worse = is_disturbed(all[k], all[k + 2]) != d.disturbed() ? is_disturbed(all[k], all[k + 2])
                                                                          : all[k] > d.runqueue_share_max;
    if (worse) d.runqueue_share_max = all[k], d.rank = static_cast<int>(all[k + 1]), d.waited_s = all[k + 2];
  }
  return d;
}

}  // namespace lat
