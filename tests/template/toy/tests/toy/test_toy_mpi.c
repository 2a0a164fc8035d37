/* test_toy_mpi.c: lat_toy_measure on every rank (the template capability): the summary agreed on every
   rank and consistent with itself, a bad value refused on every rank, a stop keeping the loops made, the
   files written whole. Never a timing value. */
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

static void small_options(lat_toy_options *o) {
  lat_toy_defaults(o);
  o->iters = 5;
  o->reps = 7;
  o->timeout_s = 60.0;
}

static void measures_on_every_rank(void **state) {
  (void)state;
  lat_toy_options o;
  small_options(&o);
  MPI_Request req;
  double buf[4];
  watch_caller_comm(&req, buf);
  lat_toy t = NULL;
  expect_everywhere(lat_toy_measure(MPI_COMM_WORLD, &o, &t), LAT_SUCCESS, NULL);
  caller_comm_received_nothing(&req);
  lat_toy_summary s;
  assert_int_equal(lat_toy_get_summary(t, &s), LAT_SUCCESS);
  assert_true(same_everywhere(&s, (int)sizeof s));
  assert_int_equal(s.reps, 7);
  assert_int_equal(s.iters, 5);
  assert_int_equal(s.nprocs, size);
  assert_int_equal(s.partial, 0);
  assert_true(s.min_us > 0.0 && s.min_us <= s.median_us && s.median_us <= s.max_us);
  assert_true(s.min_us <= s.mean_us && s.mean_us <= s.max_us);
  assert_true(strlen(s.host) > 0);
  if (rank == 0) {
    char dir[] = "/tmp/mpilat_toy_XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(lat_write_toy_files(dir, "test_toy_mpi", t), LAT_SUCCESS);
    char path[64];
    snprintf(path, sizeof path, "%s/toy.json", dir);
    assert_int_equal(access(path, R_OK), 0);
    unlink(path);
    snprintf(path, sizeof path, "%s/toy.txt", dir);
    assert_int_equal(access(path, R_OK), 0);
    unlink(path);
    rmdir(dir);
  }
  assert_int_equal(lat_toy_free(&t), LAT_SUCCESS);
  assert_null(t);
}

/* One rank's bad value is refused on every rank, naming it; the check refuses it too. */
static void bad_value_refused_everywhere(void **state) {
  (void)state;
  lat_toy_options o;
  small_options(&o);
  if (rank == size - 1) o.reps = 0;
  lat_toy t = NULL;
  expect_everywhere(lat_toy_measure(MPI_COMM_WORLD, &o, &t), LAT_ERR_ARG, rank == size - 1 ? "got 0" : NULL);
  assert_null(t);
  small_options(&o);
  assert_int_equal(lat_toy_check(&o, 1), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "at least 2 ranks"));
  assert_int_equal(lat_toy_check(&o, size), LAT_SUCCESS);
}

static void stop_request_keeps_loops(void **state) {
  (void)state;
  lat_toy_options o;
  small_options(&o);
  if (rank == 0) lat_request_stop();
  lat_toy t = NULL;
  expect_everywhere(lat_toy_measure(MPI_COMM_WORLD, &o, &t), LAT_ERR_INTERRUPTED, NULL);
  lat_clear_stop();
  lat_toy_summary s;
  assert_int_equal(lat_toy_get_summary(t, &s), LAT_SUCCESS);
  assert_int_equal(s.partial, 1);
  assert_int_equal(s.reps, 0);
  lat_toy_free(&t);
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  mpi_tests_begin(&argc, &argv, &rank, &size);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(measures_on_every_rank),
      cmocka_unit_test(bad_value_refused_everywhere),
      cmocka_unit_test(stop_request_keeps_loops),
  };
  return mpi_tests_end(cmocka_run_group_tests(tests, NULL, NULL));
}
