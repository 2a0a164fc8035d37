!> Module mpilat_base: errors and versions, timers, frequency tables and statistics, the measuring function's
!> interface. Part of module mpilat (fortran/mpilat.F90 re-exports it); the conventions are written there.
#include "mpilat_constants.h"
module mpilat_base
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char, c_ptr, c_null_ptr, &
                                         c_null_char, c_loc, c_associated, c_f_pointer, c_size_t, &
                                         c_funptr, c_funloc
  use, intrinsic :: iso_fortran_env, only: error_unit
  use mpi_f08, only: MPI_Comm
  use mpilat_constants
  use mpilat_types
  use mpilat_handle_types
  use mpilat_c
  use mpilat_support
  implicit none
  private
  public :: lat_timer_available, lat_string, lat_strerror, lat_last_error_message, lat_get_api_version, lat_get_version
  public :: lat_request_stop, lat_clear_stop, lat_timer_name, lat_timer_names, lat_timer_from_name, lat_histogram_get
  public :: lat_stats_compute, lat_npp_rule
  public :: lat_measure_fn

  !> A measuring function for lat_sweep_run: one sample of size, time per operation in time_us; return
  !> LAT_SUCCESS, or an error code that ends the sweep.
  abstract interface
    function lat_measure_fn(size, context, time_us) bind(C) result(rc)
      import :: c_int, c_int64_t, c_ptr, c_double
      integer(c_int64_t), value :: size
      type(c_ptr), value :: context
      real(c_double), intent(out) :: time_us
      integer(c_int) :: rc
    end function lat_measure_fn
  end interface

contains

  ! ---- helpers -------------------------------------------------------------------------------------------

  !> A Fortran string from a NUL-terminated character array of a result (e.g. source_host).
  function lat_string(chars) result(s)
    character(kind=c_char), intent(in) :: chars(:)
    character(len=:), allocatable :: s
    integer :: i, n
    n = 0
    do i = 1, size(chars)
      if (chars(i) == c_null_char) exit
      n = i
    end do
    allocate (character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function lat_string

  ! ---- errors and versions -------------------------------------------------------------------------------

  !> A description of an error code.
  function lat_strerror(code) result(s)
    integer, intent(in) :: code
    character(len=:), allocatable :: s
    s = from_c_ptr(lat_strerror_c(int(code, c_int)))
  end function lat_strerror

  !> The detail of the last error on this thread ("ntrial must be >= 1, got 0").
  function lat_last_error_message() result(s)
    character(len=:), allocatable :: s
    s = from_c_ptr(lat_last_error_message_c())
  end function lat_last_error_message

  !> The API version of the linked library; compare with LAT_API_VERSION.
  integer function lat_get_api_version()
    lat_get_api_version = int(lat_get_api_version_c())
  end function lat_get_api_version

  subroutine lat_get_version(major, minor, patch)
    integer, intent(out) :: major, minor, patch
    integer(c_int) :: a, b, c, rc
    rc = lat_get_version_c(a, b, c)
    major = int(a)
    minor = int(b)
    patch = int(c)
  end subroutine lat_get_version

  !> Asks a running measurement to stop at the next safe point (callable from a signal handler).
  subroutine lat_request_stop()
    integer(c_int) :: rc
    rc = lat_request_stop_c()
  end subroutine lat_request_stop

  subroutine lat_clear_stop()
    integer(c_int) :: rc
    rc = lat_clear_stop_c()
  end subroutine lat_clear_stop

  ! ---- timers --------------------------------------------------------------------------------------------

  logical function lat_timer_available(timer)
    integer, intent(in) :: timer
    integer(c_int) :: available, rc
    rc = lat_timer_available_c(int(timer, c_int), available)
    lat_timer_available = rc == LAT_SUCCESS .and. available == 1
  end function lat_timer_available

  function lat_timer_name(timer) result(s)
    integer, intent(in) :: timer
    character(len=:), allocatable :: s
    s = from_c_ptr(lat_timer_name_c(int(timer, c_int)))
  end function lat_timer_name

  !> Every timer kind's name, as a message lists them: "mpi_wtime, monotonic_raw or tsc".
  function lat_timer_names() result(s)
    character(len=:), allocatable :: s
    s = from_c_ptr(lat_timer_names_c())
  end function lat_timer_names

  !> "mpi_wtime", "monotonic_raw" or "tsc" to a LAT_TIMER_* value.
  subroutine lat_timer_from_name(name, timer, ierr)
    character(len=*), intent(in) :: name
    integer, intent(out) :: timer
    integer, optional, intent(out) :: ierr
    integer(c_int) :: t, rc
    t = -1
    rc = lat_timer_from_name_c(trim(name)//c_null_char, t)
    timer = int(t)
    call handle(rc, 'lat_timer_from_name', ierr)
  end subroutine lat_timer_from_name

  ! ---- frequency tables ----------------------------------------------------------------------------------

  !> The distinct values (microseconds, ascending) and their counts, in arrays allocated here.
  subroutine lat_histogram_get(hist, values_us, counts, ierr)
    type(lat_histogram), intent(in) :: hist
    real(c_double), allocatable, target, intent(out) :: values_us(:)
    integer(c_int64_t), allocatable, target, intent(out) :: counts(:)
    integer, optional, intent(out) :: ierr
    integer(c_int64_t) :: n
    integer(c_int) :: rc
    n = 0
    rc = lat_histogram_size_c(hist%handle, n)
    allocate (values_us(n), counts(n))
    if (rc == LAT_SUCCESS .and. n > 0) rc = lat_histogram_get_c(hist%handle, n, c_loc(values_us), c_loc(counts))
    call handle(rc, 'lat_histogram_get', ierr)
  end subroutine lat_histogram_get

  ! ---- statistics and the npp rule (not collective) ------------------------------------------------------

  !> Statistics of values_us for a message of bytes bytes, with the definitions of include/mpilat.h.
  subroutine lat_stats_compute(values_us, bytes, stats, ierr)
    real(c_double), intent(in) :: values_us(:)
    integer(c_int64_t), intent(in) :: bytes
    type(lat_stats), intent(out) :: stats
    integer, optional, intent(out) :: ierr
    real(c_double), allocatable, target :: copy(:)
    type(c_ptr) :: p
    integer(c_int64_t) :: n
    call double_arg(values_us, copy, p, n)
    call handle(lat_stats_compute_c(n, p, bytes, stats), 'lat_stats_compute', ierr)
  end subroutine lat_stats_compute

  !> npp = nint(max(1, res_npp * res_timing / median_ppt)).
  subroutine lat_npp_rule(res_npp, res_timing_us, median_ppt_us, npp, ierr)
    integer(c_int64_t), intent(in) :: res_npp
    real(c_double), intent(in) :: res_timing_us, median_ppt_us
    integer(c_int64_t), intent(out) :: npp
    integer, optional, intent(out) :: ierr
    integer(c_int) :: rc
    npp = 0
    rc = lat_npp_rule_c(res_npp, res_timing_us, median_ppt_us, npp)
    call handle(rc, 'lat_npp_rule', ierr)
  end subroutine lat_npp_rule

end module mpilat_base
