/* bare_kpairs.c: the reference of nodecomm's k pairs (issue 31): a bare hand-written loop, no library.
   2K ranks: ranks 0..K-1 one side, K..2K-1 the other, pair p = (p, K + p). For k = 1..K, each of SIZES: the
   pairs meet in MPI_Barrier (blocking: every rank awake), the first k pairs make N full ping-pongs
   (MPI_Send, MPI_Recv), the slowest pair's mean full ping-pong time is kept; the minimum over REPS such
   measurements, interleaved over k and sizes as nodecomm interleaves them. Prints "k bytes min_us" lines.
   Usage: bare_kpairs N REPS SIZE... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4 || size < 2 || size % 2 != 0) {
    if (rank == 0) fprintf(stderr, "usage: mpiexec -n 2K bare_kpairs N REPS SIZE...\n");
    MPI_Finalize();
    return 2;
  }
  const int n = atoi(argv[1]), reps = atoi(argv[2]), nsizes = argc - 3, K = size / 2;
  int *sizes = malloc(sizeof(int) * (size_t)nsizes), largest = 1;
  for (int i = 0; i < nsizes; ++i) {
    sizes[i] = atoi(argv[3 + i]);
    if (sizes[i] > largest) largest = sizes[i];
  }
  char *buf = calloc((size_t)largest, 1);
  double *best = malloc(sizeof(double) * (size_t)(K * nsizes));
  for (int i = 0; i < K * nsizes; ++i) best[i] = 1e300;
  const int pair = rank % K, a_side = rank < K, peer = a_side ? rank + K : rank - K;
  for (int rep = -1; rep < reps; ++rep) /* rep -1: warm-up, not kept */
    for (int s = 0; s < nsizes; ++s)
      for (int k = 1; k <= K; ++k) {
        double t = 0.0, slowest = 0.0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (pair < k) {
          const double t1 = MPI_Wtime();
          for (int i = 0; i < n; ++i) {
            if (a_side) {
              MPI_Send(buf, sizes[s], MPI_BYTE, peer, 1, MPI_COMM_WORLD);
              MPI_Recv(buf, sizes[s], MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
              MPI_Recv(buf, sizes[s], MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
              MPI_Send(buf, sizes[s], MPI_BYTE, peer, 2, MPI_COMM_WORLD);
            }
          }
          if (a_side) t = (MPI_Wtime() - t1) * 1e6 / n;
        }
        MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0 && rep >= 0 && slowest < best[s * K + k - 1]) best[s * K + k - 1] = slowest;
      }
  if (rank == 0)
    for (int s = 0; s < nsizes; ++s)
      for (int k = 1; k <= K; ++k) printf("%d %d %.4f\n", k, sizes[s], best[s * K + k - 1]);
  free(buf);
  free(best);
  free(sizes);
  MPI_Finalize();
  return 0;
}
