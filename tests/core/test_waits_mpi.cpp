// test_waits_mpi.cpp: no sleeping wait ends inside a timed region (issue 31). The real event: one rank held
// back before the barrier of a timed loop (the test hook lat::g_timing_barrier_hold), so that its partner,
// waiting as ranks on an oversubscribed node wait, is asleep when the barrier completes. Without the spinning
// meeting of barrier_before_timing the sleeper's wake-up lands in the timed loop (0.25 ms on average over the
// loop's round trips; seen here: a 0-byte round trip of ~1 us became 13-17 us). What is asserted: the order
// of the events, on one clock (lat::g_timing_barrier_trace): no rank wakes from a nap after a rank has left
// the barrier; and, where the loop is short enough for the wake-up to stand out of this machine's noise
// (the test's own loop of 20 round trips), the times. Run on 2 ranks (the barrier itself, waits forced to
// yield) and on 4 (nodecomm's k pairs: 4 ranks on 2 cores yield by themselves).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "common/waits.hpp"
#include "maxrate/nodecomm.hpp"

namespace {

constexpr double kHoldS = 2e-3;  // four of the waiting rank's 0.5 ms naps

/// The trace's meetings of every rank (those on communicators of all of MPI_COMM_WORLD: the pairs' and the
/// test's own; a sweep's two ranks meet on a smaller one) agree in number, and at each no rank woke from a
/// nap after a rank had left it. Every rank runs on one host: steady_clock is one clock for them all.
void no_wake_up_after_a_rank_left(const lat::TimingBarrierTrace &trace, const char *what) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<double> mine;  // wake, left, wake, left, ...
  for (const lat::TimingBarrierTrace::Meeting &m : trace.meetings)
    if (m.comm_size == size) mine.push_back(m.last_wake_s), mine.push_back(m.left_s);
  int n = static_cast<int>(mine.size()), n_max = 0, n_min = 0;
  MPI_Allreduce(&n, &n_max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&n, &n_min, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  assert_int_equal(n_min, n_max);
  assert_true(n > 0);
  std::vector<double> all(static_cast<size_t>(n) * static_cast<size_t>(size));
  MPI_Allgather(mine.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, MPI_COMM_WORLD);
  int late = 0;
  double worst_us = 0.0;
  for (int i = 0; i < n; i += 2) {
    double last_wake = -1.0, first_left = 1e300;
    for (int r = 0; r < size; ++r) {
      last_wake = std::max(last_wake, all[static_cast<size_t>(r * n + i)]);
      first_left = std::min(first_left, all[static_cast<size_t>(r * n + i + 1)]);
    }
    if (last_wake > first_left) ++late, worst_us = std::max(worst_us, (last_wake - first_left) * 1e6);
  }
  if (rank == 0)
    std::printf("%s: %d meetings, %d with a rank waking from a nap after another left (at most %.1f us after)\n",
                what, n / 2, late, worst_us);
  assert_int_equal(late, 0);
}

/// Every rank of MPI_COMM_WORLD on one host (the trace's clock).
bool one_host() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0, size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_free(&node);
  return node_size == size;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// Rank 0's round-trip time (us) after barrier_before_timing, the median over 41 loops of 20.
double timed_after_barrier(bool held) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  lat::g_timing_barrier_hold = held ? lat::TimingBarrierHold{0, kHoldS} : lat::TimingBarrierHold{};
  std::vector<double> per_trip;
  char byte = 0;
  for (int loop = 0; loop < 41; ++loop) {
    lat::barrier_before_timing(MPI_COMM_WORLD, true, {rank, "rank 1", "test", 30.0});
    if (rank == 0) {
      const double t1 = MPI_Wtime();
      for (int i = 0; i < 20; ++i) {
        MPI_Send(&byte, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&byte, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      per_trip.push_back((MPI_Wtime() - t1) * 1e6 / 20.0);
    } else if (rank == 1) {
      for (int i = 0; i < 20; ++i) {
        MPI_Recv(&byte, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&byte, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
  }
  lat::g_timing_barrier_hold = {};
  double m = median(per_trip);
  MPI_Bcast(&m, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return m;
}

/// The held run's time is the free run's within the noise of this machine: 2x plus 2 us. A wake-up in the
/// loop adds 0.25 ms over a loop of at most 50 round trips (nodecomm's at 0 bytes here): 5 us and more; seen
/// without the meeting: 0.99 -> 8.4 us (the barrier), 1.4 -> 8.2 us (nodecomm); with it, 4 ranks on 2
/// cores: 1.3-1.6 us free, 1.5-3.8 us held.
void within_noise(const char *what, double free_us, double held_us) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("%s: %.3f us without the hold, %.3f us with rank 0 held %.1f ms before each barrier\n", what, free_us,
              held_us, kHoldS * 1e3);
  assert_true(held_us < 2.0 * free_us + 2.0);
}

/// f(false) and f(true) alternated five times (this machine's speed changes in phases); the medians of the
/// five within the noise, every run printed.
void free_and_held_alike(const char *what, double (*f)(bool)) {
  std::vector<double> free_us, held_us;
  for (int k = 0; k < 5; ++k) {
    free_us.push_back(f(false));
    held_us.push_back(f(true));
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    for (int k = 0; k < 5; ++k) std::printf("  run %d: %.3f us free, %.3f us held\n", k + 1, free_us[k], held_us[k]);
  within_noise(what, median(free_us), median(held_us));
}

void no_wake_up_in_the_loop_after_the_timing_barrier(void **) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || !one_host()) skip();
  free_and_held_alike("barrier_before_timing", timed_after_barrier);
  lat::TimingBarrierTrace trace;
  lat::g_timing_barrier_trace = &trace;
  timed_after_barrier(true);
  lat::g_timing_barrier_trace = nullptr;
  no_wake_up_after_a_rank_left(trace, "barrier_before_timing, rank 0 held");
}

/// nodecomm's k = 1 time at 0 bytes, a run of its own (4 ranks on 2 cores: the waits yield).
double nodecomm_k1(bool held) {
  lat_nodecomm_options o;
  lat_nodecomm_defaults(&o);
  o.reps = 15;
  o.nr = 4096;
  o.progress = 0;
  o.timeout_s = 60.0;
  const int64_t sizes[] = {0};
  lat::g_timing_barrier_hold = held ? lat::TimingBarrierHold{0, kHoldS} : lat::TimingBarrierHold{};
  const lat::NodecommResult r = lat::nodecomm(MPI_COMM_WORLD, o, 1, sizes);
  lat::g_timing_barrier_hold = {};
  for (const lat_nodecomm_point &p : r.points)
    if (p.k == 1) return p.median_us;
  fail_msg("no k = 1 point");
  return 0.0;
}

void nodecomm_k1_time_does_not_move_when_a_partner_sleeps(void **) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4 || !one_host()) skip();
  lat::TimingBarrierTrace trace;
  double free_us = 0.0, held_us = 0.0;
  for (int k = 0; k < 2; ++k) {
    free_us = nodecomm_k1(false);
    lat::g_timing_barrier_trace = &trace;
    held_us = nodecomm_k1(true);
    lat::g_timing_barrier_trace = nullptr;
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // The times, told and not judged: nodecomm's loop of 50 round trips spreads a wake-up to ~5 us a round
  // trip, which 4 ranks on 2 cores' noise reaches (guarded runs measured 1.4-6.3 us free, 1.6-5.7 held).
  if (rank == 0) std::printf("nodecomm k = 1, 0 bytes: %.3f us free, %.3f us held\n", free_us, held_us);
  no_wake_up_after_a_rank_left(trace, "nodecomm k = 1 and 2, 0 bytes, rank 0 held");
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1) setenv("CMOCKA_TEST_ABORT", "1", 1);  // a failing rank must not leave the others waiting
  const struct CMUnitTest tests[] = {cmocka_unit_test(no_wake_up_in_the_loop_after_the_timing_barrier),
                                     cmocka_unit_test(nodecomm_k1_time_does_not_move_when_a_partner_sleeps)};
  const int failed = cmocka_run_group_tests(tests, nullptr, nullptr);
  MPI_Finalize();
  return failed;
}
