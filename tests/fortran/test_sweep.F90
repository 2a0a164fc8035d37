!> The size sweep from Fortran: lat_size_sweep with type(MPI_Comm) and with an integer handle, and
!> lat_sweep_run with a Fortran measuring function (a synthetic curve with a known step).
module sweep_synthetic
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_ptr
  use mpilat, only: LAT_SUCCESS
  implicit none
contains
  !> 1 us + 1 ns per byte, and 0.5 us more above 300 bytes.
  function stepped(size, context, time_us) bind(C) result(rc)
    integer(c_int64_t), value :: size
    type(c_ptr), value :: context
    real(c_double), intent(out) :: time_us
    integer(c_int) :: rc
    time_us = 1.0_c_double + 0.001_c_double * real(size, c_double)
    if (size > 300) time_us = time_us + 0.5_c_double
    rc = LAT_SUCCESS
  end function stepped
end module sweep_synthetic

program test_sweep
  use, intrinsic :: iso_c_binding, only: c_double, c_int64_t
  use mpi_f08
  use mpilat
  use mpilat_test_checks, only: check, finish_checks
  use sweep_synthetic, only: stepped
  implicit none
  integer :: rank, nprocs, ierr, i, k, unit, ios, rows, tabs
  character(len=512) :: line
  character(len=4), parameter :: ext(3) = ['gcm ', 'csv ', 'json']
  type(lat_sweep_options) :: opts
  type(lat_sweep) :: sweep
  type(lat_sweep_summary) :: summary
  type(lat_sweep_point), allocatable :: points(:)
  type(lat_sweep_threshold), allocatable :: steps(:)
  type(lat_sweep_line), allocatable :: lines(:)
  real(c_double), allocatable :: samples(:)
  integer(c_int64_t), parameter :: sizes(3) = [0_c_int64_t, 64_c_int64_t, 1024_c_int64_t]

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  call lat_sweep_defaults(opts)
  call check(opts%reps == 50 .and. opts%autodx == 4 .and. abs(opts%autorel - 0.02_c_double) < 1e-15_c_double, &
             'sweep defaults')
  opts%reps = 3
  opts%n_stable = 0
  opts%nr = 4096
  opts%pattern = LAT_SWEEP_HEAD_TO_HEAD
  opts%verify = 1
  call lat_size_sweep(MPI_COMM_WORLD, opts, sweep, sizes=sizes, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'lat_size_sweep with type(MPI_Comm): '//lat_last_error_message())
  call lat_sweep_get_summary(sweep, summary)
  call check(summary%nsizes == 3 .and. summary%passes == 3 .and. summary%pattern == LAT_SWEEP_HEAD_TO_HEAD, &
             'summary: sizes, passes, pattern')
  call lat_sweep_points(sweep, points)
  call check(size(points) == 3, 'three points')
  do i = 1, size(points)
    call check(points(i)%bytes == sizes(i), 'points in the order of the sizes')
    call check(points(i)%min_us <= points(i)%median_us .and. points(i)%median_us <= points(i)%max_us, &
               'min <= median <= max')
    call lat_sweep_get_samples(sweep, i, samples)
    call check(size(samples) == points(i)%samples + points(i)%rerun_samples .and. &
               points(i)%samples == opts%reps .and. minval(samples) == points(i)%min_us, &
               'the reported time is the minimum of the samples')
  end do
  call lat_sweep_free(sweep)

  opts%pattern = LAT_SWEEP_PINGPONG
  opts%verify = 0
  call lat_size_sweep(MPI_COMM_WORLD%MPI_VAL, opts, sweep, ierr=ierr)  ! `use mpi` style handle, grid of opts
  call check(ierr == LAT_SUCCESS, 'lat_size_sweep with an integer handle')
  call lat_sweep_get_summary(sweep, summary)
  call check(summary%nsizes == (1024 / 32) + 1, 'the default grid 0..1024 by 32')
  call lat_sweep_free(sweep)

  opts%reps = 0
  call lat_size_sweep(MPI_COMM_WORLD, opts, sweep, ierr=ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'reps must be >= 1, got 0') > 0, &
             'bad reps named')

  ! The engine alone: a Fortran function with a step at 300 bytes.
  call lat_sweep_defaults(opts)
  opts%size_first = 0
  opts%size_last = 1024
  opts%size_stride = 256
  opts%adaptive = 1
  opts%reps = 60  ! most passes: enough for the refinement's levels
  opts%n_stable = 3
  call lat_sweep_run(opts, stepped, sweep, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'lat_sweep_run with a Fortran function')
  call lat_sweep_thresholds(sweep, steps)
  call check(size(steps) == 1, 'one step found')
  if (size(steps) == 1) then
    call check(steps(1)%below_bytes <= 300 .and. steps(1)%above_bytes > 300 .and. &
               steps(1)%above_bytes - steps(1)%below_bytes < 2 * opts%autodx, 'the step is bracketed within autodx')
  end if
  call lat_sweep_lines(sweep, lines)
  call check(size(lines) == 2, 'a startup and rate line on each side of the step')
  if (size(lines) == 2) call check(lines(1)%first_bytes == 0 .and. lines(2)%last_bytes == 1024 .and. &
                                   lines(1)%npoints >= 2, 'the lines cover the regimes')
  ! givedy: the original's gnuplot data with the mean and the max, eight tab-separated fields a row.
  if (rank == 0) then
    call lat_write_sweep_files('', 'fortran_givedy', 'test_sweep', sweep, render=.false., ierr=ierr, givedy=.true.)
    call check(ierr == LAT_SUCCESS, 'lat_write_sweep_files with givedy')
    rows = 0
    open(newunit=unit, file='fortran_givedy.gpl', status='old', action='read', iostat=ios)
    call check(ios == 0, 'givedy writes fortran_givedy.gpl')
    do while (ios == 0)
      read(unit, '(a)', iostat=ios) line
      if (ios /= 0) exit
      if (line(1:1) == '#') cycle
      rows = rows + 1
      tabs = 0
      do k = 1, len_trim(line)
        if (line(k:k) == achar(9)) tabs = tabs + 1
      end do
      call check(tabs == 7, 'givedy rows have eight fields')
    end do
    call check(rows > 0, 'givedy rows written')
    close(unit, status='delete', iostat=ios)
    do k = 1, 3
      open(newunit=unit, file='fortran_givedy.'//trim(ext(k)), status='old', iostat=ios)
      if (ios == 0) close(unit, status='delete')
    end do
  end if
  call lat_sweep_free(sweep)

  ! A strided array section reaches C in its own order (the wrappers' dummies are contiguous): reversed,
  ! the sizes descend and are refused.
  call lat_sweep_defaults(opts)
  call lat_size_sweep(MPI_COMM_WORLD, opts, sweep, sizes=sizes(3:1:-1), ierr=ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'ascend') > 0, 'a reversed section is seen reversed')
  call lat_sweep_free(sweep)

  if (finish_checks('test_sweep') /= 0) error stop 1
  call MPI_Finalize()
end program test_sweep
