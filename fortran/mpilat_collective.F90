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
  public :: lat_collective_check, lat_coll_op_from_name, lat_collective
  public :: lat_coll_get_point, lat_coll_get_rank, lat_coll_get_samples
  public :: lat_write_coll_files

  ! The generic names over type(MPI_Comm) and an integer handle (generated from the _int routines).
#include "mpilat_collective_generics.inc"

contains

#include "mpilat_collective_f08.inc"

  !> Checks opts and sizes as lat_collective would on nprocs ranks; ierr LAT_ERR_ARG naming the value.
  subroutine lat_collective_check(opts, nprocs, sizes, ierr)
    type(lat_collective_options), intent(in) :: opts
    integer, intent(in) :: nprocs
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: sizes_p
    integer(c_int64_t) :: n
    integer(c_int64_t), allocatable, target :: sizes_copy(:)
    call int64_arg(sizes, sizes_copy, sizes_p, n)
    call handle(lat_collective_check_c(opts, n, sizes_p, int(nprocs, c_int)), 'lat_collective_check', ierr)
  end subroutine lat_collective_check

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

  subroutine collective_int(comm, opts, coll, sizes, ierr)
    integer, intent(in) :: comm
    type(lat_collective_options), intent(in) :: opts
    type(lat_coll), intent(inout) :: coll
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: sizes_p
    integer(c_int64_t) :: n
    integer(c_int64_t), allocatable, target :: sizes_copy(:)
    call lat_coll_free(coll)
    call int64_arg(sizes, sizes_copy, sizes_p, n)
    call handle(lat_collective_c(int(comm, c_int), opts, n, sizes_p, coll%handle), 'lat_collective', ierr)
  end subroutine collective_int

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

  !> Writes outdir/<base>.txt, .json, .csv, .samples.csv and the plots (render 1: PNG), whole or not at all.
  subroutine lat_write_coll_files(outdir, base, command_line, coll, render, ierr)
    character(len=*), intent(in) :: outdir, base, command_line
    type(lat_coll), intent(in) :: coll
    integer, intent(in) :: render
    integer, optional, intent(out) :: ierr
    call handle(lat_write_coll_files_c(trim(outdir)//c_null_char, trim(base)//c_null_char, &
                                       trim(command_line)//c_null_char, coll%handle, int(render, c_int)), &
                'lat_write_coll_files', ierr)
  end subroutine lat_write_coll_files

end module mpilat_collective
