/* mpi_test_support.h: what the CMocka MPI tests share: checks that hold on every rank. Include after
   <cmocka.h> and <mpi.h>. */
#ifndef MPILAT_MPI_TEST_SUPPORT_H
#define MPILAT_MPI_TEST_SUPPORT_H

#include <stdlib.h>
#include <string.h>

#include "mpilat.h"

/* True on every rank when the bytes of buf are the same on all ranks. */
static int same_everywhere(const void *buf, int len) {
  unsigned char *root = malloc((size_t)len);
  memcpy(root, buf, (size_t)len);
  MPI_Bcast(root, len, MPI_BYTE, 0, MPI_COMM_WORLD);
  int same = memcmp(root, buf, (size_t)len) == 0, all = 0;
  MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  free(root);
  return all;
}

/* The call returned want here, and its message (if text is not NULL) contains text. */
static void expect_everywhere(int rc, int want, const char *text) {
  assert_int_equal(rc, want);
  if (text && !strstr(lat_last_error_message(), text))
    fail_msg("message '%s' lacks '%s'", lat_last_error_message(), text);
}

/* The application's communicator must see none of the library's messages: a receive of anything on
   MPI_COMM_WORLD is posted before the calls and must still be pending after them. */
static void watch_caller_comm(MPI_Request *req, double buf[4]) {
  MPI_Irecv(buf, 4, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, req);
}

static void caller_comm_received_nothing(MPI_Request *req) {
  int done = 1;
  MPI_Test(req, &done, MPI_STATUS_IGNORE);
  assert_false(done);
  MPI_Cancel(req);
  MPI_Wait(req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* main() of every MPI test program: MPI_Init, then tests_begin; after the group, tests_end returns the
   exit status (the failures summed over all ranks, so every rank agrees). A failing rank must not leave
   the others waiting in a collective: with more than one rank, cmocka aborts the job on a failure. */
static void mpi_tests_begin(int *argc, char ***argv, int *rank, int *size) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (*size > 1) setenv("CMOCKA_TEST_ABORT", "1", 1);
}

static int mpi_tests_end(int failed) {
  int total = 0;
  MPI_Allreduce(&failed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}

#endif
