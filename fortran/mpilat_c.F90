!> Module mpilat_c: the bind(C) interfaces of every function of include/mpilat.h, named <function>_c
!> (communicator functions reach C through comm_f2c.c as lat_f_<name>, functions of an extensible struct
!> through sized_glue.c, which passes this release's struct sizes). Only the wrapper modules use it;
!> module mpilat does not re-export it.
#include "mpilat_constants.h"
module mpilat_c
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char, c_ptr, c_null_ptr, &
                                         c_null_char, c_loc, c_associated, c_f_pointer, c_size_t, &
                                         c_funptr, c_funloc
  use, intrinsic :: iso_fortran_env, only: error_unit
  use mpi_f08, only: MPI_Comm
  use mpilat_types
  implicit none
  public

  ! ---- the C functions -----------------------------------------------------------------------------------
  interface
    function lat_strerror_c(code) bind(C, name="lat_strerror") result(p)
      import :: c_int, c_ptr
      integer(c_int), value :: code
      type(c_ptr) :: p
    end function
    function lat_last_error_message_c() bind(C, name="lat_last_error_message") result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function
    function lat_get_api_version_c() bind(C, name="lat_get_api_version") result(v)
      import :: c_int
      integer(c_int) :: v
    end function
    function lat_get_version_c(major, minor, patch) bind(C, name="lat_get_version") result(rc)
      import :: c_int
      integer(c_int), intent(out) :: major, minor, patch
      integer(c_int) :: rc
    end function
    function lat_request_stop_c() bind(C, name="lat_request_stop") result(rc)
      import :: c_int
      integer(c_int) :: rc
    end function
    function lat_clear_stop_c() bind(C, name="lat_clear_stop") result(rc)
      import :: c_int
      integer(c_int) :: rc
    end function
    function lat_timer_available_c(timer, available) bind(C, name="lat_timer_available") result(rc)
      import :: c_int
      integer(c_int), value :: timer
      integer(c_int), intent(out) :: available
      integer(c_int) :: rc
    end function
    function lat_timer_name_c(timer) bind(C, name="lat_timer_name") result(p)
      import :: c_int, c_ptr
      integer(c_int), value :: timer
      type(c_ptr) :: p
    end function
    function lat_timer_from_name_c(name, timer) bind(C, name="lat_timer_from_name") result(rc)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: timer
      integer(c_int) :: rc
    end function
    function lat_timer_defaults_c(opts) bind(C, name="lat_f_timer_defaults") result(rc)
      import :: c_int, lat_timer_options
      type(lat_timer_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    ! The checks of the options (not collective): the rules the measurements apply, written once in C++.
    function lat_timer_check_c(opts, nprocs) bind(C, name="lat_f_timer_check") result(rc)
      import :: c_int, lat_timer_options
      type(lat_timer_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      integer(c_int) :: rc
    end function
    function lat_pingpong_check_c(opts, nprocs, timer) bind(C, name="lat_f_pingpong_check") result(rc)
      import :: c_int, c_ptr, lat_pingpong_options
      type(lat_pingpong_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      type(c_ptr), value :: timer
      integer(c_int) :: rc
    end function
    function lat_sweep_check_c(opts, nprocs, nsizes, sizes, timer) bind(C, name="lat_f_sweep_check") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_sweep_options
      type(lat_sweep_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes, timer
      integer(c_int) :: rc
    end function
    function lat_queue_check_c(opts, nprocs, nl, lengths, nf, fractions, ns, sizes, timer) &
        bind(C, name="lat_f_queue_check") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_queue_options
      type(lat_queue_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      integer(c_int64_t), value :: nl, nf, ns
      type(c_ptr), value :: lengths, fractions, sizes, timer
      integer(c_int) :: rc
    end function
    function lat_pair_check_c(opts, nprocs) bind(C, name="lat_f_pair_check") result(rc)
      import :: c_int, lat_pair_options
      type(lat_pair_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      integer(c_int) :: rc
    end function
    function lat_nodecomm_check_c(opts, nsizes, sizes) bind(C, name="lat_f_nodecomm_check") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_nodecomm_options
      type(lat_nodecomm_options), intent(in) :: opts
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes
      integer(c_int) :: rc
    end function
    function lat_fit_check_c(opts) bind(C, name="lat_f_fit_check") result(rc)
      import :: c_int, lat_fit_options
      type(lat_fit_options), intent(in) :: opts
      integer(c_int) :: rc
    end function
    function lat_calibrate_timer_c(comm, opts, result, hist) bind(C, name="lat_f_calibrate_timer") result(rc)
      import :: c_int, c_ptr, lat_timer_options, lat_timer_result
      integer(c_int), value :: comm
      type(lat_timer_options), intent(in) :: opts
      type(lat_timer_result), intent(out) :: result
      type(c_ptr), value :: hist
      integer(c_int) :: rc
    end function
    function lat_pingpong_defaults_c(opts) bind(C, name="lat_f_pingpong_defaults") result(rc)
      import :: c_int, lat_pingpong_options
      type(lat_pingpong_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_pingpong_stats_c(comm, opts, timer, result, hist) &
        bind(C, name="lat_f_pingpong_stats") result(rc)
      import :: c_int, c_ptr, lat_pingpong_options, lat_pingpong_result
      integer(c_int), value :: comm
      type(lat_pingpong_options), intent(in) :: opts
      type(c_ptr), value :: timer
      type(lat_pingpong_result), intent(out) :: result
      type(c_ptr), value :: hist
      integer(c_int) :: rc
    end function
    function lat_histogram_size_c(hist, n) bind(C, name="lat_histogram_size") result(rc)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: hist
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: rc
    end function
    function lat_histogram_get_c(hist, n, values, counts) bind(C, name="lat_histogram_get") result(rc)
      import :: c_int, c_int64_t, c_double, c_ptr
      type(c_ptr), value :: hist
      integer(c_int64_t), value :: n
      real(c_double), intent(out) :: values(*)
      integer(c_int64_t), intent(out) :: counts(*)
      integer(c_int) :: rc
    end function
    function lat_histogram_free_c(hist) bind(C, name="lat_histogram_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: hist
      integer(c_int) :: rc
    end function
    function lat_stats_compute_c(n, values, bytes, stats) bind(C, name="lat_stats_compute") result(rc)
      import :: c_int, c_int64_t, c_double, lat_stats
      integer(c_int64_t), value :: n
      real(c_double), intent(in) :: values(*)
      integer(c_int64_t), value :: bytes
      type(lat_stats), intent(out) :: stats
      integer(c_int) :: rc
    end function
    function lat_npp_rule_c(res_npp, res_timing_us, median_ppt_us, npp) bind(C, name="lat_npp_rule") result(rc)
      import :: c_int, c_int64_t, c_double
      integer(c_int64_t), value :: res_npp
      real(c_double), value :: res_timing_us, median_ppt_us
      integer(c_int64_t), intent(out) :: npp
      integer(c_int) :: rc
    end function
    function lat_write_latency_files_c(outdir, command_line, program_seconds, timer, timer_hist, pp, pp_hist) &
        bind(C, name="lat_f_write_latency_files") result(rc)
      import :: c_int, c_char, c_double, c_ptr, lat_timer_result, lat_pingpong_result
      character(kind=c_char), intent(in) :: outdir(*), command_line(*)
      real(c_double), value :: program_seconds
      type(lat_timer_result), intent(in) :: timer
      type(c_ptr), value :: timer_hist
      type(lat_pingpong_result), intent(in) :: pp
      type(c_ptr), value :: pp_hist
      integer(c_int) :: rc
    end function
    function lat_write_latency_plots_c(outdir, pp, pp_hist) bind(C, name="lat_f_write_latency_plots") result(rc)
      import :: c_int, c_char, c_ptr, lat_pingpong_result
      character(kind=c_char), intent(in) :: outdir(*)
      type(lat_pingpong_result), intent(in) :: pp
      type(c_ptr), value :: pp_hist
      integer(c_int) :: rc
    end function
    function lat_npp_study_c(comm, opts, timer, nvalues, values, by_res_npp, result, rows) &
        bind(C, name="lat_f_npp_study") result(rc)
      import :: c_int, c_ptr, lat_pingpong_options, lat_pingpong_result, lat_npp_study_row
      integer(c_int), value :: comm
      type(lat_pingpong_options), intent(in) :: opts
      type(c_ptr), value :: timer
      integer(c_int), value :: nvalues
      type(c_ptr), value :: values
      integer(c_int), value :: by_res_npp
      type(lat_pingpong_result), intent(out) :: result
      type(lat_npp_study_row), intent(out) :: rows(*)
      integer(c_int) :: rc
    end function
    function lat_npp_study_check_c(opts, nprocs, nvalues, values, by_res_npp) &
        bind(C, name="lat_f_npp_study_check") result(rc)
      import :: c_int, c_ptr, lat_pingpong_options
      type(lat_pingpong_options), intent(in) :: opts
      integer(c_int), value :: nprocs, nvalues
      type(c_ptr), value :: values
      integer(c_int), value :: by_res_npp
      integer(c_int) :: rc
    end function
    function lat_write_npp_study_files_c(outdir, command_line, pp, nrows, rows, render) &
        bind(C, name="lat_f_write_npp_study_files") result(rc)
      import :: c_int, c_char, lat_pingpong_result, lat_npp_study_row
      character(kind=c_char), intent(in) :: outdir(*), command_line(*)
      type(lat_pingpong_result), intent(in) :: pp
      integer(c_int), value :: nrows
      type(lat_npp_study_row), intent(in) :: rows(*)
      integer(c_int), value :: render
      integer(c_int) :: rc
    end function
    function lat_compare_check_c(opts) bind(C, name="lat_f_compare_check") result(rc)
      import :: c_int, lat_compare_options
      type(lat_compare_options), intent(in) :: opts
      integer(c_int) :: rc
    end function
    function lat_compare_defaults_c(opts) bind(C, name="lat_f_compare_defaults") result(rc)
      import :: c_int, lat_compare_options
      type(lat_compare_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_compare_distributions_c(na, a_values, a_counts, nb, b_values, b_counts, q, opts, result) &
        bind(C, name="lat_f_compare_distributions") result(rc)
      import :: c_int, c_int64_t, c_double, c_ptr, lat_compare_options, lat_compare_result
      integer(c_int64_t), value :: na, nb
      type(c_ptr), value :: a_values, b_values, a_counts, b_counts
      real(c_double), value :: q
      type(lat_compare_options), intent(in) :: opts
      type(lat_compare_result), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_compare_launches_c(na, a, nb, b, opts, result) bind(C, name="lat_f_compare_launches") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_compare_options, lat_compare_result
      integer(c_int64_t), value :: na, nb
      type(c_ptr), value :: a, b
      type(lat_compare_options), intent(in) :: opts
      type(lat_compare_result), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_write_report_files_c(outdir, nfiles, names, contents, render) &
        bind(C, name="lat_write_report_files") result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: outdir(*)
      integer(c_int), value :: nfiles, render
      type(c_ptr), value :: names, contents
      integer(c_int) :: rc
    end function
    function lat_quantiles_compute_c(n, values, q) bind(C, name="lat_quantiles_compute") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_quantiles
      integer(c_int64_t), value :: n
      type(c_ptr), value :: values
      type(lat_quantiles), intent(out) :: q
      integer(c_int) :: rc
    end function
    function lat_check_output_dir_c(outdir) bind(C, name="lat_check_output_dir") result(rc)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: outdir(*)
      integer(c_int) :: rc
    end function
    function lat_check_output_file_c(path) bind(C, name="lat_check_output_file") result(rc)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: rc
    end function
    function lat_check_outputs_c(kind, outdir, base) bind(C, name="lat_check_outputs") result(rc)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: kind(*), outdir(*), base(*)
      integer(c_int) :: rc
    end function
    function lat_check_output_apart_c(kind, outdir, base, path) bind(C, name="lat_check_output_apart") result(rc)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: kind(*), outdir(*), base(*), path(*)
      integer(c_int) :: rc
    end function
    function lat_check_input_file_c(path) bind(C, name="lat_check_input_file") result(rc)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: rc
    end function
    function lat_read_input_c(path, input) bind(C, name="lat_read_input") result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: input
      integer(c_int) :: rc
    end function
    function lat_input_size_c(input, nbytes) bind(C, name="lat_input_size") result(rc)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: input
      integer(c_int64_t), intent(out) :: nbytes
      integer(c_int) :: rc
    end function
    function lat_input_get_c(input, n, bytes) bind(C, name="lat_input_get") result(rc)
      import :: c_int, c_ptr, c_int64_t, c_char
      type(c_ptr), value :: input
      integer(c_int64_t), value :: n
      character(kind=c_char), intent(out) :: bytes(*)
      integer(c_int) :: rc
    end function
    function lat_input_free_c(input) bind(C, name="lat_input_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: input
      integer(c_int) :: rc
    end function
    function lat_check_json_memory_c(nbytes, name) bind(C, name="lat_check_json_memory") result(rc)
      import :: c_int, c_int64_t, c_char
      integer(c_int64_t), value :: nbytes
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: rc
    end function
    function lat_sweep_defaults_c(opts) bind(C, name="lat_f_sweep_defaults") result(rc)
      import :: c_int, lat_sweep_options
      type(lat_sweep_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_size_sweep_c(comm, opts, nsizes, sizes, timer, result) bind(C, name="lat_f_size_sweep") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_sweep_options
      integer(c_int), value :: comm
      type(lat_sweep_options), intent(in) :: opts
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes, timer
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_sweep_run_c(opts, nsizes, sizes, measure, context, result) bind(C, name="lat_f_sweep_run") result(rc)
      import :: c_int, c_int64_t, c_ptr, c_funptr, lat_sweep_options
      type(lat_sweep_options), intent(in) :: opts
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes
      type(c_funptr), value :: measure
      type(c_ptr), value :: context
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_sweep_get_summary_c(sweep, summary) bind(C, name="lat_f_sweep_get_summary") result(rc)
      import :: c_int, c_ptr, lat_sweep_summary
      type(c_ptr), value :: sweep
      type(lat_sweep_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_sweep_get_point_c(sweep, i, point) bind(C, name="lat_f_sweep_get_point") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_sweep_point
      type(c_ptr), value :: sweep
      integer(c_int64_t), value :: i
      type(lat_sweep_point), intent(out) :: point
      integer(c_int) :: rc
    end function
    function lat_sweep_get_threshold_c(sweep, i, threshold) bind(C, name="lat_f_sweep_get_threshold") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_sweep_threshold
      type(c_ptr), value :: sweep
      integer(c_int64_t), value :: i
      type(lat_sweep_threshold), intent(out) :: threshold
      integer(c_int) :: rc
    end function
    function lat_sweep_get_line_c(sweep, i, line) bind(C, name="lat_f_sweep_get_line") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_sweep_line
      type(c_ptr), value :: sweep
      integer(c_int64_t), value :: i
      type(lat_sweep_line), intent(out) :: line
      integer(c_int) :: rc
    end function
    function lat_sweep_get_samples_c(sweep, i, n, values) bind(C, name="lat_sweep_get_samples") result(rc)
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: sweep
      integer(c_int64_t), value :: i, n
      real(c_double), intent(out) :: values(*)
      integer(c_int) :: rc
    end function
    function lat_sweep_free_c(sweep) bind(C, name="lat_sweep_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: sweep
      integer(c_int) :: rc
    end function
    function lat_write_sweep_files_c(outdir, base, command_line, sweep, flags, table_path) &
        bind(C, name="lat_write_sweep_files") result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: outdir(*), base(*), command_line(*), table_path(*)
      type(c_ptr), value :: sweep
      integer(c_int), value :: flags
      integer(c_int) :: rc
    end function
    function lat_queue_defaults_c(opts) bind(C, name="lat_f_queue_defaults") result(rc)
      import :: c_int, lat_queue_options
      type(lat_queue_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_queue_sweep_c(comm, opts, nl, lengths, nf, fractions, ns, sizes, timer, result) &
        bind(C, name="lat_f_queue_sweep") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_queue_options
      integer(c_int), value :: comm
      type(lat_queue_options), intent(in) :: opts
      integer(c_int64_t), value :: nl, nf, ns
      type(c_ptr), value :: lengths, fractions, sizes, timer
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_queue_get_summary_c(queue, summary) bind(C, name="lat_f_queue_get_summary") result(rc)
      import :: c_int, c_ptr, lat_queue_summary
      type(c_ptr), value :: queue
      type(lat_queue_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_queue_get_point_c(queue, i, point) bind(C, name="lat_f_queue_get_point") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_queue_point
      type(c_ptr), value :: queue
      integer(c_int64_t), value :: i
      type(lat_queue_point), intent(out) :: point
      integer(c_int) :: rc
    end function
    function lat_queue_free_c(queue) bind(C, name="lat_queue_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: queue
      integer(c_int) :: rc
    end function
    function lat_write_queue_files_c(outdir, command_line, queue, render) bind(C, name="lat_write_queue_files") result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: outdir(*), command_line(*)
      type(c_ptr), value :: queue
      integer(c_int), value :: render
      integer(c_int) :: rc
    end function
    function lat_pair_defaults_c(opts) bind(C, name="lat_f_pair_defaults") result(rc)
      import :: c_int, lat_pair_options
      type(lat_pair_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_pair_matrix_c(comm, opts, result) bind(C, name="lat_f_pair_matrix") result(rc)
      import :: c_int, c_ptr, lat_pair_options
      integer(c_int), value :: comm
      type(lat_pair_options), intent(in) :: opts
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_pairs_get_summary_c(pairs, summary) bind(C, name="lat_f_pairs_get_summary") result(rc)
      import :: c_int, c_ptr, lat_pair_summary
      type(c_ptr), value :: pairs
      type(lat_pair_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_pairs_get_matrix_c(pairs, stat, n, matrix) bind(C, name="lat_pairs_get_matrix") result(rc)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pairs
      integer(c_int), value :: stat
      integer(c_int64_t), value :: n
      type(c_ptr), value :: matrix
      integer(c_int) :: rc
    end function
    function lat_pairs_get_place_c(pairs, rank, place) bind(C, name="lat_pairs_get_place") result(rc)
      import :: c_int, c_ptr, lat_rank_place
      type(c_ptr), value :: pairs
      integer(c_int), value :: rank
      type(lat_rank_place), intent(out) :: place
      integer(c_int) :: rc
    end function
    function lat_pairs_free_c(pairs) bind(C, name="lat_pairs_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: pairs
      integer(c_int) :: rc
    end function
    function lat_write_pair_files_c(outdir, log_name, command_line, pairs) bind(C, name="lat_write_pair_files") &
        result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: outdir(*), log_name(*), command_line(*)
      type(c_ptr), value :: pairs
      integer(c_int) :: rc
    end function
    function lat_read_mmpi_log_c(path, result) bind(C, name="lat_read_mmpi_log") result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_read_pair_json_c(path, result) bind(C, name="lat_read_pair_json") result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_write_pair_matrices_c(outdir, base, pairs, render) bind(C, name="lat_write_pair_matrices") &
        result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: outdir(*), base(*)
      type(c_ptr), value :: pairs
      integer(c_int), value :: render
      integer(c_int) :: rc
    end function
    function lat_fit_defaults_c(opts) bind(C, name="lat_f_fit_defaults") result(rc)
      import :: c_int, lat_fit_options
      type(lat_fit_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_fit_maxrate_c(opts, nobs, obs, result) bind(C, name="lat_f_fit_maxrate") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_fit_options
      type(lat_fit_options), intent(in) :: opts
      integer(c_int64_t), value :: nobs
      type(c_ptr), value :: obs
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_maxrate_get_summary_c(fit, summary) bind(C, name="lat_f_maxrate_get_summary") result(rc)
      import :: c_int, c_ptr, lat_fit_summary
      type(c_ptr), value :: fit
      type(lat_fit_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_maxrate_get_model_c(fit, regime, model, result) bind(C, name="lat_f_maxrate_get_model") result(rc)
      import :: c_int, c_ptr, lat_model_fit
      type(c_ptr), value :: fit
      integer(c_int), value :: regime, model
      type(lat_model_fit), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_maxrate_get_errors_c(fit, model, n, rel_err) bind(C, name="lat_maxrate_get_errors") result(rc)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: fit
      integer(c_int), value :: model
      integer(c_int64_t), value :: n
      type(c_ptr), value :: rel_err
      integer(c_int) :: rc
    end function
    function lat_maxrate_free_c(fit) bind(C, name="lat_maxrate_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: fit
      integer(c_int) :: rc
    end function
    function lat_nodecomm_defaults_c(opts) bind(C, name="lat_f_nodecomm_defaults") result(rc)
      import :: c_int, lat_nodecomm_options
      type(lat_nodecomm_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_nodecomm_measure_c(comm, opts, nsizes, sizes, result) bind(C, name="lat_f_nodecomm_measure") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_nodecomm_options
      integer(c_int), value :: comm
      type(lat_nodecomm_options), intent(in) :: opts
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_nodecomm_get_summary_c(h, summary) bind(C, name="lat_f_nodecomm_get_summary") result(rc)
      import :: c_int, c_ptr, lat_nodecomm_summary
      type(c_ptr), value :: h
      type(lat_nodecomm_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_nodecomm_get_point_c(h, i, point) bind(C, name="lat_f_nodecomm_get_point") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_nodecomm_point
      type(c_ptr), value :: h
      integer(c_int64_t), value :: i
      type(lat_nodecomm_point), intent(out) :: point
      integer(c_int) :: rc
    end function
    function lat_nodecomm_observations_c(h, n, obs, nobs) bind(C, name="lat_nodecomm_observations") result(rc)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: h
      integer(c_int64_t), value :: n
      type(c_ptr), value :: obs
      integer(c_int64_t), intent(out) :: nobs
      integer(c_int) :: rc
    end function
    function lat_nodecomm_free_c(h) bind(C, name="lat_nodecomm_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: h
      integer(c_int) :: rc
    end function
    function lat_read_nodecomm_table_c(path, us_per_unit, n, obs, nobs, nmissing) &
        bind(C, name="lat_read_nodecomm_table") result(rc)
      import :: c_int, c_int64_t, c_ptr, c_char, c_double
      character(kind=c_char), intent(in) :: path(*)
      real(c_double), value :: us_per_unit
      integer(c_int64_t), value :: n
      type(c_ptr), value :: obs
      integer(c_int64_t), intent(out) :: nobs, nmissing
      integer(c_int) :: rc
    end function
    function lat_write_maxrate_files_c(outdir, command_line, nodecomm, nobs, obs, fit, render) &
        bind(C, name="lat_write_maxrate_files") result(rc)
      import :: c_int, c_int64_t, c_ptr, c_char
      character(kind=c_char), intent(in) :: outdir(*), command_line(*)
      type(c_ptr), value :: nodecomm, obs, fit
      integer(c_int64_t), value :: nobs
      integer(c_int), value :: render
      integer(c_int) :: rc
    end function
    ! ---- collective latency (lat_collective) ----
    function lat_collective_defaults_c(opts) bind(C, name="lat_f_collective_defaults") result(rc)
      import :: c_int, lat_collective_options
      type(lat_collective_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_collective_check_c(opts, nsizes, sizes, nprocs) bind(C, name="lat_f_collective_check") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_collective_options
      type(lat_collective_options), intent(in) :: opts
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes
      integer(c_int), value :: nprocs
      integer(c_int) :: rc
    end function
    function lat_coll_op_from_name_c(name, op) bind(C, name="lat_coll_op_from_name") result(rc)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: op
      integer(c_int) :: rc
    end function
    function lat_collective_c(comm, opts, nsizes, sizes, result) bind(C, name="lat_f_collective") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_collective_options
      integer(c_int), value :: comm
      type(lat_collective_options), intent(in) :: opts
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_coll_get_summary_c(coll, summary) bind(C, name="lat_f_coll_get_summary") result(rc)
      import :: c_int, c_ptr, lat_coll_summary
      type(c_ptr), value :: coll
      type(lat_coll_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_coll_get_point_c(coll, index, point) bind(C, name="lat_f_coll_get_point") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_coll_point
      type(c_ptr), value :: coll
      integer(c_int64_t), value :: index
      type(lat_coll_point), intent(out) :: point
      integer(c_int) :: rc
    end function
    function lat_coll_get_rank_c(coll, index, rank, result) bind(C, name="lat_f_coll_get_rank") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_coll_rank
      type(c_ptr), value :: coll
      integer(c_int64_t), value :: index
      integer(c_int), value :: rank
      type(lat_coll_rank), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_coll_get_samples_c(coll, index, n, values, count) bind(C, name="lat_coll_get_samples") result(rc)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: coll
      integer(c_int64_t), value :: index, n
      type(c_ptr), value :: values
      integer(c_int64_t), intent(out) :: count
      integer(c_int) :: rc
    end function
    function lat_write_coll_files_c(outdir, base, command_line, coll, render) bind(C, name="lat_write_coll_files") &
        result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: outdir(*), base(*), command_line(*)
      type(c_ptr), value :: coll
      integer(c_int), value :: render
      integer(c_int) :: rc
    end function
    function lat_coll_free_c(coll) bind(C, name="lat_coll_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: coll
      integer(c_int) :: rc
    end function
    function c_strlen(s) bind(C, name="strlen") result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function
  end interface

end module mpilat_c
