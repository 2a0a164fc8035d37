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

#endif
