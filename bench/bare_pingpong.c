/* bare_pingpong: the plainest ping-pong loop, to compare the latency driver's median against at the same
   npp (docs/performance.md). No library: ntrial loops of npp MPI_Send/MPI_Recv pairs between ranks 0 and 1,
   each loop timed with MPI_Wtime, median of the loop time / (2 npp) printed in microseconds.
   With more than 2 ranks, the others wait for the end in a barrier: IDLE = spin (MPI_Barrier, which
   busy-polls) or yield (MPI_Ibarrier tested every 0.5 ms, as the library's waiting ranks do); the wall
   time of the whole is printed, to show what spinning ranks cost on an oversubscribed node.
   usage: mpiexec -n NP bare_pingpong NPP NTRIAL [spin|yield] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bare_sort.h"

static void wait_at_barrier(int yield) {
  if (!yield) {
    MPI_Barrier(MPI_COMM_WORLD);
    return;
  }
  const struct timespec nap = {0, 500 * 1000};
  MPI_Request req;
  int done = 0;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  for (;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    nanosleep(&nap, NULL);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long npp = argc > 1 ? atol(argv[1]) : 1, ntrial = argc > 2 ? atol(argv[2]) : 100000;
  const char *idle = argc > 3 ? argv[3] : "yield";
  const int yield = strcmp(idle, "yield") == 0;
  if (npp < 1 || ntrial < 1 || (!yield && strcmp(idle, "spin") != 0)) {
    if (rank == 0)
      fprintf(stderr, "bare_pingpong: NPP and NTRIAL must be >= 1 and IDLE spin or yield, got %ld %ld %s\n", npp,
              ntrial, idle);
    MPI_Finalize();
    return 2;
  }
  double a = 0.0, *t = rank == 0 ? malloc((size_t)ntrial * sizeof *t) : NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long k = 0; k < ntrial && rank < 2; ++k) {
    if (rank == 0) {
      const double t1 = MPI_Wtime();
      for (long i = 0; i < npp; ++i) {
        MPI_Send(&a, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&a, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      t[k] = (MPI_Wtime() - t1) * 1e6 / (2.0 * npp);
    } else if (rank == 1) {
      for (long i = 0; i < npp; ++i) {
        MPI_Recv(&a, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&a, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
      }
    }
  }
  const double measured = MPI_Wtime() - start;
  wait_at_barrier(yield);
  if (rank == 0) {
    int nprocs;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    qsort(t, (size_t)ntrial, sizeof *t, by_value);
    printf("bare_pingpong: %d ranks (idle ones %s), npp %ld, %ld trials, median %.4f us, minimum %.4f us, "
           "measuring %.2f s, all done %.2f s\n",
           nprocs, idle, npp, ntrial, t[ntrial / 2], t[0], measured, MPI_Wtime() - start);
    free(t);
  }
  MPI_Finalize();
  return 0;
}
