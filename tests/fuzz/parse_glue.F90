!> parse_glue: the fuzz targets' way into module latency_parameters: bytes in, arguments split at NUL
!> and newline, parsed for a job of 4 processes. The verdict is thrown away; only how it ends matters.
subroutine fuzz_parse_latency(bytes, n) bind(C, name='fuzz_parse_latency')
  use, intrinsic :: iso_c_binding, only: c_char, c_size_t
  use mpilat, only: lat_pingpong_options
  use latency_parameters, only: argument, max_path, parse_latency_arguments, latency_extras
  implicit none
  integer(c_size_t), value :: n
  character(kind=c_char), intent(in) :: bytes(n)
  type(argument), allocatable :: args(:)
  type(lat_pingpong_options) :: opts
  character(len=max_path) :: outdir
  integer :: status, count, i, start
  character(len=1024) :: message
  type(latency_extras) :: extras

  count = 1
  do i = 1, int(n)
    if (is_separator(bytes(i))) count = count + 1
  end do
  allocate (args(count))
  count = 0
  start = 1
  do i = 1, int(n) + 1
    if (i <= n) then
      if (.not. is_separator(bytes(i))) cycle
    end if
    count = count + 1
    args(count)%text = chars(start, i - 1)
    start = i + 1
  end do
  call parse_latency_arguments(args, 4, .false., opts, outdir, status, message, extras)

contains

  logical function is_separator(c)
    character(kind=c_char), intent(in) :: c
    is_separator = c == achar(0) .or. c == achar(10)
  end function is_separator

  function chars(first, last) result(s)
    integer, intent(in) :: first, last
    character(len=:), allocatable :: s
    integer :: k
    allocate (character(len=max(0, last - first + 1)) :: s)
    do k = first, last
      s(k - first + 1:k - first + 1) = bytes(k)
    end do
  end function chars

end subroutine fuzz_parse_latency
