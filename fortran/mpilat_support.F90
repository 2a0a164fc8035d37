!> Module mpilat_support: what every wrapper of module mpilat uses and no caller sees: C strings, the error
!> convention (an optional ierr, or a message and error stop), optional arrays and tables for C. Module mpilat
!> does not re-export it.
#include "mpilat_constants.h"
module mpilat_support
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char, c_ptr, c_null_ptr, c_loc, &
                                         c_f_pointer, c_size_t, c_associated
  use, intrinsic :: iso_fortran_env, only: error_unit
  use mpilat_constants
  use mpilat_handle_types
  use mpilat_c
  implicit none
  private
  public :: from_c_ptr, handle, int64_arg, double_arg, hist_arg

contains

  !> A Fortran string from a NUL-terminated C string.
  function from_c_ptr(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate (character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function from_c_ptr

  !> Hands rc to ierr, or stops the program with the message when the caller gave no ierr.
  subroutine handle(rc, where, ierr)
    integer(c_int), intent(in) :: rc
    character(len=*), intent(in) :: where
    integer, optional, intent(out) :: ierr
    if (present(ierr)) then
      ierr = int(rc)
      return
    end if
    if (rc == LAT_SUCCESS .or. rc == LAT_ERR_INTERRUPTED) return
    write (error_unit, '(a)') 'mpilat: '//where//': '//from_c_ptr(lat_strerror_c(rc))//': '//from_c_ptr(lat_last_error_message_c())
    error stop 1
  end subroutine handle

  ! int64_arg and double_arg: an optional array argument for C, one body for each type (fortran/array_arg.inc).
#define ARRAY_ARG int64_arg
#define ARRAY_TYPE integer(c_int64_t)
#include "array_arg.inc"
#undef ARRAY_ARG
#undef ARRAY_TYPE
#define ARRAY_ARG double_arg
#define ARRAY_TYPE real(c_double)
#include "array_arg.inc"
#undef ARRAY_ARG
#undef ARRAY_TYPE

  function hist_arg(hist, want) result(p)
    type(lat_histogram), intent(inout), target :: hist
    logical, intent(in) :: want
    type(c_ptr) :: p
    p = c_null_ptr
    if (want) p = c_loc(hist%handle)
  end function hist_arg

end module mpilat_support
