#include "common/disturbance.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "common/communicator.hpp"
#include "mpilat.h"

namespace lat {

namespace {
double wall_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

double runqueue_wait_s() {
  // "time on the cpu (ns) time waiting on a run queue (ns) timeslices": the second field.
  std::FILE *f = std::fopen("/proc/thread-self/schedstat", "r");
  if (f == nullptr) return -1.0;
  unsigned long long on_cpu = 0, waiting = 0;
  const int got = std::fscanf(f, "%llu %llu", &on_cpu, &waiting);
  std::fclose(f);
  return got == 2 ? static_cast<double>(waiting) * 1e-9 : -1.0;
}

RunQueueMeter::RunQueueMeter() : wait0_s_(runqueue_wait_s()), wall0_s_(wall_s()) {}

double RunQueueMeter::waited_s() const {
  const double wait = runqueue_wait_s();
  return wait0_s_ < 0.0 || wait < 0.0 ? -1.0 : std::max(0.0, wait - wait0_s_);
}

double RunQueueMeter::share() const {
  const double waited = waited_s(), wall = wall_s() - wall0_s_;
  return waited < 0.0 || !(wall > 0.0) ? -1.0 : std::min(1.0, waited / wall);
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
