/* test_c_mpi.c: the C ABI between ranks: results on every rank, the npp rule applied, filtering counts,
   source/dest other than 0/1, the caller's communicator untouched, collective errors, stop requests.
   Never a timing value: only the method. */
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


static int64_t table_total(lat_histogram h, int64_t *distinct) {
  int64_t n = 0, total = 0;
  assert_int_equal(lat_histogram_size(h, &n), LAT_SUCCESS);
  double *v = malloc((size_t)(n + 1) * sizeof *v);
  int64_t *c = malloc((size_t)(n + 1) * sizeof *c);
  assert_int_equal(lat_histogram_get(h, n, v, c), LAT_SUCCESS);
  for (int64_t i = 0; i < n; ++i) {
    total += c[i];
    if (i > 0) assert_true(v[i - 1] < v[i]);
  }
  free(v);
  free(c);
  if (distinct) *distinct = n;
  return total;
}

static void calibrate_on_one_rank(void **state) {
  (void)state;
  lat_timer_options o;
  lat_timer_defaults(&o);
  o.nr = 1 << 16;
  o.rank = size - 1;
  lat_timer_result r;
  lat_histogram h = NULL;
  assert_int_equal(lat_calibrate_timer(MPI_COMM_WORLD, &o, &r, &h), LAT_SUCCESS);
  assert_true(same_everywhere(&r, sizeof r));
  assert_int_equal(r.rank, size - 1);
  assert_int_equal(r.nr, 1 << 16);
  assert_true(r.min_ov_us >= 0.0 && r.min_ov_us <= r.res_timing_us);
  assert_true(r.min_us <= r.median_us && r.median_us <= r.max_us);
  int64_t binned = r.n_negative;
  for (int b = 0; b < LAT_NBINS; ++b) binned += r.bin_count[b];
  assert_int_equal(binned, r.nr);
  assert_int_equal(table_total(h, NULL), r.nr);
  lat_histogram_free(&h);
  assert_null(h);
}

static void calibrate_on_every_rank(void **state) {
  (void)state;
  lat_timer_options o;
  lat_timer_defaults(&o);
  o.nr = 1 << 14;
  o.timer = LAT_TIMER_MONOTONIC_RAW;
  lat_timer_result r;
  assert_int_equal(lat_calibrate_timer(MPI_COMM_WORLD, &o, &r, NULL), LAT_SUCCESS);
  assert_int_equal(r.rank, rank);
  assert_int_equal(r.timer, LAT_TIMER_MONOTONIC_RAW);
  assert_int_equal(r.nr, 1 << 14);
}

static void check_pingpong_counts(const lat_pingpong_result *r, lat_histogram h) {
  assert_int_equal(r->ntrial_done, r->ntrial);
  assert_int_equal(r->partial, 0);
  assert_int_equal(r->all.count, r->ntrial);
  assert_int_equal(r->n_kept + r->n_removed, r->ntrial);
  assert_int_equal(r->filtered.count, r->n_kept);
  assert_true(r->cut_off_us == r->cut_coef * r->all.median_us);
  assert_true(r->filtered.max_us <= r->cut_off_us);
  assert_true(r->all.min_us <= r->all.median_us && r->all.median_us <= r->all.max_us);
  assert_int_equal(r->nprocs, size);
  assert_true(strlen(r->source_host) > 0 && strlen(r->dest_host) > 0);
  if (h) assert_int_equal(table_total(h, NULL), r->ntrial);
}

static void pingpong_fixed_npp(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.npp = 3;
  o.estimate = 0; /* Part 2 not wanted here */
  o.ntrial = 500;
  lat_timer_options to;
  lat_timer_defaults(&to);
  to.nr = 1 << 16;
  to.rank = 0;
  lat_timer_result t;
  assert_int_equal(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_SUCCESS);
  lat_pingpong_result r;
  lat_histogram h = NULL;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, &t, &r, &h), LAT_SUCCESS);
  assert_true(same_everywhere(&r, sizeof r));
  assert_int_equal(r.npp_used, 3);
  assert_int_equal(r.npp_calculated, 0); /* estimate = 0: Part 2 skipped, the field 0 (a number, no words) */
  assert_int_equal(r.estimate, 0);
  assert_int_equal(r.npptrial, 0);
  assert_int_equal(r.source, 0);
  assert_int_equal(r.dest, size - 1);
  assert_int_equal(r.bytes, 8);
  assert_true(r.min_ov_us == t.min_ov_us && r.res_timing_us == t.res_timing_us);
  assert_int_equal(r.placement_lines, 0); /* no precision asked: no placement probe, no interval */
  assert_true(r.placement_sd_pct == 0.0 && r.between_launches_half_pct == 0.0 && r.median_ci_half_pct == 0.0);
  check_pingpong_counts(&r, h);
  lat_histogram_free(&h);
}

/* A precision asked: source and dest share this node, so the placement probe measured every line; its
   diagnostic bound is the batch medians' and the placement's (1.96 sd) in quadrature; P is held to the batch
   medians' interval within this launch alone (the placement never ends the trials). */
static void pingpong_precision_between_launches(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.npp = 2;
  o.estimate = 0;
  o.precision_pct = 50.0;
  o.precision_limit_s = 2.5; /* 10 chunks of 0.25 s at most: an interval, and an end either way */
  lat_pingpong_result r;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_SUCCESS);
  assert_true(same_everywhere(&r, sizeof r));
  assert_int_equal(r.placement_lines, LAT_PLACEMENT_LINES);
  assert_true(r.placement_sd_pct > 0.0 && r.placement_sd_pct < 100.0);
  const double between = hypot(r.median_ci_half_pct, 1.96 * r.placement_sd_pct);
  assert_true(fabs(r.between_launches_half_pct - between) <= 1e-9 * between);
  if (r.ended_by == LAT_END_PRECISION)
    assert_true(r.median_ci_half_pct <= 50.0);
  else
    assert_int_equal(r.ended_by, LAT_END_TIME); /* never LAT_END_UNREACHABLE: a launch is held to its own interval */
}

/* npp given, Part 2 still run (the default): the rule's value stands beside the one used. */
static void pingpong_given_npp_still_estimates(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  assert_int_equal(o.estimate, 1);
  o.nr = 1 << 16;
  o.npp = 7;
  o.npptrial = 300;
  o.npp_init = 4;
  o.ntrial = 400;
  lat_pingpong_result r;
  lat_histogram h = NULL;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, &h), LAT_SUCCESS);
  assert_true(same_everywhere(&r, sizeof r));
  assert_int_equal(r.estimate, 1);
  assert_int_equal(r.npp_used, 7);
  assert_int_equal(r.npptrial, 300);
  int64_t expected = 0;
  assert_int_equal(lat_npp_rule(50, r.res_timing_us, r.median_ppt_us, &expected), LAT_SUCCESS);
  assert_int_equal(r.npp_calculated, expected);
  /* Times are whole clock units over 2 npp, less min_ov / (2 npp): the table's values sit on that grid. */
  assert_true(r.unit_us > 0.0);
  int64_t n = 0;
  assert_int_equal(lat_histogram_size(h, &n), LAT_SUCCESS);
  double *v = malloc((size_t)n * sizeof *v);
  int64_t *c = malloc((size_t)n * sizeof *c);
  assert_int_equal(lat_histogram_get(h, n, v, c), LAT_SUCCESS);
  const double step = r.unit_us / 14.0;
  for (int64_t i = 0; i < n; ++i) {
    const double k = (v[i] + r.min_ov_us / 14.0) / step;
    assert_true(fabs(k - round(k)) < 1e-6);
  }
  /* Percentiles ascending, inside [min, max], p50 one of the times; the median's interval holds it. */
  for (int i = 0; i < LAT_NPERCENTILES; ++i) {
    assert_true(r.all_q.p_us[i] >= r.all.min_us && r.all_q.p_us[i] <= r.all.max_us);
    if (i > 0) assert_true(r.all_q.p_us[i - 1] <= r.all_q.p_us[i] && r.all_q.level[i - 1] < r.all_q.level[i]);
  }
  assert_true(r.all_q.median_ci_us[0] <= r.all_q.p_us[4] && r.all_q.p_us[4] <= r.all_q.median_ci_us[1]);
  assert_true(r.filtered_q.p_us[10] <= r.cut_off_us);
  /* Where the ranks ran: hosts, nodes (one machine here), the node bit. */
  assert_int_equal(r.source_place.rank, r.source);
  assert_int_equal(r.dest_place.rank, r.dest);
  assert_string_equal(r.source_place.host, r.source_host);
  assert_true((r.shared & LAT_SHARE_NODE) != 0);
  free(v);
  free(c);
  lat_histogram_free(&h);
}

/* minutes: ntrial chosen from Part 2's time per trial (a tenth of a second here: the number is not
   tested, only that it was chosen and measured). */
static void pingpong_minutes_chooses_ntrial(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.nr = 1 << 14;
  o.npptrial = 200;
  o.ntrial = 1; /* replaced */
  o.minutes = 0.01; /* the least: 0.6 s */
  lat_pingpong_result r;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_SUCCESS);
  assert_true(same_everywhere(&r, sizeof r));
  assert_true(r.ntrial > 1 && r.ntrial_done == r.ntrial);
  assert_true(r.minutes == o.minutes);
  /* minutes with a given npp and no Part 2 cannot time a trial: refused on every rank. */
  o.npp = 2;
  o.estimate = 0;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "minutes needs Part 2"));
}

/* The npp study: every value measured, ntrial each, in the order given; res_npp values turned into npp by
   the rule with Part 2's median; bad lists refused on every rank. */
static void npp_study_rows(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.nr = 1 << 14;
  o.npptrial = 200;
  o.ntrial = 300;
  const int64_t npps[3] = {1, 9, 4};
  lat_npp_study_row rows[3];
  lat_pingpong_result r;
  assert_int_equal(lat_npp_study(MPI_COMM_WORLD, &o, NULL, 3, npps, 0, &r, rows), LAT_SUCCESS);
  assert_true(same_everywhere(rows, sizeof rows));
  for (int i = 0; i < 3; ++i) {
    assert_int_equal(rows[i].npp, npps[i]);
    assert_int_equal(rows[i].res_npp, 0);
    assert_int_equal(rows[i].stats.count, 300);
    assert_true(rows[i].stats.min_us <= rows[i].q.p_us[8] && rows[i].q.p_us[8] <= rows[i].stats.max_us);
  }
  assert_int_equal(r.ntrial_done, 900);
  /* Interleaved to the end: with 20000 trials npp 64 needs two turns or more, and npp 1, done in its first,
     takes its turns on (extra trials); each value's chunks span the whole run. */
  o.ntrial = 20000;
  const int64_t two[2] = {1, 64};
  assert_int_equal(lat_npp_study(MPI_COMM_WORLD, &o, NULL, 2, two, 0, &r, rows), LAT_SUCCESS);
  const double run_end = rows[0].end_s > rows[1].end_s ? rows[0].end_s : rows[1].end_s;
  for (int i = 0; i < 2; ++i) {
    assert_true(rows[i].stats.count >= 20000 && rows[i].stats.count == 20000 + rows[i].extra);
    assert_true(rows[i].start_s < 0.5);
    assert_true(rows[i].end_s > run_end - 0.6);
  }
  assert_true(rows[0].extra > 0);
  o.ntrial = 300;
  const int64_t res[2] = {25, 400};
  assert_int_equal(lat_npp_study(MPI_COMM_WORLD, &o, NULL, 2, res, 1, &r, rows), LAT_SUCCESS);
  for (int i = 0; i < 2; ++i) {
    int64_t expected = 0;
    assert_int_equal(lat_npp_rule(res[i], r.res_timing_us, r.median_ppt_us, &expected), LAT_SUCCESS);
    assert_int_equal(rows[i].npp, expected);
    assert_int_equal(rows[i].res_npp, res[i]);
  }
  /* One rank with a duplicate: an error everywhere, naming it. */
  const int64_t dup[2] = {5, rank == size - 1 ? 5 : 6};
  assert_int_equal(lat_npp_study(MPI_COMM_WORLD, &o, NULL, 2, dup, 0, &r, rows), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "the value 5 twice"));
  assert_int_equal(lat_npp_study(MPI_COMM_WORLD, &o, NULL, 0, npps, 0, &r, rows), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "1 to 64 values, got 0"));
  o.npp = 3;
  assert_int_equal(lat_npp_study(MPI_COMM_WORLD, &o, NULL, 3, npps, 0, &r, rows), LAT_ERR_ARG);
  assert_int_equal(lat_npp_study_check(&o, size, 3, npps, 0), LAT_ERR_ARG);
  o.npp = 0;
  assert_int_equal(lat_npp_study_check(&o, size, 3, npps, 0), LAT_SUCCESS);
}

static void pingpong_calculated_npp(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.nr = 1 << 16; /* no calibration passed: done on source */
  o.npptrial = 300;
  o.npp_init = 4;
  o.res_npp = 200;
  o.ntrial = 300;
  o.n = 16;
  o.cut_coef = 1.5;
  lat_pingpong_result r;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_SUCCESS);
  assert_true(same_everywhere(&r, sizeof r));
  int64_t expected = 0;
  assert_int_equal(lat_npp_rule(200, r.res_timing_us, r.median_ppt_us, &expected), LAT_SUCCESS);
  assert_true(r.median_ppt_us > 0.0);
  assert_int_equal(r.npp_calculated, expected);
  assert_int_equal(r.npp_used, expected);
  assert_int_equal(r.npptrial, 300);
  assert_int_equal(r.bytes, 128);
  check_pingpong_counts(&r, NULL);
}

static void pingpong_other_ranks_and_bytes(void **state) {
  (void)state;
  if (size < 4) skip();
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.source = 3;
  o.dest = 1;
  o.bytes = 0;
  o.npp = 2;
  o.estimate = 0; /* Part 2 not wanted here */
  o.nr = 1 << 14;
  o.ntrial = 200;
  lat_pingpong_result r;
  lat_histogram h = NULL;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, rank == 2 ? &h : NULL), LAT_SUCCESS);
  assert_true(same_everywhere(&r, sizeof r));
  assert_int_equal(r.source, 3);
  assert_int_equal(r.dest, 1);
  assert_int_equal(r.bytes, 0);
  assert_int_equal(r.n, -1);
  assert_true(r.all.rate_min_mbs == 0.0);
  check_pingpong_counts(&r, h);
  if (rank != 2) assert_null(h);
  lat_histogram_free(&h);
}

/* The library talks on its own duplicate: a wildcard receive on the caller's communicator sees nothing. */
static void caller_comm_untouched(void **state) {
  (void)state;
  double buf[4];
  MPI_Request req;
  watch_caller_comm(&req, buf);
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.npp = 1;
  o.estimate = 0; /* Part 2 not wanted here */
  o.nr = 1 << 12;
  o.ntrial = 100;
  lat_pingpong_result r;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_SUCCESS);
  lat_timer_options to;
  lat_timer_defaults(&to);
  to.nr = 1 << 12;
  lat_timer_result t;
  assert_int_equal(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_SUCCESS);
  caller_comm_received_nothing(&req);
}

static void collective_argument_errors(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_result r;
  lat_pingpong_defaults(&o);
  o.npp = 1;
  o.estimate = 0; /* Part 2 not wanted here */
  o.nr = 1 << 12;
  o.ntrial = rank == 1 ? 0 : 10; /* bad on one rank only */
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG,
                    "rank 1: ntrial must be >= 1, got 0");
  o.ntrial = 10 + rank; /* valid everywhere, but different */
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG,
                    "ntrial must be the same on all ranks");
  o.ntrial = 10;
  o.dest = 0;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG,
                    "source and dest must differ");
  o.dest = size;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG, "dest must be a rank");
  o.dest = LAT_LAST_RANK;
  o.source = -3;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG, "got -3");
  o.source = 0;
  o.npp = -1;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG, "npp must be >= 0");
  o.npp = 1;
  o.estimate = 0; /* Part 2 not wanted here */
  o.bytes = -5;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG, "bytes must be >= 0");
  o.bytes = -1;
  o.n = -1;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG, "n must be >= 0");
  o.n = 1;
  o.cut_coef = NAN;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG, "cut_coef");
  o.cut_coef = 2.0;
  o.timeout_s = rank == 1 ? -1.0 : 5.0;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG,
                    "rank 1: timeout_s must be a number of seconds in 0..31536000");
  o.timeout_s = rank == 0 ? INFINITY : 5.0;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG, "rank 0: timeout_s");
  o.timeout_s = 5.0 + rank;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG,
                    "timeout_s must be the same on all ranks");
  o.timeout_s = 0.0;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, NULL, NULL, &r, NULL), LAT_ERR_ARG, "opts must not be NULL");
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, NULL, NULL), LAT_ERR_ARG, "result must not be NULL");
  o.nr = rank == 0 ? 0 : 100; /* only the source calibrates, so only it can complain */
  expect_everywhere(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG, "rank 0: nr must be >= 1");
  o.nr = 100;
  expect_everywhere(lat_pingpong_stats(MPI_COMM_NULL, &o, NULL, &r, NULL), LAT_ERR_ARG, "MPI_COMM_NULL");
  expect_everywhere(lat_pingpong_stats(MPI_COMM_SELF, &o, NULL, &r, NULL), LAT_ERR_ARG, "at least 2 processes");

  lat_timer_options to;
  lat_timer_result t;
  lat_timer_defaults(&to);
  to.nr = 100;
  to.rank = size;
  expect_everywhere(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_ERR_ARG, "rank must be -1");
  to.rank = LAT_ALL_RANKS;
  to.nr = rank == size - 1 ? -4 : 100;
  expect_everywhere(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_ERR_ARG, "nr must be >= 1, got -4");
  to.nr = 100;
  to.timeout_s = rank == size - 1 ? NAN : 1.0;
  expect_everywhere(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_ERR_ARG, "timeout_s must be a number of seconds in 0..31536000");
  to.timeout_s = rank;
  expect_everywhere(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_ERR_ARG,
                    "timeout_s must be the same on all ranks");
  to.timeout_s = 0.0;
  expect_everywhere(lat_calibrate_timer(MPI_COMM_WORLD, NULL, &t, NULL), LAT_ERR_ARG, "opts must not be NULL");
  expect_everywhere(lat_calibrate_timer(MPI_COMM_WORLD, &to, NULL, NULL), LAT_ERR_ARG, "result must not be NULL");
  to.timer = 7;
  expect_everywhere(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_ERR_ARG, "timer must be");
  /* after all that, a good call still works */
  to.timer = LAT_TIMER_MPI_WTIME;
  assert_int_equal(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_SUCCESS);
}

static void stop_request_gives_partial_results(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.npp = 1;
  o.estimate = 0; /* Part 2 not wanted here */
  o.nr = 1 << 12;
  o.ntrial = 1000;
  lat_pingpong_result r;
  lat_request_stop();
  int rc = lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL);
  lat_clear_stop();
  assert_int_equal(rc, LAT_ERR_INTERRUPTED);
  assert_int_equal(r.partial, 1);
  assert_true(r.ntrial_done < r.ntrial);
  assert_true(same_everywhere(&r, sizeof r));
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_SUCCESS);
  assert_int_equal(r.partial, 0);
  assert_int_equal(r.ntrial_done, 1000);
}

/* A signal that reaches only dest (the last rank) still stops the run, and every rank hears of it. */
static void stop_request_on_dest_only(void **state) {
  (void)state;
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.npp = 1;
  o.estimate = 0; /* Part 2 not wanted here */
  o.nr = 1 << 12;
  o.ntrial = 100000;
  lat_pingpong_result r;
  if (rank == size - 1) lat_request_stop();
  int rc = lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL);
  lat_clear_stop();
  assert_int_equal(rc, LAT_ERR_INTERRUPTED);
  assert_int_equal(r.partial, LAT_PARTIAL_STOPPED);
  assert_true(r.ntrial_done < r.ntrial);
  assert_true(same_everywhere(&r, sizeof r));
}

/* A rank that calls 3 s late, with a 1 s watchdog: the others get LAT_ERR_TIMEOUT naming the phase and
   the ranks, and so does the late one (the others are gone by then): an error everywhere, no hang.
   Last in the file: the abandoned requests stay pending. */
static void late_rank_is_a_timeout(void **state) {
  (void)state;
  lat_timer_options to;
  lat_timer_result t;
  lat_timer_defaults(&to);
  to.nr = 100;
  to.timeout_s = 1.0;
  if (rank == 1) sleep(3);
  const int rc = lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL);
  assert_int_equal(rc, LAT_ERR_TIMEOUT);
  char want[128];
  snprintf(want, sizeof want, "rank %d: timeout: no answer from ranks 0..%d within", rank, size - 1);
  assert_non_null(strstr(lat_last_error_message(), want));
  assert_non_null(strstr(lat_last_error_message(), rank == 1 ? "(phase 'argument check'" : "(phase 'start'"));
}

int main(int argc, char **argv) {
  mpi_tests_begin(&argc, &argv, &rank, &size);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(calibrate_on_one_rank),       cmocka_unit_test(calibrate_on_every_rank),
      cmocka_unit_test(pingpong_fixed_npp),          cmocka_unit_test(pingpong_calculated_npp),
      cmocka_unit_test(pingpong_precision_between_launches),
      cmocka_unit_test(pingpong_given_npp_still_estimates), cmocka_unit_test(pingpong_minutes_chooses_ntrial),
      cmocka_unit_test(npp_study_rows),
      cmocka_unit_test(pingpong_other_ranks_and_bytes), cmocka_unit_test(caller_comm_untouched),
      cmocka_unit_test(collective_argument_errors),  cmocka_unit_test(stop_request_gives_partial_results),
      cmocka_unit_test(stop_request_on_dest_only),   cmocka_unit_test(late_rank_is_a_timeout),
  };
  return mpi_tests_end(cmocka_run_group_tests(tests, NULL, NULL));
}
