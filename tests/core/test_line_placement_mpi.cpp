// test_line_placement_mpi.cpp: --precision's placement probe (lib/common/line_placement.hpp; docs/method.md,
// "Precision"). Run on 2 ranks of one node. The figures against hand-computed values; the probe on the pair
// (every line measured, a level each); the real events that keep it from measuring: the two ranks on one
// processor (each round trip then waits for a time slice, so the probe runs past its second and both ranks
// give up there) and a communicator of one rank (no partner on the node).
#include <mpi.h>
#include <sched.h>

#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <limits>

extern "C" {
#include <cmocka.h>
}

#include "common/line_placement.hpp"

namespace {

void the_figures_by_hand(void **) {
  lat::LinePlacement p;
  assert_true(p.sd_pct() == 0.0);
  p.level_us = {0.1};
  assert_true(p.sd_pct() == 0.0);  // one line: no spread
  p.level_us = {1.0, 2.0, 3.0};     // mean 2, sd 1: 50 %
  assert_true(std::fabs(p.sd_pct() - 50.0) < 1e-12);
  p.level_us = {0.09, 0.09, 0.115, 0.115};  // mean 0.1025, sd 0.0144338: 14.08171 %
  assert_true(std::fabs(p.sd_pct() - 14.081714) < 1e-5);
  assert_true(std::fabs(lat::placement_half_pct(10.0) - 19.6) < 1e-12);
  assert_true(std::fabs(lat::between_launches_half_pct(3.0, 4.0) - 5.0) < 1e-12);
  assert_true(lat::between_launches_half_pct(2.5, 0.0) == 2.5);  // no placement term: the batch medians' alone
  assert_true(std::isinf(lat::between_launches_half_pct(std::numeric_limits<double>::infinity(), 4.0)));
}

void the_pair_measures_every_line(void **) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const lat::LinePlacement p = lat::measure_line_placement(MPI_COMM_WORLD, rank == 0, 5.0);
  assert_true(p.one_node);
  if (rank != 0) return;
  assert_true(p.ended_in_time);
  assert_int_equal(p.level_us.size(), LAT_PLACEMENT_LINES);
  double least = 1e300, most = 0.0;
  for (double v : p.level_us) least = std::fmin(least, v), most = std::fmax(most, v);
  std::printf("placement: %d lines, one-way %.4f .. %.4f us, sd %.2f %% of the mean\n", LAT_PLACEMENT_LINES, least, most,
              p.sd_pct());
  assert_true(least > 0.0 && most < 1000.0 && std::isfinite(p.sd_pct()));
}

void one_processor_gives_up_at_the_limit(void **) {
  cpu_set_t before, one;
  assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &before)) ++first;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  // Both ranks on the lowest processor of rank 0's set (the same on both: the machine's first allowed).
  MPI_Bcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD);
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto t0 = std::chrono::steady_clock::now();
  const lat::LinePlacement p = lat::measure_line_placement(MPI_COMM_WORLD, rank == 0, 0.5);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sched_setaffinity(0, sizeof before, &before);
  std::printf("rank %d on processor %d with its partner: %zu lines in %.2f s (limit 0.5 s)\n", rank, first, p.level_us.size(), took);
  assert_true(p.one_node);
  assert_true(p.level_us.empty());
  if (rank == 0) assert_false(p.ended_in_time);
  assert_true(took < 3.0);  // the limit, and the window's setup and release, not a probe at a time slice a round trip
}

void alone_measures_nothing(void **) {
  const lat::LinePlacement p = lat::measure_line_placement(MPI_COMM_SELF, true, 5.0);
  assert_false(p.one_node);
  assert_true(p.level_us.empty());
  assert_true(p.sd_pct() == 0.0);
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  setenv("CMOCKA_TEST_ABORT", "1", 1);  // a failing rank must not leave the other waiting
  const struct CMUnitTest tests[] = {cmocka_unit_test(the_figures_by_hand), cmocka_unit_test(the_pair_measures_every_line),
                                     cmocka_unit_test(one_processor_gives_up_at_the_limit),
                                     cmocka_unit_test(alone_measures_nothing)};
  const int failed = cmocka_run_group_tests(tests, nullptr, nullptr);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
