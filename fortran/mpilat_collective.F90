!> Module mpilat_collective: collective latency one call at a time (lat_collective; docs/collective.md).
!> Part of module mpilat (fortran/mpilat.F90 re-exports it); the conventions are written there.
#include "mpilat_constants.h"
module mpilat_collective
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char, c_ptr, c_null_ptr, c_null_char, &
                                         c_loc, c_associated
  use mpi_f08, only: MPI_Comm
  use mpilat_constants
  use mpilat_types
  use mpilat_c
  use mpilat_support
  use mpilat_handle_types
  use mpilat_base
  use mpilat_handles
  use mpilat_defaults
  implicit none
  private
  public :: lat_coll_op_from_name, lat_coll_get_point, lat_coll_get_rank, lat_coll_get_samples

  ! The generated wrappers' names, and the generic names over type(MPI_Comm) and an integer handle.
#include "mpilat_collective_generics.inc"

contains

#include "mpilat_collective_f08.inc"
#include "mpilat_collective_wrappers.inc"

  !> The LAT_COLL_* value of an operation's name ("allreduce", ...).
  subroutine lat_coll_op_from_name(name, op, ierr)
    character(len=*), intent(in) :: name
    integer, intent(out) :: op
    integer, optional, intent(out) :: ierr
    integer(c_int) :: c_op, rc
    c_op = 0
    rc = lat_coll_op_from_name_c(trim(name)//c_null_char, c_op)
    op = int(c_op)
    call handle(rc, 'lat_coll_op_from_name', ierr)
  end subroutine lat_coll_op_from_name

  !> Point index (0-based, as in C: 0..summary%npoints-1).
  subroutine lat_coll_get_point(coll, index, point, ierr)
    type(lat_coll), intent(in) :: coll
    integer, intent(in) :: index
    type(lat_coll_point), intent(out) :: point
    integer, optional, intent(out) :: ierr
    call handle(lat_coll_get_point_c(coll%handle, int(index, c_int64_t), point), 'lat_coll_get_point', ierr)
  end subroutine lat_coll_get_point

  !> Rank rank's part in point index (both 0-based).
  subroutine lat_coll_get_rank(coll, index, rank, result, ierr)
    type(lat_coll), intent(in) :: coll
    integer, intent(in) :: index, rank
    type(lat_coll_rank), intent(out) :: result
    integer, optional, intent(out) :: ierr
    call handle(lat_coll_get_rank_c(coll%handle, int(index, c_int64_t), int(rank, c_int), result), &
                'lat_coll_get_rank', ierr)
  end subroutine lat_coll_get_rank

  !> The kept samples of point index (us, in time order), allocated here; on the root rank only.
  subroutine lat_coll_get_samples(coll, index, values, ierr)
    type(lat_coll), intent(in) :: coll
    integer, intent(in) :: index
    real(c_double), allocatable, target, intent(out) :: values(:)
    integer, optional, intent(out) :: ierr
    integer(c_int64_t) :: count
    integer(c_int) :: rc
    count = 0
    rc = lat_coll_get_samples_c(coll%handle, int(index, c_int64_t), 0_c_int64_t, c_null_ptr, count)
    allocate (values(count))
    if (rc == LAT_SUCCESS .and. count > 0) &
      rc = lat_coll_get_samples_c(coll%handle, int(index, c_int64_t), count, c_loc(values), count)
    call handle(rc, 'lat_coll_get_samples', ierr)
  end subroutine lat_coll_get_samples

end module mpilat_collective
