!> latency: drop-in replacement for the 2009 Iowa State `latency` program (Luecke et al.), on module mpilat.
!>
!> Rank 0 reads the parameters into the library's type(lat_pingpong_options) (module latency_parameters),
!> the library checks them (lat_pingpong_check), and rank 0 broadcasts them, so a bad value is reported once
!> and every rank exits with status 2 before anything is measured or written. Writes
!> latency.output, latency.summary.output and latency.json (whole or not at all) into --outdir.
!> SIGTERM/SIGINT stop the measurement at the next safe point; the files then hold what was measured,
!> marked partial, and the exit status is 3. See docs/latency.md.
program latency_driver
  use, intrinsic :: iso_fortran_env, only: error_unit, output_unit, int64, real64
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_int64_t, c_char, c_null_char
  use mpi_f08
  use mpilat
  use latency_parameters
  implicit none

  interface
    function stderr_is_terminal() bind(C, name="latency_stderr_is_terminal") result(yes)
      import :: c_int
      integer(c_int) :: yes
    end function
    !> SIGTERM and SIGINT call lat_request_stop(); one more than 1 s later ends the program at once.
    subroutine install_stop_handlers() bind(C, name="latency_install_stop_handlers")
    end subroutine
    !> The signal that asked to stop, or 0.
    function stop_signal() bind(C, name="latency_stop_signal") result(signo)
      import :: c_int
      integer(c_int) :: signo
    end function
    !> Under srun without --mpi=pmi2, or under the other MPI's launcher, every process is an MPI job of one: says so.
    subroutine launch_hint(program) bind(C, name="driver_launch_hint")
      import :: c_char
      character(kind=c_char), intent(in) :: program(*)
    end subroutine
    !> Collective: rank 0 warns on stderr where a node has more ranks than processors; 1 when so.
    function warn_oversubscribed(program) bind(C, name="driver_warn_oversubscribed") result(yes)
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: program(*)
      integer(c_int) :: yes
    end function
    !> 1 where gnuplot is on the PATH, else 0 after saying so on stderr (drivers/driver_support.h).
    function plotter_usable(program, noplot_option) bind(C, name="driver_plotter_usable") result(yes)
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: program(*), noplot_option(*)
      integer(c_int) :: yes
    end function
    !> The lines of a file that begin with `starting` on stderr, after "latency: " (drivers/driver_support.h).
    subroutine print_lines_of(program, path, starting) bind(C, name="driver_print_lines_of")
      import :: c_char
      character(kind=c_char), intent(in) :: program(*), path(*), starting(*)
    end subroutine
    !> Every rank meets in a blocking barrier, then MPI_Finalize (drivers/driver_support.h: why).
    subroutine finalize(status) bind(C, name="driver_finalize")
      import :: c_int
      integer(c_int), value :: status
    end subroutine finalize
    !> lat_check_output_dir, noting the directories it makes (drivers/driver_support.h).
    function outdir_make(outdir) bind(C, name="driver_outdir_make") result(rc)
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: outdir(*)
      integer(c_int) :: rc
    end function
    !> Rank 0 removes the directories outdir_make made, while empty: a run refused, or only checked.
    subroutine outdir_unmake() bind(C, name="driver_outdir_unmake")
    end subroutine
    !> Non-zero under MPILAT_SHOW_OPTIONS: show the options, measure nothing (drivers/driver_support.h).
    function show_options_asked() bind(C, name="driver_show_options_asked") result(yes)
      import :: c_int
      integer(c_int) :: yes
    end function
    !> Every field of the options as one JSON line on stdout (drivers/options_show.h, generated).
    subroutine show_pingpong_options(opts) bind(C, name="driver_show_lat_pingpong_options")
      import :: lat_pingpong_options
      type(lat_pingpong_options), intent(in) :: opts
    end subroutine
    !> Sleeps the given seconds (a grace period before ending a stuck job).
    subroutine pause_seconds(seconds) bind(C, name="latency_pause_seconds")
      import :: c_double
      real(c_double), value :: seconds
    end subroutine
  end interface

  integer, parameter :: exit_failed = 1, exit_bad_input = 2, exit_partial = 3, exit_precision_not_met = 4
  !> After a timeout, the rank holding the measured trials gets this long to write them before the
  !> others end the job.
  real(c_double), parameter :: grace_seconds = 10.0_c_double

  type(lat_timer_options) :: topts
  type(lat_timer_result) :: tres
  type(lat_pingpong_options) :: popts
  type(lat_pingpong_result) :: pres
  type(lat_histogram) :: thist, phist
  type(latency_extras) :: extras
  type(lat_npp_study_row), allocatable :: rows(:)
  integer :: rank, nprocs, ierr, status, pp_ierr, nstudy, oversubscribed
  real(real64) :: t_start
  character(len=max_path) :: outdir
  character(len=1024) :: message

  call MPI_Init()
  t_start = MPI_Wtime()
  call launch_hint('latency'//c_null_char)
  call install_stop_handlers()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  ! ---- parameters: rank 0 reads and checks, everyone gets the verdict and the values ------------------
  status = params_run
  message = ''
  if (rank == 0) then
    call parse_latency_arguments(command_line_arguments(), nprocs, stderr_is_terminal() /= 0, popts, outdir, status, &
                                 message, extras)
    if (status == params_help) call print_help()
    ! The pictures need gnuplot: known before anything is measured, and before --outdir is made.
    if (status == params_run .and. .not. extras%noplot) then
      if (plotter_usable('latency'//c_null_char, '--noplot'//c_null_char) == 0) then
        status = params_bad
        message = 'no gnuplot to draw the picture (above)'
      end if
    end if
    if (status == params_run) then
      ierr = outdir_make(trim(outdir)//c_null_char)
      if (ierr == LAT_SUCCESS .and. size(extras%study) > 0) then
        call lat_check_outputs('npp_study', trim(outdir), '', ierr=ierr)
      else if (ierr == LAT_SUCCESS) then
        call lat_check_outputs('latency', trim(outdir), '', ierr=ierr)
      end if
      if (ierr /= LAT_SUCCESS) then
        status = params_bad
        message = 'outdir: '//lat_last_error_message()
      end if
    end if
  end if
  call MPI_Bcast(status, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (status /= params_run) then
    call outdir_unmake()
    if (rank == 0 .and. status == params_bad) write (error_unit, '(a)') 'latency: error: '//trim(message), &
      'latency: run "latency --help" for the options'
    call finalize(merge(exit_bad_input, 0, status == params_bad))
    if (status == params_bad) stop exit_bad_input, quiet=.true.
    stop
  end if
  ! Every rank gets rank 0's options, as they are: a plain bind(C) struct.
  call MPI_Bcast(popts, int(storage_size(popts) / 8), MPI_BYTE, 0, MPI_COMM_WORLD)
  ! And what the driver does besides: the study's values, and whether to draw.
  if (rank == 0) nstudy = size(extras%study)
  call MPI_Bcast(nstudy, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (rank /= 0) allocate (extras%study(nstudy))
  if (nstudy > 0) call MPI_Bcast(extras%study, nstudy, MPI_INTEGER8, 0, MPI_COMM_WORLD)
  call MPI_Bcast(extras%by_res_npp, 1, MPI_LOGICAL, 0, MPI_COMM_WORLD)
  call MPI_Bcast(extras%noplot, 1, MPI_LOGICAL, 0, MPI_COMM_WORLD)
  if (show_options_asked() /= 0) then  ! the options it would measure with (the timer's come from them)
    if (rank == 0) call show_pingpong_options(popts)
    call outdir_unmake()  ! a check, not a run: the --outdir it made for the check goes again
    call finalize(0)
    stop
  end if

  ! ---- Part 1: the timer on the source rank; Parts 2-5: the ping-pongs ---------------------------------
  oversubscribed = warn_oversubscribed('latency'//c_null_char)  ! said on stderr by rank 0
  call lat_timer_defaults(topts)
  topts%nr = popts%nr
  topts%timer = popts%timer
  topts%rank = popts%source
  topts%timeout_s = popts%timeout_s
  topts%progress = popts%progress
  if (rank == 0) then
    call lat_calibrate_timer(MPI_COMM_WORLD, topts, tres, thist, ierr=ierr)
  else
    call lat_calibrate_timer(MPI_COMM_WORLD, topts, tres, ierr=ierr)
  end if
  if (ierr /= LAT_SUCCESS .and. ierr /= LAT_ERR_INTERRUPTED) call fail('timer calibration', ierr)

  if (nstudy > 0) call run_study()

  if (rank == 0 .or. rank == popts%source) then
    call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, timer=tres, hist=phist, ierr=pp_ierr)
  else
    call lat_pingpong_stats(MPI_COMM_WORLD, popts, pres, timer=tres, ierr=pp_ierr)
  end if
  if (pp_ierr == LAT_ERR_TIMEOUT) call after_timeout()
  if (pp_ierr /= LAT_SUCCESS .and. pp_ierr /= LAT_ERR_INTERRUPTED) call fail('ping-pong', pp_ierr)

  ! ---- the files, on rank 0 -------------------------------------------------------------------------------
  status = 0
  if (rank == 0) status = write_files()
  call MPI_Bcast(status, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call finalize(exit_code())
  if (status /= 0) stop exit_failed, quiet=.true.
  if (pres%partial /= LAT_COMPLETE) stop exit_partial, quiet=.true.
  if (exit_code() == exit_precision_not_met) stop exit_precision_not_met, quiet=.true.

contains

  !> Writes the three files on this rank; 0 when done, 1 when they could not be written.
  integer function write_files() result(failed)
    character(len=:), allocatable :: line
    character(len=32) :: done, total, asked
    integer :: length
    failed = 0
    call get_command(length=length)
    allocate (character(len=max(length, 1)) :: line)
    call get_command(line)
    call lat_write_latency_files(trim(outdir), line, real(MPI_Wtime() - t_start, c_double), &
                                 tres, thist, pres, phist, ierr=ierr)
    if (ierr /= LAT_SUCCESS) write (error_unit, '(a)') 'latency: error: '//lat_last_error_message()
    if (ierr == LAT_SUCCESS .and. .not. extras%noplot .and. pres%ntrial_done > 0) then
      call lat_write_latency_plots(trim(outdir), pres, phist, ierr=ierr)
      if (ierr /= LAT_SUCCESS) write (error_unit, '(a)') 'latency: error: the picture (--noplot skips it): '// &
        lat_last_error_message()
    end if
    call lat_histogram_free(thist)
    call lat_histogram_free(phist)
    if (ierr /= LAT_SUCCESS) then
      failed = 1
      return
    end if
    write (done, '(i0)') pres%ntrial_done
    write (total, '(i0)') pres%ntrial
    if (pres%partial /= LAT_COMPLETE .and. pres%ntrial_done == 0) then
      write (error_unit, '(a)') 'latency: stopped early ('//partial_cause()//') during '//stopped_phase()// &
        ', before any trial was measured: wrote what that phase measured, marked PARTIAL, in '//trim(outdir)
      return
    else if (pres%partial /= LAT_COMPLETE) then
      write (error_unit, '(a)') 'latency: stopped early ('//partial_cause()//'): wrote the '//trim(done)// &
        ' of '//trim(total)//' trials measured, marked PARTIAL, in '//trim(outdir)
      return
    end if
    ! The warnings as latency.output words and formats them (one text for the files and the terminal).
    call print_lines_of('latency'//c_null_char, trim(outdir)//'/latency.output'//c_null_char, 'WARNING'//c_null_char)
    write (output_unit, '(a,f10.4,a,f10.4,a,i0,a)') 'latency: median ', pres%all%median_us, &
      ' us, minimum ', pres%all%min_us, ' us (ping-pong time / 2, npp = ', pres%npp_used, ')'
    if (popts%precision_pct > 0 .and. pres%ended_by /= LAT_END_PRECISION) then
      write (asked, '(f16.3)') popts%precision_pct
      write (output_unit, '(a)') 'latency: PRECISION NOT MET: the median''s interval within this launch did not reach +-'// &
        trim(adjustl(asked))//' % (latency.output says why); exit status 4'
    end if
    if (extras%noplot) then
      write (output_unit, '(a)') 'latency: wrote latency.output, latency.summary.output and latency.json in '// &
        trim(outdir)
    else
      write (output_unit, '(a)') 'latency: wrote latency.output, latency.summary.output, latency.json and '// &
        'latency.png/.svg in '//trim(outdir)
    end if
  end function write_files

  !> The paper's npp study instead of Parts 3-5: every value in one run, interleaved; the files on rank 0.
  subroutine run_study()
    character(len=:), allocatable :: line
    integer :: length, i
    call lat_npp_study(MPI_COMM_WORLD, popts, extras%study, extras%by_res_npp, pres, rows, timer=tres, ierr=pp_ierr)
    if (pp_ierr == LAT_ERR_TIMEOUT) call MPI_Abort(MPI_COMM_WORLD, exit_partial)
    if (pp_ierr /= LAT_SUCCESS .and. pp_ierr /= LAT_ERR_INTERRUPTED) call fail('npp study', pp_ierr)
    status = 0
    if (rank == 0) then
      call get_command(length=length)
      allocate (character(len=max(length, 1)) :: line)
      call get_command(line)
      call lat_write_npp_study_files(trim(outdir), line, pres, rows, .not. extras%noplot, ierr=ierr)
      if (ierr /= LAT_SUCCESS) then
        write (error_unit, '(a)') 'latency: error: '//lat_last_error_message()
        status = 1
      else
        do i = 1, size(rows)
          write (output_unit, '(a,i0,a,f10.4,a,f10.4,a)') 'latency: npp ', rows(i)%npp, ': median ', &
            rows(i)%stats%median_us, ' us, p99 ', rows(i)%q%p_us(9), ' us'
        end do
        write (output_unit, '(a)') 'latency: wrote latency.npp.txt, .csv, .json'// &
          trim(merge('              ', ' and .png/.svg', extras%noplot))//' in '//trim(outdir)
      end if
    end if
    call lat_histogram_free(thist)
    call MPI_Bcast(status, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    call finalize(exit_code())
    if (status /= 0) stop exit_failed, quiet=.true.
    if (pres%partial /= LAT_COMPLETE) stop exit_partial, quiet=.true.
    stop 0, quiet=.true.
  end subroutine run_study

  !> The run's warnings on stderr (the files hold them with the times of each level).
  !> The phase a partial run ended in, as latency.output names it.
  function stopped_phase() result(text)
    character(len=:), allocatable :: text
    select case (pres%stopped_in)
    case (LAT_PHASE_CALIBRATION)
      text = 'the timer calibration (part 1)'
    case (LAT_PHASE_ESTIMATE)
      text = 'the npp estimate (part 2)'
    case default
      text = 'the timing trials (part 3)'
    end select
  end function stopped_phase

  function partial_cause() result(text)
    character(len=:), allocatable :: text
    character(len=16) :: signo
    if (pres%partial == LAT_PARTIAL_TIMEOUT) then
      text = 'timeout'
    else if (stop_signal() /= 0) then
      write (signo, '(i0)') stop_signal()
      text = 'signal '//trim(signo)
    else
      text = 'stop requested'
    end if
  end function partial_cause

  !> A peer did not answer: every rank says so; the rank holding measured trials writes them, and the
  !> job is ended (MPI_Finalize could wait for ever for the silent rank).
  subroutine after_timeout()
    write (error_unit, '(a)') 'latency: '//lat_last_error_message()
    if (pres%ntrial_done > 0) then
      status = write_files()
    else
      call pause_seconds(grace_seconds)
    end if
    call MPI_Abort(MPI_COMM_WORLD, exit_partial)
  end subroutine after_timeout

  !> The status the program ends with after the files: as the stops after finalize say.
  integer function exit_code()
    exit_code = 0
    ! A complete run that --precision asked for and did not reach: its files are whole, the status says so.
    if (popts%precision_pct > 0 .and. pres%ended_by /= LAT_END_PRECISION) exit_code = exit_precision_not_met
    if (pres%partial /= LAT_COMPLETE) exit_code = exit_partial
    if (status /= 0) exit_code = exit_failed
  end function exit_code

  subroutine fail(phase, code)
    character(len=*), intent(in) :: phase
    integer, intent(in) :: code
    ! A timeout is this rank's own finding (the others may not know it), and MPI_Finalize could wait
    ! for ever for the silent rank: every rank that sees one says so and ends the job.
    if (rank == 0 .or. code == LAT_ERR_TIMEOUT) write (error_unit, '(a)') 'latency: error in '//phase//': '// &
      lat_strerror(code)//': '//lat_last_error_message()
    if (code == LAT_ERR_TIMEOUT) call MPI_Abort(MPI_COMM_WORLD, exit_failed)
    call MPI_Finalize()
    stop exit_failed, quiet=.true.
  end subroutine fail

end program latency_driver
