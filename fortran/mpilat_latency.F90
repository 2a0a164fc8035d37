!> Module mpilat_latency: the timer calibration, the checks, the ping-pong statistics, their reports, the
!> Part of module mpilat (fortran/mpilat.F90 re-exports it); the conventions are written there.
!> npp study and the comparisons.
#include "mpilat_constants.h"
module mpilat_latency
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
  public :: lat_write_report_files, lat_compare_check
  public :: lat_timer_check, lat_pingpong_check, lat_sweep_check, lat_queue_check
  public :: lat_pair_check, lat_nodecomm_check, lat_fit_check, lat_write_latency_files
  public :: lat_write_latency_plots, lat_npp_study_check, lat_write_npp_study_files, lat_compare_distributions
  public :: lat_compare_launches, lat_quantiles_compute, lat_check_output_dir, lat_check_output_file, lat_check_outputs, &
            lat_check_output_apart, &
            lat_check_input_file, lat_read_input, lat_check_json_memory, lat_calibrate_timer, lat_pingpong_stats
  public :: lat_npp_study

  ! The generic names over type(MPI_Comm) and an integer handle (generated from the _int routines).
#include "mpilat_latency_generics.inc"

contains

#include "mpilat_latency_f08.inc"

  ! ---- timer calibration ---------------------------------------------------------------------------------

  !> Collective over comm: resolution and minimum overhead of a clock (Luecke et al. section 3.1).
  !> hist, when present, receives the frequency table of the differences.
  subroutine calibrate_timer_int(comm, opts, result, hist, ierr)
    integer, intent(in) :: comm
    type(lat_timer_options), intent(in) :: opts
    type(lat_timer_result), intent(out) :: result
    type(lat_histogram), optional, intent(inout), target :: hist
    integer, optional, intent(out) :: ierr
    type(lat_histogram), target :: none
    integer(c_int) :: rc
    if (present(hist)) then
      call lat_histogram_free(hist)
      rc = lat_calibrate_timer_c(int(comm, c_int), opts, result, hist_arg(hist, .true.))
    else
      rc = lat_calibrate_timer_c(int(comm, c_int), opts, result, hist_arg(none, .false.))
    end if
    call handle(rc, 'lat_calibrate_timer', ierr)
  end subroutine calibrate_timer_int

  ! ---- ping-pong statistics ------------------------------------------------------------------------------
  !> Checks opts as lat_calibrate_timer would on nprocs processes; not collective. ierr: LAT_SUCCESS, or
  !> LAT_ERR_ARG with lat_last_error_message() naming the option and its value.
  subroutine lat_timer_check(opts, nprocs, ierr)
    type(lat_timer_options), intent(in) :: opts
    integer, intent(in) :: nprocs
    integer, optional, intent(out) :: ierr
    call handle(lat_timer_check_c(opts, int(nprocs, c_int)), 'lat_timer_check', ierr)
  end subroutine lat_timer_check

  !> Checks opts (and timer, the calibration to be passed) as lat_pingpong_stats would on nprocs processes;
  !> not collective. ierr: LAT_SUCCESS, or LAT_ERR_ARG with lat_last_error_message() naming the option and
  !> its value ("ntrial must be >= 1, got 0").
  subroutine lat_pingpong_check(opts, nprocs, timer, ierr)
    type(lat_pingpong_options), intent(in) :: opts
    integer, intent(in) :: nprocs
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: tp
    tp = c_null_ptr
    if (present(timer)) tp = c_loc(timer)
    call handle(lat_pingpong_check_c(opts, int(nprocs, c_int), tp), 'lat_pingpong_check', ierr)
  end subroutine lat_pingpong_check

  !> Checks the arguments as lat_size_sweep would on nprocs processes (nprocs 0: as lat_sweep_run);
  !> not collective.
  subroutine lat_sweep_check(opts, nprocs, sizes, timer, ierr)
    type(lat_sweep_options), intent(in) :: opts
    integer, intent(in) :: nprocs
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: sizes_p, tp
    integer(c_int64_t) :: n
    integer(c_int64_t), allocatable, target :: sizes_copy(:)
    tp = c_null_ptr
    call int64_arg(sizes, sizes_copy, sizes_p, n)
    if (present(timer)) tp = c_loc(timer)
    call handle(lat_sweep_check_c(opts, int(nprocs, c_int), n, sizes_p, tp), 'lat_sweep_check', ierr)
  end subroutine lat_sweep_check

  !> Checks the arguments as lat_queue_sweep would on nprocs processes; not collective.
  subroutine lat_queue_check(opts, nprocs, lengths, fractions_percent, sizes, timer, ierr)
    type(lat_queue_options), intent(in) :: opts
    integer, intent(in) :: nprocs
    integer(c_int64_t), optional, intent(in) :: lengths(:), sizes(:)
    real(c_double), optional, intent(in) :: fractions_percent(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: lp, fp, sp, tp
    integer(c_int64_t) :: nl, nf, ns
    integer(c_int64_t), allocatable, target :: lengths_copy(:), sizes_copy(:)
    real(c_double), allocatable, target :: fractions_copy(:)
    tp = c_null_ptr
    call int64_arg(lengths, lengths_copy, lp, nl)
    call double_arg(fractions_percent, fractions_copy, fp, nf)
    call int64_arg(sizes, sizes_copy, sp, ns)
    if (present(timer)) tp = c_loc(timer)
    call handle(lat_queue_check_c(opts, int(nprocs, c_int), nl, lp, nf, fp, ns, sp, tp), 'lat_queue_check', ierr)
  end subroutine lat_queue_check

  !> Checks opts as lat_pair_matrix would on nprocs processes; not collective.
  subroutine lat_pair_check(opts, nprocs, ierr)
    type(lat_pair_options), intent(in) :: opts
    integer, intent(in) :: nprocs
    integer, optional, intent(out) :: ierr
    call handle(lat_pair_check_c(opts, int(nprocs, c_int)), 'lat_pair_check', ierr)
  end subroutine lat_pair_check

  !> Checks opts and the size list as lat_nodecomm_measure would; not collective.
  subroutine lat_nodecomm_check(opts, sizes, ierr)
    type(lat_nodecomm_options), intent(in) :: opts
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: sizes_p
    integer(c_int64_t) :: n
    integer(c_int64_t), allocatable, target :: sizes_copy(:)
    call int64_arg(sizes, sizes_copy, sizes_p, n)
    call handle(lat_nodecomm_check_c(opts, n, sizes_p), 'lat_nodecomm_check', ierr)
  end subroutine lat_nodecomm_check

  !> Checks opts as lat_fit_maxrate would.
  subroutine lat_fit_check(opts, ierr)
    type(lat_fit_options), intent(in) :: opts
    integer, optional, intent(out) :: ierr
    call handle(lat_fit_check_c(opts), 'lat_fit_check', ierr)
  end subroutine lat_fit_check

  !> Collective over comm: ping-pong statistics between opts%source and opts%dest (sections 3.2-3.4).
  !> timer: a calibration of the source's clock; absent: calibrated here with opts%nr pairs.
  !> hist, when present, receives the frequency table of the measured times.
  subroutine pingpong_stats_int(comm, opts, result, timer, hist, ierr)
    integer, intent(in) :: comm
    type(lat_pingpong_options), intent(in) :: opts
    type(lat_pingpong_result), intent(out) :: result
    type(lat_timer_result), optional, intent(in), target :: timer
    type(lat_histogram), optional, intent(inout), target :: hist
    integer, optional, intent(out) :: ierr
    type(lat_histogram), target :: none
    type(c_ptr) :: timer_p
    integer(c_int) :: rc
    timer_p = c_null_ptr
    if (present(timer)) timer_p = c_loc(timer)
    if (present(hist)) then
      call lat_histogram_free(hist)
      rc = lat_pingpong_stats_c(int(comm, c_int), opts, timer_p, result, hist_arg(hist, .true.))
    else
      rc = lat_pingpong_stats_c(int(comm, c_int), opts, timer_p, result, hist_arg(none, .false.))
    end if
    call handle(rc, 'lat_pingpong_stats', ierr)
  end subroutine pingpong_stats_int

  ! ---- reports -------------------------------------------------------------------------------------------

  !> Writes latency.output, latency.summary.output and latency.json into outdir, whole or not at all.
  subroutine lat_write_latency_files(outdir, command_line, program_seconds, timer, timer_hist, pp, pp_hist, ierr)
    character(len=*), intent(in) :: outdir, command_line
    real(c_double), intent(in) :: program_seconds
    type(lat_timer_result), intent(in), target :: timer
    type(lat_histogram), intent(in) :: timer_hist
    type(lat_pingpong_result), intent(in) :: pp
    type(lat_histogram), intent(in) :: pp_hist
    integer, optional, intent(out) :: ierr
    integer(c_int) :: rc
    rc = lat_write_latency_files_c(trim(outdir)//c_null_char, trim(command_line)//c_null_char, &
                                   program_seconds, c_loc(timer), timer_hist%handle, pp, pp_hist%handle)
    call handle(rc, 'lat_write_latency_files', ierr)
  end subroutine lat_write_latency_files

  !> Draws latency.png and latency.svg (distribution and run over time) into outdir with gnuplot.
  subroutine lat_write_latency_plots(outdir, pp, pp_hist, ierr)
    character(len=*), intent(in) :: outdir
    type(lat_pingpong_result), intent(in) :: pp
    type(lat_histogram), intent(in) :: pp_hist
    integer, optional, intent(out) :: ierr
    call handle(lat_write_latency_plots_c(trim(outdir)//c_null_char, pp, pp_hist%handle), 'lat_write_latency_plots', ierr)
  end subroutine lat_write_latency_plots

  !> Collective over comm: the npp study (values: npp, or res_npp when by_res_npp), a row per value.
  subroutine npp_study_int(comm, opts, values, by_res_npp, result, rows, timer, ierr)
    integer, intent(in) :: comm
    type(lat_pingpong_options), intent(in) :: opts
    integer(c_int64_t), intent(in) :: values(:)
    logical, intent(in) :: by_res_npp
    type(lat_pingpong_result), intent(out) :: result
    type(lat_npp_study_row), allocatable, intent(out) :: rows(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    integer(c_int64_t), allocatable, target :: copy(:)
    type(lat_npp_study_row), allocatable, target :: room(:)
    type(c_ptr) :: timer_p, values_p
    integer(c_int64_t) :: n
    timer_p = c_null_ptr
    if (present(timer)) timer_p = c_loc(timer)
    call int64_arg(values, copy, values_p, n)
    allocate (room(max(n, 1_c_int64_t)))  ! never empty for C (an empty list is refused there, with its count)
    call handle(lat_npp_study_c(int(comm, c_int), opts, timer_p, int(n, c_int), values_p, &
                                merge(1_c_int, 0_c_int, by_res_npp), result, c_loc(room)), 'lat_npp_study', ierr)
    rows = room(1:n)
  end subroutine npp_study_int

  !> Checks an npp study's options and values as lat_npp_study would. Not collective.
  subroutine lat_npp_study_check(opts, nprocs, values, by_res_npp, ierr)
    type(lat_pingpong_options), intent(in) :: opts
    integer, intent(in) :: nprocs
    integer(c_int64_t), intent(in) :: values(:)
    logical, intent(in) :: by_res_npp
    integer, optional, intent(out) :: ierr
    integer(c_int64_t), allocatable, target :: copy(:)
    type(c_ptr) :: values_p
    integer(c_int64_t) :: n
    call int64_arg(values, copy, values_p, n)
    call handle(lat_npp_study_check_c(opts, int(nprocs, c_int), int(n, c_int), values_p, &
                                      merge(1_c_int, 0_c_int, by_res_npp)), 'lat_npp_study_check', ierr)
  end subroutine lat_npp_study_check

  !> Writes latency.npp.txt, .csv, .json and (render) .png and .svg into outdir.
  subroutine lat_write_npp_study_files(outdir, command_line, pp, rows, render, ierr)
    character(len=*), intent(in) :: outdir, command_line
    type(lat_pingpong_result), intent(in) :: pp
    type(lat_npp_study_row), intent(in) :: rows(:)
    logical, intent(in) :: render
    integer, optional, intent(out) :: ierr
    type(lat_npp_study_row), allocatable, target :: copy(:)
    allocate (copy(max(size(rows), 1)))  ! never empty for C: no rows is refused there, with its count
    copy(1:size(rows)) = rows
    call handle(lat_write_npp_study_files_c(trim(outdir)//c_null_char, trim(command_line)//c_null_char, pp, &
                                            size(rows, kind=c_int), c_loc(copy), merge(1_c_int, 0_c_int, render)), &
                'lat_write_npp_study_files', ierr)
  end subroutine lat_write_npp_study_files

  !> Checks opts as the comparisons would. Not collective. ierr: LAT_SUCCESS, or LAT_ERR_ARG with
  !> lat_last_error_message() naming the option and its value.
  subroutine lat_compare_check(opts, ierr)
    type(lat_compare_options), intent(in) :: opts
    integer, optional, intent(out) :: ierr
    call handle(lat_compare_check_c(opts), 'lat_compare_check', ierr)
  end subroutine lat_compare_check

  !> Compares the q-quantile (0.5: the median) of two sample sets, or frequency tables with counts: the
  !> ratio B/A with a distribution-free interval over the trials and the verdict (include/mpilat.h).
  subroutine lat_compare_distributions(a_values, b_values, q, result, a_counts, b_counts, opts, ierr)
    real(c_double), intent(in) :: a_values(:), b_values(:)
    real(c_double), intent(in) :: q
    type(lat_compare_result), intent(out) :: result
    integer(c_int64_t), optional, intent(in) :: a_counts(:), b_counts(:)
    type(lat_compare_options), optional, intent(in) :: opts
    integer, optional, intent(out) :: ierr
    type(lat_compare_options) :: o
    real(c_double), allocatable, target :: av(:), bv(:)
    integer(c_int64_t), allocatable, target :: ac(:), bc(:)
    type(c_ptr) :: avp, bvp, acp, bcp
    integer(c_int64_t) :: na, nb, nac, nbc
    call lat_compare_defaults(o)
    if (present(opts)) o = opts
    call double_arg(a_values, av, avp, na)
    call double_arg(b_values, bv, bvp, nb)
    call int64_arg(a_counts, ac, acp, nac)
    call int64_arg(b_counts, bc, bcp, nbc)
    if ((present(a_counts) .and. nac /= na) .or. (present(b_counts) .and. nbc /= nb)) then
      call handle(LAT_ERR_ARG, 'lat_compare_distributions: a_counts and b_counts must have the sizes of their values', ierr)
      return
    end if
    call handle(lat_compare_distributions_c(na, avp, acp, nb, bvp, bcp, q, o, result), 'lat_compare_distributions', ierr)
  end subroutine lat_compare_distributions

  !> Compares two groups of launch values (at least 3 each): Hodges-Lehmann ratio, Mann-Whitney interval.
  subroutine lat_compare_launches(a, b, result, opts, ierr)
    real(c_double), intent(in) :: a(:), b(:)
    type(lat_compare_result), intent(out) :: result
    type(lat_compare_options), optional, intent(in) :: opts
    integer, optional, intent(out) :: ierr
    type(lat_compare_options) :: o
    real(c_double), allocatable, target :: av(:), bv(:)
    type(c_ptr) :: ap, bp
    integer(c_int64_t) :: na, nb
    call lat_compare_defaults(o)
    if (present(opts)) o = opts
    call double_arg(a, av, ap, na)
    call double_arg(b, bv, bp, nb)
    call handle(lat_compare_launches_c(na, ap, nb, bp, o, result), 'lat_compare_launches', ierr)
  end subroutine lat_compare_launches

  !> Percentiles and their 95 % intervals of values_us, as the measurements compute them.
  subroutine lat_quantiles_compute(values_us, q, ierr)
    real(c_double), intent(in) :: values_us(:)
    type(lat_quantiles), intent(out) :: q
    integer, optional, intent(out) :: ierr
    real(c_double), allocatable, target :: copy(:)
    type(c_ptr) :: p
    integer(c_int64_t) :: n
    call double_arg(values_us, copy, p, n)
    call handle(lat_quantiles_compute_c(n, p, q), 'lat_quantiles_compute', ierr)
  end subroutine lat_quantiles_compute

  !> Checks that files can be created in outdir.
  subroutine lat_check_output_dir(outdir, ierr)
    character(len=*), intent(in) :: outdir
    integer, optional, intent(out) :: ierr
    integer(c_int) :: rc
    rc = lat_check_output_dir_c(trim(outdir)//c_null_char)
    call handle(rc, 'lat_check_output_dir', ierr)
  end subroutine lat_check_output_dir

  !> Checks that a file may be written: absent, or a regular file that is not an input of this process.
  subroutine lat_check_output_file(path, ierr)
    character(len=*), intent(in) :: path
    integer, optional, intent(out) :: ierr
    call handle(lat_check_output_file_c(trim(path)//c_null_char), 'lat_check_output_file', ierr)
  end subroutine lat_check_output_file

  !> Checks every file a capability's writer may write into outdir ('latency', 'npp_study', ...; base: the
  !> writer's base name, or '' for the kinds with fixed names), before anything is measured.
  subroutine lat_check_outputs(kind, outdir, base, ierr)
    character(len=*), intent(in) :: kind, outdir, base
    integer, optional, intent(out) :: ierr
    call handle(lat_check_outputs_c(trim(kind)//c_null_char, trim(outdir)//c_null_char, trim(base)//c_null_char), &
                'lat_check_outputs', ierr)
  end subroutine lat_check_outputs

  !> Checks a file written beside a writer's (path) against every file the writer of kind may write into
  !> outdir, under any spelling, and by lat_check_output_file's rule.
  subroutine lat_check_output_apart(kind, outdir, base, path, ierr)
    character(len=*), intent(in) :: kind, outdir, base, path
    integer, optional, intent(out) :: ierr
    call handle(lat_check_output_apart_c(trim(kind)//c_null_char, trim(outdir)//c_null_char, trim(base)//c_null_char, &
                                         trim(path)//c_null_char), 'lat_check_output_apart', ierr)
  end subroutine lat_check_output_apart

  !> Checks that path is an input the readers take (a regular file of at most lat_max_input_bytes) and
  !> records it as an input, which no output of this process may replace.
  subroutine lat_check_input_file(path, ierr)
    character(len=*), intent(in) :: path
    integer, optional, intent(out) :: ierr
    call handle(lat_check_input_file_c(trim(path)//c_null_char), 'lat_check_input_file', ierr)
  end subroutine lat_check_input_file

  !> The bytes of path, read once by the readers' rule (lat_read_input: a regular file, checked again on what
  !> was opened, bounded by the bytes read), into bytes, allocated here (empty on an error).
  subroutine lat_read_input(path, bytes, ierr)
    character(len=*), intent(in) :: path
    character(len=:), allocatable, intent(out) :: bytes
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: input
    integer(c_int64_t) :: nbytes
    integer(c_int) :: rc, rc_free
    input = c_null_ptr
    nbytes = 0
    rc = lat_read_input_c(trim(path)//c_null_char, input)
    if (rc == LAT_SUCCESS) rc = lat_input_size_c(input, nbytes)
    if (rc /= LAT_SUCCESS) nbytes = 0
    allocate (character(len=nbytes) :: bytes)
    if (rc == LAT_SUCCESS .and. nbytes > 0) rc = lat_input_get_c(input, nbytes, bytes)
    if (rc /= LAT_SUCCESS) bytes = ''
    if (c_associated(input)) rc_free = lat_input_free_c(input)
    call handle(rc, 'lat_read_input', ierr)
  end subroutine lat_read_input

  !> Whether parsing nbytes of JSON fits the process's memory limit (ulimit -v, -d): LAT_ERR_NOMEM naming
  !> name otherwise (lat_check_json_memory).
  subroutine lat_check_json_memory(nbytes, name, ierr)
    integer(c_int64_t), intent(in) :: nbytes
    character(len=*), intent(in) :: name
    integer, optional, intent(out) :: ierr
    call handle(lat_check_json_memory_c(nbytes, trim(name)//c_null_char), 'lat_check_json_memory', ierr)
  end subroutine lat_check_json_memory

  !> Writes text files into outdir, whole or not at all: names(i) (a plain file name) holding contents(i),
  !> each without its trailing blanks; with render, every name ending in ".gp" (a gnuplot script) is also
  !> drawn as .png and .svg. names and contents must be of one length (else LAT_ERR_ARG). Not collective.
  subroutine lat_write_report_files(outdir, names, contents, render, ierr)
    character(len=*), intent(in) :: outdir, names(:), contents(:)
    logical, intent(in) :: render
    integer, optional, intent(out) :: ierr
    character(kind=c_char), allocatable, target :: name_chars(:), content_chars(:)
    type(c_ptr), allocatable, target :: name_ptrs(:), content_ptrs(:)
    integer(c_int) :: nfiles
    nfiles = int(size(names), c_int)
    if (size(contents) /= size(names)) nfiles = -1  ! C refuses it: "nfiles must be >= 1, got -1"
    call pack_strings(names, name_chars, name_ptrs)
    call pack_strings(contents, content_chars, content_ptrs)
    call handle(lat_write_report_files_c(trim(outdir)//c_null_char, nfiles, c_loc(name_ptrs), c_loc(content_ptrs), &
                                         merge(1_c_int, 0_c_int, render)), 'lat_write_report_files', ierr)
  end subroutine lat_write_report_files

  !> The strings, trimmed and NUL-terminated one after another in chars, and the address of each in ptrs.
  subroutine pack_strings(strings, chars, ptrs)
    character(len=*), intent(in) :: strings(:)
    character(kind=c_char), allocatable, target, intent(out) :: chars(:)
    type(c_ptr), allocatable, intent(out) :: ptrs(:)
    integer :: i, j, at
    allocate (chars(sum(len_trim(strings)) + size(strings) + 1), ptrs(max(1, size(strings))))
    at = 1
    do i = 1, size(strings)
      ptrs(i) = c_loc(chars(at))
      do j = 1, len_trim(strings(i))
        chars(at) = strings(i)(j:j)
        at = at + 1
      end do
      chars(at) = c_null_char
      at = at + 1
    end do
  end subroutine pack_strings

end module mpilat_latency
