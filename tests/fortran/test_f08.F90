!> Module mpilat with mpi_f08: type(MPI_Comm), results as bind(C) types, tables, errors through ierr.
program test_f08
  use, intrinsic :: iso_c_binding, only: c_double, c_int64_t
  use mpi_f08
  use mpilat
  use mpilat_test_checks, only: check, finish_checks
  implicit none
  integer :: rank, nprocs, ierr, total
  type(lat_timer_options) :: topts
  type(lat_timer_result) :: tres
  type(lat_pingpong_options) :: popts
  type(lat_pingpong_result) :: pres
  type(lat_histogram) :: hist
  type(lat_stats) :: stats
  type(lat_quantiles) :: q
  type(lat_compare_result) :: cmp
  type(lat_compare_options) :: copts
  type(lat_npp_study_row), allocatable :: rows(:)
  integer :: i
  real(c_double), allocatable :: values(:)
  integer(c_int64_t), allocatable :: counts(:)
  integer(c_int64_t) :: npp
  character(len=64) :: report_dir, line
  character(len=:), allocatable :: bytes
  integer :: unit

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  call check(lat_get_api_version() == LAT_API_VERSION, 'API version of the library matches the module')
  call check(lat_timer_names() == 'mpi_wtime, monotonic_raw or tsc', 'lat_timer_names lists every timer')

  call lat_timer_defaults(topts)
  call check(topts%nr == 2_c_int64_t**24, 'timer defaults: nr = 2^24')
  topts%nr = 2**15
  topts%rank = 0
  call lat_calibrate_timer(MPI_COMM_WORLD, topts, tres, hist, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'lat_calibrate_timer with type(MPI_Comm)')
  call check(tres%nr == 2**15 .and. tres%rank == 0, 'calibration counts and rank')
  call check(sum(tres%bin_count) + tres%n_negative == tres%nr, 'Appendix A bins hold every difference')
  call lat_histogram_get(hist, values, counts, ierr=ierr)
  call check(ierr == LAT_SUCCESS .and. sum(counts) == tres%nr, 'frequency table of the calibration')
  call lat_histogram_free(hist)

  call lat_pingpong_defaults(popts)
  call check(popts%ntrial == 2_c_int64_t**23 .and. popts%res_npp == 50 .and. popts%cut_coef == 2.0_c_double, &
             'ping-pong defaults are Appendix C''s')
  popts%npptrial = 200
  popts%ntrial = 400
  popts%dest = nprocs - 1
  call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, timer=tres, hist=hist, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'lat_pingpong_stats with type(MPI_Comm)')
  call lat_npp_rule(popts%res_npp, pres%res_timing_us, pres%median_ppt_us, npp)
  call check(pres%npp_used == npp .and. pres%npp_calculated == npp, 'npp follows the rule')
  call check(pres%all%count == 400 .and. pres%n_kept + pres%n_removed == 400, 'trial counts')
  call check(pres%filtered%max_us <= pres%cut_off_us, 'filtered times are at most the cut-off')
  call check(len(lat_string(pres%source_host)) > 0, 'source host name')
  call lat_histogram_get(hist, values, counts)
  call check(sum(counts) == 400, 'frequency table of the ping-pongs on every rank')
  call lat_histogram_free(hist)
  ! What issue 16 added to the result: percentiles with intervals, the clock unit, where the ranks ran.
  call check(pres%all_q%level(9) == 99.0_c_double .and. all(pres%all_q%p_us(2:) >= pres%all_q%p_us(:10)), &
             'percentiles ascending, p99 the ninth')
  call check(pres%all_q%median_ci_us(1) <= pres%all_q%p_us(5) .and. pres%all_q%p_us(5) <= pres%all_q%median_ci_us(2), &
             'the median''s interval holds p50')
  call check(pres%unit_us > 0 .and. pres%estimate == 1, 'clock unit and Part 2 reported')
  call check(pres%source_place%rank == 0 .and. pres%dest_place%rank == nprocs - 1 .and. &
             iand(pres%shared, LAT_SHARE_NODE) /= 0, 'where source and dest ran')

  ! The npp study from Fortran: a row per value, in order.
  popts%ntrial = 200
  call lat_npp_study(MPI_COMM_WORLD, popts, [1_c_int64_t, 6_c_int64_t], .false., pres, rows, timer=tres, ierr=ierr)
  call check(ierr == LAT_SUCCESS .and. size(rows) == 2, 'lat_npp_study with type(MPI_Comm)')
  call check(rows(1)%npp == 1 .and. rows(2)%npp == 6 .and. all([(rows(i)%stats%count == 200, i = 1, 2)]), &
             'study rows: npp and trials')
  call lat_npp_study(MPI_COMM_WORLD, popts, [3_c_int64_t, 3_c_int64_t], .false., pres, rows, ierr=ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'the value 3 twice') > 0, 'study duplicates refused')
  ! No rows: refused by C with the count (the wrapper once allocated its copy twice and crashed).
  if (allocated(rows)) deallocate (rows)
  allocate (rows(0))
  call lat_write_npp_study_files('.', 'test', pres, rows, .false., ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'nrows must be in 1..') == 1, &
             'lat_write_npp_study_files of no rows: refused, naming nrows')

  ! errors come back through ierr on every rank
  popts%ntrial = 0
  call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, timer=tres, ierr=ierr)
  call check(ierr == LAT_ERR_ARG, 'ntrial = 0 is LAT_ERR_ARG')
  call check(index(lat_last_error_message(), 'ntrial must be >= 1, got 0') > 0, 'message names the value')
  call lat_pingpong_check(popts, nprocs, timer=tres, ierr=ierr)
  call check(ierr == LAT_ERR_ARG .and. lat_last_error_message() == 'ntrial must be >= 1, got 0', &
             'lat_pingpong_check says what the measurement says, without MPI')
  popts%ntrial = 100
  call lat_pingpong_check(popts, nprocs, timer=tres, ierr=ierr)
  call check(ierr == LAT_SUCCESS, 'lat_pingpong_check passes good options')
  popts%ntrial = 100 + rank
  call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, ierr=ierr)
  call check(ierr == LAT_ERR_ARG, 'ntrial differing between ranks is an error everywhere')
  call check(lat_strerror(LAT_ERR_ARG) == 'invalid argument', 'lat_strerror')

  call lat_stats_compute([4.0_c_double, 1.0_c_double, 3.0_c_double, 2.0_c_double], 8_c_int64_t, stats)
  call check(stats%median_us == 2.5_c_double .and. abs(stats%variance_us2 - 5.0_c_double/3) < 1e-14_c_double, &
             'lat_stats_compute from Fortran')
  if (allocated(values)) deallocate (values)
  allocate (values(0))
  call lat_stats_compute(values, 8_c_int64_t, stats, ierr)
  call check(ierr == LAT_SUCCESS .and. stats%count == 0, 'lat_stats_compute of no values: none counted')
  deallocate (values)
  call lat_quantiles_compute([(real(i, c_double), i = 1, 100)], q)
  call check(q%p_us(5) == 50 .and. q%median_ci_us(1) == 40 .and. q%median_ci_us(2) == 61, &
             'lat_quantiles_compute from Fortran: p50 and the interval of the median of 1..100')
  call lat_compare_launches([1.0_c_double, 1.01_c_double, 0.99_c_double, 1.005_c_double], &
                            [1.1_c_double, 1.11_c_double, 1.09_c_double, 1.105_c_double], cmp)
  call check(cmp%verdict == LAT_VERDICT_B_HIGHER .and. cmp%method == LAT_METHOD_LAUNCHES .and. &
             abs(cmp%ratio - 1.1_c_double) < 5e-3_c_double, 'lat_compare_launches from Fortran: B 10 % higher')
  call lat_compare_distributions([1.0_c_double, 2.0_c_double], [1.0_c_double, 2.0_c_double], 0.5_c_double, cmp, &
                                 a_counts=[500_c_int64_t, 500_c_int64_t], b_counts=[500_c_int64_t, 500_c_int64_t])
  call check(cmp%verdict == LAT_VERDICT_UNRESOLVED .and. cmp%a_count == 1000, &
             'lat_compare_distributions from Fortran: the same table, no difference')
  call lat_compare_defaults(copts)
  call lat_compare_check(copts, ierr)
  call check(ierr == LAT_SUCCESS, 'lat_compare_check passes the defaults')
  copts%confidence = 1.5_c_double
  call lat_compare_check(copts, ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), 'confidence must be in (0, 1)') > 0, &
             'lat_compare_check names a confidence of 1.5')
  call lat_compare_launches([1.0_c_double], [1.0_c_double], cmp, ierr=ierr)
  call check(ierr == LAT_ERR_ARG, 'one launch is too few for a bootstrap over launches')

  ! lat_write_report_files: each rank writes two files into a directory of its own, whole.
  write (report_dir, '(a,i0)') 'test_f08_report_files.', rank
  call execute_command_line('mkdir -p '//trim(report_dir))
  call lat_write_report_files(report_dir, [character(len=8) :: 'a.txt', 'b.txt'], &
                              [character(len=16) :: 'first file', 'second'], .false., ierr)
  call check(ierr == LAT_SUCCESS, 'lat_write_report_files from Fortran')
  open (newunit=unit, file=trim(report_dir)//'/a.txt', status='old', action='read', iostat=ierr)
  if (ierr == 0) read (unit, '(a)', iostat=ierr) line
  if (ierr == 0) close (unit)
  call check(ierr == 0 .and. line == 'first file', 'a.txt holds its contents without the trailing blanks')
  call lat_write_report_files(report_dir, [character(len=8) :: 'c.txt'], [character(len=8) :: 'x', 'y'], .false., ierr)
  call check(ierr == LAT_ERR_ARG, 'names and contents of different lengths are LAT_ERR_ARG')
  call lat_write_report_files(report_dir, [character(len=8) :: '../d.txt'], [character(len=8) :: 'x'], .false., ierr)
  call check(ierr == LAT_ERR_ARG .and. index(lat_last_error_message(), '../d.txt') > 0, &
             'a name with a path is refused, named')

  ! lat_read_input: the bytes of a file read once (the one written above), and a directory refused, named.
  call lat_read_input(trim(report_dir)//'/a.txt', bytes, ierr)
  call check(ierr == LAT_SUCCESS .and. bytes == 'first file', 'lat_read_input: the file''s bytes whole')
  call lat_read_input(report_dir, bytes, ierr)
  call check(ierr == LAT_ERR_IO .and. len(bytes) == 0 .and. index(lat_last_error_message(), trim(report_dir)) > 0, &
             'lat_read_input refuses a directory, named, with no bytes')

  total = finish_checks('test_f08')
  call MPI_Finalize()
  if (total /= 0) error stop 1

end program test_f08
