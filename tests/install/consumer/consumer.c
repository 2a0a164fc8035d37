/* A C tool using mpilat: checks the header against the library, measures a short ping-pong. */
#include <mpilat.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, rc = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (lat_get_api_version() == LAT_API_VERSION) {
    lat_pingpong_options o;
    lat_pingpong_result r;
    lat_pingpong_defaults(&o);
    o.nr = 1 << 12;
    o.npp = 1;
    o.estimate = 0; /* Part 2 not wanted here */
    o.ntrial = 100;
    rc = lat_pingpong_stats(MPI_COMM_WORLD, &o, NULL, &r, NULL);
    if (rank == 0) printf("consumer_c: %s, %lld trials\n", lat_strerror(rc), (long long)r.ntrial_done);
  }
  MPI_Finalize();
  return rc == LAT_SUCCESS ? 0 : 1;
}
