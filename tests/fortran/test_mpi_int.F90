!> Module mpilat with `use mpi`: the communicator as an integer handle reaches C through MPI_Comm_f2c.
program test_mpi_int
  use, intrinsic :: iso_c_binding, only: c_int64_t
  use mpi
  use mpilat
  use mpilat_test_checks, only: check, finish_checks
  implicit none
  integer :: rank, nprocs, ierr, mpierr, total, subcomm
  type(lat_pingpong_options) :: popts
  type(lat_pingpong_result) :: pres
  type(lat_timer_options) :: topts
  type(lat_timer_result) :: tres

  call MPI_Init(mpierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, mpierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, mpierr)

  call lat_timer_defaults(topts)
  topts%nr = 2**14
  call lat_calibrate_timer(MPI_COMM_WORLD, topts, tres, ierr=ierr)
  call check(ierr == LAT_SUCCESS .and. tres%rank == rank, 'calibration on every rank, integer communicator')

  call lat_pingpong_defaults(popts)
  popts%npp = 2
  popts%estimate = 0
  popts%nr = 2**14
  popts%ntrial = 300
  call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'lat_pingpong_stats with an integer communicator')
  call check(pres%npp_used == 2 .and. pres%ntrial_done == 300, 'fixed npp and trial count')

  ! A communicator other than MPI_COMM_WORLD: ranks in reverse order.
  call MPI_Comm_split(MPI_COMM_WORLD, 0, nprocs - rank, subcomm, mpierr)
  popts%source = 1
  popts%dest = 0
  call lat_pingpong_stats(subcomm, popts, pres, ierr=ierr)
  call check(ierr == LAT_SUCCESS .and. pres%source == 1 .and. pres%dest == 0, 'a split communicator')
  call MPI_Comm_free(subcomm, mpierr)

  popts%source = 0
  popts%dest = nprocs
  call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, ierr=ierr)
  call check(ierr == LAT_ERR_ARG, 'dest outside the communicator is LAT_ERR_ARG')
  call lat_pingpong_stats(MPI_COMM_NULL, popts, pres, ierr=ierr)
  call check(ierr == LAT_ERR_ARG, 'MPI_COMM_NULL is LAT_ERR_ARG')

  total = finish_checks('test_mpi_int')
  call MPI_Finalize(mpierr)
  if (total /= 0) error stop 1

end program test_mpi_int
