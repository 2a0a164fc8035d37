!> test_toy.F90: the template capability through module mpilat: defaults, a run on every rank with a
!> type(MPI_Comm) and with an integer handle (the generated generic), the summary, a bad value's ierr.
program test_toy
  use mpi_f08
  use mpilat
  implicit none
  type(lat_toy_options) :: opts
  type(lat_toy) :: t
  type(lat_toy_summary) :: s
  integer :: ierr, nprocs
  call MPI_Init()
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call lat_toy_defaults(opts)
  if (opts%iters /= 100 .or. opts%reps /= 50) error stop 'toy defaults'
  opts%iters = 3
  opts%reps = 4
  call lat_toy_measure(MPI_COMM_WORLD, opts, t)
  call lat_toy_get_summary(t, s)
  if (s%reps /= 4 .or. s%iters /= 3 .or. s%nprocs /= nprocs) error stop 'toy summary (type(MPI_Comm))'
  if (.not. (s%min_us > 0 .and. s%min_us <= s%median_us .and. s%median_us <= s%max_us)) error stop 'toy figures'
  call lat_toy_free(t)
  call lat_toy_measure(MPI_COMM_WORLD%MPI_VAL, opts, t)
  call lat_toy_get_summary(t, s)
  if (s%reps /= 4) error stop 'toy summary (integer handle)'
  call lat_toy_free(t)
  opts%iters = 0
  call lat_toy_measure(MPI_COMM_WORLD, opts, t, ierr=ierr)
  if (ierr /= LAT_ERR_ARG) error stop 'toy: iters 0 not refused'
  call lat_toy_check(opts, nprocs, ierr)
  if (ierr /= LAT_ERR_ARG) error stop 'toy check: iters 0 not refused'
  call MPI_Finalize()
end program test_toy
