/* test_collective_mpi.c: lat_collective on 2 and 4 ranks: the points in their documented order, every
   round a sample of every point (kept or counted late), statistics consistent with the samples, the spread
   over ranks summing to the samples, the clocks of one host found one clock (offsets within the round
   trip), the sizes of the size-sweep engine, the files, the caller's communicator untouched, collective
   argument errors (a window too short for the synchronisation error among them) and a stop request.
   Never a timing value. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "mpilat.h"
#include "mpi_test_support.h"

static int rank, size;

static void small_options(lat_collective_options *o) {
  lat_collective_defaults(o);
  o->ops = LAT_COLL_BARRIER | LAT_COLL_BCAST | LAT_COLL_ALLREDUCE;
  o->reps = 12;
  o->loop_calls = 3;
  o->sync_points = 4;
  o->sync_spacing_s = 0.002;
  o->timeout_s = 120.0;
}

static void points_rounds_and_spread(void **state) {
  (void)state;
  lat_collective_options o;
  small_options(&o);
  o.root = size - 1;
  o.timer = LAT_TIMER_MONOTONIC_RAW; /* one clock for every process of the host (Open MPI's MPI_Wtime is not) */
  const int64_t sizes[2] = {8, 64};
  MPI_Request watch;
  double buf[4];
  watch_caller_comm(&watch, buf);
  lat_coll c = NULL;
  assert_int_equal(lat_collective(MPI_COMM_WORLD, &o, 2, sizes, &c), LAT_SUCCESS);
  caller_comm_received_nothing(&watch);
  lat_coll_summary s;
  assert_int_equal(lat_coll_get_summary(c, &s), LAT_SUCCESS);
  assert_int_equal(s.has_samples, rank == o.root);
  lat_coll_summary same = s;
  same.has_samples = 0;
  assert_true(same_everywhere(&same, (int)sizeof same));
  assert_int_equal(s.nprocs, size);
  assert_int_equal(s.nsizes, 2);
  assert_int_equal(s.npoints, 3 * (1 + 2 + 2)); /* 3 modes x (barrier once, bcast and allreduce at 2 sizes) */
  assert_int_equal(s.rounds, o.reps);
  assert_int_equal(s.reps, o.reps);
  assert_int_equal(s.partial, 0);
  assert_int_equal(s.syncs, 1);
  assert_int_equal(s.root, o.root);
  assert_int_equal(s.ops, o.ops);
  assert_int_equal(s.modes, LAT_COLL_ALL_MODES);
  if (size > sysconf(_SC_NPROCESSORS_ONLN)) {
    assert_true(s.warnings & LAT_WARN_OVERSUBSCRIBED);
    assert_int_equal(s.wait, LAT_WAIT_YIELD);
  } else {
    assert_false(s.warnings & LAT_WARN_OVERSUBSCRIBED);
  }
  /* One host, one clock (CLOCK_MONOTONIC_RAW): the offsets found are within the round trip of the exchanges. */
  assert_true(s.nnodes == 1);
  assert_true(s.offset_max_us <= s.rtt_min_us + 0.1);
  /* The bound: a residual plus half its own exchange's round trip, the worst rank (issue 31). */
  assert_true(s.error_bound_us >= s.residual_max_us && s.error_bound_us > 0.0);
  /* Ranks that have a core each: the clocks are kept. 4 ranks on 2 cores: the line in use may end several us
   * from the one clock (end residuals of 4-4.5 us in 2 runs of 13 with the fit's old rule, none in 13 with
   * the weighted fit: docs/collective.md): the run says so, and every sync-mode point carries the warning
   * (its figures withheld), checked below. */
  const int clocks_lost = (s.warnings & LAT_WARN_CLOCKS) != 0;
  if (size <= sysconf(_SC_NPROCESSORS_ONLN)) assert_false(clocks_lost);
  /* Modes, then operations, then sizes; barrier once per mode, at 0 bytes. */
  const int modes[3] = {LAT_COLL_MODE_SYNC, LAT_COLL_MODE_BARRIER, LAT_COLL_MODE_LOOP};
  const int ops[5] = {LAT_COLL_BARRIER, LAT_COLL_BCAST, LAT_COLL_BCAST, LAT_COLL_ALLREDUCE, LAT_COLL_ALLREDUCE};
  const int64_t bytes[5] = {0, 8, 64, 8, 64};
  int64_t late = 0;
  for (int64_t i = 0; i < s.npoints; ++i) {
    lat_coll_point p;
    assert_int_equal(lat_coll_get_point(c, i, &p), LAT_SUCCESS);
    assert_true(same_everywhere(&p, (int)sizeof p));
    assert_int_equal(p.mode, modes[i / 5]);
    assert_int_equal(p.op, ops[i % 5]);
    assert_int_equal(p.msg_bytes, bytes[i % 5]);
    assert_int_equal(p.samples + p.late, o.reps);
    if (p.mode != LAT_COLL_MODE_SYNC) {
      assert_int_equal(p.late, 0);
      assert_true(p.window_us == 0.0);
    } else {
      assert_true(p.window_us >= 10.0); /* 4 x pilot + 20 x error + 10 us */
      assert_int_equal((p.warnings & LAT_WARN_CLOCKS) != 0, clocks_lost);
    }
    late += p.late;
    assert_int_equal(p.stats.count, p.samples);
    if (p.samples > 0) {
      assert_true(p.stats.min_us <= p.stats.median_us && p.stats.median_us <= p.stats.max_us);
      assert_true(p.stats.min_us > 0.0);
    }
    int64_t last = 0, late_ranks = 0;
    for (int k = 0; k < size; ++k) {
      lat_coll_rank r;
      assert_int_equal(lat_coll_get_rank(c, i, k, &r), LAT_SUCCESS);
      assert_int_equal(r.rank, k);
      last += r.last_count;
      late_ranks += r.late_count;
      if (k == p.last_rank) assert_int_equal(r.last_count, p.last_rank_count);
      assert_true(r.last_count <= p.last_rank_count);
    }
    assert_int_equal(last, p.samples);     /* every kept sample has one rank that finished last */
    assert_true(late_ranks >= p.late);     /* a discarded sample had a late rank */
    if (rank == o.root) {
      double values[64];
      int64_t count = -1;
      assert_int_equal(lat_coll_get_samples(c, i, 64, values, &count), LAT_SUCCESS);
      assert_int_equal(count, p.samples);
      double lo = INFINITY;
      for (int64_t k = 0; k < count; ++k) lo = fmin(lo, values[k]);
      if (count > 0) assert_true(lo == p.stats.min_us);
    } else {
      int64_t count = 0;
      expect_everywhere(lat_coll_get_samples(c, i, 0, NULL, &count), LAT_ERR_ARG, "root rank");
    }
  }
  assert_int_equal(late, s.late_total);
  lat_coll_point p;
  expect_everywhere(lat_coll_get_point(c, s.npoints, &p), LAT_ERR_ARG, "index must be a point");
  lat_coll_rank r;
  expect_everywhere(lat_coll_get_rank(c, 0, size, &r), LAT_ERR_ARG, "rank must be in");
  /* The files, on the root: every one, whole. */
  if (rank == o.root) {
    char dir[] = "/tmp/mpilat-coll-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(lat_write_coll_files(dir, "c", "test", c, 0), LAT_SUCCESS);
    const char *ext[] = {".txt", ".json", ".csv", ".samples.csv", ".dist.gp", ".size.gp", ".size.dat"};
    for (int k = 0; k < 7; ++k) {
      char path[512];
      struct stat st;
      snprintf(path, sizeof path, "%s/c%s", dir, ext[k]);
      assert_int_equal(stat(path, &st), 0);
      assert_true(st.st_size > 0);
      unlink(path);
    }
    expect_everywhere(lat_write_coll_files(dir, "c", "test", c, 7), LAT_ERR_ARG, "render must be 0 or 1");
    rmdir(dir);
  } else {
    expect_everywhere(lat_write_coll_files("/tmp", "c", "test", c, 0), LAT_ERR_ARG, "root rank");
  }
  assert_int_equal(lat_coll_free(&c), LAT_SUCCESS);
  assert_null(c);
  assert_int_equal(lat_coll_free(&c), LAT_SUCCESS);
}

static void sizes_by_the_engine(void **state) {
  (void)state;
  lat_collective_options o;
  small_options(&o);
  o.ops = LAT_COLL_ALLREDUCE;
  o.modes = LAT_COLL_MODE_BARRIER;
  o.reps = 2;
  o.size_first = 8;
  o.size_last = 128; /* 4 ranks on 2 cores take milliseconds a call: a short grid keeps the test short */
  o.adaptive = 1;
  lat_coll c = NULL;
  assert_int_equal(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_SUCCESS);
  lat_coll_summary s;
  assert_int_equal(lat_coll_get_summary(c, &s), LAT_SUCCESS);
  /* The engine keeps the starting grid (8, 16, ..., 128) and may add sizes between, never beyond. */
  assert_true(s.nsizes >= 5 && s.nsizes <= LAT_COLL_MAX_SIZES);
  assert_int_equal(s.npoints, s.nsizes);
  int64_t prev = -1;
  for (int64_t i = 0; i < s.npoints; ++i) {
    lat_coll_point p;
    assert_int_equal(lat_coll_get_point(c, i, &p), LAT_SUCCESS);
    assert_true(p.msg_bytes > prev && p.msg_bytes >= 8 && p.msg_bytes <= 128);
    prev = p.msg_bytes;
  }
  lat_coll_free(&c);
}

static void clocks_synchronised_again_in_a_long_run(void **state) {
  (void)state;
  lat_collective_options o;
  small_options(&o);
  o.ops = LAT_COLL_ALLREDUCE;
  o.modes = LAT_COLL_MODE_SYNC;
  o.reps = 120;
  o.resync_s = 0.02; /* the run lasts longer than that: synchronised again, at round boundaries */
  lat_coll c = NULL;
  assert_int_equal(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_SUCCESS);
  lat_coll_summary s;
  assert_int_equal(lat_coll_get_summary(c, &s), LAT_SUCCESS);
  assert_true(s.syncs >= 2);
  assert_int_equal(s.rounds, 120);
  lat_coll_point p;
  assert_int_equal(lat_coll_get_point(c, 0, &p), LAT_SUCCESS);
  assert_int_equal(p.samples + p.late, 120);
  lat_coll_free(&c);
}

/* Options that change the run where a test can see it: a window given is every sync point's window; a wait
   mode given is the one used. */
static void window_and_wait_given_are_used(void **state) {
  (void)state;
  lat_collective_options o;
  small_options(&o);
  o.ops = LAT_COLL_ALLREDUCE | LAT_COLL_BCAST;
  o.modes = LAT_COLL_MODE_SYNC | LAT_COLL_MODE_BARRIER;
  o.reps = 5;
  o.window_us = 250.0;
  o.wait = LAT_WAIT_YIELD;
  lat_coll c = NULL;
  assert_int_equal(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_SUCCESS);
  lat_coll_summary s;
  assert_int_equal(lat_coll_get_summary(c, &s), LAT_SUCCESS);
  assert_int_equal(s.wait, LAT_WAIT_YIELD);
  for (int64_t i = 0; i < s.npoints; ++i) {
    lat_coll_point p;
    assert_int_equal(lat_coll_get_point(c, i, &p), LAT_SUCCESS);
    if (p.mode == LAT_COLL_MODE_SYNC) assert_true(p.window_us == 250.0);
    else assert_true(p.window_us == 0.0);
  }
  lat_coll_free(&c);
}

static void bad_arguments_on_every_rank(void **state) {
  (void)state;
  lat_collective_options o;
  lat_coll c = NULL;
  small_options(&o);
  o.root = size;
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_ERR_ARG, "root must be a rank");
  assert_null(c);
  small_options(&o);
  o.ops = 0;
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_ERR_ARG, "ops must be");
  small_options(&o);
  o.modes = 8;
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_ERR_ARG, "modes must be");
  small_options(&o);
  const int64_t negative[2] = {8, -1};
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, 2, negative, &c), LAT_ERR_ARG, "sizes[1] must be in");
  const int64_t descending[2] = {64, 8};
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, 2, descending, &c), LAT_ERR_ARG, "ascending");
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, LAT_COLL_MAX_SIZES + 1, descending, &c), LAT_ERR_ARG, "nsizes");
  /* A value one rank gives differently stops every rank, before any message is timed. */
  small_options(&o);
  if (rank == size - 1) o.reps = 13;
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_ERR_ARG, "reps");
  /* Beyond memory: the root keeps every sample, 10^6 rounds of 3 x (1 + 7 x 64) points need 75 GB and more
     (on a machine with less free memory than that, as every one this runs on). */
  small_options(&o);
  o.ops = LAT_COLL_ALL_OPS;
  o.reps = 1000000;
  int64_t many[LAT_COLL_MAX_SIZES];
  for (int k = 0; k < LAT_COLL_MAX_SIZES; ++k) many[k] = 8 * (k + 1);
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, LAT_COLL_MAX_SIZES, many, &c), LAT_ERR_ARG, "of memory are available");
  /* A window shorter than 10 x the synchronisation error: found once the clocks are synchronised. */
  small_options(&o);
  o.window_us = 1e-6;
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_ERR_ARG, "synchronisation error bound");
  assert_null(c);
  small_options(&o);
  o.window_us = NAN;
  expect_everywhere(lat_collective_check(&o, 0, NULL, size), LAT_ERR_ARG, "window_us");
  int op = 0;
  assert_int_equal(lat_coll_op_from_name("alltoall", &op), LAT_SUCCESS);
  assert_int_equal(op, LAT_COLL_ALLTOALL);
  expect_everywhere(lat_coll_op_from_name("allreduc", &op), LAT_ERR_ARG, "'allreduc'");
  expect_everywhere(lat_collective_check(&o, 0, NULL, 1), LAT_ERR_ARG, "at least 2 processes");
}

static void stop_request_ends_every_rank(void **state) {
  (void)state;
  lat_collective_options o;
  small_options(&o);
  o.reps = 1000000;
  if (rank == size - 1) lat_request_stop(); /* one rank asks: every rank stops at the same round */
  lat_coll c = NULL;
  expect_everywhere(lat_collective(MPI_COMM_WORLD, &o, 0, NULL, &c), LAT_ERR_INTERRUPTED, "stopped early");
  lat_clear_stop();
  lat_coll_summary s;
  assert_int_equal(lat_coll_get_summary(c, &s), LAT_SUCCESS);
  assert_int_equal(s.partial, 1);
  assert_true(s.rounds < o.reps);
  assert_true(same_everywhere(&s.rounds, (int)sizeof s.rounds));
  lat_coll_free(&c);
}

int main(int argc, char **argv) {
  mpi_tests_begin(&argc, &argv, &rank, &size);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(points_rounds_and_spread),
      cmocka_unit_test(sizes_by_the_engine),
      cmocka_unit_test(clocks_synchronised_again_in_a_long_run),
      cmocka_unit_test(window_and_wait_given_are_used),
      cmocka_unit_test(bad_arguments_on_every_rank),
      cmocka_unit_test(stop_request_ends_every_rank),
  };
  return mpi_tests_end(cmocka_run_group_tests(tests, NULL, NULL));
}
