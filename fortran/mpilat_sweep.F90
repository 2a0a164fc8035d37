!> Module mpilat_sweep: the size sweep (Gropp & Lusk) and the queue-depth latency (Underwood & Brightwell).
!> Part of module mpilat (fortran/mpilat.F90 re-exports it); the conventions are written there.
#include "mpilat_constants.h"
module mpilat_sweep
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char, c_ptr, c_null_ptr, &
                                         c_null_char, c_loc, c_associated, c_f_pointer, c_size_t, &
                                         c_funptr, c_funloc
  use, intrinsic :: iso_fortran_env, only: error_unit
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
  public :: lat_sweep_run, lat_sweep_get_samples, lat_write_sweep_files

  ! The generated wrappers' names, and the generic names over type(MPI_Comm) and an integer handle.
#include "mpilat_sweep_generics.inc"

contains

#include "mpilat_sweep_f08.inc"
#include "mpilat_sweep_wrappers.inc"

  ! ---- size sweep (Gropp & Lusk) --------------------------------------------------------------------------

  !> The sweep's schedule, refinement, rerun and step detection with any measuring function (no MPI).
  subroutine lat_sweep_run(opts, measure, result, sizes, context, ierr)
    type(lat_sweep_options), intent(in) :: opts
    procedure(lat_measure_fn) :: measure
    type(lat_sweep), intent(inout) :: result
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    type(c_ptr), optional, intent(in) :: context
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: sizes_p, context_p
    integer(c_int64_t) :: n
    integer(c_int64_t), allocatable, target :: sizes_copy(:)
    integer(c_int) :: rc
    call lat_sweep_free(result)
    context_p = c_null_ptr
    call int64_arg(sizes, sizes_copy, sizes_p, n)
    if (present(context)) context_p = context
    rc = lat_sweep_run_c(opts, n, sizes_p, c_funloc(measure), context_p, result%handle)
    call handle(rc, 'lat_sweep_run', ierr)
  end subroutine lat_sweep_run

  !> The samples of point i (1-based, as lat_sweep_points numbers them), in measurement order.
  subroutine lat_sweep_get_samples(sweep, i, values_us, ierr)
    type(lat_sweep), intent(in) :: sweep
    integer, intent(in) :: i
    real(c_double), allocatable, target, intent(out) :: values_us(:)
    integer, optional, intent(out) :: ierr
    type(lat_sweep_point) :: p
    integer(c_int) :: rc
    integer(c_int64_t) :: n
    p%samples = 0
    p%rerun_samples = 0
    rc = lat_sweep_get_point_c(sweep%handle, int(i - 1, c_int64_t), p)
    n = p%samples + p%rerun_samples
    allocate (values_us(max(n, 1_c_int64_t)))
    if (rc == LAT_SUCCESS) rc = lat_sweep_get_samples_c(sweep%handle, int(i - 1, c_int64_t), n, c_loc(values_us))
    values_us = values_us(1:n)
    call handle(rc, 'lat_sweep_get_samples', ierr)
  end subroutine lat_sweep_get_samples

  !> Writes <base>.csv and .json into outdir, whole or not at all; with render <base>.png (gnuplot), with
  !> gnuplot <base>.gpl and .gcm (mpptest's -gnuplot files; givedy: the .gpl with the mean and the max, and
  !> gnuplot implied), with table_path the results table there ("-": on standard output).
  subroutine lat_write_sweep_files(outdir, base, command_line, sweep, render, gnuplot, table_path, ierr, givedy)
    character(len=*), intent(in) :: outdir, base, command_line
    type(lat_sweep), intent(in) :: sweep
    logical, intent(in) :: render
    logical, optional, intent(in) :: gnuplot
    character(len=*), optional, intent(in) :: table_path
    integer, optional, intent(out) :: ierr
    logical, optional, intent(in) :: givedy
    integer(c_int) :: rc, flags
    logical :: want_gnuplot
    flags = merge(LAT_SWEEP_FILES_PNG, 0, render)
    want_gnuplot = .false.
    if (present(gnuplot)) want_gnuplot = gnuplot
    if (present(givedy)) then
      if (givedy) then
        want_gnuplot = .true.
        flags = flags + LAT_SWEEP_FILES_GIVEDY
      end if
    end if
    if (want_gnuplot) flags = flags + LAT_SWEEP_FILES_GNUPLOT
    if (present(table_path)) then
      rc = lat_write_sweep_files_c(trim(outdir)//c_null_char, trim(base)//c_null_char, &
                                   trim(command_line)//c_null_char, sweep%handle, flags, trim(table_path)//c_null_char)
    else
      rc = lat_write_sweep_files_c(trim(outdir)//c_null_char, trim(base)//c_null_char, &
                                   trim(command_line)//c_null_char, sweep%handle, flags, c_null_char)
    end if
    call handle(rc, 'lat_write_sweep_files', ierr)
  end subroutine lat_write_sweep_files

end module mpilat_sweep
