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
  public :: lat_pairs_get_matrix, lat_pairs_get_place
  public :: lat_read_pair_json
  public :: lat_write_pair_files, lat_read_mmpi_log, lat_write_pair_matrices, lat_fit_maxrate
  public :: lat_maxrate_get_model, lat_maxrate_errors
  public :: lat_nodecomm_observations, lat_read_nodecomm_table
  public :: lat_write_maxrate_files, lat_nodecomm_measure, lat_pair_matrix

  ! The generic names over type(MPI_Comm) and an integer handle (generated from the _int routines).
#include "mpilat_pairs_generics.inc"

contains

#include "mpilat_pairs_f08.inc"

  ! ---- all-pairs latency matrix (mmpi) --------------------------------------------------------------------

  !> Collective over comm: round-trip latency between every pair of ranks (docs/method.md, "Pair matrix").
  subroutine pair_matrix_int(comm, opts, pairs, ierr)
    integer, intent(in) :: comm
    type(lat_pair_options), intent(in) :: opts
    type(lat_pairs), intent(inout) :: pairs
    integer, optional, intent(out) :: ierr
    call lat_pairs_free(pairs)
    call handle(lat_pair_matrix_c(int(comm, c_int), opts, pairs%handle), 'lat_pair_matrix', ierr)
  end subroutine pair_matrix_int

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

  !> Where rank ran (any rank where the matrices are, else the calling rank only).
  subroutine lat_pairs_get_place(pairs, rank, place, ierr)
    type(lat_pairs), intent(in) :: pairs
    integer, intent(in) :: rank
    type(lat_rank_place), intent(out) :: place
    integer, optional, intent(out) :: ierr
    call handle(lat_pairs_get_place_c(pairs%handle, int(rank, c_int), place), 'lat_pairs_get_place', ierr)
  end subroutine lat_pairs_get_place

  !> Writes the mmpi log outdir/log_name and the JSON beside it, whole or not at all.
  subroutine lat_write_pair_files(outdir, log_name, command_line, pairs, ierr)
    character(len=*), intent(in) :: outdir, log_name, command_line
    type(lat_pairs), intent(in) :: pairs
    integer, optional, intent(out) :: ierr
    call handle(lat_write_pair_files_c(trim(outdir)//c_null_char, trim(log_name)//c_null_char, &
                                       trim(command_line)//c_null_char, pairs%handle), 'lat_write_pair_files', ierr)
  end subroutine lat_write_pair_files

  !> Reads an mmpi log (ours or the 2009 program's) into pairs: mean and standard deviation, hostnames.
  subroutine lat_read_mmpi_log(path, pairs, ierr)
    character(len=*), intent(in) :: path
    type(lat_pairs), intent(inout) :: pairs
    integer, optional, intent(out) :: ierr
    call lat_pairs_free(pairs)
    call handle(lat_read_mmpi_log_c(trim(path)//c_null_char, pairs%handle), 'lat_read_mmpi_log', ierr)
  end subroutine lat_read_mmpi_log

  !> Reads a pair matrix's JSON (mmpi's <log>.json) into pairs: every statistic it holds, hosts and nodes.
  subroutine lat_read_pair_json(path, pairs, ierr)
    character(len=*), intent(in) :: path
    type(lat_pairs), intent(inout) :: pairs
    integer, optional, intent(out) :: ierr
    call lat_pairs_free(pairs)
    call handle(lat_read_pair_json_c(trim(path)//c_null_char, pairs%handle), 'lat_read_pair_json', ierr)
  end subroutine lat_read_pair_json

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

  !> Fits the postal, max-rate and four-parameter models per regime to obs (no MPI; docs/method.md).
  subroutine lat_fit_maxrate(opts, obs, fit, ierr)
    type(lat_fit_options), intent(in) :: opts
    type(lat_maxrate_obs), intent(in), target, contiguous :: obs(:)
    type(lat_maxrate_fit), intent(inout) :: fit
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: p
    call lat_maxrate_free(fit)
    p = c_null_ptr
    if (size(obs) > 0) p = c_loc(obs(1))
    call handle(lat_fit_maxrate_c(opts, size(obs, kind=c_int64_t), p, fit%handle), 'lat_fit_maxrate', ierr)
  end subroutine lat_fit_maxrate

  !> Model `model` (LAT_MODEL_*) of regime `regime` (0-based).
  subroutine lat_maxrate_get_model(fit, regime, model, result, ierr)
    type(lat_maxrate_fit), intent(in) :: fit
    integer, intent(in) :: regime, model
    type(lat_model_fit), intent(out) :: result
    integer, optional, intent(out) :: ierr
    call handle(lat_maxrate_get_model_c(fit%handle, int(regime, c_int), int(model, c_int), result), &
                'lat_maxrate_get_model', ierr)
  end subroutine lat_maxrate_get_model

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

  !> Collective over comm: k = 1..K pairs between two nodes (or a node's halves); sizes optional.
  subroutine nodecomm_measure_int(comm, opts, result, sizes, ierr)
    integer, intent(in) :: comm
    type(lat_nodecomm_options), intent(in) :: opts
    type(lat_nodecomm), intent(inout) :: result
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: sp
    integer(c_int64_t) :: ns
    integer(c_int64_t), allocatable, target :: sizes_copy(:)
    call lat_nodecomm_free(result)
    call int64_arg(sizes, sizes_copy, sp, ns)
    call handle(lat_nodecomm_measure_c(int(comm, c_int), opts, ns, sp, result%handle), 'lat_nodecomm_measure', ierr)
  end subroutine nodecomm_measure_int

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

  !> Writes nodecomm.txt, _fit.txt, .csv, .json, _bw.gp, _err.gp and, when render, the PNGs into outdir.
  subroutine lat_write_maxrate_files(outdir, command_line, obs, fit, render, nodecomm, ierr)
    character(len=*), intent(in) :: outdir, command_line
    type(lat_maxrate_obs), intent(in), target, contiguous :: obs(:)
    type(lat_maxrate_fit), intent(in) :: fit
    logical, intent(in) :: render
    type(lat_nodecomm), optional, intent(in) :: nodecomm
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: np, op
    np = c_null_ptr
    if (present(nodecomm)) np = nodecomm%handle
    op = c_null_ptr
    if (size(obs) > 0) op = c_loc(obs(1))
    call handle(lat_write_maxrate_files_c(trim(outdir)//c_null_char, trim(command_line)//c_null_char, np, &
                                          size(obs, kind=c_int64_t), op, fit%handle, merge(1_c_int, 0_c_int, render)), &
                'lat_write_maxrate_files', ierr)
  end subroutine lat_write_maxrate_files

end module mpilat_pairs
