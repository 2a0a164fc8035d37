/* test_sweep_mpi.c: lat_size_sweep between ranks: every pattern, bisection, the cache-cold walk,
   verification, results on every rank, the caller's communicator untouched, collective argument errors.
   Never a timing value: only the method (counts, order, shapes, identities between fields). */
#include <math.h>
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


static void small_options(lat_sweep_options *o) {
  lat_sweep_defaults(o);
  o->reps = 4;
  o->n_stable = 0; /* always reps samples: counts are known */
  o->nr = 1 << 12;
  o->timeout_s = 60.0;
}

/* The shape every sweep result must have, the same on every rank. */
static void check_sweep(lat_sweep h, const int64_t *sizes, int64_t n, const lat_sweep_options *o) {
  lat_sweep_summary s;
  assert_int_equal(lat_sweep_get_summary(h, &s), LAT_SUCCESS);
  assert_true(same_everywhere(&s, (int)sizeof s));
  assert_int_equal(s.nsizes, n);
  assert_int_equal(s.nprocs, size);
  assert_int_equal(s.pattern, o->pattern);
  assert_int_equal(s.passes, o->reps);
  assert_int_equal(s.end, LAT_SWEEP_END_REPS);
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    lat_sweep_point p;
    assert_int_equal(lat_sweep_get_point(h, i, &p), LAT_SUCCESS);
    assert_true(same_everywhere(&p, (int)sizeof p));
    assert_int_equal(p.bytes, sizes[i]);
    /* Every size in every pass (a fixed grid: the same count everywhere), plus a rerun of its own. */
    assert_int_equal(p.samples, o->reps);
    assert_true(p.rerun_samples == 0 || p.rerun);
    assert_true(p.n_avg >= 1);
    if (o->n_avg > 0) assert_int_equal(p.n_avg, o->n_avg);
    assert_true(p.min_us > 0.0);
    assert_true(p.min_us <= p.median_us && p.median_us <= p.max_us);
    assert_true(p.min_us <= p.mean_us && p.mean_us <= p.max_us);
    const int64_t nsamples = p.samples + p.rerun_samples;
    double *v = malloc((size_t)nsamples * sizeof *v);
    assert_int_equal(lat_sweep_get_samples(h, i, nsamples, v), LAT_SUCCESS);
    double lo = v[0];
    for (int64_t k = 1; k < nsamples; ++k) lo = v[k] < lo ? v[k] : lo;
    assert_true(lo == p.min_us); /* the reported time is the minimum of the samples */
    free(v);
    const int64_t bytes = o->pattern == LAT_SWEEP_OVERLAP || o->pattern == LAT_SWEEP_OVERLAP_ROUNDTRIP ? o->overlap_bytes : p.bytes;
    const int64_t scale = o->pattern == LAT_SWEEP_HALO ? s.halo_partners : o->pattern == LAT_SWEEP_GOP ? 1 : s.npairs;
    assert_true(fabs(p.rate_mbs - (double)(bytes * scale) / p.min_us) <= 1e-9 * p.rate_mbs + 1e-12);
    total += nsamples;
  }
  /* The n_avg probes are not samples; everything else is. */
  assert_int_equal(s.measurements, total);
}

/* A sweep that must succeed, its shape checked (check_sweep); its summary in *s; the handle to free. */
static lat_sweep checked_sweep(const lat_sweep_options *o, const int64_t *sizes, int64_t n, const char *what,
                               lat_sweep_summary *s) {
  lat_sweep h = NULL;
  const int rc = lat_size_sweep(MPI_COMM_WORLD, o, n, sizes, NULL, &h);
  if (rc != LAT_SUCCESS) fail_msg("%s: %s", what, lat_last_error_message());
  assert_non_null(h);
  check_sweep(h, sizes, n, o);
  assert_int_equal(lat_sweep_get_summary(h, s), LAT_SUCCESS);
  return h;
}

static void sweep_pattern(int pattern, int bisect, int verify, int64_t cachesize) {
  const int64_t sizes[] = {0, 8, 100, 1024, 4096};
  const int64_t n = 5;
  lat_sweep_options o;
  small_options(&o);
  o.pattern = pattern;
  o.bisect = bisect;
  o.verify = verify;
  o.cachesize = cachesize;
  o.overlap_bytes = 256;
  char what[64];
  snprintf(what, sizeof what, "pattern %d bisect %d", pattern, bisect);
  lat_sweep_summary s;
  lat_sweep h = checked_sweep(&o, sizes, n, what, &s);
  assert_int_equal(s.npairs, bisect ? size / 2 : 1);
  assert_int_equal(s.source, 0);
  assert_int_equal(s.dest, bisect ? size / 2 : size - 1);
  if (pattern == LAT_SWEEP_OVERLAP || pattern == LAT_SWEEP_OVERLAP_ROUNDTRIP) {
    lat_sweep_point p;
    lat_sweep_get_point(h, n - 1, &p);
    assert_true(p.compute_us > 0.0);
  }
  assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  assert_null(h);
}

static void pingpong(void **state) { (void)state; sweep_pattern(LAT_SWEEP_PINGPONG, 0, 0, 0); }
static void nonblocking(void **state) { (void)state; sweep_pattern(LAT_SWEEP_NONBLOCKING, 0, 0, 0); }
static void head_to_head(void **state) { (void)state; sweep_pattern(LAT_SWEEP_HEAD_TO_HEAD, 0, 0, 0); }
static void overlap(void **state) { (void)state; sweep_pattern(LAT_SWEEP_OVERLAP, 0, 0, 0); }
static void overlap_roundtrip(void **state) { (void)state; sweep_pattern(LAT_SWEEP_OVERLAP_ROUNDTRIP, 0, 0, 0); }
static void persistent(void **state) { (void)state; sweep_pattern(LAT_SWEEP_PERSISTENT, 0, 0, 0); }
static void bisect_persistent(void **state) { (void)state; sweep_pattern(LAT_SWEEP_PERSISTENT, 1, 1, 0); }
static void bisect_pingpong(void **state) { (void)state; sweep_pattern(LAT_SWEEP_PINGPONG, 1, 0, 0); }
static void bisect_head(void **state) { (void)state; sweep_pattern(LAT_SWEEP_HEAD_TO_HEAD, 1, 1, 0); }
/* The original's -bisectdist d: pair 0 is (0, d); the pairs, counted by hand, with every message checked
   (a rank paired with the wrong partner would fail the check or wait for ever). */
static void bisect_distance(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 64};
  for (int d = 1; d < size; ++d) {
    lat_sweep_options o;
    small_options(&o);
    o.bisect = 1;
    o.bisect_distance = d;
    o.verify = 1;
    lat_sweep_summary s;
    lat_sweep h = checked_sweep(&o, sizes, 2, "bisect_distance", &s);
    /* 2 ranks: (0,1); 3: (0,1) or (0,2), the third rank idle; 4: (0,1),(2,3) / (0,2),(1,3) / (0,3),(2,1) */
    assert_int_equal(s.npairs, size == 3 ? 1 : size / 2);
    assert_int_equal(s.source, 0);
    assert_int_equal(s.dest, d);
    assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  }
}

/* The memcpy pattern: the source rank copies alone (the others idle; dest not used), every copy checked,
   then through the cache-cold walk; on a communicator of one process, each rank its own sweep. */
static void memcpy_alone(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 64, 4096};
  lat_sweep_options o;
  small_options(&o);
  o.pattern = LAT_SWEEP_MEMCPY;
  o.source = size - 1;
  for (int pass = 0; pass < 2; ++pass) {
    o.verify = pass == 0;
    o.cachesize = pass == 0 ? 0 : 1 << 20;
    lat_sweep_summary s;
    lat_sweep h = checked_sweep(&o, sizes, 3, "memcpy", &s);
    assert_int_equal(s.npairs, 1);
    assert_int_equal(s.source, size - 1);
    assert_int_equal(s.dest, size - 1);
    assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  }
  o.source = 0;
  o.cachesize = 0;
  lat_sweep h = NULL;
  if (lat_size_sweep(MPI_COMM_SELF, &o, 3, sizes, NULL, &h) != LAT_SUCCESS)
    fail_msg("memcpy on one process: %s", lat_last_error_message());
  lat_sweep_summary s;
  lat_sweep_get_summary(h, &s);
  assert_int_equal(s.nprocs, 1);
  assert_int_equal(s.nsizes, 3);
  assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  o.pattern = LAT_SWEEP_PINGPONG; /* a message needs a partner */
  assert_int_equal(lat_size_sweep(MPI_COMM_SELF, &o, 3, sizes, NULL, &h), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "a sweep needs at least 2 processes, the communicator has 1"));
  MPI_Barrier(MPI_COMM_WORLD);
}

/* The halo exchange on every rank, every message checked (a message without its receive would wait for ever,
   a wrong partner would fail the check): each count of partners allowed here, open and periodic. The most
   partners a rank has, by hand (N: refused):
     ranks   1 open/periodic   2 open/periodic   4 open/periodic   8 open/periodic
     2          1 / 1             1 / 2             2 / 4             N
     3          1 / N             2 / 2             4 / 4             N
     4          1 / 1             2 / 2             3 / 4             3 / 8                                  */
static void halo(void **state) {
  (void)state;
  static const int counts[4] = {1, 2, 4, 8};
  static const int most[3][4][2] = {{{1, 1}, {1, 2}, {2, 4}, {-1, -1}},
                                    {{1, -1}, {2, 2}, {4, 4}, {-1, -1}},
                                    {{1, 1}, {2, 2}, {3, 4}, {3, 8}}};
  if (size > 4) skip();
  const int64_t sizes[] = {0, 64, 4096};
  for (int c = 0; c < 4; ++c)
    for (int periodic = 0; periodic < 2; ++periodic) {
      const int want = most[size - 2][c][periodic];
      lat_sweep_options o;
      small_options(&o);
      o.pattern = LAT_SWEEP_HALO;
      o.halo_partners = counts[c];
      o.halo_periodic = periodic;
      o.verify = 1;
      o.n_avg = 5; /* 4 ranks on 2 cores: an exchange can take a time slice (ms) */
      o.cachesize = c == 2 ? 1 << 20 : 0; /* one count through the cache-cold walk: partners' messages side by side */
      if (want < 0) {
        assert_int_equal(lat_sweep_check(&o, size, 3, sizes, NULL), LAT_ERR_ARG);
        continue;
      }
      lat_sweep_summary s;
      lat_sweep h = checked_sweep(&o, sizes, 3, "halo", &s);
      assert_int_equal(s.npairs, size);
      assert_int_equal(s.halo_partners, want);
      lat_sweep_point p;
      lat_sweep_get_point(h, 2, &p);
      assert_true(fabs(p.rate_mbs - 4096.0 * want / p.min_us) <= 1e-9 * p.rate_mbs);
      assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
    }
}

/* The original's -gop: every rank calls the collective operation. verify checks every sum against its
   hand-computed value (rank r adds r + 1 + (k + seed) mod 1000 at element k: P (P + 1) / 2 + P ((k + seed) mod
   1000)) and every byte a broadcast's turning root sent; the rate is size / time (the original's RateScale 1). */
static void gop(void **state) {
  (void)state;
  if (size > 4) skip();
  const int64_t sizes[] = {0, 64, 4096};
  for (int op = LAT_SWEEP_GOP_SYNC; op <= LAT_SWEEP_GOP_BCAST; ++op) {
    lat_sweep_options o;
    small_options(&o);
    o.pattern = LAT_SWEEP_GOP;
    o.gop = op;
    o.verify = 1;
    o.n_avg = 5; /* 4 ranks on 2 cores: a call can take a time slice (ms) */
    o.cachesize = op == LAT_SWEEP_GOP_DSUM ? 1 << 20 : 0; /* one operation through the cache-cold walk */
    lat_sweep_summary s;
    lat_sweep h = checked_sweep(&o, sizes, 3, "gop", &s);
    assert_int_equal(s.npairs, size);
    assert_int_equal(s.pattern, LAT_SWEEP_GOP);
    lat_sweep_point p;
    lat_sweep_get_point(h, 2, &p);
    assert_true(fabs(p.rate_mbs - 4096.0 / p.min_us) <= 1e-9 * p.rate_mbs);
    assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  }
  lat_sweep_options o;
  small_options(&o);
  o.gop = LAT_SWEEP_GOP_DSUM; /* the operation without the pattern */
  expect_everywhere(lat_sweep_check(&o, size, 3, sizes, NULL), LAT_ERR_ARG, "gop is the gop pattern's (pattern = 8), got 1");
  o.pattern = LAT_SWEEP_GOP;
  o.bisect = 1;
  expect_everywhere(lat_sweep_check(&o, size, 3, sizes, NULL), LAT_ERR_ARG, "the gop pattern involves every rank");
  o.bisect = 0;
  o.gop = 4;
  expect_everywhere(lat_sweep_check(&o, size, 3, sizes, NULL), LAT_ERR_ARG, "gop must be 0 (sync), 1 (dsum), 2 (isum) or 3 (bcast)");
}

/* The original's strided message (-vector, -vectortype), both forms, between the pair and in a bisection;
   where the doubles land is test_sweep_types_mpi's. */
static void vector(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 7, 800, 8000};
  for (int k = 0; k < 4; ++k) {
    lat_sweep_options o;
    small_options(&o);
    o.vector_stride = k < 2 ? 10 : 3;
    o.vector_type = k % 2;
    o.bisect = k >= 2;
    lat_sweep_summary s;
    lat_sweep h = checked_sweep(&o, sizes, 4, "vector", &s);
    assert_int_equal(s.vector_stride, o.vector_stride);
    assert_int_equal(s.vector_type, o.vector_type);
    assert_int_equal(lat_sweep_free(&h), LAT_SUCCESS);
  }
}

static void cache_cold(void **state) { (void)state; sweep_pattern(LAT_SWEEP_PINGPONG, 0, 0, 1 << 20); }

static void verified_every_pattern(void **state) {
  (void)state;
  for (int pattern = LAT_SWEEP_PINGPONG; pattern <= LAT_SWEEP_PERSISTENT; ++pattern)
    sweep_pattern(pattern, 0, 1, pattern == LAT_SWEEP_NONBLOCKING ? 1 << 16 : 0);
}

/* The grid of the options (no list), fixed n_avg, the other pair than 0 and last. */
static void grid_and_pair(void **state) {
  (void)state;
  lat_sweep_options o;
  small_options(&o);
  o.size_first = 16;
  o.size_last = 100;
  o.size_stride = 40; /* 16, 56, 96, then 100: last is always in */
  o.n_avg = 3;
  o.source = size - 1;
  o.dest = size > 2 ? 1 : 0;
  lat_sweep h = NULL;
  assert_int_equal(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_SUCCESS);
  const int64_t want[] = {16, 56, 96, 100};
  check_sweep(h, want, 4, &o);
  lat_sweep_summary s;
  lat_sweep_get_summary(h, &s);
  assert_int_equal(s.source, size - 1);
  assert_int_equal(s.dest, o.dest);
  lat_sweep_free(&h);
}

/* The default loop length: the same for every size, at least 50 operations (the original's n_avg), so
   that a sample's barrier and clock reads are averaged away; with a time goal, each size its own. */
static void default_loop_length(void **state) {
  (void)state;
  lat_sweep_options o;
  small_options(&o);
  o.n_avg = 0;
  const int64_t sizes[] = {0, 64, 512, 1024};
  lat_sweep h = NULL;
  assert_int_equal(lat_size_sweep(MPI_COMM_WORLD, &o, 4, sizes, NULL, &h), LAT_SUCCESS);
  check_sweep(h, sizes, 4, &o);
  lat_sweep_point first, p;
  lat_sweep_get_point(h, 0, &first);
  assert_true(first.n_avg >= 50);
  for (int64_t i = 1; i < 4; ++i) {
    lat_sweep_get_point(h, i, &p);
    assert_int_equal(p.n_avg, first.n_avg);
  }
  lat_sweep_free(&h);
  /* A goal of 2 ms a sample: each size gets its own number of operations, from its own time (never one
     for all, as without tgoal). Timings vary (a loaded or virtual machine can make 0 bytes as slow as
     64 KiB for a while), so the test asserts the rule, not a ratio: n_avg x the time of an operation is
     of the order of the goal, and the larger message never gets more operations. */
  o.tgoal_s = 0.002;
  o.reps = 2;
  const int64_t far[] = {0, 65536};
  assert_int_equal(lat_size_sweep(MPI_COMM_WORLD, &o, 2, far, NULL, &h), LAT_SUCCESS);
  lat_sweep_get_point(h, 0, &first);
  lat_sweep_get_point(h, 1, &p);
  assert_true(first.n_avg >= p.n_avg && p.n_avg >= 1);
  for (int i = 0; i < 2; ++i) {
    lat_sweep_point q;
    lat_sweep_get_point(h, i, &q);
    const double sample_s = (double)q.n_avg * q.median_us * 1e-6;
    if (!(sample_s > o.tgoal_s / 20.0 && (q.n_avg == 1 || sample_s < o.tgoal_s * 20.0)))
      fail_msg("size %lld: n_avg %lld x %g us = %g s, goal %g s", (long long)q.bytes, (long long)q.n_avg, q.median_us,
               sample_s, o.tgoal_s);
  }
  lat_sweep_free(&h);
}

/* Adaptive refinement on real messages: sizes are added only between the grid's, none closer than autodx. */
static void adaptive_between_grid_points(void **state) {
  (void)state;
  lat_sweep_options o;
  small_options(&o);
  o.size_first = 0;
  o.size_last = 2048;
  o.size_stride = 1024;
  o.adaptive = 1;
  o.autodx = 64;
  o.reps = 12; /* passes enough for a midpoint to be judged */
  o.n_avg = 2;
  lat_sweep h = NULL;
  assert_int_equal(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_SUCCESS);
  lat_sweep_summary s;
  lat_sweep_get_summary(h, &s);
  assert_true(same_everywhere(&s, (int)sizeof s));
  assert_true(s.nsizes >= 3 && s.nsizes <= 2048 / 64 + 1);
  int64_t prev = -1;
  int grid = 0;
  for (int64_t i = 0; i < s.nsizes; ++i) {
    lat_sweep_point p;
    lat_sweep_get_point(h, i, &p);
    assert_true(p.bytes > prev);
    if (prev >= 0) assert_true(p.bytes - prev >= 64);
    prev = p.bytes;
    grid += !p.refined;
    assert_true(p.refined == (p.bytes % 1024 != 0));
    assert_true(p.samples >= 1);
    if (!p.refined) assert_int_equal(p.samples, s.passes); /* the grid's sizes were in every pass */
  }
  assert_int_equal(grid, 3);
  lat_sweep_free(&h);
}

static void caller_comm_untouched(void **state) {
  (void)state;
  double buf[4];
  MPI_Request req;
  watch_caller_comm(&req, buf);
  sweep_pattern(LAT_SWEEP_HEAD_TO_HEAD, size > 2, 1, 0);
  caller_comm_received_nothing(&req);
}

/* The patterns' rules, each case the defaults with these fields (THE_SIZE: the communicator's size). */
#define THE_SIZE (-100)
struct refusal {
  int pattern, bisect, bisect_distance, halo_partners, source, vector_stride, vector_type, verify;
  int64_t cachesize;
  const char *words;
};
static const struct refusal refusals[] = {
    {LAT_SWEEP_MEMCPY, 1, 0, 2, 0, 0, 0, 0, 0, "the memcpy pattern is one rank's copy: it cannot be a bisection"},
    {LAT_SWEEP_MEMCPY, 0, 0, 2, THE_SIZE, 0, 0, 0, 0, "source must be a rank in 0.."},
    {LAT_SWEEP_PINGPONG, 0, 0, 4, 0, 0, 0, 0, 0,
     "halo_partners and halo_periodic are the halo pattern's (pattern = 7), got 4 and 0"},
    {LAT_SWEEP_HALO, 0, 0, 6, 0, 0, 0, 0, 0, "halo_partners must be 1, 2, 4 or 8"},
    {LAT_SWEEP_HALO, 1, 0, 2, 0, 0, 0, 0, 0, "the halo pattern involves every rank: it cannot be a bisection"},
    {LAT_SWEEP_PINGPONG, 0, 1, 2, 0, 0, 0, 0, 0, "bisect_distance is a bisection's (bisect = 1), got 1"},
    {LAT_SWEEP_PINGPONG, 1, THE_SIZE, 2, 0, 0, 0, 0, 0, "bisect_distance must be 0 (rank i with i + P/2) or in 1.."},
    {LAT_SWEEP_HEAD_TO_HEAD, 0, 0, 2, 0, 10, 0, 0, 0,
     "vector_stride is the blocking ping-pong's (pattern 0, the original's -vector), got pattern 2"},
    {LAT_SWEEP_PINGPONG, 0, 0, 2, 0, 10, 0, 1, 0, "vector_stride with verify is not offered"},
    {LAT_SWEEP_PINGPONG, 0, 0, 2, 0, 10, 0, 0, 1 << 20, "vector_stride needs cachesize 0"},
    {LAT_SWEEP_PINGPONG, 0, 0, 2, 0, 0, 1, 0, 0, "vector_type needs vector_stride > 0"},
    {LAT_SWEEP_PINGPONG, 0, 0, 2, 0, 65537, 0, 0, 0, "vector_stride must be"},
};

static void collective_argument_errors(void **state) {
  (void)state;
  lat_sweep_options o;
  lat_sweep h = (lat_sweep)&h; /* must come back NULL */
  const int64_t sizes[] = {0, 64, 32};
  small_options(&o);
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 3, sizes, NULL, &h), LAT_ERR_ARG, "ascending");
  assert_null(h);
  small_options(&o);
  o.size_stride = rank == size - 1 ? 0 : 32; /* bad on one rank only */
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_ARG, "size_stride must be >= 1");
  small_options(&o);
  o.pattern = 9;
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_ARG, "pattern must be");
  small_options(&o);
  o.pattern = LAT_SWEEP_PERSISTENT; /* its requests are bound to one pair of buffers: no cache-cold walk */
  o.cachesize = 1 << 20;
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_ARG,
                    "cachesize must be 0 with the persistent pattern");
  for (size_t k = 0; k < sizeof refusals / sizeof refusals[0]; ++k) {
    const struct refusal *r = &refusals[k];
    small_options(&o);
    o.pattern = r->pattern;
    o.bisect = r->bisect;
    o.bisect_distance = r->bisect_distance == THE_SIZE ? size : r->bisect_distance;
    o.halo_partners = r->halo_partners;
    o.source = r->source == THE_SIZE ? size : r->source;
    o.vector_stride = r->vector_stride;
    o.vector_type = r->vector_type;
    o.verify = r->verify;
    o.cachesize = r->cachesize;
    expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_ARG, r->words);
  }
  small_options(&o);
  o.dest = 0;
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_ARG, "must differ");
  small_options(&o);
  o.reps = rank == 0 ? 4 : 5; /* differs between ranks */
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_ARG, "reps");
  small_options(&o);
  const int64_t mine[] = {0, rank == 0 ? 64 : 65};
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 2, mine, NULL, &h), LAT_ERR_ARG, "sizes");
  small_options(&o);
  o.size_last = (int64_t)1 << 40;
  o.size_stride = (int64_t)1 << 38;
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_ARG, "message sizes must be <=");
  small_options(&o);
  o.autorel = NAN;
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_ARG, "autorel");
  small_options(&o);
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, NULL, 0, NULL, NULL, &h), LAT_ERR_ARG, "opts");
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, NULL), LAT_ERR_ARG, "result");
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 2, NULL, NULL, &h), LAT_ERR_ARG, "sizes must not be NULL");
  MPI_Barrier(MPI_COMM_WORLD);
}

static void stop_request_keeps_points(void **state) {
  (void)state;
  lat_sweep_options o;
  small_options(&o);
  if (rank == 0) lat_request_stop();
  lat_sweep h = NULL;
  expect_everywhere(lat_size_sweep(MPI_COMM_WORLD, &o, 0, NULL, NULL, &h), LAT_ERR_INTERRUPTED, NULL);
  lat_clear_stop();
  assert_non_null(h);
  lat_sweep_summary s;
  lat_sweep_get_summary(h, &s);
  assert_int_equal(s.end, LAT_SWEEP_END_STOPPED);
  lat_sweep_free(&h);
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  mpi_tests_begin(&argc, &argv, &rank, &size);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pingpong),          cmocka_unit_test(nonblocking),
      cmocka_unit_test(head_to_head),      cmocka_unit_test(overlap),
      cmocka_unit_test(overlap_roundtrip), cmocka_unit_test(persistent), cmocka_unit_test(bisect_persistent),
      cmocka_unit_test(bisect_pingpong),   cmocka_unit_test(bisect_head),       cmocka_unit_test(bisect_distance),
      cmocka_unit_test(memcpy_alone),      cmocka_unit_test(halo),              cmocka_unit_test(vector), cmocka_unit_test(gop),
      cmocka_unit_test(cache_cold),        cmocka_unit_test(verified_every_pattern),
      cmocka_unit_test(grid_and_pair),     cmocka_unit_test(adaptive_between_grid_points),
      cmocka_unit_test(default_loop_length),
      cmocka_unit_test(caller_comm_untouched), cmocka_unit_test(collective_argument_errors),
      cmocka_unit_test(stop_request_keeps_points),
  };
  return mpi_tests_end(cmocka_run_group_tests(tests, NULL, NULL));
}
