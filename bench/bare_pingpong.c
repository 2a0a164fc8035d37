/* bare_pingpong: the plainest ping-pong loop, to compare the latency driver's median against at the same
   npp (docs/performance.md). No library: ntrial loops of npp MPI_Send/MPI_Recv pairs between ranks 0 and 1,
   each loop timed with MPI_Wtime, median of the loop time / (2 npp) printed in microseconds.
   usage: mpiexec -n 2 bare_pingpong NPP NTRIAL */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long npp = argc > 1 ? atol(argv[1]) : 1, ntrial = argc > 2 ? atol(argv[2]) : 100000;
  if (npp < 1 || ntrial < 1) {
    if (rank == 0) fprintf(stderr, "bare_pingpong: NPP and NTRIAL must be >= 1, got %ld %ld\n", npp, ntrial);
    MPI_Finalize();
    return 2;
  }
  double a = 0.0, *t = rank == 0 ? malloc((size_t)ntrial * sizeof *t) : NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  for (long k = 0; k < ntrial; ++k) {
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
  if (rank == 0) {
    qsort(t, (size_t)ntrial, sizeof *t, cmp);
    printf("bare_pingpong: npp %ld, %ld trials, median %.4f us, minimum %.4f us\n", npp, ntrial, t[ntrial / 2], t[0]);
    free(t);
  }
  MPI_Finalize();
  return 0;
}
