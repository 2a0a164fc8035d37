!> lat_collective from Fortran: type(MPI_Comm) and an integer handle, the points in their order, samples on
!> the root only, the spread over ranks, the files, bad input on every rank. Run on 2 ranks.
program test_collective
  use, intrinsic :: iso_c_binding, only: c_double, c_int64_t
  use mpi_f08
  use mpi, only: MPI_COMM_WORLD_INT => MPI_COMM_WORLD
  use mpilat
  use mpilat_test_checks, only: check, finish_checks
  implicit none
  integer :: rank, nprocs, ierr, i, k, op
  integer(c_int64_t) :: last
  type(lat_collective_options) :: opts
  type(lat_coll) :: coll
  type(lat_coll_summary) :: summary
  type(lat_coll_point) :: point
  type(lat_coll_rank) :: part
  real(c_double), allocatable :: samples(:)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  call lat_collective_defaults(opts)
  call check(opts%ops == LAT_COLL_ALL_OPS .and. opts%modes == LAT_COLL_ALL_MODES .and. opts%reps == 1000, &
             'collective defaults: every operation and mode, 1000 reps')
  opts%ops = ior(LAT_COLL_ALLREDUCE, LAT_COLL_GATHER)
  opts%reps = 8
  opts%loop_calls = 2
  opts%sync_points = 3
  opts%sync_spacing_s = 0.002_c_double
  call lat_collective(MPI_COMM_WORLD, opts, coll, [8_c_int64_t, 32_c_int64_t], ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'lat_collective with type(MPI_Comm): '//lat_last_error_message())
  call lat_coll_get_summary(coll, summary)
  call check(summary%nprocs == nprocs .and. summary%npoints == 12 .and. summary%rounds == 8, &
             '3 modes x 2 operations x 2 sizes, 8 rounds')
  call check(summary%has_samples == merge(1, 0, rank == 0), 'samples on the root only')
  do i = 0, int(summary%npoints) - 1
    call lat_coll_get_point(coll, i, point)
    call check(point%samples + point%late == 8, 'every round a sample of every point')
    last = 0
    do k = 0, nprocs - 1
      call lat_coll_get_rank(coll, i, k, part)
      last = last + part%last_count
    end do
    call check(last == point%samples, 'one last rank per kept sample')
    if (rank == 0) then
      call lat_coll_get_samples(coll, i, samples)
      call check(size(samples) == point%samples, 'the kept samples')
      if (size(samples) > 0) call check(minval(samples) == point%stats%min_us, 'their minimum')
    end if
  end do
  call lat_coll_get_point(coll, 0, point)
  call check(point%mode == LAT_COLL_MODE_SYNC .and. point%op == LAT_COLL_ALLREDUCE .and. point%msg_bytes == 8, &
             'point 0: allreduce, 8 bytes, sync')
  if (rank == 0) then
    call lat_write_coll_files('', 'fortran_coll', 'test_collective', coll, 0, ierr)
    call check(ierr == LAT_SUCCESS, 'files written: '//lat_last_error_message())
  end if
  call lat_coll_free(coll)

  ! The integer handle of use mpi, and the size list absent: size_first..size_last.
  opts%ops = LAT_COLL_BCAST
  opts%modes = LAT_COLL_MODE_BARRIER
  opts%size_first = 4
  opts%size_last = 16
  call lat_collective(MPI_COMM_WORLD_INT, opts, coll, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'lat_collective with an integer handle')
  call lat_coll_get_summary(coll, summary)
  call check(summary%nsizes == 3 .and. summary%npoints == 3, 'sizes 4, 8, 16')
  call lat_coll_free(coll)

  ! Bad input: an error on every rank, with the value named.
  opts%root = nprocs
  call lat_collective(MPI_COMM_WORLD, opts, coll, ierr=ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'root must be a rank') > 0, 'root not a rank')
  opts%root = 0
  call lat_collective_check(opts, nprocs, [8_c_int64_t, -8_c_int64_t], ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'sizes[1]') > 0, 'a negative size')
  call lat_coll_op_from_name('alltoall', op, ierr)
  call check(ierr == LAT_SUCCESS .and. op == LAT_COLL_ALLTOALL, 'alltoall by name')
  call lat_coll_op_from_name('allreduc', op, ierr)
  call check(ierr == LAT_ERR_ARG, 'an unknown operation')

  if (finish_checks('test_collective') /= 0) error stop 1
  call MPI_Finalize()
end program test_collective
