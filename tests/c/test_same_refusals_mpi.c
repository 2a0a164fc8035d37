/* test_same_refusals_mpi.c: every capability's lat_*_check refuses what its measurement refuses, with the
   same message, the memory a measurement would need included (issue 33, part 1): a caller (a driver) that
   checks first never learns of a bad input only after launching the job. Each case is a bad input given to
   the check and then, on every rank, to the measurement. The memory cases are sized from this machine's
   MemAvailable so that they are refused here; where the most a field allows is not enough to pass it, the
   case says so and is left out (the measurement would then allocate it). */
#include <mpi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <limits.h>

#include "mpi_test_support.h"

static int rank, size;

/* MemAvailable in bytes (-1: unknown), the figure the library's checks use, as rank 0 read it: every rank
   gives the same input and leaves out the same cases (read on each rank, the figures differed by 64 kB and
   so did the options, and the check's message was not the measurement's). */
static int64_t mem_available(void) {
  long long kb = -1;
  if (rank == 0) {
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
      char line[256];
      while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) break;
      fclose(f);
    }
  }
  MPI_Bcast(&kb, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  return kb < 0 ? -1 : (int64_t)kb * 1024;
}

static char check_message[1024];

/* The check's verdict, kept before the measurement runs; of a memory refusal, the part about the input (the
   memory available is read again by the measurement, a moment later: another figure). */
static int checked(int rc) {
  snprintf(check_message, sizeof check_message, "%s", lat_last_error_message());
  char *available = strstr(check_message, " but only ");
  if (available) *available = '\0';
  return rc;
}

/* The check refused (LAT_ERR_ARG) and the measurement, on every rank, refused the same way, its message
   holding the check's. */
static void same_refusal(const char *what, int rc_check, int rc_measure) {
  if (rc_check != LAT_ERR_ARG) fail_msg("%s: the check answered %d (%s), not LAT_ERR_ARG", what, rc_check, check_message);
  if (rc_measure != rc_check)
    fail_msg("%s: the check refused (%s), the measurement answered %d (%s)", what, check_message, rc_measure,
             lat_last_error_message());
  if (!strstr(lat_last_error_message(), check_message))
    fail_msg("%s: the check said '%s', the measurement '%s'", what, check_message, lat_last_error_message());
}

static void timer_refusals(void **state) {
  (void)state;
  lat_timer_result r;
  for (int c = 0; c < 2; ++c) {  /* the ranges: spec_range_refusals */
    lat_timer_options o;
    lat_timer_defaults(&o);
    o.nr = 1024;
    if (c == 0) o.rank = size;
    if (c == 1) o.timeout_s = -1.0;
    const int rc = checked(lat_timer_check(&o, size));
    same_refusal("timer", rc, lat_calibrate_timer(MPI_COMM_WORLD, &o, &r, NULL));
  }
}

static void pingpong_refusals(void **state) {
  (void)state;
  lat_pingpong_result r;
  for (int c = 0; c < 2; ++c) {  /* the ranges (ntrial, npp, minutes ...): spec_range_refusals */
    lat_pingpong_options o;
    lat_pingpong_defaults(&o);
    o.nr = 1024;
    o.ntrial = 10;
    if (c == 0) o.dest = size;
    if (c == 1) o.dest = o.source;
    const int rc = checked(lat_pingpong_check(&o, size, NULL));
    same_refusal("pingpong", rc, lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL));
  }
  const int64_t dup[3] = {4, 8, 4};
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  lat_pingpong_result pr;
  lat_npp_study_row rows[3];
  const int rc = checked(lat_npp_study_check(&o, size, 3, dup, 0));
  same_refusal("npp study", rc, lat_npp_study(MPI_COMM_WORLD, &o, NULL, 3, dup, 0, &pr, rows));
}

static void sweep_refusals(void **state) {
  (void)state;
  const int64_t available = mem_available();
  const int64_t down[2] = {64, 8};
  for (int c = 0; c < 5; ++c) {
    lat_sweep_options o;
    lat_sweep_defaults(&o);
    o.nr = 1024;
    int64_t nsizes = 0;
    const int64_t *sizes = NULL;
    if (c == 0) o.size_stride = 0;
    if (c == 1) nsizes = 2, sizes = down;
    if (c == 2) o.cachesize = 1; /* less than two slots */
    if (c == 3) o.pattern = 9;
    if (c == 4) { /* two buffers of the cache walk beyond MemAvailable */
      if (available < 0 || available > ((int64_t)1 << 36)) {
        print_message("sweep: the buffers' memory case left out (MemAvailable %lld)\n", (long long)available);
        continue;
      }
      o.cachesize = available;
    }
    const int rc = checked(lat_sweep_check(&o, size, nsizes, sizes, NULL));
    lat_sweep h = NULL;
    same_refusal("sweep", rc, lat_size_sweep(MPI_COMM_WORLD, &o, nsizes, sizes, NULL, &h));
    assert_null(h);
  }
}

static void queue_refusals(void **state) {
  (void)state;
  const int64_t bad_lengths[2] = {0, -1};
  const double bad_fractions[2] = {10.0, 120.0};
  for (int c = 0; c < 2; ++c) {  /* the ranges (iters ...): spec_range_refusals */
    lat_queue_options o;
    lat_queue_defaults(&o);
    o.nr = 1024;
    int64_t nl = 0, nf = 0;
    const int64_t *lengths = NULL;
    const double *fractions = NULL;
    if (c == 0) nl = 2, lengths = bad_lengths;
    if (c == 1) nf = 2, fractions = bad_fractions;
    const int rc = checked(lat_queue_check(&o, size, nl, lengths, nf, fractions, 0, NULL, NULL));
    lat_queue h = NULL;
    same_refusal("queue", rc, lat_queue_sweep(MPI_COMM_WORLD, &o, nl, lengths, nf, fractions, 0, NULL, NULL, &h));
    assert_null(h);
  }
}

static void pair_refusals(void **state) {
  (void)state;
  const int64_t available = mem_available();
  for (int c = 0; c < 3; ++c) {  /* the ranges (repeats ...): spec_range_refusals */
    lat_pair_options o;
    lat_pair_defaults(&o);
    o.nr = 1024;
    if (c == 0) o.root = size;
    if (c == 1) o.reserved = 1;
    if (c == 2) { /* rank 0's samples beyond MemAvailable: repeats x (size - 1) doubles */
      const double repeats = 2.0 * (double)available / 8.0 / (double)(size - 1);
      if (available < 0 || repeats > 1e9) {
        print_message("pairs: the samples' memory case left out (MemAvailable %lld)\n", (long long)available);
        continue;
      }
      o.repeats = (int64_t)repeats;
    }
    const int rc = checked(lat_pair_check(&o, size));
    lat_pairs h = NULL;
    same_refusal("pairs", rc, lat_pair_matrix(MPI_COMM_WORLD, &o, &h));
    assert_null(h);
  }
}

static void nodecomm_refusals(void **state) {
  (void)state;
  const int64_t down[2] = {64, 8};
  for (int c = 0; c < 2; ++c) {
    lat_nodecomm_options o;
    lat_nodecomm_defaults(&o);
    int64_t nsizes = 0;
    const int64_t *sizes = NULL;
    if (c == 0) o.sides = 5;
    if (c == 1) nsizes = 2, sizes = down;
    const int rc = checked(lat_nodecomm_check(&o, nsizes, sizes));
    lat_nodecomm h = NULL;
    same_refusal("nodecomm", rc, lat_nodecomm_measure(MPI_COMM_WORLD, &o, nsizes, sizes, &h));
    assert_null(h);
  }
}

static void collective_refusals(void **state) {
  (void)state;
  int64_t many[LAT_COLL_MAX_SIZES];
  for (int i = 0; i < LAT_COLL_MAX_SIZES; ++i) many[i] = 8 * (i + 1);
  for (int c = 0; c < 2; ++c) {  /* the ranges (reps ...): spec_range_refusals */
    lat_collective_options o;
    lat_collective_defaults(&o);
    int64_t nsizes = 0;
    const int64_t *sizes = NULL;
    if (c == 0) o.reserved = 2;
    if (c == 1) { /* the root's samples: every point of 64 sizes, 10^6 reps: terabytes on any machine */
      o.reps = 1000000;
      nsizes = LAT_COLL_MAX_SIZES, sizes = many;
    }
    const int rc = checked(lat_collective_check(&o, nsizes, sizes, size));
    lat_coll h = NULL;
    same_refusal("collective", rc, lat_collective(MPI_COMM_WORLD, &o, nsizes, sizes, &h));
    assert_null(h);
  }
}

/* Every field with a range, just outside it, from the spec (generated: spec_range_refusals). */
#include "range_refusals.inc"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(timer_refusals),    cmocka_unit_test(pingpong_refusals), cmocka_unit_test(sweep_refusals),
      cmocka_unit_test(queue_refusals),    cmocka_unit_test(pair_refusals),     cmocka_unit_test(nodecomm_refusals),
      cmocka_unit_test(collective_refusals), cmocka_unit_test(spec_range_refusals),
  };
  const int failed = cmocka_run_group_tests(tests, NULL, NULL);
  MPI_Finalize();
  return failed;
}
