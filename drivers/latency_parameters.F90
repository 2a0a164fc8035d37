!> latency_parameters: how the `latency` driver reads its parameters from text (command-line arguments and the
!> &latency namelist file) straight into the library's type(lat_pingpong_options). The defaults are the
!> library's (lat_pingpong_defaults) and so are the checks (lat_pingpong_check); which option and which
!> namelist variable set which field is the spec's (latency_fields, generated): this module only turns text
!> into values. No MPI here: the driver calls it on rank 0, and the fuzz targets in tests/fuzz call it with
!> whatever bytes the fuzzer makes.
module latency_parameters
  use, intrinsic :: iso_fortran_env, only: int64, real64, output_unit
  use, intrinsic :: iso_c_binding, only: c_char, c_int, c_null_char
  use mpilat, only: lat_pingpong_options, lat_pingpong_defaults, lat_pingpong_check, lat_timer_from_name, &
                    lat_timer_name, lat_last_error_message, LAT_SUCCESS, lat_npp_study_check, lat_study_max, &
                    LAT_TIMER_MPI_WTIME, LAT_TIMER_TSC
  use latency_fields, only: option_value, set_integer_option, set_number_option, read_latency_group, option_help, &
                            value_none, value_number, quick_nr, quick_npptrial, quick_ntrial
  implicit none
  private

  integer, parameter, public :: max_path = 4096
  !> Outcomes of parse_latency_arguments.
  integer, parameter, public :: params_run = 0, params_help = 1, params_bad = 2
  !> --quick: a run of seconds (Parts 1, 2 and 3 shortened; everything else as given): quick_nr, quick_npptrial
  !> and quick_ntrial, from the spec (latency_fields).
  !> --quick --precision: the trials' time limit (s), so that the whole run ends within 10 s.
  real(real64), parameter, public :: quick_precision_limit_s = 6.0_real64

  !> One command-line argument (the fuzz targets build these from bytes).
  type, public :: argument
    character(len=:), allocatable :: text
  end type argument

  !> What the driver does besides the options of the library's ping-pong: an npp study, and the picture.
  type, public :: latency_extras
    integer(int64), allocatable :: study(:)   !< --npp-study or --res-npp-study values; none: no study
    logical :: by_res_npp = .false.           !< the values are res_npp (--res-npp-study)
    logical :: noplot = .false.               !< --noplot: no latency.png/.svg (or latency.npp.png/.svg)
  end type latency_extras

  public :: parse_latency_arguments, command_line_arguments, print_help

  interface
    !> input_snapshot.c: a private copy of path as lat_read_input read it (checked on the descriptor: a FIFO
    !> swapped in after the check is refused, never waited on); 0, or why it failed.
    function input_snapshot(path, copy, copy_size, why, why_size) bind(C, name="latency_input_snapshot") result(rc)
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: path(*)
      character(kind=c_char), intent(out) :: copy(*), why(*)
      integer(c_int), value :: copy_size, why_size
      integer(c_int) :: rc
    end function input_snapshot
  end interface

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

  !> The library's defaults (Appendix C's), --quick, the namelist file, the options, each overriding the one
  !> before; then the library's checks for a job of nprocs processes. status: params_run, params_help
  !> (--help: print_help and stop), or params_bad (message names the bad value).
  subroutine parse_latency_arguments(args, nprocs, progress_default, opts, outdir, status, message, extras)
    type(argument), intent(in) :: args(:)
    integer, intent(in) :: nprocs
    logical, intent(in) :: progress_default
    type(lat_pingpong_options), intent(out) :: opts
    character(len=*), intent(out) :: outdir
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    type(latency_extras), optional, intent(out) :: extras
    type(latency_extras) :: ex
    integer :: i, nargs, ierr
    logical :: quick, show_help, minutes_given, no_estimate_given, cut_coef_given, ntrial_given, precision_given
    logical :: precision_limit_given
    character(len=:), allocatable :: input, seen
    character(len=32) :: timer

    status = params_run
    message = ''
    call lat_pingpong_defaults(opts)
    opts%progress = merge(1, 0, progress_default)
    outdir = '.'
    timer = lat_timer_name(int(opts%timer))
    input = ''
    quick = .false.
    show_help = .false.
    minutes_given = .false.
    precision_given = .false.
    precision_limit_given = .false.
    no_estimate_given = .false.
    cut_coef_given = .false.
    ntrial_given = .false.
    seen = '|'
    allocate (ex%study(0))

    ! First pass: the options that decide how the others are read.
    nargs = size(args)
    do i = 1, nargs
      select case (args(i)%text)
      case ('--help', '-h')
        show_help = .true.
      case ('--quick')
        quick = .true.
      case ('--precision')
        precision_given = .true.
      case ('--precision-limit')
        precision_limit_given = .true.
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
      opts%nr = quick_nr
      opts%npptrial = quick_npptrial
      ! With --precision the precision ends the trials; ntrial stays their limit, and the time limit is
      ! quick_precision_limit_s: the whole run (MPI's start, Parts 1 and 2) within 10 s.
      if (.not. precision_given) opts%ntrial = quick_ntrial
      if (precision_given .and. .not. precision_limit_given) opts%precision_limit_s = quick_precision_limit_s
    end if
    if (len(input) > 0) then
      call read_namelist(input, opts, timer, outdir, status, message)
      if (status /= params_run) return
    end if

    ! Second pass: every option, in order; each at most once (the last of two would silently win).
    i = 1
    do while (i <= nargs)
      if (len(args(i)%text) > 2) then
        if (args(i)%text(1:2) == '--') then
          if (index(seen, '|'//args(i)%text//'|') > 0) then
            call fail(args(i)%text//' is given twice: give each option once')
            return
          end if
          seen = seen//args(i)%text//'|'
        end if
      end if
      select case (args(i)%text)
      case ('--help', '-h', '--quick')
      case ('--progress', '--no-progress')
        if (index(seen, '|--progress|') > 0 .and. index(seen, '|--no-progress|') > 0) then
          call fail('--progress and --no-progress: give one')
          return
        end if
        opts%progress = merge(1, 0, args(i)%text == '--progress')
      case ('--no-estimate')
        opts%estimate = 0
        no_estimate_given = .true.
      case ('--noplot')
        ex%noplot = .true.
      case ('--npp-study', '--res-npp-study')
        if (i == nargs) then
          call fail(args(i)%text//' needs a list of values, such as 1,9,18,36,72,144')
          return
        end if
        if (size(ex%study) > 0) then
          call fail('give one of --npp-study and --res-npp-study, once')
          return
        end if
        call parse_list(args(i)%text, args(i + 1)%text, ex%study, status, message)
        if (status /= params_run) return
        ex%by_res_npp = args(i)%text == '--res-npp-study'
        i = i + 1
      case ('--minutes')
        if (i == nargs) then
          call fail('--minutes needs a value')
          return
        end if
        call set_option(args(i)%text, args(i + 1)%text, opts, timer, outdir, status, message)
        if (status /= params_run) return
        minutes_given = .true.
        if (.not. (opts%minutes > 0)) then
          call fail('--minutes must be a number of minutes > 0, got "'//args(i + 1)%text//'"')
          return
        end if
        i = i + 1
      case ('--input')
        i = i + 1
      case default
        ! --timer (a name), --outdir (a path), and every option the spec gives a field's number.
        if (args(i)%text /= '--timer' .and. args(i)%text /= '--outdir' .and. option_value(args(i)%text) == value_none) then
          call fail('unknown option "'//args(i)%text//'"')
          return
        end if
        if (i == nargs) then
          call fail(args(i)%text//' needs a value')
          return
        end if
        call set_option(args(i)%text, args(i + 1)%text, opts, timer, outdir, status, message)
        if (status /= params_run) return
        if (args(i)%text == '--cut_coef') cut_coef_given = .true.
        if (args(i)%text == '--ntrial') ntrial_given = .true.
        i = i + 1
      end select
      i = i + 1
    end do

    ! The checks: the job's size (how it was launched), then the library's rules for every option.
    if (nprocs < 2) then
      write (message, '(a,i0,a)') 'latency needs at least 2 MPI processes, got ', nprocs, &
        ' (run it with mpiexec -n 2 or more)'
      status = params_bad
      return
    end if
    if (size(ex%study) > 0 .and. opts%npp /= 0) then
      write (message, '(a,i0,a)') '--npp cannot be given with an npp study, which sets npp per value (got --npp ', &
        opts%npp, ')'
      status = params_bad
      return
    end if
    ! --no-estimate skips Part 2 only when npp is given; without it Part 2 must run, and the flag would be ignored.
    if (no_estimate_given .and. opts%npp == 0 .and. size(ex%study) == 0) then
      call fail('--no-estimate needs --npp N (with npp 0, the default, Part 2 calculates npp and must run)')
      return
    end if
    if (minutes_given .and. ntrial_given) then
      call fail('--minutes chooses ntrial: give one of --minutes and --ntrial')
      return
    end if
    if (size(ex%study) > 0 .and. minutes_given) then
      call fail('--minutes cannot be given with an npp study (--ntrial is the trials of each value)')
      return
    end if
    if (size(ex%study) > 0 .and. precision_given) then
      call fail('--precision cannot be given with an npp study (its values take turns until each has --ntrial)')
      return
    end if
    ! An option that would change nothing in a study is refused, not silently ignored.
    if (size(ex%study) > 0 .and. no_estimate_given) then
      call fail('--no-estimate cannot be given with an npp study: npp is not given there, so Part 2 runs '// &
                '(the rule''s npp is reported beside the values)')
      return
    end if
    if (size(ex%study) > 0 .and. cut_coef_given) then
      call fail('--cut_coef cannot be given with an npp study: the study reports no filtered statistics')
      return
    end if
    call lat_timer_from_name(trim(timer), opts%timer, ierr=ierr)
    if (ierr == LAT_SUCCESS) then
      if (size(ex%study) > 0) then
        call lat_npp_study_check(opts, nprocs, ex%study, ex%by_res_npp, ierr=ierr)
      else
        call lat_pingpong_check(opts, nprocs, ierr=ierr)
      end if
    end if
    if (ierr /= LAT_SUCCESS) call fail(lat_last_error_message())
    if (present(extras)) extras = ex

  contains

    subroutine fail(text)
      character(len=*), intent(in) :: text
      status = params_bad
      message = text
    end subroutine fail

  end subroutine parse_latency_arguments

  !> One option with its value: an integer, a number or a name into opts, timer or outdir.
  subroutine set_option(name, value, opts, timer, outdir, status, message)
    character(len=*), intent(in) :: name, value
    type(lat_pingpong_options), intent(inout) :: opts
    character(len=*), intent(inout) :: timer, outdir
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    integer(int64) :: k
    real(real64) :: x
    integer :: ios, unknown_timer
    status = params_run
    if (len(value) == 0) then
      status = params_bad
      message = name//' needs a value, got ""'
      return
    end if
    select case (name)
    case ('--timer')
      if (len_trim(value) > len(timer)) then
        status = params_bad
        ! Too long for any timer's name: the library's refusal, which lists the names.
        call lat_timer_from_name(trim(value), unknown_timer, ios)
        message = '--timer: '//lat_last_error_message()
      else
        timer = value
      end if
      return
    case ('--outdir')
      if (len(value) > len(outdir)) then
        status = params_bad
        message = '--outdir is longer than the 4096 characters a path may have'
      else if (len(value) > 0 .and. value(max(1, len(value)):) == ' ') then
        ! Fortran's character variables are blank-padded: 'res ' would become res, another directory.
        status = params_bad
        message = "--outdir '"//value//"': a path that ends in a blank cannot be kept (latency's strings are "// &
                  "Fortran's, blank-padded: it would write into '"//trim(value)//"')"
      else
        outdir = value
      end if
      return
    end select
    if (option_value(name) == value_number) then
      ios = 1
      if (len_trim(value) > 0 .and. verify(trim(value), '0123456789.eEdD+-') == 0) read (value, *, iostat=ios) x
      if (ios /= 0) then
        status = params_bad
        message = name//' expects a number, got "'//trim(value)//'"'
      else
        call set_number_option(name, x, opts)
      end if
      return
    end if
    ios = 1
    if (len_trim(value) > 0 .and. verify(trim(value), '0123456789+-') == 0) read (value, *, iostat=ios) k
    if (ios /= 0) then
      status = params_bad
      message = name//' expects an integer, got "'//trim(value)//'"'
      return
    end if
    call set_integer_option(name, k, opts)
  end subroutine set_option

  !> A comma-separated list of integers ("1,9,18") into values; the library checks their range and
  !> duplicates. At most lat_study_max values.
  subroutine parse_list(name, text, values, status, message)
    character(len=*), intent(in) :: name, text
    integer(int64), allocatable, intent(out) :: values(:)
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    integer :: start, comma, ios, n
    integer(int64) :: buffer(lat_study_max)
    character(len=:), allocatable :: item
    status = params_run
    n = 0
    start = 1
    do
      comma = index(text(start:), ',')
      if (comma == 0) then
        item = text(start:)
      else
        item = text(start:start + comma - 2)
      end if
      ios = 1
      if (len_trim(item) > 0 .and. verify(trim(item), '0123456789+-') == 0 .and. n < lat_study_max) &
        read (item, *, iostat=ios) buffer(n + 1)
      if (ios /= 0) then
        status = params_bad
        if (n >= lat_study_max) then
          write (message, '(a,a,i0,a)') name, ' takes at most ', lat_study_max, ' values'
        else
          message = name//' expects a list of integers such as 1,9,18, got "'//text//'" (item "'//item//'")'
        end if
        return
      end if
      n = n + 1
      if (comma == 0) exit
      start = start + comma
    end do
    values = buffer(1:n)
  end subroutine parse_list

  !> Reads group &latency (the paper's names) from a file into opts, timer and outdir; values not in the file
  !> keep their current values. A namelist needs variables of its own names, so the values pass through them.
  subroutine read_namelist(path, opts, timer, outdir, status, message)
    character(len=*), intent(in) :: path
    type(lat_pingpong_options), intent(inout) :: opts
    character(len=*), intent(inout) :: timer, outdir
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    character(kind=c_char) :: copy_c(max_path + 32), why_c(512)
    character(len=:), allocatable :: copy
    integer :: ios, k, unit
    ! A regular file of bounded size only, as every reader of mpilat (a FIFO would block, /dev/zero never end),
    ! read once by the library's rule (lat_read_input). gfortran opens by name: it reads a private copy of what
    ! was checked, so a name swapped after the check (a FIFO would block the open for ever) is refused on what
    ! was opened.
    if (input_snapshot(path//c_null_char, copy_c, int(size(copy_c), c_int), why_c, int(size(why_c), c_int)) /= 0) then
      status = params_bad
      message = 'cannot read the namelist file: '//c_text(why_c)
      return
    end if
    copy = c_text(copy_c)
    call read_namelist_copy(path, copy, opts, timer, outdir, status, message)
    open (newunit=unit, file=copy, status='old', iostat=ios)
    if (ios == 0) close (unit, status='delete')
  contains
    function c_text(chars) result(text)
      character(kind=c_char), intent(in) :: chars(:)
      character(len=:), allocatable :: text
      text = ''
      do k = 1, size(chars)
        if (chars(k) == c_null_char) exit
        text = text//chars(k)
      end do
    end function c_text
  end subroutine read_namelist

  !> read_namelist on copy, the private copy of path (named in the messages).
  subroutine read_namelist_copy(path, copy, opts, timer, outdir, status, message)
    character(len=*), intent(in) :: path, copy
    type(lat_pingpong_options), intent(inout) :: opts
    character(len=*), intent(inout) :: timer, outdir
    integer, intent(out) :: status
    character(len=*), intent(out) :: message
    integer :: unit, ios, i
    character(len=512) :: iomsg
    character(len=2) :: mark
    character(len=:), allocatable :: repeated
    integer :: first_line, second_line

    status = params_run
    ! An editor's "Unicode" save (UTF-16, a NUL every other byte) reads as an empty file: said plainly.
    open (newunit=unit, file=copy, status='old', action='read', access='stream', form='unformatted', iostat=ios)
    if (ios == 0) then
      read (unit, iostat=ios) mark
      close (unit)
      if (ios == 0 .and. (mark == char(255)//char(254) .or. mark == char(254)//char(255))) then
        status = params_bad
        message = 'the namelist file "'//path//'" is UTF-16 text (it starts with a byte-order mark); '// &
                  'write it in ASCII or UTF-8, e.g. iconv -f UTF-16 -t UTF-8'
        return
      end if
    end if
    ! A name given twice: gfortran takes the last silently; refused, naming both lines.
    call find_repeated_name(copy, repeated, first_line, second_line)
    if (len(repeated) > 0) then
      status = params_bad
      write (message, '(a,i0,a,i0,a)') 'the namelist file "'//path//'" gives '//repeated//' twice (lines ', &
        first_line, ' and ', second_line, '): give each once'
      return
    end if
    ! gfortran reads a group whose last line has no newline and then reports the end of the file: such a
    ! file (the docs' one-line example, as many editors save it) is read from a scratch copy that has one.
    unit = open_with_final_newline(copy, ios, iomsg)
    if (ios == 0) then
      call read_latency_group(unit, opts, timer, outdir, ios, iomsg)
      close (unit)
    end if
    if (ios /= 0) then
      ! gfortran's message may quote the file's bytes: control characters never reach the terminal.
      do i = 1, len_trim(iomsg)
        if (iachar(iomsg(i:i)) < 32 .or. iachar(iomsg(i:i)) > 126) iomsg(i:i) = '?'
      end do
      status = params_bad
      message = 'the namelist file "'//path//'" has no valid &latency group: '//trim(iomsg)
    end if
  end subroutine read_namelist_copy

  !> The first name assigned twice in the &latency group of path (lower case; '' when none, or when the file
  !> cannot be read: the namelist read then says why), and the lines of both. Strings and comments are
  !> skipped; the group ends at its '/'.
  subroutine find_repeated_name(path, repeated, first_line, second_line)
    character(len=*), intent(in) :: path
    character(len=:), allocatable, intent(out) :: repeated
    integer, intent(out) :: first_line, second_line
    integer, parameter :: most = 64
    character(len=32) :: seen(most)
    integer :: seen_line(most), nseen, raw, ios, line, at, start, k
    integer(int64) :: bytes
    character(len=:), allocatable :: text
    character(len=32) :: name
    character :: c, quote
    logical :: in_group, in_comment, in_string
    repeated = ''
    first_line = 0
    second_line = 0
    open (newunit=raw, file=path, status='old', action='read', access='stream', form='unformatted', iostat=ios)
    if (ios /= 0) return
    inquire (unit=raw, size=bytes)
    allocate (character(len=max(bytes, 0_int64)) :: text)  ! the private copy: at most LAT_MAX_INPUT_BYTES (lat_read_input)
    if (bytes > 0) read (raw, iostat=ios) text
    close (raw)
    if (ios /= 0) return
    nseen = 0
    line = 1
    in_group = .false.
    in_comment = .false.
    in_string = .false.
    quote = ' '
    at = 1
    do while (at <= len(text))
      c = text(at:at)
      if (c == achar(10)) then
        line = line + 1
        in_comment = .false.
      else if (in_comment) then
        continue
      else if (in_string) then
        in_string = c /= quote
      else if (c == '!') then
        in_comment = .true.
      else if (c == '"' .or. c == "'") then
        in_string = .true.
        quote = c
      else if (.not. in_group) then
        if ((c == '&' .or. c == '$') .and. at + 7 <= len(text)) then
          in_group = lower(text(at + 1:at + 7)) == 'latency'
          ! The whole group name: &latencyx is another group (gfortran skips it), not this one.
          if (in_group .and. at + 8 <= len(text)) in_group = .not. is_name_char(text(at + 8:at + 8))
          if (in_group) at = at + 7
        end if
      else if (c == '/' .or. c == '&' .or. c == '$') then
        return
      else if (is_name_start(c)) then
        start = at
        do while (at < len(text))
          if (.not. is_name_char(text(at + 1:at + 1))) exit
          at = at + 1
        end do
        name = lower(text(start:min(at, start + 31)))
        ! Its '=' may come after blanks and line ends ("ntrial" on one line, "= 400" on the next), as gfortran
        ! reads it.
        k = at + 1
        do while (k <= len(text))
          if (index(' '//achar(9)//achar(10)//achar(13), text(k:k)) == 0) exit
          k = k + 1
        end do
        if (k <= len(text)) then
          if (text(k:k) == '=') then
            do k = 1, nseen
              if (seen(k) == name) then
                repeated = trim(name)
                first_line = seen_line(k)
                second_line = line
                return
              end if
            end do
            if (nseen < most) then
              nseen = nseen + 1
              seen(nseen) = name
              seen_line(nseen) = line
            end if
          end if
        end if
      end if
      at = at + 1
    end do
  contains
    logical function is_name_start(ch)
      character, intent(in) :: ch
      is_name_start = (ch >= 'a' .and. ch <= 'z') .or. (ch >= 'A' .and. ch <= 'Z')
    end function is_name_start
    logical function is_name_char(ch)
      character, intent(in) :: ch
      is_name_char = is_name_start(ch) .or. (ch >= '0' .and. ch <= '9') .or. ch == '_'
    end function is_name_char
    function lower(word) result(low)
      character(len=*), intent(in) :: word
      character(len=len(word)) :: low
      integer :: j
      low = word
      do j = 1, len(word)
        if (word(j:j) >= 'A' .and. word(j:j) <= 'Z') low(j:j) = achar(iachar(word(j:j)) + 32)
      end do
    end function lower
  end subroutine find_repeated_name

  !> A formatted unit to read path from: the file itself, or, when its last byte is not a newline, a scratch
  !> copy with one (deleted when closed). ios /= 0 (and iomsg) when neither could be opened.
  function open_with_final_newline(path, ios, iomsg) result(unit)
    character(len=*), intent(in) :: path
    integer, intent(out) :: ios
    character(len=*), intent(inout) :: iomsg
    integer :: unit, raw
    integer(int64) :: bytes
    character(len=:), allocatable :: text
    character(len=1) :: last
    open (newunit=raw, file=path, status='old', action='read', access='stream', form='unformatted', iostat=ios, &
          iomsg=iomsg)
    if (ios /= 0) return
    inquire (unit=raw, size=bytes)
    last = achar(10)
    if (bytes > 0) read (raw, pos=bytes, iostat=ios, iomsg=iomsg) last
    if (ios /= 0 .or. last == achar(10)) then
      close (raw)
      if (ios == 0) open (newunit=unit, file=path, status='old', action='read', iostat=ios, iomsg=iomsg)
      return
    end if
    allocate (character(len=bytes) :: text)  ! the private copy: at most LAT_MAX_INPUT_BYTES (lat_read_input)
    read (raw, pos=1, iostat=ios, iomsg=iomsg) text
    close (raw)
    if (ios /= 0) return
    open (newunit=unit, status='scratch', access='stream', form='formatted', iostat=ios, iomsg=iomsg)
    if (ios /= 0) return
    write (unit, '(a)', iostat=ios, iomsg=iomsg) text
    if (ios == 0) rewind (unit)
    if (ios /= 0) close (unit)
  end function open_with_final_newline

  !> The options with the library's defaults (lat_pingpong_defaults), never a typed copy of them.
  subroutine print_help()
    type(lat_pingpong_options) :: d
    call lat_pingpong_defaults(d)
    write (output_unit, '(a)') &
      'latency: MPI ping-pong latency and its distribution (Luecke, Coyle, Hoekstra, Kraeva, Xu 2009)', &
      '', &
      'usage: mpiexec -n NP latency [options]', &
      '', &
      'Options (names of the paper''s variables; defaults of its Appendix C, as the library sets them):'
    call line('--source R', option_help('--source'), int_text(int(d%source, int64)))
    call line('--dest R', option_help('--dest'), int_text(int(d%dest, int64)))
    call line('--n N', option_help('--n'), int_text(d%n))
    call line('--bytes B', option_help('--bytes'), int_text(d%bytes))
    call line('--nr N', option_help('--nr'), int_text(d%nr))
    call line('--npptrial N', option_help('--npptrial'), int_text(d%npptrial))
    call line('--npp_init N', option_help('--npp_init'), int_text(d%npp_init))
    call line('--res_npp N', option_help('--res_npp'), int_text(d%res_npp))
    call line('--npp N', option_help('--npp'), int_text(d%npp))
    call line('--ntrial N', option_help('--ntrial'), int_text(d%ntrial))
    call line('--cut_coef X', option_help('--cut_coef'), real_text(d%cut_coef))
    call line('--timer NAME', option_help('--timer'), lat_timer_name(int(d%timer)))
    call line('--timeout S', option_help('--timeout'), real_text(d%timeout_s))
    call line('--outdir DIR', option_help('--outdir'), 'the working directory')
    call lines('--no-estimate', '--no-estimate')
    call lines('--minutes M', '--minutes')
    call lines('--precision P', '--precision')
    call lines('--precision-limit S', '--precision-limit')
    call lines('--npp-study L', '--npp-study')
    call lines('--res-npp-study L', '--res-npp-study')
    call lines('--noplot', '--noplot')
    call lines('--input FILE', '--input')
    call lines('--quick', '--quick')
    call lines('--progress', '--progress')
    call lines('--no-progress', '--no-progress')
    call lines('--help', '--help')
    write (output_unit, '(a)') &
      '', &
      'Writes latency.output, latency.summary.output (the layout of the paper''s Appendix C),', &
      'latency.json and latency.png/.svg (gnuplot); formats in docs/output-formats.md.', &
      'SIGTERM or SIGINT stops the run at the next safe point and writes what was measured, marked', &
      'partial.', &
      'Exit status: 0 done, 1 failed, 2 bad input, 3 partial results written (signal or timeout).'

  contains

    subroutine line(option, what, default)
      character(len=*), intent(in) :: option, what, default
      character(len=16) :: column
      column = option
      write (output_unit, '(a)') '  '//column//what//' (default '//default//')'
    end subroutine line

    !> Option `option`'s help from the spec, its lines under the first indented, shown as `shown` (the option
    !> and its value's word) in a column of 16, or followed by two spaces where longer.
    subroutine lines(shown, option)
      character(len=*), intent(in) :: shown, option
      character(len=16) :: column
      integer :: k
      column = shown
      if (len(shown) < len(column)) then
        write (output_unit, '(a)') '  '//column//option_help(option)
      else
        write (output_unit, '(a)') '  '//shown//'  '//option_help(option)
      end if
      k = 2
      do while (len(option_help(option, k)) > 0)
        write (output_unit, '(a)') repeat(' ', 2 + len(column))//option_help(option, k)
        k = k + 1
      end do
    end subroutine lines

    function int_text(k) result(s)
      integer(int64), intent(in) :: k
      character(len=:), allocatable :: s
      character(len=24) :: buf
      write (buf, '(i0)') k
      s = trim(buf)
    end function int_text

    !> x with up to 6 decimals and no trailing zeros ("2.0", "0.5").
    function real_text(x) result(s)
      real(real64), intent(in) :: x
      character(len=:), allocatable :: s
      character(len=48) :: buf
      integer :: last
      write (buf, '(f0.6)') x
      s = trim(adjustl(buf))
      last = len(s)
      do while (last > 1 .and. s(last:last) == '0')
        last = last - 1
      end do
      s = s(1:last)
      if (s(1:1) == '.') s = '0'//s
      if (s(len(s):len(s)) == '.') s = s//'0'
    end function real_text

  end subroutine print_help

end module latency_parameters
