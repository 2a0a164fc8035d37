!> A Fortran science code using module mpilat.
program consumer_f
  use mpi_f08
  use mpilat
  implicit none
  type(lat_pingpong_options) :: opts
  type(lat_pingpong_result) :: res
  integer :: ierr, rank
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call lat_pingpong_defaults(opts)
  opts%nr = 4096
  opts%npp = 1
  opts%estimate = 0
  opts%ntrial = 100
  call lat_pingpong_stats(MPI_COMM_WORLD, opts, res, ierr=ierr)
  if (rank == 0) print '(a,i0,a)', 'consumer_f: '//lat_strerror(ierr)//', ', res%ntrial_done, ' trials'
  call MPI_Finalize()
  if (ierr /= LAT_SUCCESS) error stop 1
end program consumer_f
