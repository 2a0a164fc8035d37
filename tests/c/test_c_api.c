/* test_c_api.c: the C ABI without MPI traffic: statistics against hand-computed values, the npp rule,
   Appendix C through our definitions and writer, and every error path that needs no communicator. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "mpilat.h"

#define assert_close(a, b, rel) assert_true(fabs((a) - (b)) <= (rel) * fmax(fabs(a), fabs(b)) + 1e-300)

static void stats_hand_computed_even(void **state) {
  (void)state;
  const double v[] = {4.0, 1.0, 3.0, 2.0};
  lat_stats s;
  assert_int_equal(lat_stats_compute(4, v, 8, &s), LAT_SUCCESS);
  assert_int_equal(s.count, 4);
  assert_true(s.min_us == 1.0 && s.max_us == 4.0);
  assert_true(s.median_us == 2.5);            /* mean of the two middle values */
  assert_true(s.mean_us == 2.5);
  assert_close(s.variance_us2, 5.0 / 3.0, 1e-15); /* sum of squares 5, divisor n - 1 */
  assert_close(s.stddev_us, sqrt(5.0 / 3.0), 1e-15);
  assert_close(s.cv_percent, 100.0 * sqrt(5.0 / 3.0) / 2.5, 1e-15);
  assert_close(s.stderr_us, sqrt(5.0 / 3.0) / 2.0, 1e-15);
  assert_close(s.rse, sqrt(5.0 / 3.0) / 2.0 / 2.5, 1e-15);
  assert_true(s.rate_min_mbs == 8.0 && s.rate_max_mbs == 2.0);
  assert_close(s.rate_median_mbs, 3.2, 1e-15);
  assert_close(s.rate_mean_mbs, 3.2, 1e-15);
}

static void stats_hand_computed_odd_and_single(void **state) {
  (void)state;
  const double v[] = {5.0, 1.0, 3.0, 3.0, 100.0};
  lat_stats s;
  assert_int_equal(lat_stats_compute(5, v, 0, &s), LAT_SUCCESS);
  assert_true(s.median_us == 3.0);
  assert_close(s.mean_us, 22.4, 1e-15);
  assert_true(s.rate_min_mbs == 0.0); /* a 0-byte message moves 0 MB/s */
  const double one = 7.5;
  assert_int_equal(lat_stats_compute(1, &one, 8, &s), LAT_SUCCESS);
  assert_true(s.median_us == 7.5 && s.variance_us2 == 0.0 && s.stderr_us == 0.0);
  assert_int_equal(lat_stats_compute(0, NULL, 8, &s), LAT_SUCCESS);
  assert_int_equal(s.count, 0);
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The tally keeps counts per distinct value: its statistics must equal a direct pass over raw samples. */
static void stats_exact_against_direct(void **state) {
  (void)state;
  const int64_t n = 1 << 20;
  double *v = malloc((size_t)n * sizeof *v);
  assert_non_null(v);
  srand(12345);
  for (int64_t i = 0; i < n; ++i) { /* quantised like a timer: 0.2384 us steps, a long tail */
    int k = 5 + rand() % 4 + ((rand() % 1000) == 0 ? rand() % 4000 : 0);
    v[i] = k * 0.2384185791015625;
  }
  lat_stats s;
  assert_int_equal(lat_stats_compute(n, v, 8, &s), LAT_SUCCESS);
  double sum = 0, mn = v[0], mx = v[0];
  for (int64_t i = 0; i < n; ++i) {
    sum += v[i];
    mn = fmin(mn, v[i]);
    mx = fmax(mx, v[i]);
  }
  const double mean = sum / n;
  double ss = 0;
  for (int64_t i = 0; i < n; ++i) ss += (v[i] - mean) * (v[i] - mean);
  qsort(v, (size_t)n, sizeof *v, cmp);
  const double median = 0.5 * (v[n / 2 - 1] + v[n / 2]);
  assert_true(s.min_us == mn && s.max_us == mx && s.median_us == median);
  assert_close(s.mean_us, mean, 1e-12);
  assert_close(s.variance_us2, ss / (n - 1), 1e-10);
  free(v);
}

static void npp_rule_cases(void **state) {
  (void)state;
  int64_t npp = -7;
  assert_int_equal(lat_npp_rule(50, 1.0, 2.0, &npp), LAT_SUCCESS);
  assert_int_equal(npp, 25); /* the paper's example: 1 us resolution, 2 us ping-pong */
  assert_int_equal(lat_npp_rule(50, 0.954, 2.6, &npp), LAT_SUCCESS);
  assert_int_equal(npp, 18); /* nint(18.35): Appendix C's lightning run */
  assert_int_equal(lat_npp_rule(50, 0.02, 5.0, &npp), LAT_SUCCESS);
  assert_int_equal(npp, 1); /* 0.2 < 1: max(1, ...) */
  assert_int_equal(lat_npp_rule(50, 0.0, 5.0, &npp), LAT_SUCCESS);
  assert_int_equal(npp, 1); /* res_timing 0: no positive difference was seen */
  assert_int_equal(lat_npp_rule(1, 2.5, 1.0, &npp), LAT_SUCCESS);
  assert_int_equal(npp, 3); /* nint rounds halves away from zero */
  assert_int_equal(lat_npp_rule(1, 1.49, 1.0, &npp), LAT_SUCCESS);
  assert_int_equal(npp, 1);
  assert_int_equal(lat_npp_rule(1, 1.5, 1.0, &npp), LAT_SUCCESS);
  assert_int_equal(npp, 2);
  assert_int_equal(lat_npp_rule(50, 1.0, 0.0, &npp), LAT_SUCCESS);
  assert_int_equal(npp, LAT_NPP_MAX); /* a median of 0 asks for "infinitely many": capped */
  assert_int_equal(lat_npp_rule(0, 1.0, 1.0, &npp), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "res_npp must be >= 1, got 0"));
  assert_int_equal(lat_npp_rule(50, -1.0, 1.0, &npp), LAT_ERR_ARG);
  assert_int_equal(lat_npp_rule(50, 1.0, NAN, &npp), LAT_ERR_ARG);
  assert_int_equal(lat_npp_rule(50, 1.0, 1.0, NULL), LAT_ERR_ARG);
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = calloc((size_t)len + 1, 1);
  if (fread(s, 1, (size_t)len, f) != (size_t)len) len = 0;
  fclose(f);
  return s;
}

/* Statistics of Appendix C from its min, median, mean, max, standard deviation and counts by our
   definitions; the printed summary must be Appendix C, line for line. */
static void fill_from_appendix(lat_stats *s, int64_t count, double mn, double med, double mean, double mx,
                               double sd) {
  s->count = count;
  s->min_us = mn;
  s->median_us = med;
  s->mean_us = mean;
  s->max_us = mx;
  s->stddev_us = sd;
  s->variance_us2 = sd * sd;
  s->cv_percent = 100.0 * sd / mean;
  s->stderr_us = sd / sqrt((double)count);
  s->rse = s->stderr_us / mean;
  s->rate_min_mbs = 8.0 / mn;
  s->rate_median_mbs = 8.0 / med;
  s->rate_mean_mbs = 8.0 / mean;
  s->rate_max_mbs = 8.0 / mx;
}

static void appendix_c_summary(void **state) {
  (void)state;
  lat_timer_result t;
  memset(&t, 0, sizeof t);
  t.nr = t.nr_requested = 16777216;
  t.res_timing_us = 0.954;
  t.min_ov_us = 0.954;
  lat_pingpong_result p;
  memset(&p, 0, sizeof p);
  p.nprocs = 8;
  p.source = 0;
  p.dest = 7;
  p.n = 1;
  p.bytes = 8;
  p.npptrial = 8388608;
  p.npp_init = 10;
  p.res_npp = 50;
  p.npp_calculated = 18;
  p.npp_used = 18;
  p.ntrial = p.ntrial_done = 8388608;
  p.cut_coef = 2.0;
  p.n_kept = 8387483;
  p.n_removed = 1125;
  /* The paper prints 4 digits; these standard deviations lie inside its rounding (0.3825, 0.03473) and
     reproduce every printed digit of variance, CV, standard error and RSE under our definitions. */
  fill_from_appendix(&p.all, 8388608, 1.2451, 1.3113, 1.3227, 570.8072, 0.382520);
  fill_from_appendix(&p.filtered, 8387483, 1.2451, 1.3113, 1.3219, 2.6160, 0.0347349);

  char dir[] = "/tmp/mpilat-test-XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_int_equal(lat_write_latency_files(dir, "latency", 46.83 * 60.0, &t, NULL, &p, NULL), LAT_SUCCESS);
  char path[512], expected_path[512];
  snprintf(path, sizeof path, "%s/latency.summary.output", dir);
  const char *data = getenv("MPILAT_TEST_DATA");
  snprintf(expected_path, sizeof expected_path, "%s/appendix_c.summary", data ? data : "tests/data");
  char *got = read_file(path), *want = read_file(expected_path);
  assert_non_null(got);
  assert_non_null(want);
  /* Appendix C is the summary's beginning; our "TIMER USED" block follows its last line. */
  assert_int_equal(strncmp(got, want, strlen(want)), 0);
  assert_non_null(strstr(got + strlen(want), "\nTIMER USED\n\ntimer = mpi_wtime\n"));
  free(got);
  free(want);
  const char *names[] = {"latency.summary.output", "latency.output", "latency.json"};
  for (int k = 0; k < 3; ++k) {
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    assert_int_equal(unlink(path), 0);
  }
  assert_int_equal(rmdir(dir), 0);
}

static void write_files_whole_or_not_at_all(void **state) {
  (void)state;
  lat_pingpong_result p;
  memset(&p, 0, sizeof p);
  char dir[] = "/tmp/mpilat-test-XXXXXX";
  assert_non_null(mkdtemp(dir));
  /* An existing file survives a failed run untouched. */
  char path[512];
  snprintf(path, sizeof path, "%s/latency.output", dir);
  FILE *f = fopen(path, "w");
  fputs("old results\n", f);
  fclose(f);
  assert_int_equal(chmod(dir, 0555), 0);
  if (geteuid() == 0) {
    /* root writes anyway; a directory that cannot be made (under a file) fails for everyone */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/latency.output/missing", dir);
    assert_int_equal(lat_write_latency_files(missing, "", 0.0, NULL, NULL, &p, NULL), LAT_ERR_IO);
    assert_int_equal(lat_check_output_dir(missing), LAT_ERR_IO);
    assert_non_null(strstr(lat_last_error_message(), "missing"));
  } else {
    assert_int_equal(lat_write_latency_files(dir, "", 0.0, NULL, NULL, &p, NULL), LAT_ERR_IO);
    assert_int_equal(lat_check_output_dir(dir), LAT_ERR_IO);
  }
  chmod(dir, 0755);
  /* A directory that does not exist yet is made, with its parents. */
  char deeper[600], made[600];
  snprintf(made, sizeof made, "%s/new", dir);
  snprintf(deeper, sizeof deeper, "%s/new/deeper", dir);
  assert_int_equal(lat_check_output_dir(deeper), LAT_SUCCESS);
  assert_int_equal(rmdir(deeper), 0);
  assert_int_equal(rmdir(made), 0);
  char *old = read_file(path);
  assert_string_equal(old, "old results\n");
  free(old);
  unlink(path);
  assert_int_equal(rmdir(dir), 0); /* nothing else was left behind: no temporary files */
  assert_int_equal(lat_write_latency_files("/tmp", "", 0.0, NULL, NULL, NULL, NULL), LAT_ERR_ARG);
  assert_int_equal(lat_write_latency_files("/tmp", "", -1.0, NULL, NULL, &p, NULL), LAT_ERR_ARG);
  /* A caller's result is read within its arrays only (issue 45: a large nlevels crashed the plots' writer). */
  p.nlevels = 1000;
  assert_int_equal(lat_write_latency_plots("/tmp", &p, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "pp->nlevels must be in 0..4, got 1000");
  assert_int_equal(lat_write_latency_files("/tmp", "", 0.0, NULL, NULL, &p, NULL), LAT_ERR_ARG);
  p.nlevels = 0;
  p.nchanges = -1;
  assert_int_equal(lat_write_latency_files("/tmp", "", 0.0, NULL, NULL, &p, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "pp->nchanges must be >= 0, got -1");
  /* nchanges counts every state change; the arrays hold the first LAT_MAX_CHANGES (a run's own result says
     112 after a disturbed minute): written. */
  p.nchanges = LAT_MAX_CHANGES + 104;
  char many[] = "/tmp/mpilat-test-XXXXXX";
  assert_non_null(mkdtemp(many));
  assert_int_equal(lat_write_latency_files(many, "", 0.0, NULL, NULL, &p, NULL), LAT_SUCCESS);
  const char *written[] = {"latency.summary.output", "latency.output", "latency.json"};
  for (int k = 0; k < 3; ++k) {
    char file[600];
    snprintf(file, sizeof file, "%s/%s", many, written[k]);
    assert_int_equal(unlink(file), 0);
  }
  assert_int_equal(rmdir(many), 0);
  p.nchanges = 0;
  memset(p.dest_host, 'x', sizeof p.dest_host);
  assert_int_equal(lat_write_latency_plots("/tmp", &p, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "pp->dest_host must end (a NUL) within its 256 bytes");
  p.dest_host[0] = '\0';
}

/* The npp study's files from given rows: the table, the CSV row per value, whole (no plot: render 0). */
static void npp_study_files(void **state) {
  (void)state;
  lat_pingpong_result p;
  memset(&p, 0, sizeof p);
  p.bytes = 8;
  p.estimate = 1;
  p.npp_calculated = 18;
  lat_npp_study_row rows[2];
  memset(rows, 0, sizeof rows);
  const double v[4] = {1.0, 2.0, 3.0, 10.0};
  for (int i = 0; i < 2; ++i) {
    rows[i].npp = i == 0 ? 1 : 36;
    assert_int_equal(lat_stats_compute(4, v, 8, &rows[i].stats), LAT_SUCCESS);
    assert_int_equal(lat_quantiles_compute(4, v, &rows[i].q), LAT_SUCCESS);
  }
  char dir[] = "/tmp/mpilat-study-XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_int_equal(lat_write_npp_study_files(dir, "latency --npp-study 1,36", &p, 2, rows, 0), LAT_SUCCESS);
  char path[600];
  snprintf(path, sizeof path, "%s/latency.npp.csv", dir);
  char *csv = read_file(path);
  /* The variance as in the paper's tables: (9 + 4 + 1 + 36) / 3 = 16.6667 us^2 (the SD's square). */
  assert_string_equal(csv, "npp,res_npp,trials,extra_trials,min_us,median_us,mean_us,max_us,variance_us2,stddev_us,p99_us,start_s,end_s\n"
                           "1,0,4,0,1.000000,2.500000,4.000000,10.000000,16.6667,4.082483,10.000000,0.000,0.000\n"
                           "36,0,4,0,1.000000,2.500000,4.000000,10.000000,16.6667,4.082483,10.000000,0.000,0.000\n");
  free(csv);
  const char *names[] = {"latency.npp.csv", "latency.npp.txt", "latency.npp.json", "latency.npp.gp"};
  for (int i = 0; i < 4; ++i) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    assert_int_equal(unlink(path), 0);
  }
  assert_int_equal(rmdir(dir), 0); /* nothing else: no temporary files, no plot */
}

/* lat_compare_*: the same samples give no difference; the same shifted by 5 % give "higher" with an interval
   covering 1.05; launches need 3 a group; bad values are named. */
static void comparisons(void **state) {
  (void)state;
  enum { n = 20000 };
  static double a[n], b[n];
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift: a deterministic spread of 0..10 % */
    a[i] = 1.0 + 0.1 * (double)(x >> 11) / 9007199254740992.0;
    b[i] = 1.05 * a[i];
  }
  lat_compare_options o;
  assert_int_equal(lat_compare_defaults(&o), LAT_SUCCESS);
  assert_true(o.confidence == 0.95 && o.resamples == 10000 && o.seed == 1);
  assert_int_equal(lat_compare_check(&o), LAT_SUCCESS);
  o.confidence = 1.5;
  assert_int_equal(lat_compare_check(&o), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "confidence must be in (0, 1), got 1.5");
  o.confidence = 0.95;
  o.resamples = 99;
  assert_int_equal(lat_compare_check(&o), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "resamples must be in 100..10000000, got 99");
  o.resamples = 10000;
  assert_int_equal(lat_compare_check(NULL), LAT_ERR_ARG);
  lat_compare_result r;
  assert_int_equal(lat_compare_distributions(n, a, NULL, n, a, NULL, 0.5, &o, &r), LAT_SUCCESS);
  assert_int_equal(r.verdict, LAT_VERDICT_UNRESOLVED);
  assert_int_equal(r.method, LAT_METHOD_TRIALS);
  assert_true(r.ratio == 1.0 && r.ratio_low < 1.0 && r.ratio_high > 1.0 && r.a_count == n);
  assert_int_equal(lat_compare_distributions(n, a, NULL, n, b, NULL, 0.5, &o, &r), LAT_SUCCESS);
  assert_int_equal(r.verdict, LAT_VERDICT_B_HIGHER);
  assert_true(r.ratio_low > 1.0 && r.ratio_low <= 1.05 && 1.05 <= r.ratio_high);
  assert_int_equal(lat_compare_distributions(n, b, NULL, n, a, NULL, 0.99, &o, &r), LAT_SUCCESS);
  assert_int_equal(r.verdict, LAT_VERDICT_B_LOWER);
  /* A frequency table and the samples it counts are the same thing. */
  const double tv[3] = {3.0, 1.0, 2.0};
  const int64_t tc[3] = {1, 5, 2};
  const double raw[8] = {1, 1, 1, 1, 1, 2, 2, 3};
  lat_compare_result t1, t2;
  assert_int_equal(lat_compare_distributions(3, tv, tc, 8, raw, NULL, 0.5, &o, &t1), LAT_SUCCESS);
  assert_int_equal(lat_compare_distributions(8, raw, NULL, 3, tv, tc, 0.5, &o, &t2), LAT_SUCCESS);
  assert_true(t1.a_value == 1.0 && t1.b_value == 1.0 && t2.a_count == 8 && t1.a_count == 8);
  /* Launches: five a group, 5 % apart with 1 % spread. */
  const double la[5] = {1.00, 1.01, 0.99, 1.005, 0.995}, lb[5] = {1.05, 1.06, 1.04, 1.055, 1.045};
  assert_int_equal(lat_compare_launches(5, la, 5, lb, &o, &r), LAT_SUCCESS);
  assert_int_equal(r.method, LAT_METHOD_LAUNCHES);
  assert_int_equal(r.verdict, LAT_VERDICT_B_HIGHER);
  assert_true(fabs(r.ratio - 1.05) < 1e-12 && r.ratio_low <= 1.05 && 1.05 <= r.ratio_high);
  assert_int_equal(lat_compare_launches(5, la, 5, la, &o, &r), LAT_SUCCESS);
  assert_int_equal(r.verdict, LAT_VERDICT_UNRESOLVED);
  /* Errors. */
  assert_int_equal(lat_compare_launches(2, la, 5, lb, &o, &r), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "at least 3 launches a group, got 2"));
  const double neg[3] = {1.0, -1.0, 2.0};
  assert_int_equal(lat_compare_launches(3, neg, 3, la, &o, &r), LAT_ERR_ARG);
  assert_int_equal(lat_compare_distributions(3, neg, NULL, 3, la, NULL, 0.5, &o, &r), LAT_ERR_ARG);
  assert_int_equal(lat_compare_distributions(3, la, NULL, 3, la, NULL, 1.0, &o, &r), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "q must be in (0, 1), got 1"));
  assert_int_equal(lat_compare_distributions(0, la, NULL, 3, la, NULL, 0.5, &o, &r), LAT_ERR_ARG);
  o.confidence = 1.5;
  assert_int_equal(lat_compare_launches(5, la, 5, lb, &o, &r), LAT_ERR_ARG);
  assert_int_equal(lat_compare_launches(5, la, 5, lb, &o, NULL), LAT_ERR_ARG);
  /* The report writer: plain file names only, whole or not at all. */
  const char *names[2] = {"r.txt", "../escape.txt"}, *contents[2] = {"x\n", "y\n"};
  assert_int_equal(lat_write_report_files("/tmp", 2, names, contents, 0), LAT_ERR_ARG);
  assert_int_equal(lat_write_report_files("/tmp", 0, names, contents, 0), LAT_ERR_ARG);
  char dir[] = "/tmp/mpilat-report-XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_int_equal(lat_write_report_files(dir, 1, names, contents, 0), LAT_SUCCESS);
  char path[600];
  snprintf(path, sizeof path, "%s/r.txt", dir);
  char *got = read_file(path);
  assert_string_equal(got, "x\n");
  free(got);
  unlink(path);
  assert_int_equal(rmdir(dir), 0);
}

static void errors_and_versions(void **state) {
  (void)state;
  for (int code = LAT_SUCCESS; code <= LAT_ERR_INTERRUPTED; ++code) {
    assert_non_null(lat_strerror(code));
    assert_string_not_equal(lat_strerror(code), "unknown mpilat error code");
  }
  assert_string_equal(lat_strerror(999), "unknown mpilat error code");
  assert_int_equal(lat_get_api_version(), LAT_API_VERSION);
  int major = -1, minor = -1, patch = -1;
  assert_int_equal(lat_get_version(&major, &minor, &patch), LAT_SUCCESS);
  assert_int_equal(major, MPILAT_VERSION_MAJOR);
  assert_int_equal(lat_get_version(NULL, NULL, NULL), LAT_SUCCESS);
}

static void null_and_range_errors(void **state) {
  (void)state;
  assert_int_equal(lat_timer_defaults(NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "opts must not be NULL");
  assert_int_equal(lat_pingpong_defaults(NULL), LAT_ERR_ARG);
  lat_stats s;
  assert_int_equal(lat_stats_compute(-1, NULL, 8, &s), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "got -1"));
  assert_int_equal(lat_stats_compute(3, NULL, 8, &s), LAT_ERR_ARG);
  const double bad[] = {1.0, INFINITY};
  assert_int_equal(lat_stats_compute(2, bad, 8, &s), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "values_us[1]"));
  assert_int_equal(lat_stats_compute(1, bad, -8, &s), LAT_ERR_ARG);
  assert_int_equal(lat_stats_compute(1, bad, 8, NULL), LAT_ERR_ARG);
  lat_quantiles q;
  assert_int_equal(lat_quantiles_compute(-1, NULL, &q), LAT_ERR_ARG);
  assert_int_equal(lat_quantiles_compute(2, bad, &q), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "values_us[1]"));
  assert_int_equal(lat_quantiles_compute(1, bad, NULL), LAT_ERR_ARG);
  lat_pingpong_result pr;
  memset(&pr, 0, sizeof pr);
  lat_npp_study_row row;
  memset(&row, 0, sizeof row);
  assert_int_equal(lat_write_npp_study_files("/tmp", "", &pr, 0, &row, 0), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "nrows must be in 1..64, got 0"));
  assert_int_equal(lat_write_npp_study_files("/tmp", "", &pr, 1, NULL, 0), LAT_ERR_ARG);
  assert_int_equal(lat_write_npp_study_files("/tmp", "", &pr, 1, &row, 2), LAT_ERR_ARG);
  assert_int_equal(lat_write_latency_plots("/tmp", &pr, NULL), LAT_ERR_ARG);
  lat_pingpong_options po;
  lat_pingpong_defaults(&po);
  const int64_t dup[3] = {1, 9, 9};
  assert_int_equal(lat_npp_study_check(&po, 2, 3, dup, 0), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "the npp study has the value 9 twice");
  assert_int_equal(lat_npp_study_check(&po, 2, 65, dup, 0), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "the npp study must have 1 to 64 values, got 65");
  po.minutes = -1.0;
  assert_int_equal(lat_pingpong_check(&po, 2, NULL), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "minutes must be"));
  int64_t n;
  assert_int_equal(lat_histogram_size(NULL, &n), LAT_ERR_ARG);
  assert_int_equal(lat_histogram_get(NULL, 1, NULL, NULL), LAT_ERR_ARG);
  assert_int_equal(lat_histogram_free(NULL), LAT_ERR_ARG);
  lat_histogram h = NULL;
  assert_int_equal(lat_histogram_free(&h), LAT_SUCCESS);
  int timer = -1, avail = -1;
  assert_int_equal(lat_timer_from_name("monotonic_raw", &timer), LAT_SUCCESS);
  assert_int_equal(timer, LAT_TIMER_MONOTONIC_RAW);
  assert_int_equal(lat_timer_from_name("rdtsc", &timer), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "'rdtsc'"));
  assert_int_equal(lat_timer_from_name(NULL, &timer), LAT_ERR_ARG);
  assert_int_equal(lat_timer_available(LAT_TIMER_MPI_WTIME, &avail), LAT_SUCCESS);
  assert_int_equal(avail, 1);
  assert_int_equal(lat_timer_available(42, &avail), LAT_SUCCESS);
  assert_int_equal(avail, 0);
  assert_string_equal(lat_timer_name(42), "unknown");
  assert_string_equal(lat_timer_name(LAT_TIMER_TSC), "tsc");
  assert_string_equal(lat_timer_names(), "mpi_wtime, monotonic_raw or tsc");
}

/* Before MPI_Init the measuring calls say so instead of crashing. */
static void measuring_before_mpi_init(void **state) {
  (void)state;
  lat_timer_options to;
  lat_timer_result tr;
  lat_timer_defaults(&to);
  assert_int_equal(lat_calibrate_timer(MPI_COMM_WORLD, &to, &tr, NULL), LAT_ERR_NOT_INIT);
  assert_non_null(strstr(lat_last_error_message(), "MPI_Init"));
  lat_pingpong_options po;
  lat_pingpong_result pr;
  lat_pingpong_defaults(&po);
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &po, NULL, &pr, NULL), LAT_ERR_NOT_INIT);
  assert_int_equal(lat_calibrate_timer(MPI_COMM_WORLD, NULL, &tr, NULL), LAT_ERR_ARG);
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &po, NULL, NULL, NULL), LAT_ERR_ARG);
}

static void defaults_are_appendix_c(void **state) {
  (void)state;
  lat_pingpong_options po;
  assert_int_equal(lat_pingpong_defaults(&po), LAT_SUCCESS);
  assert_int_equal(po.nr, 16777216);
  assert_int_equal(po.npptrial, 8388608);
  assert_int_equal(po.ntrial, 8388608);
  assert_int_equal(po.res_npp, 50);
  assert_int_equal(po.npp, 0);
  assert_int_equal(po.n, 1);
  assert_int_equal(po.bytes, -1);
  assert_int_equal(po.source, 0);
  assert_int_equal(po.dest, LAT_LAST_RANK);
  assert_true(po.cut_coef == 2.0);
  assert_int_equal(po.estimate, 1);
  assert_true(po.minutes == 0.0);
  lat_timer_options to;
  assert_int_equal(lat_timer_defaults(&to), LAT_SUCCESS);
  assert_int_equal(to.nr, 16777216);
  assert_int_equal(to.rank, LAT_ALL_RANKS);
}


/* ---- lat_sweep_run: the sweep engine through the C ABI, with a C measuring function ---------------- */

struct synthetic {
  int calls;
  int fail_at; /* the call that returns an error, or 0 */
  double bad_time;
};

/* 2 us + 1 ns per byte, and 3 us more above 8250 bytes (an eager/rendezvous threshold). */
static int synthetic_curve(int64_t size, void *context, double *time_us) {
  struct synthetic *s = context;
  s->calls++;
  if (s->fail_at && s->calls == s->fail_at) return LAT_ERR_IO;
  *time_us = s->bad_time != 0.0 ? s->bad_time : 2.0 + 0.001 * (double)size + (size > 8250 ? 3.0 : 0.0);
  return LAT_SUCCESS;
}

/* The comparison over launches keeps its stated confidence: 300 comparisons of identical groups (launch
   values lognormal, 2 % apart from launch to launch, a fixed seed) claim a difference at most at the nominal
   rate plus twice its sampling error; 3 and 3 launches reach 90 % at most (1 - 2/20). The power against a
   5 % shift is printed for docs/compare.md. */
static uint64_t sim_state = 12345;
static double sim_normal(void) { /* Box-Muller on a 64-bit LCG: deterministic on every platform */
  sim_state = sim_state * 6364136223846793005ULL + 1442695040888963407ULL;
  const double u1 = ((double)(sim_state >> 11) + 0.5) / 9007199254740992.0;
  sim_state = sim_state * 6364136223846793005ULL + 1442695040888963407ULL;
  const double u2 = ((double)(sim_state >> 11) + 0.5) / 9007199254740992.0;
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
static int sim_claims(int n, double shift, double confidence, int trials) {
  lat_compare_options o;
  lat_compare_defaults(&o);
  o.confidence = confidence;
  int claims = 0;
  for (int t = 0; t < trials; ++t) {
    double a[8], b[8];
    for (int i = 0; i < n; ++i) a[i] = 0.2 * exp(0.02 * sim_normal()), b[i] = 0.2 * shift * exp(0.02 * sim_normal());
    lat_compare_result r;
    assert_int_equal(lat_compare_launches(n, a, n, b, &o, &r), LAT_SUCCESS);
    assert_true(r.method == LAT_METHOD_LAUNCHES && r.confidence == confidence);
    claims += r.verdict != LAT_VERDICT_UNRESOLVED;
  }
  return claims;
}
static void comparisons_keep_their_confidence(void **state) {
  (void)state;
  const int trials = 300;
  const struct { int n; double confidence; } cases[] = {{3, 0.90}, {4, 0.95}, {5, 0.95}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    const double alpha = 1.0 - cases[c].confidence;
    const int claims = sim_claims(cases[c].n, 1.0, cases[c].confidence, trials);
    const double limit = trials * alpha + 2.0 * sqrt(trials * alpha * (1.0 - alpha));
    const int power = sim_claims(cases[c].n, 1.05, cases[c].confidence, trials);
    print_message("%d and %d launches at %.0f %%: %d of %d identical-group comparisons claim a difference (limit %.1f); "
                  "a 5 %% shift found in %d of %d\n", cases[c].n, cases[c].n, 100 * cases[c].confidence, claims, trials, limit,
                  power, trials);
    assert_true(claims <= limit);
    assert_true(power > 0);
  }
  /* 3 and 3 launches cannot reach 95 %: the interval is unbounded and says what they can reach. */
  lat_compare_options o;
  lat_compare_defaults(&o);
  const double a[3] = {1.0, 1.01, 0.99}, b[3] = {2.0, 2.01, 1.99};
  lat_compare_result r;
  assert_int_equal(lat_compare_launches(3, a, 3, b, &o, &r), LAT_SUCCESS);
  assert_true(fabs(r.max_confidence - 0.9) < 1e-12);
  assert_true(r.ratio_low == 0.0 && isinf(r.ratio_high) && r.verdict == LAT_VERDICT_UNRESOLVED);
  o.confidence = 0.9;
  assert_int_equal(lat_compare_launches(3, a, 3, b, &o, &r), LAT_SUCCESS);
  assert_true(r.verdict == LAT_VERDICT_B_HIGHER && fabs(r.ratio_low - 1.99 / 1.01) < 1e-9 && fabs(r.ratio_high - 2.01 / 0.99) < 1e-9);
}

static void sweep_run_finds_the_threshold(void **state) {
  (void)state;
  lat_sweep_options o;
  assert_int_equal(lat_sweep_defaults(&o), LAT_SUCCESS);
  o.size_first = 0;
  o.size_last = 65536;
  o.size_stride = 8192;
  o.adaptive = 1;
  o.reps = 100; /* most passes: enough for every level of refinement (the minima are stable at once) */
  struct synthetic s = {0, 0, 0.0};
  lat_sweep h = NULL;
  assert_int_equal(lat_sweep_run(&o, 0, NULL, synthetic_curve, &s, &h), LAT_SUCCESS);
  lat_sweep_summary sum;
  assert_int_equal(lat_sweep_get_summary(h, &sum), LAT_SUCCESS);
  assert_int_equal(sum.measurements, s.calls);
  assert_int_equal(sum.nthresholds, 1);
  lat_sweep_threshold t;
  assert_int_equal(lat_sweep_get_threshold(h, 0, &t), LAT_SUCCESS);
  assert_true(t.below_bytes <= 8250 && t.above_bytes > 8250 && t.above_bytes - t.below_bytes < 8);
  assert_true(fabs(t.excess_us - 3.0) < 0.05);
  /* A fixed 4-byte grid would need 16385 sizes; the refinement needs a few dozen. */
  assert_true(sum.nsizes < 100);
  lat_sweep_point p;
  assert_int_equal(lat_sweep_get_point(h, sum.nsizes - 1, &p), LAT_SUCCESS);
  assert_int_equal(p.bytes, 65536);
  assert_true(fabs(p.min_us - (2.0 + 65.536 + 3.0)) < 1e-9);
  /* Out-of-range indices and NULL pointers are named. */
  assert_int_equal(lat_sweep_get_point(h, sum.nsizes, &p), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "point index must be in 0.."));
  assert_int_equal(lat_sweep_get_threshold(h, -1, &t), LAT_ERR_ARG);
  assert_int_equal(lat_sweep_get_samples(h, 0, -1, NULL), LAT_ERR_ARG);
  assert_int_equal(lat_sweep_get_summary(NULL, &sum), LAT_ERR_ARG);
  assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  assert_null(h);
  assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS); /* a NULL handle is accepted */
}

/* -logscale: first, the powers of two from 4 above it, last; the stride is not used. */
static void sweep_run_logscale_grid(void **state) {
  (void)state;
  lat_sweep_options o;
  assert_int_equal(lat_sweep_defaults(&o), LAT_SUCCESS);
  assert_int_equal(o.logscale, 0);
  o.logscale = 1;
  o.size_first = 0;
  o.size_last = 1000;
  o.size_stride = 1; /* would be 1001 sizes without logscale */
  o.reps = 2;
  o.n_stable = 0;
  struct synthetic s = {0, 0, 0.0};
  lat_sweep h = NULL;
  assert_int_equal(lat_sweep_run(&o, 0, NULL, synthetic_curve, &s, &h), LAT_SUCCESS);
  lat_sweep_summary sum;
  assert_int_equal(lat_sweep_get_summary(h, &sum), LAT_SUCCESS);
  const int64_t expected[] = {0, 4, 8, 16, 32, 64, 128, 256, 512, 1000}; /* the original's 0, 4, 8, ... */
  assert_int_equal(sum.nsizes, 10);
  for (int64_t i = 0; i < sum.nsizes; ++i) {
    lat_sweep_point p;
    assert_int_equal(lat_sweep_get_point(h, i, &p), LAT_SUCCESS);
    assert_int_equal(p.bytes, expected[i]);
  }
  assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  o.logscale = 2;
  assert_int_equal(lat_sweep_check(&o, 0, 0, NULL, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "logscale must be 0 or 1, got 2");
}

/* A sweep of the synthetic curve with the defaults and 2 reps: a real handle for the tests below. */
static lat_sweep small_sweep(lat_sweep_options *o) {
  lat_sweep_defaults(o);
  o->reps = 2;
  struct synthetic s = {0, 0, 0.0};
  lat_sweep h = NULL;
  assert_int_equal(lat_sweep_run(o, 0, NULL, synthetic_curve, &s, &h), LAT_SUCCESS);
  return h;
}

/* A pointer that is not a live handle of its kind is refused by name: never returned, freed already, or a
   handle of another kind; and a success leaves no old failure's text behind. */
static void handles_checked_and_messages_cleared(void **state) {
  (void)state;
  lat_sweep_options o;
  lat_sweep h = small_sweep(&o);
  lat_sweep_summary sum;
  assert_int_equal(lat_sweep_get_summary(h, &sum), LAT_SUCCESS);
  /* Not a handle: an address inside the caller's own memory, and one inside the handle. */
  double not_a_handle[64] = {0};
  assert_int_equal(lat_sweep_get_summary((lat_sweep)not_a_handle, &sum), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "sweep is not a handle this library returned, or it was freed already");
  assert_int_equal(lat_sweep_get_summary((lat_sweep)((char *)h + 8), &sum), LAT_ERR_ARG);
  /* A handle of another kind. */
  assert_int_equal(lat_histogram_size((lat_histogram)h, &(int64_t){0}), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "hist is not a handle"));
  lat_histogram wrong_kind = (lat_histogram)h;
  assert_int_equal(lat_histogram_free(&wrong_kind), LAT_ERR_ARG);
  /* Freed: a copy of the handle is refused afterwards, as is a second free through it. */
  lat_sweep copy = h;
  assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  assert_int_equal(lat_sweep_get_summary(copy, &sum), LAT_ERR_ARG);
  assert_int_equal(lat_sweep_free(&copy), LAT_ERR_ARG);
  assert_non_null(copy); /* refused: left as it was */
  /* Every function returning a code clears the message when it succeeds. */
  assert_string_not_equal(lat_last_error_message(), "");
  int major;
  assert_int_equal(lat_get_version(&major, NULL, NULL), LAT_SUCCESS);
  assert_string_equal(lat_last_error_message(), "");
  assert_int_equal(lat_sweep_defaults(NULL), LAT_ERR_ARG);
  assert_int_equal(lat_clear_stop(), LAT_SUCCESS);
  assert_string_equal(lat_last_error_message(), "");
  assert_int_equal(lat_sweep_defaults(NULL), LAT_ERR_ARG);
  assert_int_equal(lat_get_api_version(), LAT_API_VERSION);
  assert_string_equal(lat_last_error_message(), "");
  assert_int_equal(lat_sweep_defaults(NULL), LAT_ERR_ARG);
  assert_int_equal(lat_sweep_defaults(&o), LAT_SUCCESS);
  assert_string_equal(lat_last_error_message(), "");
  /* Options are never optional: NULL is refused as everywhere else. */
  const double la[3] = {1.0, 1.1, 0.9};
  lat_compare_result r;
  assert_int_equal(lat_compare_launches(3, la, 3, la, NULL, &r), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "opts must not be NULL");
  assert_int_equal(lat_compare_distributions(3, la, NULL, 3, la, NULL, 0.5, NULL, &r), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "opts must not be NULL");
}

static void sweep_run_errors(void **state) {
  (void)state;
  lat_sweep_options o;
  lat_sweep_defaults(&o);
  o.reps = 2;
  lat_sweep h = NULL;
  struct synthetic s = {0, 5, 0.0};
  /* The measuring function's code ends the sweep and comes back, with no handle. */
  assert_int_equal(lat_sweep_run(&o, 0, NULL, synthetic_curve, &s, &h), LAT_ERR_IO);
  assert_non_null(strstr(lat_last_error_message(), "the measuring function returned 6"));
  assert_null(h);
  struct synthetic nan_time = {0, 0, NAN};
  assert_int_equal(lat_sweep_run(&o, 0, NULL, synthetic_curve, &nan_time, &h), LAT_ERR_ARG);
  assert_int_equal(lat_sweep_run(&o, 0, NULL, NULL, &s, &h), LAT_ERR_ARG);
  const int64_t descending[] = {64, 8};
  assert_int_equal(lat_sweep_run(&o, 2, descending, synthetic_curve, &s, &h), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "distinct and ascending"));
  o.size_stride = 0;
  assert_int_equal(lat_sweep_run(&o, 0, NULL, synthetic_curve, &s, &h), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "size_stride must be >= 1, got 0"));
  lat_sweep_defaults(&o);
  o.n_avg = -1;
  assert_int_equal(lat_sweep_run(&o, 0, NULL, synthetic_curve, &s, &h), LAT_ERR_ARG);
  assert_int_equal(lat_sweep_defaults(NULL), LAT_ERR_ARG);
}

static void sweep_files_whole(void **state) {
  (void)state;
  lat_sweep_options o;
  lat_sweep h = small_sweep(&o);
  char dir[] = "/tmp/mpilat-sweep-XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_int_equal(lat_write_sweep_files(dir, "a/b", "", h, 0, NULL), LAT_ERR_ARG);
  assert_int_equal(lat_write_sweep_files(dir, "s", "", h, 4, NULL), LAT_ERR_ARG);
  assert_int_equal(lat_write_sweep_files(dir, "s", "", NULL, 0, NULL), LAT_ERR_ARG);
  char missing[600], path[700];
  snprintf(missing, sizeof missing, "%s/missing", dir);
  assert_int_equal(lat_write_sweep_files(missing, "s", "", h, 0, NULL), LAT_ERR_IO);
  /* Without the gnuplot flag: the CSV and the JSON only (the plot's script and data are not left). */
  assert_int_equal(lat_write_sweep_files(dir, "c", "cmd", h, 0, NULL), LAT_SUCCESS);
  const char *plain[] = {"csv", "json"};
  for (int k = 0; k < 2; ++k) {
    snprintf(path, sizeof path, "%s/c.%s", dir, plain[k]);
    assert_int_equal(unlink(path), 0);
  }
  assert_int_equal(rmdir(dir), 0);
  strcpy(dir, "/tmp/mpilat-sweep-XXXXXX");
  assert_non_null(mkdtemp(dir));
  /* With it, mpptest's gnuplot files too; and the table where it is asked for. */
  char table[700];
  snprintf(table, sizeof table, "%s/table.txt", dir);
  assert_int_equal(lat_write_sweep_files(dir, "s", "cmd", h, LAT_SWEEP_FILES_GNUPLOT, table), LAT_SUCCESS);
  char *text = read_file(table);
  assert_non_null(text);
  assert_non_null(strstr(text, "# startup and rate"));
  free(text);
  unlink(table);
  const char *ext[] = {"gpl", "gcm", "csv", "json"};
  for (int k = 0; k < 4; ++k) {
    snprintf(path, sizeof path, "%s/s.%s", dir, ext[k]);
    char *text = read_file(path);
    assert_non_null(text);
    assert_true(strlen(text) > 0);
    free(text);
    unlink(path);
  }
  /* LAT_SWEEP_FILES_GIVEDY adds columns to the .gpl: refused without LAT_SWEEP_FILES_GNUPLOT, nothing written;
     with it, the original's eight tab-separated columns. */
  assert_int_equal(lat_write_sweep_files(dir, "s", "cmd", h, LAT_SWEEP_FILES_GIVEDY, NULL), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "LAT_SWEEP_FILES_GIVEDY adds columns to <base>.gpl and needs "
                                                   "LAT_SWEEP_FILES_GNUPLOT, got flags 4"));
  assert_int_equal(lat_write_sweep_files(dir, "s", "cmd", h, 16, NULL), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "flags must be a combination of LAT_SWEEP_FILES_PNG, "
                                                   "LAT_SWEEP_FILES_GNUPLOT, LAT_SWEEP_FILES_GIVEDY and "
                                                   "LAT_SWEEP_FILES_RATE, got 16"));
  /* LAT_SWEEP_FILES_RATE: the .gcm plots the .gpl's rate (column 6, bytes/s as the original's) under a rate
     label, not the time. */
  assert_int_equal(lat_write_sweep_files(dir, "s", "cmd", h, LAT_SWEEP_FILES_GNUPLOT | LAT_SWEEP_FILES_RATE, NULL),
                   LAT_SUCCESS);
  snprintf(path, sizeof path, "%s/s.gcm", dir);
  text = read_file(path);
  assert_non_null(text);
  assert_non_null(strstr(text, "set ylabel 'rate (bytes/s, from the minimum time)'"));
  assert_non_null(strstr(text, "using 4:6 "));
  assert_null(strstr(text, "using 4:5 "));
  free(text);
  assert_int_equal(lat_write_sweep_files(dir, "s", "cmd", h, LAT_SWEEP_FILES_GNUPLOT | LAT_SWEEP_FILES_GIVEDY, NULL),
                   LAT_SUCCESS);
  snprintf(path, sizeof path, "%s/s.gpl", dir);
  text = read_file(path);
  assert_non_null(text);
  const char *row = text;
  while (*row == '#') row = strchr(row, '\n') + 1; /* past the comments */
  int tabs = 0;
  for (const char *c = row; *c != '\n'; ++c) tabs += *c == '\t';
  assert_int_equal(tabs, 7);
  free(text);
  for (int k = 0; k < 4; ++k) {
    snprintf(path, sizeof path, "%s/s.%s", dir, ext[k]);
    assert_int_equal(unlink(path), 0);
  }
  assert_int_equal(rmdir(dir), 0); /* no PNG without render, nothing temporary left */
  lat_sweep_free(&h);
}

/* lat_*_check: every default passes its own check, and a bad value is named with the measurement's
   own words, without MPI (the checks are not collective). */
static void checks_without_mpi(void **state) {
  (void)state;
  lat_timer_options to;
  lat_pingpong_options po;
  lat_sweep_options so;
  lat_queue_options qo;
  lat_pair_options pa;
  lat_nodecomm_options no;
  lat_fit_options fo;
  assert_int_equal(lat_timer_defaults(&to), LAT_SUCCESS);
  assert_int_equal(lat_pingpong_defaults(&po), LAT_SUCCESS);
  assert_int_equal(lat_sweep_defaults(&so), LAT_SUCCESS);
  assert_int_equal(lat_queue_defaults(&qo), LAT_SUCCESS);
  assert_int_equal(lat_pair_defaults(&pa), LAT_SUCCESS);
  assert_int_equal(lat_nodecomm_defaults(&no), LAT_SUCCESS);
  assert_int_equal(lat_fit_defaults(&fo), LAT_SUCCESS);
  assert_int_equal(lat_timer_check(&to, 2), LAT_SUCCESS);
  assert_int_equal(lat_pingpong_check(&po, 2, NULL), LAT_SUCCESS);
  assert_int_equal(lat_sweep_check(&so, 2, 0, NULL, NULL), LAT_SUCCESS);
  assert_int_equal(lat_sweep_check(&so, 0, 0, NULL, NULL), LAT_SUCCESS);
  assert_int_equal(lat_queue_check(&qo, 2, 0, NULL, 0, NULL, 0, NULL, NULL), LAT_SUCCESS);
  assert_int_equal(lat_pair_check(&pa, 2), LAT_SUCCESS);
  assert_int_equal(lat_nodecomm_check(&no, 0, NULL), LAT_SUCCESS);
  assert_int_equal(lat_fit_check(&fo), LAT_SUCCESS);
  /* A reserved field is refused unless 0, so that a later version can give it a meaning. */
  pa.reserved = 1;
  assert_int_equal(lat_pair_check(&pa, 2), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "reserved must be 0 (kept for a later version), got 1");
  pa.reserved = 0;
  lat_collective_options co;
  assert_int_equal(lat_collective_defaults(&co), LAT_SUCCESS);
  assert_int_equal(lat_collective_check(&co, 0, NULL, 2), LAT_SUCCESS);
  co.reserved = -7;
  assert_int_equal(lat_collective_check(&co, 0, NULL, 2), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "reserved must be 0 (kept for a later version), got -7");
  /* The check refuses what the measurement would: the root's samples beyond memory (24 points x 10^6 reps x
     (2 x 4096 + 3) values of 8 bytes, 1.6 PB) included. */
  co.reserved = 0;
  co.reps = 1000000;
  assert_int_equal(lat_collective_check(&co, 0, NULL, 4096), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "reps 1000000 needs"));
  assert_non_null(strstr(lat_last_error_message(), "MB of samples on the root rank"));

  po.ntrial = 0;
  assert_int_equal(lat_pingpong_check(&po, 2, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "ntrial must be >= 1, got 0");
  po.ntrial = 10;
  assert_int_equal(lat_pingpong_check(&po, 1, NULL), LAT_ERR_ARG); /* source 0 and dest "last" = 0 */
  assert_non_null(strstr(lat_last_error_message(), "at least 2 processes"));
  po.dest = 5;
  assert_int_equal(lat_pingpong_check(&po, 4, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "dest must be a rank in 0..3 (or -1: the last), got 5");
  po.dest = LAT_LAST_RANK;
  lat_timer_result cal;
  memset(&cal, 0, sizeof cal);
  cal.timer = LAT_TIMER_MONOTONIC_RAW;
  assert_int_equal(lat_pingpong_check(&po, 2, &cal), LAT_ERR_ARG); /* the calibration is another clock's */
  assert_non_null(strstr(lat_last_error_message(), "calibration is of timer monotonic_raw"));
  po.npp = LAT_NPP_MAX + 1;
  assert_int_equal(lat_pingpong_check(&po, 2, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "npp must be <= 1000000000, got 1000000001");

  to.rank = 3;
  assert_int_equal(lat_timer_check(&to, 2), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "rank must be -1 (all ranks) or in 0..1, got 3");
  so.size_stride = 0;
  assert_int_equal(lat_sweep_check(&so, 0, 0, NULL, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "size_stride must be >= 1, got 0");
  so.size_stride = 32;
  so.pattern = 9;
  assert_int_equal(lat_sweep_check(&so, 2, 0, NULL, NULL), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "pattern must be 0 (ping-pong)"));
  const double fractions[] = {10.0, 120.0};
  assert_int_equal(lat_queue_check(&qo, 2, 0, NULL, 2, fractions, 0, NULL, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "fractions_percent[1] must be in 0..100, got 120");
  pa.repeats = 0;
  assert_int_equal(lat_pair_check(&pa, 2), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "repeats must be >= 1, got 0");
  const int64_t down[] = {64, 8};
  no.sides = 5;
  assert_int_equal(lat_nodecomm_check(&no, 0, NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "sides must be LAT_SIDES_NODE (0) or LAT_SIDES_SOCKET (1), got 5");
  no.sides = LAT_SIDES_SOCKET;
  assert_int_equal(lat_nodecomm_check(&no, 2, down), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "sizes must ascend, got 64 then 8");
  fo.nthresholds = 4;
  assert_int_equal(lat_fit_check(&fo), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "nthresholds must be -1 (detect) or 0..3, got 4");
  assert_int_equal(lat_fit_check(NULL), LAT_ERR_ARG);
  assert_string_equal(lat_last_error_message(), "opts must not be NULL");
}

/* lat_read_input: a user's file read once by the readers' rule; its bytes whole (a NUL among them), then a
   NUL; a FIFO, a directory, a kernel file of size 0 and a missing name refused naming the file; what was read
   is an input, never an output; the handle is the library's own. */
static void read_input_once(void **state) {
  (void)state;
  char dir[] = "/tmp/mpilat-test-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char file[600], fifo[600];
  snprintf(file, sizeof file, "%s/in.json", dir);
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  const char written[] = {'{', '}', '\0', 'x', '\n'};
  FILE *f = fopen(file, "wb");
  assert_int_equal(fwrite(written, 1, sizeof written, f), sizeof written);
  fclose(f);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  lat_input input = NULL;
  char bytes[16];
  memset(bytes, '#', sizeof bytes);
  int64_t nbytes = -1;
  assert_int_equal(lat_read_input(file, &input), LAT_SUCCESS);
  assert_int_equal(lat_input_size(input, &nbytes), LAT_SUCCESS);
  assert_int_equal(nbytes, (int64_t)sizeof written);
  assert_int_equal(lat_input_get(input, (int64_t)sizeof bytes, bytes), LAT_SUCCESS);
  assert_memory_equal(bytes, written, sizeof written);
  assert_int_equal(bytes[sizeof written], '#'); /* min(n, size): nothing past the file's bytes */
  memset(bytes, '#', sizeof bytes);
  assert_int_equal(lat_input_get(input, 2, bytes), LAT_SUCCESS);
  assert_memory_equal(bytes, "{}##", 4);
  assert_int_equal(lat_check_output_file(file), LAT_ERR_ARG); /* read, so an input of this process */
  assert_int_equal(lat_input_size(input, NULL), LAT_ERR_ARG);
  assert_int_equal(lat_input_get(input, 1, NULL), LAT_ERR_ARG);
  assert_int_equal(lat_input_get(input, -1, bytes), LAT_ERR_ARG);
  assert_int_equal(lat_input_free(&input), LAT_SUCCESS);
  assert_null(input);
  assert_int_equal(lat_input_free(&input), LAT_SUCCESS); /* NULL *input: nothing to free */
  assert_int_equal(lat_input_free(NULL), LAT_ERR_ARG);
  lat_input freed = NULL;
  assert_int_equal(lat_read_input(file, &freed), LAT_SUCCESS);
  lat_input copy = freed;
  assert_int_equal(lat_input_free(&freed), LAT_SUCCESS);
  assert_int_equal(lat_input_size(copy, &nbytes), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "input is not a handle this library returned"));
  input = (lat_input)file; /* set to NULL on a failure, never left as it was */
  assert_int_equal(lat_read_input(fifo, &input), LAT_ERR_IO);
  assert_null(input);
  assert_non_null(strstr(lat_last_error_message(), "a FIFO, not a regular file"));
  assert_int_equal(lat_read_input(dir, &input), LAT_ERR_IO);
  assert_int_equal(lat_read_input("/proc/self/status", &input), LAT_ERR_IO);
  assert_non_null(strstr(lat_last_error_message(), "a file of the kernel's"));
  char absent[700];
  snprintf(absent, sizeof absent, "%s/absent", dir);
  assert_int_equal(lat_read_input(absent, &input), LAT_ERR_IO);
  assert_non_null(strstr(lat_last_error_message(), absent));
  assert_int_equal(lat_read_input(NULL, &input), LAT_ERR_ARG);
  assert_int_equal(lat_read_input("", &input), LAT_ERR_ARG);
  assert_int_equal(lat_read_input(file, NULL), LAT_ERR_ARG);
  assert_null(input);
  unlink(file);
  unlink(fifo);
  assert_int_equal(rmdir(dir), 0);
}

/* lat_check_json_memory under a real address-space limit (setrlimit, as ulimit -v): a text whose parse could
   pass it is LAT_ERR_NOMEM naming it; a small one fits; no limit, no refusal. */
static void json_memory_under_a_limit(void **state) {
  (void)state;
  assert_int_equal(lat_check_json_memory(1 << 30, "free.json"), LAT_SUCCESS); /* no limit set here */
  assert_int_equal(lat_check_json_memory(-1, "x.json"), LAT_ERR_ARG);
  assert_int_equal(lat_check_json_memory(0, NULL), LAT_ERR_ARG);
#ifdef __SANITIZE_ADDRESS__
  return; /* AddressSanitizer maps terabytes of shadow memory: no address-space limit means anything there */
#endif
  struct rlimit before;
  assert_int_equal(getrlimit(RLIMIT_AS, &before), 0);
  long long pages = 0;
  FILE *statm = fopen("/proc/self/statm", "r");
  assert_non_null(statm);
  assert_int_equal(fscanf(statm, "%lld", &pages), 1);
  fclose(statm);
  struct rlimit limited = before;
  limited.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)64 << 20); /* 64 MB to spare */
  assert_int_equal(setrlimit(RLIMIT_AS, &limited), 0);
  const int big = lat_check_json_memory(8 << 20, "big.json"); /* 8 MB of JSON: up to 160 MB */
  char message[512];
  snprintf(message, sizeof message, "%s", lat_last_error_message());
  const int small = lat_check_json_memory(1 << 20, "small.json"); /* 1 MB: up to 20 MB */
  assert_int_equal(setrlimit(RLIMIT_AS, &before), 0);
  assert_int_equal(big, LAT_ERR_NOMEM);
  assert_non_null(strstr(message, "big.json: reading its 8388608 bytes may take up to 160 MB"));
  assert_int_equal(small, LAT_SUCCESS);
}

/* lat_check_output_file and lat_check_input_file: only absent names, regular files and links are outputs; an
   input checked (or read) is never one; inputs are regular files only. */
static void output_and_input_checks(void **state) {
  (void)state;
  char dir[] = "/tmp/mpilat-test-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char file[600], fifo[600], sub[600], link[600], absent[600];
  snprintf(file, sizeof file, "%s/in.txt", dir);
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  snprintf(sub, sizeof sub, "%s/sub", dir);
  snprintf(link, sizeof link, "%s/link", dir);
  snprintf(absent, sizeof absent, "%s/absent", dir);
  FILE *f = fopen(file, "w");
  fputs("1\n", f);
  fclose(f);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(mkdir(sub, 0700), 0);
  assert_int_equal(symlink(file, link), 0);
  assert_int_equal(lat_check_output_file(NULL), LAT_ERR_ARG);
  assert_int_equal(lat_check_output_file(""), LAT_ERR_ARG);
  assert_int_equal(lat_check_output_file(absent), LAT_SUCCESS);
  assert_int_equal(lat_check_output_file(file), LAT_SUCCESS);
  assert_int_equal(lat_check_output_file(link), LAT_SUCCESS);
  assert_int_equal(lat_check_output_file(fifo), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "is a FIFO"));
  assert_int_equal(lat_check_output_file(sub), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "is a directory"));
  assert_int_equal(lat_check_output_file("/dev/null"), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "is a character device"));
  assert_int_equal(lat_check_input_file(NULL), LAT_ERR_ARG);
  assert_int_equal(lat_check_input_file(fifo), LAT_ERR_IO);
  assert_non_null(strstr(lat_last_error_message(), "a FIFO, not a regular file"));
  assert_int_equal(lat_check_input_file(sub), LAT_ERR_IO);
  assert_int_equal(lat_check_input_file(absent), LAT_ERR_IO);
  assert_non_null(strstr(lat_last_error_message(), "absent"));
  /* Once an input, never an output: by its name or through a link to it. */
  assert_int_equal(lat_check_input_file(file), LAT_SUCCESS);
  assert_int_equal(lat_check_output_file(file), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "is the input"));
  assert_int_equal(lat_check_output_file(link), LAT_ERR_ARG);
  const char *names[] = {"in.txt"}, *contents[] = {"2\n"};
  assert_int_equal(lat_write_report_files(dir, 1, names, contents, 0), LAT_ERR_ARG);
  f = fopen(file, "r");
  char line[8] = "";
  assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  assert_string_equal(line, "1\n");
  /* Two files of one set with one name: refused, nothing written. */
  const char *twice[] = {"a.txt", "a.txt"}, *two[] = {"a\n", "b\n"};
  char twice_dir[700];
  snprintf(twice_dir, sizeof twice_dir, "%s/sub", dir);
  assert_int_equal(lat_write_report_files(twice_dir, 2, twice, two, 0), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "are one file"));
  assert_int_equal(rmdir(sub), 0); /* empty: nothing was written there */
  /* Every file a capability's writer may write, checked before measuring: a directory where the coll's
     samples go, the JSON beside an mmpi log; fixed-name kinds take no base, the others need one. */
  char derived[700];
  snprintf(derived, sizeof derived, "%s/r.samples.csv", dir);
  assert_int_equal(mkdir(derived, 0755), 0);
  assert_int_equal(lat_check_outputs("coll", dir, "q"), LAT_SUCCESS);
  assert_int_equal(lat_check_outputs("coll", dir, "r"), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "r.samples.csv' is a directory"));
  assert_int_equal(rmdir(derived), 0);
  snprintf(derived, sizeof derived, "%s/m.json", dir);
  assert_int_equal(mkdir(derived, 0755), 0);
  assert_int_equal(lat_check_outputs("pairs", dir, "m.dat"), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "m.json' is a directory"));
  assert_int_equal(lat_check_outputs("pairs", dir, "m.json"), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "ends in .json"));
  assert_int_equal(rmdir(derived), 0);
  assert_int_equal(lat_check_outputs("latency", dir, NULL), LAT_SUCCESS);
  assert_int_equal(lat_check_outputs("latency", dir, "x"), LAT_ERR_ARG);
  assert_int_equal(lat_check_outputs("sweep", dir, ""), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "base must be given for 'sweep'"));
  assert_int_equal(lat_check_outputs("sweep", dir, "../up"), LAT_ERR_ARG);
  assert_int_equal(lat_check_outputs("plots", dir, "x"), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "kind must be one of latency, npp_study"));
  assert_int_equal(lat_check_outputs(NULL, dir, "x"), LAT_ERR_ARG);
  /* A file written beside a writer's (mpptest's -fname): none of the writer's files under any spelling. */
  char spelled[800];
  snprintf(spelled, sizeof spelled, "%s/./sub/../mppout.csv", dir);
  assert_int_equal(mkdir(sub, 0755), 0);
  assert_int_equal(lat_check_output_apart("sweep", dir, "mppout", spelled), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "are one file"));
  assert_non_null(strstr(lat_last_error_message(), "/./sub/../mppout.csv"));
  snprintf(spelled, sizeof spelled, "%s/sub/table.txt", dir);
  assert_int_equal(lat_check_output_apart("sweep", dir, "mppout", spelled), LAT_SUCCESS);
  assert_int_equal(lat_check_output_apart("sweep", dir, "mppout", sub), LAT_ERR_ARG); /* a directory */
  assert_non_null(strstr(lat_last_error_message(), "is a directory"));
  assert_int_equal(lat_check_output_apart("sweep", dir, "mppout", NULL), LAT_ERR_ARG);
  assert_int_equal(rmdir(sub), 0);
  unlink(link);
  unlink(fifo);
  unlink(file);
  assert_int_equal(rmdir(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stats_hand_computed_even),   cmocka_unit_test(stats_hand_computed_odd_and_single),
      cmocka_unit_test(stats_exact_against_direct), cmocka_unit_test(npp_rule_cases),
      cmocka_unit_test(appendix_c_summary), cmocka_unit_test(npp_study_files), cmocka_unit_test(comparisons), cmocka_unit_test(comparisons_keep_their_confidence),         cmocka_unit_test(write_files_whole_or_not_at_all),
      cmocka_unit_test(errors_and_versions),        cmocka_unit_test(null_and_range_errors),
      cmocka_unit_test(measuring_before_mpi_init),  cmocka_unit_test(defaults_are_appendix_c),
      cmocka_unit_test(sweep_run_finds_the_threshold), cmocka_unit_test(sweep_run_logscale_grid), cmocka_unit_test(sweep_run_errors), cmocka_unit_test(handles_checked_and_messages_cleared),
      cmocka_unit_test(sweep_files_whole), cmocka_unit_test(output_and_input_checks),
      cmocka_unit_test(read_input_once),
      cmocka_unit_test(json_memory_under_a_limit),          cmocka_unit_test(checks_without_mpi),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
