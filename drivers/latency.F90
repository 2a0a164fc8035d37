!> latency: drop-in replacement for the 2009 Iowa State `latency` program (Luecke et al.), on module mpilat.
!>
!> Parameters: defaults of Appendix C, then --quick, then a namelist file (--input FILE, group &latency),
!> then the command-line options, each overriding the one before. Rank 0 reads and checks them all and
!> broadcasts them, so a bad value is reported once and every rank exits with status 2 before anything
!> is measured or written. Writes latency.output, latency.summary.output and latency.json (whole or not
!> at all) into --outdir. See docs/latency.md.
program latency_driver
  use, intrinsic :: iso_fortran_env, only: error_unit, output_unit, int64, real64
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_int64_t
  use mpi_f08
  use mpilat
  implicit none

  interface
    function stderr_is_terminal() bind(C, name="latency_stderr_is_terminal") result(yes)
      import :: c_int
      integer(c_int) :: yes
    end function
  end interface

  integer, parameter :: max_path = 4096
  ! The program's parameters, named as in the paper (and in the namelist group &latency).
  integer :: source, dest
  integer(int64) :: n, bytes, nr, npptrial, npp_init, res_npp, npp, ntrial
  real(real64) :: cut_coef
  character(len=32) :: timer
  character(len=max_path) :: outdir
  logical :: progress
  namelist /latency/ source, dest, n, bytes, nr, npptrial, npp_init, res_npp, npp, ntrial, cut_coef, timer, outdir

  type(lat_timer_options) :: topts
  type(lat_timer_result) :: tres
  type(lat_pingpong_options) :: popts
  type(lat_pingpong_result) :: pres
  type(lat_histogram) :: thist, phist
  integer :: rank, nprocs, ierr, status, timer_kind
  integer(int64) :: ints(11)
  real(real64) :: t_start
  character(len=1024) :: message
  character(len=:), allocatable :: command_line

  call MPI_Init()
  t_start = MPI_Wtime()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  ! ---- parameters: rank 0 reads and checks, everyone gets the verdict and the values ------------------
  status = 0
  message = ''
  timer_kind = LAT_TIMER_MPI_WTIME
  if (rank == 0) call read_parameters(status, message)
  call MPI_Bcast(status, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (status /= 0) then
    if (rank == 0 .and. status == 2) write (error_unit, '(a)') 'latency: error: '//trim(message)
    if (rank == 0 .and. status == 2) write (error_unit, '(a)') 'latency: run "latency --help" for the options'
    call MPI_Finalize()
    if (status == 2) error stop 2
    stop
  end if
  ints = [int(source, int64), int(dest, int64), n, bytes, nr, npptrial, npp_init, res_npp, npp, ntrial, &
          int(timer_kind, int64)]
  call MPI_Bcast(ints, size(ints), MPI_INTEGER8, 0, MPI_COMM_WORLD)
  call MPI_Bcast(cut_coef, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD)
  call MPI_Bcast(progress, 1, MPI_LOGICAL, 0, MPI_COMM_WORLD)
  source = int(ints(1))
  dest = int(ints(2))
  n = ints(3); bytes = ints(4); nr = ints(5); npptrial = ints(6); npp_init = ints(7)
  res_npp = ints(8); npp = ints(9); ntrial = ints(10); timer_kind = int(ints(11))

  ! ---- Part 1: the timer on the source rank; Parts 2-5: the ping-pongs ---------------------------------
  call lat_timer_defaults(topts)
  topts%nr = nr
  topts%timer = timer_kind
  topts%rank = source
  if (rank == 0) then
    call lat_calibrate_timer(MPI_COMM_WORLD, topts, tres, thist, ierr=ierr)
  else
    call lat_calibrate_timer(MPI_COMM_WORLD, topts, tres, ierr=ierr)
  end if
  if (ierr /= LAT_SUCCESS) call fail('timer calibration', ierr)

  call lat_pingpong_defaults(popts)
  popts%source = source
  popts%dest = dest
  popts%n = n
  popts%bytes = bytes
  popts%nr = nr
  popts%npptrial = npptrial
  popts%npp_init = npp_init
  popts%res_npp = res_npp
  popts%npp = npp
  popts%ntrial = ntrial
  popts%cut_coef = cut_coef
  popts%timer = timer_kind
  popts%progress = merge(1, 0, progress)
  if (rank == 0) then
    call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, timer=tres, hist=phist, ierr=ierr)
  else
    call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, timer=tres, ierr=ierr)
  end if
  if (ierr /= LAT_SUCCESS .and. ierr /= LAT_ERR_INTERRUPTED) call fail('ping-pong', ierr)

  ! ---- the files, on rank 0 -------------------------------------------------------------------------------
  status = 0
  if (rank == 0) then
    call current_command_line(command_line)
    call lat_write_latency_files(trim(outdir), command_line, real(MPI_Wtime() - t_start, c_double), &
                                 tres, thist, pres, phist, ierr=ierr)
    if (ierr /= LAT_SUCCESS) then
      write (error_unit, '(a)') 'latency: error: '//lat_last_error_message()
      status = 1
    else
      write (output_unit, '(a,f10.4,a,f10.4,a,i0,a)') 'latency: median ', pres%all%median_us, &
        ' us, minimum ', pres%all%min_us, ' us (ping-pong time / 2, npp = ', pres%npp_used, ')'
      write (output_unit, '(a)') 'latency: wrote latency.output, latency.summary.output and latency.json in '// &
        trim(outdir)
    end if
    call lat_histogram_free(thist)
    call lat_histogram_free(phist)
  end if
  call MPI_Bcast(status, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call MPI_Finalize()
  if (status /= 0) error stop 1

contains

  subroutine fail(phase, code)
    character(len=*), intent(in) :: phase
    integer, intent(in) :: code
    if (rank == 0) write (error_unit, '(a)') 'latency: error in '//phase//': '//lat_strerror(code)//': '// &
      lat_last_error_message()
    call MPI_Finalize()
    error stop 1
  end subroutine fail

  !> Appendix C's defaults, --quick, the namelist file, the options; then the checks. status: 0 run,
  !> 1 stop quietly (--help), 2 error (message says which value is bad).
  subroutine read_parameters(status, message)
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    character(len=max_path) :: arg, input
    integer :: i, nargs
    logical :: quick, show_help

    status = 0
    message = ''
    source = 0
    dest = -1
    n = 1
    bytes = -1
    nr = 2_int64**24
    npptrial = 2_int64**23
    npp_init = 10
    res_npp = 50
    npp = 0
    ntrial = 2_int64**23
    cut_coef = 2.0_real64
    timer = 'mpi_wtime'
    outdir = '.'
    progress = stderr_is_terminal() /= 0
    input = ''
    quick = .false.
    show_help = .false.

    ! First pass: the options that decide how the others are read.
    nargs = command_argument_count()
    do i = 1, nargs
      call get_command_argument(i, arg)
      select case (trim(arg))
      case ('--help', '-h')
        show_help = .true.
      case ('--quick')
        quick = .true.
      case ('--input')
        if (i == nargs) then
          status = 2
          message = '--input needs a file name'
          return
        end if
        call get_command_argument(i + 1, input)
      end select
    end do
    if (show_help) then
      call print_help()
      status = 1
      return
    end if
    if (quick) then
      nr = 2_int64**20
      npptrial = 2_int64**12
      ntrial = 2_int64**15
    end if
    if (len_trim(input) > 0) then
      call read_namelist(trim(input), status, message)
      if (status /= 0) return
    end if

    ! Second pass: every option, in order.
    i = 1
    do while (i <= nargs)
      call get_command_argument(i, arg)
      select case (trim(arg))
      case ('--help', '-h', '--quick')
      case ('--progress')
        progress = .true.
      case ('--no-progress')
        progress = .false.
      case ('--input')
        i = i + 1
      case ('--source', '--dest', '--n', '--bytes', '--nr', '--npptrial', '--npp_init', '--res_npp', &
            '--npp', '--ntrial', '--cut_coef', '--timer', '--outdir')
        if (i == nargs) then
          status = 2
          message = trim(arg)//' needs a value'
          return
        end if
        i = i + 1
        call set_option(trim(arg), i, status, message)
        if (status /= 0) return
      case default
        status = 2
        message = 'unknown option "'//trim(arg)//'"'
        return
      end select
      i = i + 1
    end do
    call check_parameters(status, message)
  end subroutine read_parameters

  subroutine set_option(name, i, status, message)
    character(len=*), intent(in) :: name
    integer, intent(in) :: i
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    character(len=max_path) :: value
    integer(int64) :: k
    integer :: ios
    status = 0
    call get_command_argument(i, value)
    select case (name)
    case ('--timer')
      if (len_trim(value) > len(timer)) then
        status = 2
        message = '--timer must be mpi_wtime, monotonic_raw or tsc, got "'//trim(value)//'"'
      else
        timer = value(1:len(timer))
      end if
      return
    case ('--outdir')
      outdir = value
      return
    case ('--cut_coef')
      read (value, *, iostat=ios) cut_coef
      if (ios /= 0 .or. verify(trim(value), '0123456789.eEdD+-') /= 0) then
        status = 2
        message = '--cut_coef expects a number, got "'//trim(value)//'"'
      end if
      return
    end select
    if (verify(trim(value), '0123456789+-') /= 0 .or. len_trim(value) == 0) then
      status = 2
      message = name//' expects an integer, got "'//trim(value)//'"'
      return
    end if
    read (value, *, iostat=ios) k
    if (ios /= 0) then
      status = 2
      message = name//' expects an integer, got "'//trim(value)//'"'
      return
    end if
    select case (name)
    case ('--source')
      source = int(max(min(k, int(huge(source), int64)), -int(huge(source), int64)))
    case ('--dest')
      dest = int(max(min(k, int(huge(dest), int64)), -int(huge(dest), int64)))
    case ('--n')
      n = k
    case ('--bytes')
      bytes = k
    case ('--nr')
      nr = k
    case ('--npptrial')
      npptrial = k
    case ('--npp_init')
      npp_init = k
    case ('--res_npp')
      res_npp = k
    case ('--npp')
      npp = k
    case ('--ntrial')
      ntrial = k
    end select
  end subroutine set_option

  subroutine read_namelist(path, status, message)
    character(len=*), intent(in) :: path
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    integer :: unit, ios
    character(len=512) :: iomsg
    status = 0
    open (newunit=unit, file=path, status='old', action='read', iostat=ios, iomsg=iomsg)
    if (ios /= 0) then
      status = 2
      message = 'cannot read the namelist file "'//path//'": '//trim(iomsg)
      return
    end if
    read (unit, nml=latency, iostat=ios, iomsg=iomsg)
    close (unit)
    if (ios /= 0) then
      status = 2
      message = 'the namelist file "'//path//'" has no valid &latency group: '//trim(iomsg)
    end if
  end subroutine read_namelist

  !> The checks the driver can name in its own words; the library checks the same values again.
  subroutine check_parameters(status, message)
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    character(len=32) :: a, b
    integer :: ierr
    status = 2
    write (b, '(i0)') nprocs - 1
    if (nprocs < 2) then
      write (a, '(i0)') nprocs
      message = 'latency needs at least 2 MPI processes, got '//trim(a)//' (run it with mpiexec -n 2 or more)'
      return
    end if
    if (dest == -1) dest = nprocs - 1
    if (source < 0 .or. source >= nprocs) then
      call bad_value('source', source, ' is not a rank of this job (0..'//trim(b)//')', message)
      return
    end if
    if (dest < 0 .or. dest >= nprocs) then
      call bad_value('dest', dest, ' is not a rank of this job (0..'//trim(b)//')', message)
      return
    end if
    if (source == dest) then
      write (a, '(i0)') source
      message = 'source and dest must differ, both are '//trim(a)
      return
    end if
    if (bytes < -1) then
      call bad_value('bytes', bytes, ' must be >= 0 (or -1: use n)', message)
      return
    end if
    if (bytes == -1 .and. n < 0) then
      call bad_value('n', n, ' must be >= 0', message)
      return
    end if
    if (nr < 1) then
      call bad_value('nr', nr, ' must be >= 1', message)
      return
    end if
    if (npp < 0) then
      call bad_value('npp', npp, ' must be >= 0 (0: calculate)', message)
      return
    end if
    if (npp == 0 .and. npptrial < 1) then
      call bad_value('npptrial', npptrial, ' must be >= 1', message)
      return
    end if
    if (npp == 0 .and. npp_init < 1) then
      call bad_value('npp_init', npp_init, ' must be >= 1', message)
      return
    end if
    if (res_npp < 1) then
      call bad_value('res_npp', res_npp, ' must be >= 1', message)
      return
    end if
    if (ntrial < 1) then
      call bad_value('ntrial', ntrial, ' must be >= 1', message)
      return
    end if
    if (.not. (cut_coef > 0.0_real64) .or. cut_coef > huge(cut_coef)) then
      write (a, '(g0)') cut_coef
      message = 'cut_coef = '//trim(a)//' must be a number > 0'
      return
    end if
    call lat_timer_from_name(trim(timer), timer_kind, ierr=ierr)
    if (ierr /= LAT_SUCCESS) then
      message = 'timer = "'//trim(timer)//'" must be mpi_wtime, monotonic_raw or tsc'
      return
    end if
    if (.not. lat_timer_available(timer_kind)) then
      message = 'timer = '//trim(timer)//' is not available on this machine'
      return
    end if
    call lat_check_output_dir(trim(outdir), ierr=ierr)
    if (ierr /= LAT_SUCCESS) then
      message = 'outdir: '//lat_last_error_message()
      return
    end if
    status = 0
  end subroutine check_parameters

  !> message = "<name> = <value><rule>", the driver's one way to name a bad integer.
  subroutine bad_value(name, value, rule, message)
    character(len=*), intent(in) :: name, rule
    class(*), intent(in) :: value
    character(len=*), intent(out) :: message
    character(len=32) :: text
    select type (value)
    type is (integer)
      write (text, '(i0)') value
    type is (integer(int64))
      write (text, '(i0)') value
    class default
      text = '?'
    end select
    message = name//' = '//trim(text)//rule
  end subroutine bad_value

  subroutine current_command_line(line)
    character(len=:), allocatable, intent(out) :: line
    integer :: length
    call get_command(length=length)
    allocate (character(len=max(length, 1)) :: line)
    call get_command(line)
  end subroutine current_command_line

  subroutine print_help()
    write (output_unit, '(a)') &
      'latency: MPI ping-pong latency and its distribution (Luecke, Coyle, Hoekstra, Kraeva, Xu 2009)', &
      '', &
      'usage: mpiexec -n NP latency [options]', &
      '', &
      'Options (names of the paper''s variables; defaults of its Appendix C):', &
      '  --source R      rank that times the ping-pongs (default 0)', &
      '  --dest R        its partner (default: the last rank)', &
      '  --n N           message size in 8-byte elements (default 1)', &
      '  --bytes B       message size in bytes instead, 0 allowed', &
      '  --nr N          timer pairs for Part 1 (default 2^24 = 16777216)', &
      '  --npptrial N    timing trials to estimate npp in Part 2 (default 2^23 = 8388608)', &
      '  --npp_init N    ping-pongs per timing loop in Part 2 (default 10)', &
      '  --res_npp N     npp = nint(max(1, res_npp*res_timing/median_ppt)) (default 50)', &
      '  --npp N         ping-pongs per timing loop; 0 or absent: calculate', &
      '  --ntrial N      timing trials in Part 3 (default 2^23 = 8388608)', &
      '  --cut_coef X    Part 5 removes trials above cut_coef*median (default 2.0)', &
      '  --timer NAME    mpi_wtime (default), monotonic_raw or tsc', &
      '  --outdir DIR    where the files go (default: the working directory)', &
      '  --input FILE    a namelist file: &latency source=0, dest=7, n=1, ntrial=8388608 /', &
      '                  (options given on the command line override it)', &
      '  --quick         nr=2^20, npptrial=2^12, ntrial=2^15: a run of seconds', &
      '  --progress      progress on stderr (default: only when stderr is a terminal)', &
      '  --no-progress   no progress lines', &
      '  --help          this text', &
      '', &
      'Writes latency.output, latency.summary.output (the layout of the paper''s Appendix C) and', &
      'latency.json; formats in docs/output-formats.md. Exit status: 0 done, 1 failed, 2 bad input.'
  end subroutine print_help

end program latency_driver
