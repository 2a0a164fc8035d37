/* comm_f2c.c: the C side of module mpilat. Fortran hands over the integer handle of a communicator
   (type(MPI_Comm)%MPI_VAL or a `use mpi` integer); MPI_Comm_f2c turns it into the C handle, which is a
   pointer in Open MPI and an int in MPICH, so nothing here assumes either. */
#include <mpi.h>
#include <stddef.h>

#include "mpilat.h"

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "module mpilat passes MPI_Fint as integer(c_int)");

static MPI_Comm comm_from_fortran(MPI_Fint fcomm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  /* Before MPI_Init, MPI_Comm_f2c is undefined; MPI_COMM_NULL gets the library's NOT_INIT error. */
  if (!initialized || finalized) return MPI_COMM_NULL;
  return MPI_Comm_f2c(fcomm);
}

int lat_f_calibrate_timer(MPI_Fint comm, const lat_timer_options *opts, lat_timer_result *result,
                          lat_histogram *hist) {
  return lat_calibrate_timer(comm_from_fortran(comm), opts, result, hist);
}

int lat_f_npp_study(MPI_Fint comm, const lat_pingpong_options *opts, const lat_timer_result *timer, int nvalues,
                    const int64_t *values, int by_res_npp, lat_pingpong_result *result, lat_npp_study_row *rows) {
  return lat_npp_study(comm_from_fortran(comm), opts, timer, nvalues, values, by_res_npp, result, rows);
}

int lat_f_pingpong_stats(MPI_Fint comm, const lat_pingpong_options *opts, const lat_timer_result *timer,
                         lat_pingpong_result *result, lat_histogram *hist) {
  return lat_pingpong_stats(comm_from_fortran(comm), opts, timer, result, hist);
}

int lat_f_size_sweep(MPI_Fint comm, const lat_sweep_options *opts, int64_t nsizes, const int64_t *sizes,
                     const lat_timer_result *timer, lat_sweep *result) {
  return lat_size_sweep(comm_from_fortran(comm), opts, nsizes, sizes, timer, result);
}

int lat_f_queue_sweep(MPI_Fint comm, const lat_queue_options *opts, int64_t nlengths, const int64_t *lengths,
                      int64_t nfractions, const double *fractions_percent, int64_t nsizes, const int64_t *sizes,
                      const lat_timer_result *timer, lat_queue *result) {
  return lat_queue_sweep(comm_from_fortran(comm), opts, nlengths, lengths, nfractions, fractions_percent, nsizes,
                         sizes, timer, result);
}

int lat_f_pair_matrix(MPI_Fint comm, const lat_pair_options *opts, lat_pairs *result) {
  return lat_pair_matrix(comm_from_fortran(comm), opts, result);
}

int lat_f_nodecomm_measure(MPI_Fint comm, const lat_nodecomm_options *opts, int64_t nsizes, const int64_t *sizes,
                           lat_nodecomm *result) {
  return lat_nodecomm_measure(comm_from_fortran(comm), opts, nsizes, sizes, result);
}

int lat_f_collective(MPI_Fint comm, const lat_collective_options *opts, int64_t nsizes, const int64_t *sizes,
                     lat_coll *result) {
  return lat_collective(comm_from_fortran(comm), opts, nsizes, sizes, result);
}
