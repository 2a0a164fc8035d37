!> The queue sweep from Fortran: both modes, type(MPI_Comm) and an integer handle, queues left empty,
!> bad input through ierr. Run on 2 and 3 ranks (the third idle).
program test_queue
  use, intrinsic :: iso_c_binding, only: c_double, c_int64_t
  use mpi_f08
  use mpilat
  use mpilat_test_checks, only: check, finish_checks
  implicit none
  integer :: rank, nprocs, ierr, i
  type(lat_queue_options) :: opts
  type(lat_queue) :: queue
  type(lat_queue_summary) :: summary
  type(lat_queue_point), allocatable :: points(:)
  integer(c_int64_t), parameter :: lengths(3) = [0_c_int64_t, 10_c_int64_t, 50_c_int64_t]
  real(c_double), parameter :: fractions(2) = [0.0_c_double, 100.0_c_double]

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  call lat_queue_defaults(opts)
  call check(opts%iters == 1000 .and. opts%mode == LAT_QUEUE_POSTED, 'queue defaults: 1000 iterations, posted')
  opts%iters = 5
  opts%reps = 2
  opts%nr = 4096
  call lat_queue_sweep(MPI_COMM_WORLD, opts, queue, lengths=lengths, fractions_percent=fractions, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'posted sweep with type(MPI_Comm): '//lat_last_error_message())
  call lat_queue_get_summary(queue, summary)
  call check(summary%npoints == 6 .and. summary%leftover_messages == 0, 'six points, queues emptied')
  call lat_queue_points(queue, points)
  do i = 1, size(points)
    call check(points(i)%measurements == 2, 'every point measured reps times')
    call check(points(i)%min_us <= points(i)%median_us .and. points(i)%median_us <= points(i)%max_us, &
               'min <= median <= max')
  end do
  call check(points(6)%length == 50 .and. points(6)%traversed == 50 .and. points(3)%traversed == 0, &
             'order: fraction, then length; traversed = length x fraction')
  call lat_queue_free(queue)

  opts%mode = LAT_QUEUE_UNEXPECTED
  call lat_queue_sweep(MPI_COMM_WORLD%MPI_VAL, opts, queue, lengths=lengths, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'unexpected sweep with an integer handle')
  call lat_queue_get_summary(queue, summary)
  call check(summary%npoints == 3 .and. summary%mode == LAT_QUEUE_UNEXPECTED, 'unexpected: one point per length')
  call lat_queue_free(queue)

  opts%reps = 0
  call lat_queue_sweep(MPI_COMM_WORLD, opts, queue, lengths=lengths, ierr=ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'reps must be >= 1, got 0') > 0, &
             'bad reps named')

  if (finish_checks('test_queue') /= 0) error stop 1
  call MPI_Finalize()
end program test_queue
