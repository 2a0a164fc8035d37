/* test_nodecomm_mpi.c: lat_nodecomm_measure on 2 and 4 ranks of this one machine (so between the two
   halves of the node, reported as intra-node): K pairs, every (k, n) measured reps times, sizes from the
   caller or from the size-sweep engine, observations that lat_fit_maxrate accepts, the caller's
   communicator untouched, collective argument errors. Never a timing value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mpilat.h"
#include "mpi_test_support.h"

static int rank, size;

static void small_options(lat_nodecomm_options *o) {
  lat_nodecomm_defaults(o);
  o->reps = 3;
  o->nr = 1 << 12;
  o->timeout_s = 60.0;
}

static void given_sizes(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 64, 1024, 8192, 20000};
  lat_nodecomm_options o;
  small_options(&o);
  double buf[4];
  MPI_Request req;
  watch_caller_comm(&req, buf);
  lat_nodecomm n = NULL;
  if (lat_nodecomm_measure(MPI_COMM_WORLD, &o, 5, sizes, &n) != LAT_SUCCESS) fail_msg("%s", lat_last_error_message());
  caller_comm_received_nothing(&req);
  lat_nodecomm_summary s;
  assert_int_equal(lat_nodecomm_get_summary(n, &s), LAT_SUCCESS);
  assert_true(same_everywhere(&s, (int)sizeof s));
  assert_int_equal(s.intra_node, 1); /* one machine: its two halves */
  assert_int_equal(s.kmax, size / 2);
  assert_int_equal(s.nsizes, 5);
  assert_int_equal(s.npoints, 5 * s.kmax);
  assert_int_equal(s.partial, 0);
  for (int64_t i = 0; i < s.npoints; ++i) {
    lat_nodecomm_point p;
    assert_int_equal(lat_nodecomm_get_point(n, i, &p), LAT_SUCCESS);
    assert_int_equal(p.bytes, sizes[i / s.kmax]);
    assert_int_equal(p.k, 1 + i % s.kmax);
    assert_int_equal(p.reps, 3);
    assert_true(p.n_avg >= 1);
    assert_true(p.min_us > 0.0 && p.min_us <= p.median_us && p.median_us <= p.max_us);
  }
  lat_nodecomm_point past;
  assert_int_equal(lat_nodecomm_get_point(n, s.npoints, &past), LAT_ERR_ARG);
  lat_maxrate_obs obs[64];
  int64_t nobs = 0;
  assert_int_equal(lat_nodecomm_observations(n, 64, obs, &nobs), LAT_SUCCESS);
  assert_int_equal(nobs, s.npoints);
  assert_int_equal(lat_nodecomm_observations(n, 1, obs, &nobs), LAT_ERR_ARG);
  lat_fit_options fo;
  lat_fit_defaults(&fo);
  fo.nthresholds = 0;
  lat_maxrate_fit fit = NULL;
  if (lat_fit_maxrate(&fo, nobs, obs, &fit) != LAT_SUCCESS) fail_msg("%s", lat_last_error_message());
  lat_model_fit m;
  assert_int_equal(lat_maxrate_get_model(fit, 0, LAT_MODEL_MAXRATE, &m), LAT_SUCCESS);
  assert_int_equal(m.npoints, nobs);
  lat_maxrate_free(&fit);
  lat_nodecomm_free(&n);
  assert_null(n);
}

static void sizes_from_the_sweep_engine(void **state) {
  (void)state;
  lat_nodecomm_options o;
  small_options(&o);
  o.size_last = 16384;
  o.reps = 2;
  o.max_pairs = 1;
  lat_nodecomm n = NULL;
  if (lat_nodecomm_measure(MPI_COMM_WORLD, &o, 0, NULL, &n) != LAT_SUCCESS) fail_msg("%s", lat_last_error_message());
  lat_nodecomm_summary s;
  lat_nodecomm_get_summary(n, &s);
  assert_int_equal(s.kmax, 1);
  assert_true(s.nsizes >= 53); /* 0, 4 per octave from 1 to 16384: 53 distinct sizes, more where refined */
  int64_t last = -1;
  for (int64_t i = 0; i < s.npoints; ++i) {
    lat_nodecomm_point p;
    lat_nodecomm_get_point(n, i, &p);
    assert_true(p.bytes > last);
    last = p.bytes;
  }
  assert_int_equal(last, 16384);
  lat_nodecomm_free(&n);
}

static void collective_argument_errors(void **state) {
  (void)state;
  lat_nodecomm_options o;
  lat_nodecomm n = (lat_nodecomm)&n;
  small_options(&o);
  o.reps = rank == size - 1 ? 0 : 3;
  expect_everywhere(lat_nodecomm_measure(MPI_COMM_WORLD, &o, 0, NULL, &n), LAT_ERR_ARG, "reps must be >= 1, got 0");
  assert_null(n);
  small_options(&o);
  const int64_t down[] = {64, 8};
  expect_everywhere(lat_nodecomm_measure(MPI_COMM_WORLD, &o, 2, down, &n), LAT_ERR_ARG, "sizes must ascend");
  o.max_pairs = -1;
  expect_everywhere(lat_nodecomm_measure(MPI_COMM_WORLD, &o, 0, NULL, &n), LAT_ERR_ARG, "max_pairs must be >= 0");
  small_options(&o);
  o.size_last = 0;
  expect_everywhere(lat_nodecomm_measure(MPI_COMM_WORLD, &o, 0, NULL, &n), LAT_ERR_ARG, "size_last must be in 1..");
  small_options(&o);
  /* A node with one process: nothing to pair. */
  expect_everywhere(lat_nodecomm_measure(MPI_COMM_SELF, &o, 0, NULL, &n), LAT_ERR_ARG,
                    "nodecomm needs two processes on a node");
  expect_everywhere(lat_nodecomm_measure(MPI_COMM_WORLD, NULL, 0, NULL, &n), LAT_ERR_ARG, "opts");
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  mpi_tests_begin(&argc, &argv, &rank, &size);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(given_sizes),
      cmocka_unit_test(sizes_from_the_sweep_engine),
      cmocka_unit_test(collective_argument_errors),
  };
  return mpi_tests_end(cmocka_run_group_tests(tests, NULL, NULL));
}
