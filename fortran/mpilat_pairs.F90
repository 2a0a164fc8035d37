!> Module mpilat_pairs: the all-pairs matrix (mmpi), the nodecomm measurement and the max-rate fit.
!> Part of module mpilat (fortran/mpilat.F90 re-exports it); the conventions are written there.
#include "mpilat_constants.h"
module mpilat_pairs
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
  public :: lat_pairs_get_matrix, lat_write_pair_matrices, lat_maxrate_errors, lat_nodecomm_observations, &
            lat_read_nodecomm_table

  ! The generated wrappers' names, and the generic names over type(MPI_Comm) and an integer handle.
#include "mpilat_pairs_generics.inc"

contains

#include "mpilat_pairs_f08.inc"
#include "mpilat_pairs_wrappers.inc"

  ! ---- all-pairs latency matrix (mmpi) --------------------------------------------------------------------

  !> The N x N matrix of statistic stat (LAT_PAIR_*), allocated here: matrix(i+1, j+1) is the pair of
  !> ranks i and j (symmetric, zero diagonal). Only where summary%has_matrices is 1.
  subroutine lat_pairs_get_matrix(pairs, stat, matrix, ierr)
    type(lat_pairs), intent(in) :: pairs
    integer, intent(in) :: stat
    real(c_double), allocatable, target, intent(out) :: matrix(:, :)
    integer, optional, intent(out) :: ierr
    type(lat_pair_summary) :: s
    integer(c_int) :: rc
    rc = lat_pairs_get_summary_c(pairs%handle, s)
    if (rc /= LAT_SUCCESS) s%nprocs = 0
    allocate (matrix(s%nprocs, s%nprocs))
    if (rc == LAT_SUCCESS) rc = lat_pairs_get_matrix_c(pairs%handle, int(stat, c_int), s%nprocs * s%nprocs, &
                                                      c_loc(matrix))
    call handle(rc, 'lat_pairs_get_matrix', ierr)
  end subroutine lat_pairs_get_matrix

  !> Writes <base>_comm.dat, _var.dat, .csv, _heatmap.gp and, when render, _heatmap.png and .svg; the heat map
  !> of the median where pairs has it (mean = .true.: of the mean), on a logarithmic colour scale.
  subroutine lat_write_pair_matrices(outdir, base, pairs, render, ierr, mean)
    character(len=*), intent(in) :: outdir, base
    type(lat_pairs), intent(in) :: pairs
    logical, intent(in) :: render
    integer, optional, intent(out) :: ierr
    logical, optional, intent(in) :: mean
    integer(c_int) :: flags
    flags = merge(int(LAT_PAIR_FILES_PNG, c_int), 0_c_int, render)
    if (present(mean)) then
      if (mean) flags = ior(flags, int(LAT_PAIR_FILES_MEAN, c_int))
    end if
    call handle(lat_write_pair_matrices_c(trim(outdir)//c_null_char, trim(base)//c_null_char, pairs%handle, flags), &
                'lat_write_pair_matrices', ierr)
  end subroutine lat_write_pair_matrices

  ! ---- the max-rate model and the nodecomm measurement --------------------------------------------------

  !> The relative error of every observation under `model`, in an array allocated here.
  subroutine lat_maxrate_errors(fit, model, rel_err, ierr)
    type(lat_maxrate_fit), intent(in) :: fit
    integer, intent(in) :: model
    real(c_double), allocatable, target, intent(out) :: rel_err(:)
    integer, optional, intent(out) :: ierr
    type(lat_fit_summary) :: s
    integer(c_int) :: rc
    rc = lat_maxrate_get_summary_c(fit%handle, s)
    if (rc /= LAT_SUCCESS) s%nobs = 0
    allocate (rel_err(max(s%nobs, 1_c_int64_t)))
    if (rc == LAT_SUCCESS) rc = lat_maxrate_get_errors_c(fit%handle, int(model, c_int), s%nobs, c_loc(rel_err))
    call handle(rc, 'lat_maxrate_errors', ierr)
  end subroutine lat_maxrate_errors

  !> The observations for lat_fit_maxrate, in an array allocated here.
  subroutine lat_nodecomm_observations(nodecomm, obs, ierr)
    type(lat_nodecomm), intent(in) :: nodecomm
    type(lat_maxrate_obs), allocatable, target, intent(out) :: obs(:)
    integer, optional, intent(out) :: ierr
    type(lat_nodecomm_summary) :: s
    type(lat_maxrate_obs), allocatable, target :: all(:)
    integer(c_int) :: rc
    integer(c_int64_t) :: n
    rc = lat_nodecomm_get_summary_c(nodecomm%handle, s)
    if (rc /= LAT_SUCCESS) s%npoints = 0
    allocate (all(max(s%npoints, 1_c_int64_t)))
    n = 0
    if (rc == LAT_SUCCESS) rc = lat_nodecomm_observations_c(nodecomm%handle, s%npoints, c_loc(all), n)
    obs = all(1:n)
    call handle(rc, 'lat_nodecomm_observations', ierr)
  end subroutine lat_nodecomm_observations

  !> Reads a nodecomm table (len, then a time per k) into obs, allocated here; times times us_per_unit.
  !> missing, when present, receives the count of cells "-" (points not measured) skipped.
  subroutine lat_read_nodecomm_table(path, us_per_unit, obs, missing, ierr)
    character(len=*), intent(in) :: path
    real(c_double), intent(in) :: us_per_unit
    type(lat_maxrate_obs), allocatable, target, intent(out) :: obs(:)
    integer(c_int64_t), optional, intent(out) :: missing
    integer, optional, intent(out) :: ierr
    integer(c_int) :: rc
    integer(c_int64_t) :: n, skipped
    n = 0
    skipped = 0
    rc = lat_read_nodecomm_table_c(trim(path)//c_null_char, us_per_unit, 0_c_int64_t, c_null_ptr, n, skipped)
    allocate (obs(n))
    if (rc == LAT_SUCCESS .and. n > 0) &
      rc = lat_read_nodecomm_table_c(trim(path)//c_null_char, us_per_unit, n, c_loc(obs), n, skipped)
    if (present(missing)) missing = skipped
    call handle(rc, 'lat_read_nodecomm_table', ierr)
  end subroutine lat_read_nodecomm_table

end module mpilat_pairs
