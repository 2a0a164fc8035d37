!> latency_parameters: the `latency` driver's parameters and the only code that reads them from text
!> (command-line arguments and the &latency namelist file). No MPI here: the driver calls it on rank 0,
!> and the fuzz targets in tests/fuzz call it with whatever bytes the fuzzer makes.
module latency_parameters
  use, intrinsic :: iso_fortran_env, only: int64, real64, output_unit
  use mpilat, only: lat_timer_from_name, lat_timer_available, LAT_SUCCESS, LAT_TIMER_MPI_WTIME
  implicit none
  private

  integer, parameter, public :: max_path = 4096
  !> Outcomes of parse_latency_arguments.
  integer, parameter, public :: params_run = 0, params_help = 1, params_bad = 2

  !> The program's parameters, named as in the paper (and in the namelist group &latency).
  type, public :: latency_params
    integer :: source = 0, dest = -1
    integer(int64) :: n = 1, bytes = -1, nr = 2_int64**24, npptrial = 2_int64**23, npp_init = 10
    integer(int64) :: res_npp = 50, npp = 0, ntrial = 2_int64**23
    real(real64) :: cut_coef = 2.0_real64
    real(real64) :: timeout = 0.0_real64  !< watchdog seconds, 0: none
    character(len=32) :: timer = 'mpi_wtime'
    character(len=max_path) :: outdir = '.'
    logical :: progress = .false.
    integer :: timer_kind = LAT_TIMER_MPI_WTIME
  end type latency_params

  !> One command-line argument (the fuzz targets build these from bytes).
  type, public :: argument
    character(len=:), allocatable :: text
  end type argument

  public :: parse_latency_arguments, command_line_arguments, print_help

contains

  !> The command line as an array of arguments.
  function command_line_arguments() result(args)
    type(argument), allocatable :: args(:)
    integer :: i, length
    allocate (args(command_argument_count()))
    do i = 1, size(args)
      call get_command_argument(i, length=length)
      allocate (character(len=length) :: args(i)%text)
      call get_command_argument(i, args(i)%text)
    end do
  end function command_line_arguments

  !> Appendix C's defaults, --quick, the namelist file, the options, each overriding the one before;
  !> then the checks for a job of nprocs processes. status: params_run, params_help (--help: print_help
  !> and stop), or params_bad (message names the bad value).
  subroutine parse_latency_arguments(args, nprocs, progress_default, p, status, message)
    type(argument), intent(in) :: args(:)
    integer, intent(in) :: nprocs
    logical, intent(in) :: progress_default
    type(latency_params), intent(out) :: p
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    integer :: i, nargs
    logical :: quick, show_help
    character(len=:), allocatable :: input

    status = params_run
    message = ''
    p%progress = progress_default
    input = ''
    quick = .false.
    show_help = .false.

    ! First pass: the options that decide how the others are read.
    nargs = size(args)
    do i = 1, nargs
      select case (args(i)%text)
      case ('--help', '-h')
        show_help = .true.
      case ('--quick')
        quick = .true.
      case ('--input')
        if (i == nargs) then
          call fail('--input needs a file name')
          return
        end if
        if (len(args(i + 1)%text) == 0) then
          call fail('--input needs a file name, got ""')
          return
        end if
        input = args(i + 1)%text
      end select
    end do
    if (show_help) then
      status = params_help
      return
    end if
    if (quick) then
      p%nr = 2_int64**20
      p%npptrial = 2_int64**12
      p%ntrial = 2_int64**15
    end if
    if (len(input) > 0) then
      call read_namelist(input, p, status, message)
      if (status /= params_run) return
    end if

    ! Second pass: every option, in order.
    i = 1
    do while (i <= nargs)
      select case (args(i)%text)
      case ('--help', '-h', '--quick')
      case ('--progress')
        p%progress = .true.
      case ('--no-progress')
        p%progress = .false.
      case ('--input')
        i = i + 1
      case ('--source', '--dest', '--n', '--bytes', '--nr', '--npptrial', '--npp_init', '--res_npp', &
            '--npp', '--ntrial', '--cut_coef', '--timeout', '--timer', '--outdir')
        if (i == nargs) then
          call fail(args(i)%text//' needs a value')
          return
        end if
        call set_option(args(i)%text, args(i + 1)%text, p, status, message)
        if (status /= params_run) return
        i = i + 1
      case default
        call fail('unknown option "'//args(i)%text//'"')
        return
      end select
      i = i + 1
    end do
    call check_parameters(nprocs, p, status, message)

  contains

    subroutine fail(text)
      character(len=*), intent(in) :: text
      status = params_bad
      message = text
    end subroutine fail

  end subroutine parse_latency_arguments

  subroutine set_option(name, value, p, status, message)
    character(len=*), intent(in) :: name, value
    type(latency_params), intent(inout) :: p
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    integer(int64) :: k
    real(real64) :: x
    integer :: ios
    status = params_run
    select case (name)
    case ('--timer')
      if (len_trim(value) > len(p%timer)) then
        status = params_bad
        message = '--timer must be mpi_wtime, monotonic_raw or tsc, got "'//trim(value)//'"'
      else
        p%timer = value
      end if
      return
    case ('--outdir')
      if (len(value) > max_path) then
        status = params_bad
        message = '--outdir is longer than the 4096 characters a path may have'
      else
        p%outdir = value
      end if
      return
    case ('--cut_coef', '--timeout')
      ios = 1
      if (len_trim(value) > 0 .and. verify(trim(value), '0123456789.eEdD+-') == 0) read (value, *, iostat=ios) x
      if (ios /= 0) then
        status = params_bad
        message = name//' expects a number, got "'//trim(value)//'"'
      else if (name == '--cut_coef') then
        p%cut_coef = x
      else
        p%timeout = x
      end if
      return
    end select
    ios = 1
    if (len_trim(value) > 0 .and. verify(trim(value), '0123456789+-') == 0) read (value, *, iostat=ios) k
    if (ios /= 0) then
      status = params_bad
      message = name//' expects an integer, got "'//trim(value)//'"'
      return
    end if
    select case (name)
    case ('--source')
      p%source = int(max(min(k, int(huge(p%source), int64)), -int(huge(p%source), int64)))
    case ('--dest')
      p%dest = int(max(min(k, int(huge(p%dest), int64)), -int(huge(p%dest), int64)))
    case ('--n')
      p%n = k
    case ('--bytes')
      p%bytes = k
    case ('--nr')
      p%nr = k
    case ('--npptrial')
      p%npptrial = k
    case ('--npp_init')
      p%npp_init = k
    case ('--res_npp')
      p%res_npp = k
    case ('--npp')
      p%npp = k
    case ('--ntrial')
      p%ntrial = k
    end select
  end subroutine set_option

  !> Reads group &latency from a file; values not in the file keep their current values.
  subroutine read_namelist(path, p, status, message)
    character(len=*), intent(in) :: path
    type(latency_params), intent(inout) :: p
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    integer :: source, dest
    integer(int64) :: n, bytes, nr, npptrial, npp_init, res_npp, npp, ntrial
    real(real64) :: cut_coef, timeout
    character(len=32) :: timer
    character(len=max_path) :: outdir
    namelist /latency/ source, dest, n, bytes, nr, npptrial, npp_init, res_npp, npp, ntrial, cut_coef, timer, &
      outdir, timeout
    integer :: unit, ios
    character(len=512) :: iomsg

    source = p%source; dest = p%dest; n = p%n; bytes = p%bytes; nr = p%nr; npptrial = p%npptrial
    npp_init = p%npp_init; res_npp = p%res_npp; npp = p%npp; ntrial = p%ntrial; cut_coef = p%cut_coef
    timer = p%timer; outdir = p%outdir; timeout = p%timeout
    status = params_run
    open (newunit=unit, file=path, status='old', action='read', iostat=ios, iomsg=iomsg)
    if (ios /= 0) then
      status = params_bad
      message = 'cannot read the namelist file "'//path//'": '//trim(iomsg)
      return
    end if
    read (unit, nml=latency, iostat=ios, iomsg=iomsg)
    close (unit)
    if (ios /= 0) then
      status = params_bad
      message = 'the namelist file "'//path//'" has no valid &latency group: '//trim(iomsg)
      return
    end if
    p%source = source; p%dest = dest; p%n = n; p%bytes = bytes; p%nr = nr; p%npptrial = npptrial
    p%npp_init = npp_init; p%res_npp = res_npp; p%npp = npp; p%ntrial = ntrial; p%cut_coef = cut_coef
    p%timer = timer; p%outdir = outdir; p%timeout = timeout
  end subroutine read_namelist

  !> The checks the driver can name in its own words; the library checks the same values again.
  !> The output directory is checked by the driver (it touches the file system).
  subroutine check_parameters(nprocs, p, status, message)
    integer, intent(in) :: nprocs
    type(latency_params), intent(inout) :: p
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    character(len=32) :: a, b
    integer :: ierr
    status = params_bad
    write (b, '(i0)') nprocs - 1
    if (nprocs < 2) then
      write (a, '(i0)') nprocs
      message = 'latency needs at least 2 MPI processes, got '//trim(a)//' (run it with mpiexec -n 2 or more)'
      return
    end if
    if (p%dest == -1) p%dest = nprocs - 1
    if (p%source < 0 .or. p%source >= nprocs) then
      call bad_value('source', p%source, ' is not a rank of this job (0..'//trim(b)//')', message)
    else if (p%dest < 0 .or. p%dest >= nprocs) then
      call bad_value('dest', p%dest, ' is not a rank of this job (0..'//trim(b)//')', message)
    else if (p%source == p%dest) then
      write (a, '(i0)') p%source
      message = 'source and dest must differ, both are '//trim(a)
    else if (p%bytes < -1) then
      call bad_value('bytes', p%bytes, ' must be >= 0 (or -1: use n)', message)
    else if (p%bytes > huge(1)) then
      call bad_value('bytes', p%bytes, ' must be <= 2147483647', message)
    else if (p%bytes == -1 .and. p%n < 0) then
      call bad_value('n', p%n, ' must be >= 0', message)
    else if (p%bytes == -1 .and. p%n > huge(1)) then
      call bad_value('n', p%n, ' must be <= 2147483647', message)
    else if (p%nr < 1) then
      call bad_value('nr', p%nr, ' must be >= 1', message)
    else if (p%npp < 0) then
      call bad_value('npp', p%npp, ' must be >= 0 (0: calculate)', message)
    else if (p%npp > 1000000000_int64) then
      call bad_value('npp', p%npp, ' must be <= 1000000000', message)
    else if (p%npp == 0 .and. p%npptrial < 1) then
      call bad_value('npptrial', p%npptrial, ' must be >= 1', message)
    else if (p%npp == 0 .and. p%npp_init < 1) then
      call bad_value('npp_init', p%npp_init, ' must be >= 1', message)
    else if (p%npp == 0 .and. p%npp_init > 1000000000_int64) then
      call bad_value('npp_init', p%npp_init, ' must be <= 1000000000', message)
    else if (p%res_npp < 1) then
      call bad_value('res_npp', p%res_npp, ' must be >= 1', message)
    else if (p%ntrial < 1) then
      call bad_value('ntrial', p%ntrial, ' must be >= 1', message)
    else if (.not. (p%cut_coef > 0.0_real64) .or. p%cut_coef > huge(p%cut_coef)) then
      write (a, '(g0)') p%cut_coef
      message = 'cut_coef = '//trim(adjustl(a))//' must be a number > 0'
    else if (.not. (p%timeout >= 0.0_real64) .or. p%timeout > huge(p%timeout)) then
      write (a, '(g0)') p%timeout
      message = 'timeout = '//trim(adjustl(a))//' must be a number of seconds >= 0 (0: no limit)'
    else
      call lat_timer_from_name(trim(p%timer), p%timer_kind, ierr=ierr)
      if (ierr /= LAT_SUCCESS) then
        message = 'timer = "'//trim(p%timer)//'" must be mpi_wtime, monotonic_raw or tsc'
      else if (.not. lat_timer_available(p%timer_kind)) then
        message = 'timer = '//trim(p%timer)//' is not available on this machine'
      else
        status = params_run
      end if
    end if
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
      '  --timeout S     watchdog: give up when a peer has not answered for S seconds, write what was', &
      '                  measured and end the job (default 0: wait for ever)', &
      '  --outdir DIR    where the files go (default: the working directory)', &
      '  --input FILE    a namelist file: &latency source=0, dest=7, n=1, ntrial=8388608 /', &
      '                  (options given on the command line override it)', &
      '  --quick         nr=2^20, npptrial=2^12, ntrial=2^15: a run of seconds', &
      '  --progress      progress on stderr (default: only when stderr is a terminal)', &
      '  --no-progress   no progress lines', &
      '  --help          this text', &
      '', &
      'Writes latency.output, latency.summary.output (the layout of the paper''s Appendix C) and', &
      'latency.json; formats in docs/output-formats.md. SIGTERM or SIGINT stops the run at the next', &
      'safe point and writes what was measured, marked partial.', &
      'Exit status: 0 done, 1 failed, 2 bad input, 3 partial results written (signal or timeout).'
  end subroutine print_help

end module latency_parameters
