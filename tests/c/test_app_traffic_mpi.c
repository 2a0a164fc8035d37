/* test_app_traffic_mpi.c: the library as an application uses it. Each rank posts
   MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD) before calling every collective measurement on
   MPI_COMM_WORLD (timer calibration, ping-pong, npp study, size sweep, queue sweep, pair matrix, nodecomm),
   then receives its own message from the rank before it: the receive must match exactly that message (its
   source, tag, count and payload), never one of the library's. A bad argument on one rank too (the
   collective error path). Never a timing value. */
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

enum { kAppTag = 4242, kAppCount = 3 };

/* The application's receive, posted before the library's calls. */
typedef struct {
  MPI_Request req;
  double buf[8];
} AppRecv;

static void post_app_recv(AppRecv *a) {
  memset(a->buf, 0, sizeof a->buf);
  MPI_Irecv(a->buf, 8, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &a->req);
}

/* After the library's calls: nothing has matched yet; then the rank before sends the application's own
   message, and the receive gets exactly it. */
static void app_message_arrives(AppRecv *a) {
  int done = 1;
  MPI_Status st;
  MPI_Test(&a->req, &done, &st);
  if (done) fail_msg("rank %d: the application's receive matched a message from rank %d, tag %d", rank, st.MPI_SOURCE, st.MPI_TAG);
  MPI_Barrier(MPI_COMM_WORLD); /* every rank has looked before any application message is sent */
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  const double payload[kAppCount] = {1000.0 + rank, 2.5, -7.0};
  MPI_Request send;
  MPI_Isend(payload, kAppCount, MPI_DOUBLE, to, kAppTag, MPI_COMM_WORLD, &send);
  MPI_Wait(&a->req, &st);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  int count = 0;
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  assert_int_equal(st.MPI_SOURCE, from);
  assert_int_equal(st.MPI_TAG, kAppTag);
  assert_int_equal(count, kAppCount);
  assert_true(a->buf[0] == 1000.0 + from && a->buf[1] == 2.5 && a->buf[2] == -7.0);
}

static void timer_and_pingpong(void **state) {
  (void)state;
  AppRecv a;
  post_app_recv(&a);
  lat_timer_options to;
  lat_timer_defaults(&to);
  to.nr = 1 << 12;
  lat_timer_result t;
  assert_int_equal(lat_calibrate_timer(MPI_COMM_WORLD, &to, &t, NULL), LAT_SUCCESS);
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.nr = 1 << 12;
  o.npptrial = 200;
  o.ntrial = 300;
  o.timeout_s = 60.0;
  lat_pingpong_result r;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, &t, &r, NULL), LAT_SUCCESS);
  assert_int_equal(r.ntrial_done, 300);
  const int64_t values[] = {1, 4};
  lat_npp_study_row rows[2];
  o.ntrial = 100;
  assert_int_equal(lat_npp_study(MPI_COMM_WORLD, &o, &t, 2, values, 0, &r, rows), LAT_SUCCESS);
  app_message_arrives(&a);
}

static void sweeps(void **state) {
  (void)state;
  AppRecv a;
  post_app_recv(&a);
  lat_sweep_options so;
  lat_sweep_defaults(&so);
  so.reps = 3;
  so.n_stable = 0;
  so.nr = 1 << 12;
  so.timeout_s = 60.0;
  const int64_t sizes[] = {0, 64, 1024};
  lat_sweep sw = NULL;
  assert_int_equal(lat_size_sweep(MPI_COMM_WORLD, &so, 3, sizes, NULL, &sw), LAT_SUCCESS);
  lat_sweep_free(&sw);
  lat_queue_options qo;
  lat_queue_defaults(&qo);
  qo.iters = 3;
  qo.reps = 2;
  qo.nr = 1 << 12;
  qo.timeout_s = 60.0;
  const int64_t lengths[] = {0, 8};
  lat_queue q = NULL;
  assert_int_equal(lat_queue_sweep(MPI_COMM_WORLD, &qo, 2, lengths, 0, NULL, 0, NULL, NULL, &q), LAT_SUCCESS);
  lat_queue_free(&q);
  app_message_arrives(&a);
}

static void pairs_and_nodecomm(void **state) {
  (void)state;
  AppRecv a;
  post_app_recv(&a);
  lat_pair_options po;
  lat_pair_defaults(&po);
  po.repeats = 5;
  po.timeout_s = 60.0;
  lat_pairs pr = NULL;
  assert_int_equal(lat_pair_matrix(MPI_COMM_WORLD, &po, &pr), LAT_SUCCESS);
  lat_pairs_free(&pr);
  lat_nodecomm_options no;
  lat_nodecomm_defaults(&no);
  no.reps = 2;
  no.nr = 1 << 12;
  no.timeout_s = 60.0;
  const int64_t sizes[] = {0, 64, 1024};
  lat_nodecomm n = NULL;
  assert_int_equal(lat_nodecomm_measure(MPI_COMM_WORLD, &no, 3, sizes, &n), LAT_SUCCESS);
  lat_nodecomm_free(&n);
  app_message_arrives(&a);
}

/* A bad value on one rank only: every rank gets LAT_ERR_ARG, and the application's receive is untouched. */
static void bad_argument_on_one_rank(void **state) {
  (void)state;
  AppRecv a;
  post_app_recv(&a);
  lat_pingpong_options o;
  lat_pingpong_defaults(&o);
  o.ntrial = rank == size - 1 ? 0 : 100;
  lat_pingpong_result r;
  assert_int_equal(lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL), LAT_ERR_ARG);
  lat_sweep_options so;
  lat_sweep_defaults(&so);
  so.reps = rank == 0 ? -1 : 3;
  lat_sweep sw = NULL;
  assert_int_equal(lat_size_sweep(MPI_COMM_WORLD, &so, 0, NULL, NULL, &sw), LAT_ERR_ARG);
  app_message_arrives(&a);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(timer_and_pingpong),
      cmocka_unit_test(sweeps),
      cmocka_unit_test(pairs_and_nodecomm),
      cmocka_unit_test(bad_argument_on_one_rank),
  };
  const int failed = cmocka_run_group_tests(tests, NULL, NULL);
  MPI_Finalize();
  return failed;
}
