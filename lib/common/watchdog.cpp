#include "common/watchdog.hpp"

#include <string>

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace lat {

StallWatch::StallWatch(double timeout_s, int rank, int peer, const char *phase)
    : timeout_s_(timeout_s), rank_(rank), peer_(peer), phase_(phase) {
  if (timeout_s_ <= 0.0) return;
  // Asked here, on the calling thread: under MPI_THREAD_FUNNELED only it may call MPI.
  int level = MPI_THREAD_SINGLE;
  may_abort_ = MPI_Query_thread(&level) == MPI_SUCCESS && level == MPI_THREAD_MULTIPLE;
  thread_ = std::thread([this] { watch(); });
}

StallWatch::~StallWatch() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> hold(lock_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void StallWatch::watch() {
  using clock = std::chrono::steady_clock;
  // Looks four times per timeout: a stall is reported between 1 and 1.25 timeouts after it began.
  const auto step = std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(timeout_s_ / 4));
  int64_t seen = -1;
  clock::time_point since = clock::now();
  std::unique_lock<std::mutex> hold(lock_);
  while (!wake_.wait_for(hold, step, [this] { return done_; })) {
    const int64_t now_state = state_.load(std::memory_order_relaxed);
    if (now_state != seen) {
      seen = now_state;
      since = clock::now();
      continue;
    }
    const double waited = std::chrono::duration<double>(clock::now() - since).count();
    if (seen % 2 == 1 && waited >= timeout_s_) fire((seen - 1) / 2, waited);
  }
}

void StallWatch::fire(int64_t trial, double waited_s) {
  const int peer = peer_.load();
  const std::string from = peer >= 0 ? "rank " + std::to_string(peer) : std::string("the other ranks of the collective call");
  std::fprintf(stderr,
               "mpilat: rank %d: timeout: no answer from %s within %.3g s (%s: inside the timed loop of "
               "trial %lld). A blocking MPI call cannot be interrupted, so the job is ended.\n",
               rank_, from.c_str(), waited_s, phase_.c_str(), static_cast<long long>(trial));
  std::fflush(stderr);
  // A moment for the launcher to forward the message before the job is torn down.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  if (may_abort_) MPI_Abort(MPI_COMM_WORLD, 124);
  std::_Exit(124);
}

}  // namespace lat
