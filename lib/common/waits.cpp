#include "common/waits.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "common/communicator.hpp"
#include "common/error.hpp"
#include "common/failure_notes.hpp"

namespace lat {

namespace {
// How long a waiting rank sleeps between tests. 0.5 ms costs a waiting rank well under 1 % of a core
// and delays the end of a wait by at most that much; barrier_before_timing keeps that delay out of every
// timed region.
constexpr long kPollSleepNs = 500 * 1000;

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// What a rank does between two tests of its request.
enum class Pause { kSpin, kYield, kSleep };

[[noreturn]] void throw_timeout(const Waiting &w, double waited_s) {
  char text[512];
  std::snprintf(text, sizeof text, "rank %d: timeout: no answer from %s within %g s (%s)", w.rank, w.peers,
                waited_s, w.phase);
  throw TimeoutError(text);
}

/// MPI_Test until done; between tests, the pause, the listener, and every 1024 tests the deadline (after
/// every test where the rank sleeps).
void wait_polling(MPI_Request &req, const Waiting &w, FailureListener *listener, Pause pause) {
  const timespec nap{0, kPollSleepNs};
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t tests = 1;; ++tests) {
    int done = 0;
    if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      throw MpiError(std::string("MPI_Test failed on rank ") + std::to_string(w.rank) + " (" + w.phase + ")");
    if (done) return;
    if (listener != nullptr) listener->check();
    if (pause == Pause::kSleep) {
      nanosleep(&nap, nullptr);
      if (g_timing_barrier_trace != nullptr) g_timing_barrier_trace->last_wake_s = steady_seconds();
    }
    else if (pause == Pause::kYield) sched_yield();
    if (w.timeout_s > 0.0 && (pause == Pause::kSleep || tests % 1024 == 0)) {
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (waited > w.timeout_s) throw_timeout(w, waited);
    }
  }
}

}  // namespace

void wait_yielding(MPI_Request &req, const Waiting &w, FailureListener *listener) {
  wait_polling(req, w, listener, Pause::kSleep);
}

void wait_spinning(MPI_Request &req, const Waiting &w, FailureListener *listener) {
  wait_polling(req, w, listener, Pause::kSpin);
}

int complete_yielding(MPI_Request *reqs, int n) {
  for (;;) {
    int done = 0;
    const int rc = MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS || done) return rc;
    sched_yield();
  }
}

void barrier_yielding(MPI_Comm comm, const Waiting &w) {
  MPI_Request req;
  check_mpi(MPI_Ibarrier(comm, &req), "MPI_Ibarrier");
  wait_yielding(req, w);
}

TimingBarrierHold g_timing_barrier_hold;
TimingBarrierTrace *g_timing_barrier_trace = nullptr;

void barrier_before_timing(MPI_Comm comm, bool yield, const Waiting &w, FailureListener *listener) {
  if (g_timing_barrier_hold.world_rank >= 0) {
    int world_rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    if (world_rank == g_timing_barrier_hold.world_rank)
      std::this_thread::sleep_for(std::chrono::duration<double>(g_timing_barrier_hold.seconds));
  }
  MPI_Request req;
  if (yield) {
    check_mpi(MPI_Ibarrier(comm, &req), "MPI_Ibarrier");
    wait_polling(req, w, listener, Pause::kSleep);
  }
  check_mpi(MPI_Ibarrier(comm, &req), "MPI_Ibarrier");
  wait_polling(req, w, listener, yield ? Pause::kYield : Pause::kSpin);
  if (g_timing_barrier_trace != nullptr) {
    int size = 0;
    MPI_Comm_size(comm, &size);
    g_timing_barrier_trace->meetings.push_back({size, g_timing_barrier_trace->last_wake_s, steady_seconds()});
    g_timing_barrier_trace->last_wake_s = -1.0;
  }
}

void bcast_yielding(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const Waiting &w,
                    FailureListener *listener) {
  MPI_Request req;
  check_mpi(MPI_Ibcast(buf, count, type, root, comm, &req), "MPI_Ibcast");
  wait_yielding(req, w, listener);
}

void share_bytes_from_root(std::vector<char> &bytes, int root, MPI_Comm comm, const Waiting &w,
                           FailureListener *listener) {
  int64_t n = static_cast<int64_t>(bytes.size());
  bcast_yielding(&n, 1, MPI_INT64_T, root, comm, w, listener);
  bytes.resize(static_cast<size_t>(n));
  constexpr int64_t kPiece = int64_t{1} << 30;  // MPI counts are ints
  for (int64_t at = 0; at < n; at += kPiece) {
    const int len = static_cast<int>(std::min(kPiece, n - at));
    bcast_yielding(bytes.data() + at, len, MPI_BYTE, root, comm, w, listener);
  }
}

void share_from_root(void *result, size_t bytes, Distribution &dist, bool want_dist, int root, MPI_Comm comm,
                     const Waiting &w, FailureListener *listener, std::vector<double> *extra) {
  int any_wants = want_dist ? 1 : 0;
  MPI_Request req;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &any_wants, 1, MPI_INT, MPI_MAX, comm, &req), "MPI_Iallreduce");
  wait_yielding(req, w, listener);
  bcast_yielding(result, static_cast<int>(bytes), MPI_BYTE, root, comm, w, listener);
  if (any_wants) {
    int64_t n = static_cast<int64_t>(dist.values.size());
    bcast_yielding(&n, 1, MPI_INT64_T, root, comm, w, listener);
    dist.values.resize(static_cast<size_t>(n));
    dist.counts.resize(static_cast<size_t>(n));
    // Sent in pieces of at most 2^26 entries: MPI counts are ints.
    constexpr int64_t kPiece = int64_t{1} << 26;
    for (int64_t at = 0; at < n; at += kPiece) {
      const int len = static_cast<int>(std::min(kPiece, n - at));
      bcast_yielding(dist.values.data() + at, len, MPI_DOUBLE, root, comm, w, listener);
      bcast_yielding(dist.counts.data() + at, len, MPI_INT64_T, root, comm, w, listener);
    }
    if (extra != nullptr) {  // small (a few thousand values): one piece
      int64_t m = static_cast<int64_t>(extra->size());
      bcast_yielding(&m, 1, MPI_INT64_T, root, comm, w, listener);
      extra->resize(static_cast<size_t>(m));
      bcast_yielding(extra->data(), static_cast<int>(m), MPI_DOUBLE, root, comm, w, listener);
    }
  }
  if (!want_dist) dist = Distribution{};
}


}  // namespace lat
