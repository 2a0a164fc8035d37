/* abi_caller.c: a caller of the C ABI that needs no MPI job, built twice by tests/CMakeLists.txt: against
   the previous release's headers (tests/data/abi_0.9/, which call the entry points without _sized) and
   against this release's (the macros of mpilat_sized.h). tests/tools/check_previous_caller.sh runs both
   against this library and fails unless they print the same: every struct a function fills is printed
   byte by byte, every refusal with its code and message. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpilat.h"

static void bytes(const char *what, const void *p, size_t n) {
  const unsigned char *b = p;
  printf("%s %zu:", what, n);
  for (size_t i = 0; i < n; ++i) printf("%02x", b[i]);
  printf("\n");
}
static void code(const char *what, int rc) { printf("%s -> %d %s\n", what, rc, rc ? lat_last_error_message() : ""); }

/* 2 us + 1 ns per byte, and 3 us more above 8250 bytes. */
static int curve(int64_t size, void *context, double *time_us) {
  (void)context;
  *time_us = 2.0 + 0.001 * (double)size + (size > 8250 ? 3.0 : 0.0);
  return LAT_SUCCESS;
}

int main(void) {
  /* Every options struct's defaults, and one refusal each through its check. */
  lat_timer_options to;
  code("timer_defaults", lat_timer_defaults(&to));
  bytes("timer_options", &to, sizeof to);
  to.nr = 0;
  code("timer_check nr 0", lat_timer_check(&to, 2));
  lat_pingpong_options po;
  code("pingpong_defaults", lat_pingpong_defaults(&po));
  bytes("pingpong_options", &po, sizeof po);
  po.ntrial = 0;
  code("pingpong_check ntrial 0", lat_pingpong_check(&po, 2, NULL));
  lat_sweep_options so;
  code("sweep_defaults", lat_sweep_defaults(&so));
  bytes("sweep_options", &so, sizeof so);
  lat_queue_options qo;
  code("queue_defaults", lat_queue_defaults(&qo));
  bytes("queue_options", &qo, sizeof qo);
  const int64_t lengths[2] = {0, -1};
  code("queue_check length -1", lat_queue_check(&qo, 2, 2, lengths, 0, NULL, 0, NULL, NULL));
  lat_pair_options pao;
  code("pair_defaults", lat_pair_defaults(&pao));
  bytes("pair_options", &pao, sizeof pao);
  pao.reserved = 7;
  code("pair_check reserved 7", lat_pair_check(&pao, 2));
  lat_nodecomm_options no;
  code("nodecomm_defaults", lat_nodecomm_defaults(&no));
  bytes("nodecomm_options", &no, sizeof no);
  lat_fit_options fo;
  code("fit_defaults", lat_fit_defaults(&fo));
  bytes("fit_options", &fo, sizeof fo);
  lat_compare_options co;
  code("compare_defaults", lat_compare_defaults(&co));
  bytes("compare_options", &co, sizeof co);
  lat_collective_options cco;
  code("collective_defaults", lat_collective_defaults(&cco));
  bytes("collective_options", &cco, sizeof cco);
  cco.reserved = 1;
  code("collective_check reserved 1", lat_collective_check(&cco, 0, NULL, 2));

  /* Statistics and comparisons. */
  const double v[7] = {1.0, 1.2, 0.9, 1.1, 5.0, 1.05, 0.95};
  lat_stats st;
  code("stats_compute", lat_stats_compute(7, v, 8, &st));
  bytes("stats", &st, sizeof st);
  lat_compare_result cr;
  const double la[5] = {1.00, 1.01, 0.99, 1.005, 0.995}, lb[5] = {1.05, 1.06, 1.04, 1.055, 1.045};
  code("compare_launches", lat_compare_launches(5, la, 5, lb, &co, &cr));
  bytes("compare_result", &cr, sizeof cr);
  code("compare_launches 2", lat_compare_launches(2, la, 5, lb, &co, &cr));

  /* A size sweep on a synthetic curve: its summary, points, thresholds. */
  so.size_first = 0;
  so.size_last = 65536;
  so.size_stride = 8192;
  so.adaptive = 1;
  so.reps = 100;
  lat_sweep sw = NULL;
  code("sweep_run", lat_sweep_run(&so, 0, NULL, curve, NULL, &sw));
  lat_sweep_summary ss;
  code("sweep_get_summary", lat_sweep_get_summary(sw, &ss));
  ss.wall_s = 0.0; /* the run's wall clock, the one value that differs from run to run */
  bytes("sweep_summary", &ss, sizeof ss);
  for (int64_t i = 0; i < ss.nsizes; ++i) {
    lat_sweep_point sp;
    code("sweep_get_point", lat_sweep_get_point(sw, i, &sp));
    bytes("sweep_point", &sp, sizeof sp);
  }
  for (int64_t i = 0; i < ss.nthresholds; ++i) {
    lat_sweep_threshold th;
    code("sweep_get_threshold", lat_sweep_get_threshold(sw, i, &th));
    bytes("sweep_threshold", &th, sizeof th);
  }
  code("sweep_free", lat_sweep_free(&sw));

  /* The max-rate fit on the model's own data: its summary and each model. */
  lat_maxrate_obs obs[48];
  int64_t nobs = 0;
  for (int64_t k = 1; k <= 4; ++k)
    for (int64_t n = 1024; n <= 1048576; n *= 2, ++nobs) {
      const double rate = fmin(3000.0, 1000.0 * (double)k);
      obs[nobs] = (lat_maxrate_obs){k, n, 2.0 + (double)(k * n) / rate};
    }
  lat_maxrate_fit fit = NULL;
  code("fit_maxrate", lat_fit_maxrate(&fo, nobs, obs, &fit));
  lat_fit_summary fs;
  code("maxrate_get_summary", lat_maxrate_get_summary(fit, &fs));
  bytes("fit_summary", &fs, sizeof fs);
  for (int model = 0; model < 3; ++model) {
    lat_model_fit mf;
    code("maxrate_get_model", lat_maxrate_get_model(fit, 0, model, &mf));
    bytes("model_fit", &mf, sizeof mf);
  }
  code("maxrate_free", lat_maxrate_free(&fit));
  return 0;
}
