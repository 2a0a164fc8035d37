/* test_pairs_mpi.c: lat_pair_matrix on 2, 4 and 5 ranks (5: the rounds schedule with a resting rank):
   every pair timed exactly `repeats` times in both schedules, the matrices symmetric with a zero diagonal
   and consistent statistics, gathered on any root, every rank's place, the log written and read back,
   the caller's communicator untouched, collective argument errors, a stop request. Never a timing value. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mpilat.h"
#include "mpi_test_support.h"

static int rank, size;

static void small_options(lat_pair_options *o) {
  lat_pair_defaults(o);
  o->repeats = 6;
  o->nr = 1 << 10;
  o->timeout_s = 60.0;
}

static double *matrix_of(lat_pairs p, int stat) {
  double *m = malloc(sizeof(double) * (size_t)size * (size_t)size);
  assert_int_equal(lat_pairs_get_matrix(p, stat, (int64_t)size * size, m), LAT_SUCCESS);
  return m;
}

/* What must hold of any complete pair matrix, on the root and elsewhere. */
static void check_pairs(lat_pairs p, const lat_pair_options *o) {
  lat_pair_summary s;
  assert_int_equal(lat_pairs_get_summary(p, &s), LAT_SUCCESS);
  assert_int_equal(s.has_matrices, rank == o->root);
  lat_pair_summary same = s;
  same.has_matrices = 0;
  assert_true(same_everywhere(&same, (int)sizeof same));
  const int64_t npairs = (int64_t)size * (size - 1) / 2;
  const int64_t rounds = o->schedule == LAT_PAIRS_ROUNDS ? (size % 2 == 0 ? size - 1 : size) : npairs;
  assert_int_equal(s.nprocs, size);
  assert_int_equal(s.npairs, npairs);
  assert_int_equal(s.nrounds, rounds);
  assert_int_equal(s.steps, rounds * o->repeats);
  assert_int_equal(s.round_trips, npairs * o->repeats);
  assert_int_equal(s.msg_bytes, o->msg_bytes);
  assert_int_equal(s.repeats, o->repeats);
  assert_int_equal(s.schedule, o->schedule);
  assert_int_equal(s.root, o->root);
  assert_int_equal(s.partial, 0);
  assert_int_equal(s.from_log, 0);
  assert_true(s.nnodes >= 1 && s.nnodes <= size);
  if (o->wait != LAT_WAIT_AUTO) assert_int_equal(s.wait, o->wait);
  else if (size > sysconf(_SC_NPROCESSORS_ONLN)) assert_int_equal(s.wait, LAT_WAIT_YIELD);
  assert_true(s.wait == LAT_WAIT_SPIN || s.wait == LAT_WAIT_YIELD);

  lat_rank_place mine;
  assert_int_equal(lat_pairs_get_place(p, rank, &mine), LAT_SUCCESS);
  assert_int_equal(mine.rank, rank);
  assert_true(mine.node >= 0 && mine.node < s.nnodes);
  assert_true(strlen(mine.host) > 0);
  assert_true(mine.res_timing_us > 0.0 && mine.min_ov_us >= 0.0);

  if (rank != o->root) {
    double m[1];
    expect_everywhere(lat_pairs_get_matrix(p, LAT_PAIR_MEAN, 1, m), LAT_ERR_ARG, "on the root rank");
    lat_rank_place other;
    expect_everywhere(lat_pairs_get_place(p, (rank + 1) % size, &other), LAT_ERR_ARG, "own place");
    expect_everywhere(lat_write_pair_files(NULL, "x.dat", "", p), LAT_ERR_ARG, "on the root rank");
    return;
  }
  double *stat[LAT_PAIR_NSTATS];
  for (int k = 0; k < LAT_PAIR_NSTATS; ++k) stat[k] = matrix_of(p, k);
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j) {
      for (int k = 0; k < LAT_PAIR_NSTATS; ++k) {
        assert_true(stat[k][i * size + j] == stat[k][j * size + i]); /* symmetric */
        if (i == j) assert_true(stat[k][i * size + j] == 0.0);        /* zero diagonal */
      }
      if (i == j) continue;
      const int at = i * size + j;
      /* Every pair exactly `repeats` times, whatever the schedule. */
      assert_true(stat[LAT_PAIR_COUNT][at] == (double)o->repeats);
      assert_true(stat[LAT_PAIR_MIN][at] > 0.0);
      assert_true(stat[LAT_PAIR_MIN][at] <= stat[LAT_PAIR_MEDIAN][at]);
      assert_true(stat[LAT_PAIR_MEDIAN][at] <= stat[LAT_PAIR_MAX][at]);
      assert_true(stat[LAT_PAIR_MIN][at] <= stat[LAT_PAIR_MEAN][at] && stat[LAT_PAIR_MEAN][at] <= stat[LAT_PAIR_MAX][at]);
      /* The standard error is the standard deviation over sqrt(repeats), not the other way round. */
      const double se = stat[LAT_PAIR_STDDEV][at] / sqrt((double)o->repeats);
      assert_true(fabs(stat[LAT_PAIR_STDERR][at] - se) <= 1e-12 * (se + 1.0));
      assert_true(stat[LAT_PAIR_STDDEV][at] >= 0.0);
      assert_true(s.mean_min_us <= stat[LAT_PAIR_MEAN][at] && stat[LAT_PAIR_MEAN][at] <= s.mean_max_us);
    }
  for (int k = 0; k < LAT_PAIR_NSTATS; ++k) free(stat[k]);
  /* Every rank's place on root: nodes numbered by their lowest rank, one node per host. */
  int highest_node = -1;
  for (int k = 0; k < size; ++k) {
    lat_rank_place pk;
    assert_int_equal(lat_pairs_get_place(p, k, &pk), LAT_SUCCESS);
    assert_int_equal(pk.rank, k);
    assert_true(pk.node <= highest_node + 1);
    if (pk.node > highest_node) highest_node = pk.node;
    for (int q = 0; q < k; ++q) {
      lat_rank_place pq;
      lat_pairs_get_place(p, q, &pq);
      assert_int_equal(strcmp(pk.host, pq.host) == 0, pk.node == pq.node);
    }
    assert_true(pk.socket >= -1 && pk.core >= -1 && pk.cpu >= -1);
  }
  assert_int_equal(highest_node + 1, s.nnodes);
  lat_rank_place none;
  assert_int_equal(lat_pairs_get_place(p, size, &none), LAT_ERR_ARG);
  double small[1];
  assert_int_equal(lat_pairs_get_matrix(p, LAT_PAIR_MEAN, 1, small), LAT_ERR_ARG);
  assert_int_equal(lat_pairs_get_matrix(p, LAT_PAIR_NSTATS, (int64_t)size * size, small), LAT_ERR_ARG);
}

static void run_and_check(const lat_pair_options *o) {
  double buf[4];
  MPI_Request req;
  watch_caller_comm(&req, buf);
  lat_pairs p = NULL;
  const int rc = lat_pair_matrix(MPI_COMM_WORLD, o, &p);
  if (rc != LAT_SUCCESS) fail_msg("%s", lat_last_error_message());
  check_pairs(p, o);
  caller_comm_received_nothing(&req);
  lat_pairs_free(&p);
  assert_null(p);
}

static void sequential_schedule(void **state) {
  (void)state;
  lat_pair_options o;
  small_options(&o);
  run_and_check(&o);
}

static void rounds_schedule(void **state) {
  (void)state;
  lat_pair_options o;
  small_options(&o);
  o.schedule = LAT_PAIRS_ROUNDS;
  o.repeats = 9;
  run_and_check(&o);
}

static void another_root_and_waits(void **state) {
  (void)state;
  lat_pair_options o;
  small_options(&o);
  o.root = size - 1;
  o.msg_bytes = 0;
  o.wait = LAT_WAIT_YIELD;
  o.schedule = LAT_PAIRS_ROUNDS;
  run_and_check(&o);
  o.root = size / 2;
  o.msg_bytes = 70000; /* above MPICH's eager threshold: the rendezvous path */
  o.wait = LAT_WAIT_SPIN;
  o.repeats = 2;
  o.schedule = LAT_PAIRS_SEQUENTIAL;
  run_and_check(&o);
}

static void defaults(void **state) {
  (void)state;
  lat_pair_options o;
  assert_int_equal(lat_pair_defaults(&o), LAT_SUCCESS);
  assert_int_equal(o.msg_bytes, 64);
  assert_int_equal(o.repeats, 100);
  assert_int_equal(o.schedule, LAT_PAIRS_SEQUENTIAL);
  assert_int_equal(o.root, 0);
  assert_int_equal(o.wait, LAT_WAIT_AUTO);
  assert_int_equal(lat_pair_defaults(NULL), LAT_ERR_ARG);
}

/* The log and the JSON, read back: the same hosts and the matrices to the log's 2 decimals. */
static void log_round_trip(void **state) {
  (void)state;
  lat_pair_options o;
  small_options(&o);
  lat_pairs p = NULL;
  assert_int_equal(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_SUCCESS);
  if (rank == 0) {
    char dir[] = "/tmp/mpilat_pairs_XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(lat_write_pair_files(dir, "ammpi_test.dat", "test", p), LAT_SUCCESS);
    char path[256], json[256];
    snprintf(path, sizeof path, "%s/ammpi_test.dat", dir);
    snprintf(json, sizeof json, "%s/ammpi_test.json", dir);
    assert_int_equal(access(json, R_OK), 0);
    lat_pairs back = NULL;
    if (lat_read_mmpi_log(path, &back) != LAT_SUCCESS) fail_msg("%s", lat_last_error_message());
    lat_pair_summary s, t;
    lat_pairs_get_summary(p, &s);
    lat_pairs_get_summary(back, &t);
    assert_int_equal(t.nprocs, size);
    assert_int_equal(t.msg_bytes, s.msg_bytes);
    assert_int_equal(t.repeats, s.repeats);
    assert_int_equal(t.nnodes, s.nnodes);
    assert_int_equal(t.from_log, 1);
    assert_string_equal(t.testing_host, s.testing_host);
    for (int stat = LAT_PAIR_MEAN; stat <= LAT_PAIR_STDDEV; ++stat) {
      double *a = matrix_of(p, stat), *b = matrix_of(back, stat);
      for (int k = 0; k < size * size; ++k) assert_true(fabs(a[k] - b[k]) <= 0.005 + 1e-9);
      free(a);
      free(b);
    }
    for (int k = 0; k < size; ++k) {
      lat_rank_place a, b;
      lat_pairs_get_place(p, k, &a);
      lat_pairs_get_place(back, k, &b);
      assert_string_equal(a.host, b.host);
      assert_int_equal(a.node, b.node);
      assert_int_equal(b.socket, -1);
    }
    double m[1];
    assert_int_equal(lat_pairs_get_matrix(back, LAT_PAIR_MIN, (int64_t)size * size, m), LAT_ERR_ARG);
    assert_non_null(strstr(lat_last_error_message(), "mmpi log holds only"));
    /* The matrices file of the log is what the log says, number for number. */
    assert_int_equal(lat_write_pair_matrices(dir, "ammpi_test", back, 0), LAT_SUCCESS);
    snprintf(path, sizeof path, "%s/ammpi_test_comm.dat", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    double *mean = matrix_of(back, LAT_PAIR_MEAN);
    for (int k = 0; k < size * size; ++k) {
      double v = -1.0;
      assert_int_equal(fscanf(f, "%lf", &v), 1);
      assert_true(v == mean[k]);
    }
    double extra;
    assert_int_equal(fscanf(f, "%lf", &extra), EOF);
    fclose(f);
    free(mean);
    lat_pairs_free(&back);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
  }
  lat_pairs_free(&p);
  MPI_Barrier(MPI_COMM_WORLD);
}

static void collective_argument_errors(void **state) {
  (void)state;
  lat_pair_options o;
  lat_pairs p = (lat_pairs)&p;
  small_options(&o);
  o.repeats = rank == size - 1 ? 0 : 5; /* bad on one rank only */
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_ERR_ARG, "repeats must be >= 1, got 0");
  assert_null(p);
  small_options(&o);
  o.repeats = 5 + rank; /* good everywhere, but different */
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_ERR_ARG, "repeats must be the same on all ranks");
  small_options(&o);
  o.schedule = 7;
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_ERR_ARG, "schedule must be 0 (sequential) or 1 (rounds), got 7");
  small_options(&o);
  o.root = size;
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_ERR_ARG, "root must be a rank in 0..");
  small_options(&o);
  o.msg_bytes = -1;
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_ERR_ARG, "msg_bytes must be in 0..");
  small_options(&o);
  o.wait = 5;
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_ERR_ARG, "wait must be");
  small_options(&o);
  o.timeout_s = -1.0;
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_ERR_ARG, "timeout_s");
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, NULL, &p), LAT_ERR_ARG, "opts");
  small_options(&o);
  expect_everywhere(lat_pair_matrix(MPI_COMM_NULL, &o, &p), LAT_ERR_ARG, "MPI_COMM_NULL");
  MPI_Barrier(MPI_COMM_WORLD);
}

static void stop_request_ends_every_rank(void **state) {
  (void)state;
  lat_pair_options o;
  small_options(&o);
  if (rank == size - 1) lat_request_stop(); /* one rank asks: every rank stops at the same step */
  lat_pairs p = NULL;
  expect_everywhere(lat_pair_matrix(MPI_COMM_WORLD, &o, &p), LAT_ERR_INTERRUPTED, "stopped early");
  lat_clear_stop();
  lat_pair_summary s;
  assert_int_equal(lat_pairs_get_summary(p, &s), LAT_SUCCESS);
  assert_int_equal(s.partial, 1);
  assert_int_equal(s.steps, 0);
  assert_int_equal(s.round_trips, 0);
  if (rank == 0) {
    double *count = matrix_of(p, LAT_PAIR_COUNT);
    for (int k = 0; k < size * size; ++k) assert_true(count[k] == 0.0);
    free(count);
  }
  lat_pairs_free(&p);
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  mpi_tests_begin(&argc, &argv, &rank, &size);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sequential_schedule),  cmocka_unit_test(rounds_schedule),
      cmocka_unit_test(another_root_and_waits), cmocka_unit_test(defaults),
      cmocka_unit_test(log_round_trip),       cmocka_unit_test(collective_argument_errors),
      cmocka_unit_test(stop_request_ends_every_rank),
  };
  return mpi_tests_end(cmocka_run_group_tests(tests, NULL, NULL));
}
