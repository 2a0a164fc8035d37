/* bare_cache_walk: the cache-cold walk of mpptest's -cachesize without the library, to tell a property of
   the machine from one of mpilat (docs/performance.md, "The cache-cold walk"). Ranks 0 and 1 ping-pong
   SIZE-byte messages with MPI_Send/MPI_Recv, each operation on the next SIZE-byte slot of buffers of
   CACHESIZE bytes on both ranks (0: one buffer, warm), the walk going on across samples, as lat_size_sweep
   does; SAMPLES samples of NOPS operations each are timed with MPI_Wtime. Prints the minimum and the median
   over samples of the time per message (round trip / 2), microseconds.
   usage: mpiexec -n 2 bare_cache_walk SIZE CACHESIZE NOPS SAMPLES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bare_sort.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 5) {
    if (rank == 0) fprintf(stderr, "usage: bare_cache_walk SIZE CACHESIZE NOPS SAMPLES\n");
    MPI_Finalize();
    return 2;
  }
  const long size = atol(argv[1]), cachesize = atol(argv[2]), nops = atol(argv[3]), samples = atol(argv[4]);
  const long slot = (size + 4095) / 4096 * 4096;
  const long slots = cachesize > 2 * slot ? cachesize / slot : 1;
  unsigned char *buf = malloc((size_t)(slots * slot));
  double *t = malloc(sizeof(double) * (size_t)samples);
  if (buf == NULL || t == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(buf, 1, (size_t)(slots * slot)); /* touched: every page is there before the first sample */
  long next = 0;
  for (long s = 0; s < samples; ++s) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (long i = 0; i < nops; ++i) {
      unsigned char *p = buf + next * slot;
      next = next + 1 == slots ? 0 : next + 1;
      if (rank == 0) {
        MPI_Send(p, (int)size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(p, (int)size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(p, (int)size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(p, (int)size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
    t[s] = (MPI_Wtime() - t0) / (2.0 * (double)nops) * 1e6;
  }
  if (rank == 0) {
    qsort(t, (size_t)samples, sizeof(double), by_value);
    printf("%.3f %.3f\n", t[0], samples % 2 ? t[samples / 2] : 0.5 * (t[samples / 2 - 1] + t[samples / 2]));
  }
  free(buf);
  free(t);
  MPI_Finalize();
  return 0;
}
