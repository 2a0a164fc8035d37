/* bare_allreduce.c: the reference of issue 25's target: a bare hand-written loop that times one
   MPI_Allreduce of 8 bytes at a time (MPI_Barrier, read the clock, the call, read it again, on every rank),
   no library. Prints the median over calls of the slowest rank's time, in us. Usage: bare_allreduce [N]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bare_sort.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = argc > 1 ? atoi(argv[1]) : 10000;
  double *t = malloc(sizeof(double) * (size_t)n), *slowest = malloc(sizeof(double) * (size_t)n);
  double in = 1.0, out = 0.0;
  for (int k = 0; k < 100; ++k) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* warm-up */
  for (int k = 0; k < n; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t1 = MPI_Wtime();
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    t[k] = MPI_Wtime() - t1;
  }
  MPI_Reduce(t, slowest, n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    qsort(slowest, (size_t)n, sizeof(double), by_value);
    const double median = n % 2 ? slowest[n / 2] : 0.5 * (slowest[n / 2 - 1] + slowest[n / 2]);
    printf("bare allreduce 8 B: median of the slowest rank's time %.4f us over %d calls\n", median * 1e6, n);
  }
  free(t);
  free(slowest);
  MPI_Finalize();
  return 0;
}
