// watchdog.hpp: the watchdog's last resort for the timed loops, which must stay blocking MPI_Send/
// MPI_Recv (polling would change what is measured) and so cannot time out by themselves.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace lat {

/**
 * A thread that watches a counter the measuring loop advances before and after each timed loop. If a
 * timed loop has not ended timeout_s after it began, the peer will not answer and no MPI call can be
 * interrupted: the thread prints who waited for whom, in which phase and trial, and ends the job
 * (MPI_Abort where MPI allows calls from any thread, otherwise _Exit(124), which the launcher turns
 * into the end of the job). With timeout_s == 0 no thread is started and enter/leave cost one store.
 */
class StallWatch {
 public:
  StallWatch(double timeout_s, int rank, int peer, const char *phase);
  ~StallWatch();
  StallWatch(const StallWatch &) = delete;
  StallWatch &operator=(const StallWatch &) = delete;

  /// Before t1 of trial `trial` (counted from 0) and after t2: outside the timed region.
  void enter(int64_t trial) noexcept { state_.store(2 * trial + 1, std::memory_order_relaxed); }
  void leave(int64_t trial) noexcept { state_.store(2 * trial + 2, std::memory_order_relaxed); }
  /// The rank waited for from now on (measurements that change partners); -1: every other rank (a collective).
  void set_peer(int peer) noexcept { peer_.store(peer, std::memory_order_relaxed); }

 private:
  void watch();
  [[noreturn]] void fire(int64_t trial, double waited_s);

  double timeout_s_;
  int rank_;
  std::atomic<int> peer_;
  bool may_abort_ = false;
  std::string phase_;
  std::atomic<int64_t> state_{0};  // odd: inside the timed loop of trial (state - 1) / 2
  std::mutex lock_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace lat
