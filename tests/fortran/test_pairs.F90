!> The pair matrix from Fortran: type(MPI_Comm) and an integer handle, the N x N matrices on root (symmetric,
!> zero diagonal, every pair counted `repeats` times), places, the log written and read back, bad input.
!> Run on 2 and 5 ranks.
program test_pairs
  use, intrinsic :: iso_c_binding, only: c_double
  use mpi_f08
  use mpilat
  use mpilat_test_checks, only: check, finish_checks
  implicit none
  integer :: rank, nprocs, ierr, i
  type(lat_pair_options) :: opts
  type(lat_pairs) :: pairs, back
  type(lat_pair_summary) :: summary
  type(lat_rank_place) :: place
  real(c_double), allocatable :: mean(:, :), count(:, :), mean_back(:, :)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  call lat_pair_defaults(opts)
  call check(opts%msg_bytes == 64 .and. opts%repeats == 100 .and. opts%schedule == LAT_PAIRS_SEQUENTIAL, &
             'pair defaults: 64 bytes, 100 repeats, sequential')
  opts%repeats = 4
  opts%nr = 1024
  call lat_pair_matrix(MPI_COMM_WORLD, opts, pairs, ierr)
  call check(ierr == LAT_SUCCESS, 'pair matrix with type(MPI_Comm): '//lat_last_error_message())
  call lat_pairs_get_summary(pairs, summary)
  call check(summary%nprocs == nprocs .and. summary%round_trips == 4 * nprocs * (nprocs - 1) / 2, &
             'every pair, 4 round trips each')
  call check(summary%has_matrices == merge(1, 0, rank == 0), 'matrices on rank 0 only')
  call lat_pairs_get_place(pairs, rank, place)
  call check(place%rank == rank .and. len_trim(lat_string(place%host)) > 0, 'own place with a host name')
  if (rank == 0) then
    call lat_pairs_get_matrix(pairs, LAT_PAIR_MEAN, mean)
    call lat_pairs_get_matrix(pairs, LAT_PAIR_COUNT, count)
    call check(all(shape(mean) == [nprocs, nprocs]), 'N x N')
    call check(all(mean == transpose(mean)), 'symmetric')
    do i = 1, nprocs
      call check(mean(i, i) == 0 .and. count(i, i) == 0, 'zero diagonal')
    end do
    call check(count(1, nprocs) == 4 .and. count(nprocs, 1) == 4, 'the pair (0, N-1) counted 4 times')
    call check(all(count == 4 .or. mean == 0), 'every pair counted 4 times')
    call lat_write_pair_files('', 'fortran_pairs.dat', 'test_pairs', pairs, ierr)
    call check(ierr == LAT_SUCCESS, 'log written')
    call lat_read_mmpi_log('fortran_pairs.dat', back, ierr)
    call check(ierr == LAT_SUCCESS, 'log read back')
    call lat_pairs_get_matrix(back, LAT_PAIR_MEAN, mean_back)
    call check(all(abs(mean - mean_back) <= 0.005_c_double + 1e-9_c_double), 'the same means to 2 decimals')
    call lat_pairs_get_matrix(back, LAT_PAIR_MIN, mean_back, ierr)
    call check(ierr == LAT_ERR_ARG, 'a log holds no minimum')
    call lat_pairs_free(back)
    open (newunit=i, file='fortran_pairs.dat')
    close (i, status='delete')
    open (newunit=i, file='fortran_pairs.json')
    close (i, status='delete')
  else
    call lat_pairs_get_matrix(pairs, LAT_PAIR_MEAN, mean, ierr)
    call check(ierr == LAT_ERR_ARG, 'no matrices off root')
  end if
  call lat_pairs_free(pairs)

  opts%schedule = LAT_PAIRS_ROUNDS
  opts%root = nprocs - 1
  call lat_pair_matrix(MPI_COMM_WORLD%MPI_VAL, opts, pairs, ierr)
  call check(ierr == LAT_SUCCESS, 'rounds with an integer handle, root the last rank')
  call lat_pairs_get_summary(pairs, summary)
  call check(summary%has_matrices == merge(1, 0, rank == nprocs - 1) .and. summary%schedule == LAT_PAIRS_ROUNDS, &
             'rounds: matrices on the last rank')
  call lat_pairs_free(pairs)

  opts%repeats = 0
  call lat_pair_matrix(MPI_COMM_WORLD, opts, pairs, ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'repeats must be >= 1, got 0') > 0, &
             'bad repeats named')

  if (finish_checks('test_pairs') /= 0) error stop 1
  call MPI_Finalize()
end program test_pairs
