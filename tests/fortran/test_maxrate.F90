!> The max-rate fit and the nodecomm measurement from Fortran: a fit of data made from known parameters,
!> the measurement with type(MPI_Comm) and an integer handle, its observations fitted, bad input through
!> ierr. Run on 2 and 4 ranks.
program test_maxrate
  use, intrinsic :: iso_c_binding, only: c_double, c_int64_t
  use mpi_f08
  use mpilat
  use mpilat_test_checks, only: check, finish_checks
  implicit none
  integer :: rank, nprocs, ierr, k, i
  type(lat_fit_options) :: fopts
  type(lat_maxrate_fit) :: fit
  type(lat_model_fit) :: m
  type(lat_fit_summary) :: fs
  type(lat_maxrate_obs), allocatable :: obs(:)
  real(c_double), allocatable :: errs(:)
  type(lat_nodecomm_options) :: nopts
  type(lat_nodecomm) :: nc
  type(lat_nodecomm_summary) :: ns
  type(lat_nodecomm_point), allocatable :: points(:)
  integer(c_int64_t), parameter :: sizes(4) = [0_c_int64_t, 512_c_int64_t, 4096_c_int64_t, 8192_c_int64_t]

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  ! T = 2 + k n / min(6000, 2000 k): k* = 3, data for k = 1..6 and 10 sizes.
  allocate (obs(60))
  i = 0
  do k = 1, 6
    do i = 1, 10
      obs((k - 1) * 10 + i) = lat_maxrate_obs(int(k, c_int64_t), int(i * 4096, c_int64_t), &
        2.0_c_double + k * i * 4096.0_c_double / min(6000.0_c_double, 2000.0_c_double * k))
    end do
  end do
  call lat_fit_defaults(fopts)
  fopts%nthresholds = 0
  call lat_fit_maxrate(fopts, obs, fit, ierr)
  call check(ierr == LAT_SUCCESS, 'fit: '//lat_last_error_message())
  call lat_maxrate_get_summary(fit, fs)
  call check(fs%nobs == 60 .and. fs%kmax == 6 .and. fs%nregimes == 1, 'fit summary: 60 observations, K = 6, one regime')
  call lat_maxrate_get_model(fit, 0, LAT_MODEL_MAXRATE, m)
  call check(abs(m%alpha_us - 2) < 1e-6 .and. abs(m%rc_mbs - 2000) < 1e-3 .and. abs(m%rn_mbs - 6000) < 1e-3 .and. &
             abs(m%k_star - 3) < 1e-6, 'max-rate parameters recovered: alpha 2 us, RC 2000, RN 6000 MB/s, k* 3')
  call lat_maxrate_errors(fit, LAT_MODEL_MAXRATE, errs)
  call check(size(errs) == 60 .and. maxval(abs(errs)) < 1e-6, 'no relative error left')
  call lat_maxrate_get_model(fit, 1, LAT_MODEL_MAXRATE, m, ierr)
  call check(ierr == LAT_ERR_ARG, 'a regime that does not exist')
  call lat_maxrate_free(fit)

  call lat_nodecomm_defaults(nopts)
  nopts%reps = 2
  nopts%nr = 4096
  call lat_nodecomm_measure(MPI_COMM_WORLD, nopts, nc, sizes=sizes, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'nodecomm with type(MPI_Comm): '//lat_last_error_message())
  call lat_nodecomm_get_summary(nc, ns)
  call check(ns%kmax == nprocs / 2 .and. ns%intra_node == 1 .and. ns%npoints == 4 * ns%kmax, &
             'K = half the ranks, intra-node, a point per (k, n)')
  call lat_nodecomm_points(nc, points)
  call check(all(points%reps == 2) .and. all(points%min_us <= points%max_us), 'every point measured twice')
  deallocate (obs)
  call lat_nodecomm_observations(nc, obs)
  call check(size(obs) == ns%npoints, 'an observation per point')
  call lat_fit_maxrate(fopts, obs, fit, ierr)
  call check(ierr == LAT_SUCCESS, 'the measured observations fit')
  call lat_maxrate_free(fit)
  call lat_nodecomm_free(nc)

  call lat_nodecomm_measure(MPI_COMM_WORLD%MPI_VAL, nopts, nc, sizes=sizes(4:1:-1), ierr=ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'sizes must ascend') > 0, &
             'descending sizes named, integer handle')

  if (finish_checks('test_maxrate') /= 0) error stop 1
  call MPI_Finalize()
end program test_maxrate
