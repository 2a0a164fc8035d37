!> Module mpilat: Fortran 2008 bindings of the mpilat C ABI (include/mpilat.h).
!>
!> Two layers, as in Caliper: private `bind(C)` interfaces named `*_c`, and public wrappers with the C
!> names that take Fortran types (`character(len=*)`, `logical`, an optional `ierr`). Communicators are
!> accepted as `type(MPI_Comm)` (mpi_f08) and, through the same generic name, as an `integer` handle
!> (`use mpi`); both reach C through MPI_Comm_f2c in comm_f2c.c.
!>
!> Errors: every wrapper has `integer, optional, intent(out) :: ierr`. Without `ierr` a failure prints
!> lat_last_error_message() on the error unit and stops the program with `error stop`; a measurement
!> stopped by lat_request_stop (LAT_ERR_INTERRUPTED) is not a failure and does not stop it.
!> The module is called mpilat, never lat: science codes use `lat` for latitude.
#include "mpilat_constants.h"
module mpilat
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char, c_ptr, c_null_ptr, &
                                         c_null_char, c_loc, c_associated, c_f_pointer, c_size_t, &
                                         c_funptr, c_funloc
  use, intrinsic :: iso_fortran_env, only: error_unit
  use mpi_f08, only: MPI_Comm
  implicit none
  private

  ! ---- constants: written once, in include/mpilat_constants.h, which C's mpilat.h reads too -------------
  ! Each list there becomes integer parameters of the same names and values; a single value is taken by its
  ! macro (the lower-case Fortran name is the same name to Fortran, and the preprocessor leaves it alone).
#define LAT_F_PARAMETER(name, value) integer, parameter, public :: name = value;
  LAT_ERROR_CODES(LAT_F_PARAMETER)
  LAT_TIMER_KINDS(LAT_F_PARAMETER)
  LAT_PARTIAL_CAUSES(LAT_F_PARAMETER)
  LAT_SWEEP_PATTERNS(LAT_F_PARAMETER)
  LAT_SWEEP_ENDS(LAT_F_PARAMETER)
  LAT_SWEEP_FILES_FLAGS(LAT_F_PARAMETER)
  LAT_QUEUE_MODES(LAT_F_PARAMETER)
  LAT_PAIR_SCHEDULES(LAT_F_PARAMETER)
  LAT_WAIT_MODES(LAT_F_PARAMETER)
  LAT_PAIR_STATS(LAT_F_PARAMETER)
  LAT_RATE_MODELS(LAT_F_PARAMETER)
  LAT_FIT_BOUNDS(LAT_F_PARAMETER)
  LAT_NODECOMM_SIDES(LAT_F_PARAMETER)
  LAT_RUN_WARNINGS(LAT_F_PARAMETER)
  LAT_PLACE_SHARES(LAT_F_PARAMETER)
  LAT_COMPARE_METHODS(LAT_F_PARAMETER)
  LAT_COMPARE_VERDICTS(LAT_F_PARAMETER)
  integer, parameter, public :: lat_all_ranks = LAT_ALL_RANKS, lat_last_rank = LAT_LAST_RANK
  integer, parameter, public :: lat_nbins = LAT_NBINS, lat_hostname_len = LAT_HOSTNAME_LEN
  integer, parameter, public :: lat_npp_max = LAT_NPP_MAX, lat_pair_nstats = LAT_PAIR_NSTATS
  integer, parameter, public :: lat_nmodels = LAT_NMODELS, lat_max_regimes = LAT_MAX_REGIMES, lat_max_levels = LAT_MAX_LEVELS
  integer, parameter, public :: lat_npercentiles = LAT_NPERCENTILES, lat_cpuset_len = LAT_CPUSET_LEN
  integer, parameter, public :: lat_study_max = LAT_STUDY_MAX
  ! An empty comment joins the macro's 0.2 to the kind suffix (gfortran's traditional preprocessor).
  real(c_double), parameter, public :: lat_bin_width_us = LAT_BIN_WIDTH_US/**/_c_double
  !> The API version these bindings were written for; compare with lat_get_api_version().
  integer, parameter, public :: lat_api_version = LAT_API_VERSION

  ! ---- result and option types: field by field the C structs ---------------------------------------------
  !> Options of lat_calibrate_timer (lat_timer_defaults fills them).
  type, bind(C), public :: lat_timer_options
    integer(c_int64_t) :: nr      !< back-to-back timer pairs
    integer(c_int) :: timer       !< LAT_TIMER_*
    integer(c_int) :: rank        !< calibrating rank or LAT_ALL_RANKS
    real(c_double) :: timeout_s   !< watchdog seconds; 0: wait for ever
    integer(c_int) :: progress    !< 1: progress lines on stderr from the calibrating rank
  end type lat_timer_options

  !> Result of lat_calibrate_timer; times in microseconds.
  type, bind(C), public :: lat_timer_result
    integer(c_int64_t) :: nr_requested, nr, n_negative, n_zero
    integer(c_int64_t) :: bin_count(LAT_NBINS)   !< Appendix A: 0.2 us bins, the last open-ended
    real(c_double) :: res_timing_us, min_ov_us
    real(c_double) :: min_us, median_us, mean_us, max_us, stddev_us
    real(c_double) :: tick_us
    real(c_double) :: unit_us     !< what every difference is a whole number of (ns, or a TSC cycle)
    integer(c_int) :: timer, rank
  end type lat_timer_result

  !> Options of lat_pingpong_stats (lat_pingpong_defaults fills them).
  type, bind(C), public :: lat_pingpong_options
    integer(c_int64_t) :: n, bytes, nr, npptrial, npp_init, res_npp, npp, ntrial
    real(c_double) :: cut_coef
    integer(c_int) :: source, dest, timer, progress
    real(c_double) :: timeout_s   !< watchdog seconds; 0: wait for ever
    integer(c_int) :: estimate    !< 1: Part 2 runs even when npp is given; 0: skipped then
    real(c_double) :: minutes     !< > 0: ntrial chosen for about this many minutes of trials
  end type lat_pingpong_options

  !> Statistics of a set of ping-pong times (microseconds, divided by two; rates in MB/s).
  type, bind(C), public :: lat_stats
    integer(c_int64_t) :: count
    real(c_double) :: min_us, median_us, mean_us, max_us
    real(c_double) :: variance_us2, stddev_us, cv_percent, stderr_us, rse
    real(c_double) :: rate_min_mbs, rate_median_mbs, rate_mean_mbs, rate_max_mbs
  end type lat_stats

  !> Percentiles (nearest rank) and 95 % order-statistic intervals of the median and p99; an end the
  !> sample cannot give is -huge or +huge (IEEE infinity).
  type, bind(C), public :: lat_quantiles
    real(c_double) :: level(LAT_NPERCENTILES)   !< percent levels: 1 5 10 25 50 75 90 95 99 99.9 99.99
    real(c_double) :: p_us(LAT_NPERCENTILES)
    real(c_double) :: median_ci_us(2), p99_ci_us(2)
  end type lat_quantiles

  !> Where a rank ran; -1 where the platform does not tell.
  type, bind(C), public :: lat_rank_place
    real(c_double) :: res_timing_us, min_ov_us
    integer(c_int) :: rank, node, node_rank, socket, core, cpu, numa
    character(kind=c_char) :: host(LAT_HOSTNAME_LEN)
    character(kind=c_char) :: cpus(LAT_CPUSET_LEN)   !< processors it may run on, "0-3,8"
  end type lat_rank_place

  !> Result of lat_pingpong_stats, the same on every rank.
  type, bind(C), public :: lat_pingpong_result
    integer(c_int64_t) :: bytes, n, npptrial, npp_init, res_npp
    integer(c_int64_t) :: npp_calculated, npp_used, ntrial, ntrial_done, n_kept, n_removed, nprocs
    real(c_double) :: median_ppt_us, res_timing_us, min_ov_us, cut_coef, cut_off_us
    type(lat_stats) :: all, filtered
    integer(c_int) :: source, dest, timer
    integer(c_int) :: partial     !< LAT_COMPLETE, LAT_PARTIAL_STOPPED or LAT_PARTIAL_TIMEOUT
    integer(c_int) :: warnings    !< bits LAT_WARN_LEVELS, LAT_WARN_FILTERED: 0 for a run the statistics describe well
    integer(c_int) :: nlevels     !< levels of the chunk medians (1: steady)
    integer(c_int64_t) :: nchunks
    real(c_double) :: level_us(LAT_MAX_LEVELS), level_share(LAT_MAX_LEVELS)
    character(kind=c_char) :: source_host(LAT_HOSTNAME_LEN)
    character(kind=c_char) :: dest_host(LAT_HOSTNAME_LEN)
    real(c_double) :: unit_us     !< the clock's counting unit, microseconds
    real(c_double) :: minutes     !< minutes asked for (ntrial chosen from them), or 0
    type(lat_quantiles) :: all_q, filtered_q
    type(lat_rank_place) :: source_place, dest_place
    integer(c_int) :: shared      !< bits LAT_SHARE_*: what source and dest share
    integer(c_int) :: estimate    !< 1: Part 2 ran
  end type lat_pingpong_result

  !> Options of the comparisons (lat_compare_defaults fills them).
  type, bind(C), public :: lat_compare_options
    real(c_double) :: confidence        !< of the interval of B/A; 0.95
    integer(c_int64_t) :: resamples     !< bootstrap resamples over launches; 10000
    integer(c_int64_t) :: seed          !< of the bootstrap's generator; 1
  end type lat_compare_options

  !> A comparison of B against A: values, ratio B/A with its interval, method and verdict.
  type, bind(C), public :: lat_compare_result
    real(c_double) :: a_value, b_value, ratio, ratio_low, ratio_high, confidence
    integer(c_int64_t) :: a_count, b_count
    integer(c_int) :: method      !< LAT_METHOD_NONE, LAT_METHOD_LAUNCHES or LAT_METHOD_TRIALS
    integer(c_int) :: verdict     !< LAT_VERDICT_UNRESOLVED, LAT_VERDICT_B_HIGHER or LAT_VERDICT_B_LOWER
  end type lat_compare_result

  !> One value of an npp study: its npp (and the res_npp it came from, or 0), statistics and percentiles.
  type, bind(C), public :: lat_npp_study_row
    integer(c_int64_t) :: npp, res_npp
    type(lat_stats) :: stats
    type(lat_quantiles) :: q
  end type lat_npp_study_row

  !> Options of lat_size_sweep and lat_sweep_run (lat_sweep_defaults fills them; meanings in mpilat.h).
  type, bind(C), public :: lat_sweep_options
    integer(c_int64_t) :: size_first, size_last, size_stride   !< the starting grid when no list is given
    integer(c_int64_t) :: reps, n_stable, n_avg, n_avg_min, res_factor, refine_after, autodx, max_sizes, rerun_reps
    integer(c_int64_t) :: cachesize, overlap_bytes, nr
    real(c_double) :: autorel, anomaly_rel, step_rel, budget_s, tgoal_s, timeout_s
    integer(c_int) :: adaptive, pattern, bisect, source, dest, timer, verify, progress
  end type lat_sweep_options

  !> One size of a sweep: min_us is the reported time (minimum of averages).
  type, bind(C), public :: lat_sweep_point
    integer(c_int64_t) :: bytes, samples, rerun_samples, n_avg
    real(c_double) :: min_us, median_us, mean_us, max_us, stddev_us, rate_mbs, compute_us
    integer(c_int) :: refined, rerun, anomalous, reserved
  end type lat_sweep_point

  !> A step of the curve: the threshold lies in (below_bytes, above_bytes].
  type, bind(C), public :: lat_sweep_threshold
    integer(c_int64_t) :: below_bytes, above_bytes
    real(c_double) :: time_below_us, time_above_us, excess_us
  end type lat_sweep_threshold

  !> The least-squares line startup + bytes / rate over one regime between steps (the original's estimate).
  type, bind(C), public :: lat_sweep_line
    integer(c_int64_t) :: first_bytes, last_bytes, npoints
    real(c_double) :: startup_us, per_byte_us, rate_mbs, max_rel_err
  end type lat_sweep_line

  !> What a sweep did, as a whole.
  type, bind(C), public :: lat_sweep_summary
    integer(c_int64_t) :: nsizes, nthresholds, nlines, passes, measurements, nprocs, npairs, cachesize, overlap_bytes
    real(c_double) :: wall_s, res_timing_us, min_ov_us
    integer(c_int) :: end, capped, pattern, bisect, adaptive, verify, timer, source, dest
    character(kind=c_char) :: source_host(LAT_HOSTNAME_LEN)
    character(kind=c_char) :: dest_host(LAT_HOSTNAME_LEN)
  end type lat_sweep_summary

  !> The result of a sweep; free it with lat_sweep_free.
  type, public :: lat_sweep
    type(c_ptr) :: handle = c_null_ptr
  end type lat_sweep

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
  public :: lat_measure_fn

  !> Options of lat_queue_sweep (lat_queue_defaults fills them; meanings in mpilat.h).
  type, bind(C), public :: lat_queue_options
    integer(c_int64_t) :: iters, reps, nr
    real(c_double) :: timeout_s
    integer(c_int) :: mode, any_source, source, dest, timer, progress
  end type lat_queue_options

  !> One point of a queue sweep: queue length x fraction x size; one-way times in microseconds.
  type, bind(C), public :: lat_queue_point
    integer(c_int64_t) :: length, traversed, bytes, measurements
    real(c_double) :: fraction_percent, paper_us, min_us, median_us, mean_us, max_us, stddev_us
  end type lat_queue_point

  !> What a queue sweep did, as a whole.
  type, bind(C), public :: lat_queue_summary
    integer(c_int64_t) :: npoints, nlengths, nfractions, nsizes, iters, reps, leftover_messages
    real(c_double) :: slope_us_per_entry, intercept_us, wall_s, res_timing_us, min_ov_us
    integer(c_int) :: mode, any_source, source, dest, timer, partial
    character(kind=c_char) :: source_host(LAT_HOSTNAME_LEN)
    character(kind=c_char) :: dest_host(LAT_HOSTNAME_LEN)
  end type lat_queue_summary

  !> The result of a queue sweep; free it with lat_queue_free.
  type, public :: lat_queue
    type(c_ptr) :: handle = c_null_ptr
  end type lat_queue

  !> Options of lat_pair_matrix (lat_pair_defaults fills them; meanings in mpilat.h).
  type, bind(C), public :: lat_pair_options
    integer(c_int64_t) :: msg_bytes, repeats, nr
    real(c_double) :: timeout_s
    integer(c_int) :: schedule, root, timer, wait, progress, reserved
  end type lat_pair_options

  !> What a pair matrix holds, as a whole.
  type, bind(C), public :: lat_pair_summary
    integer(c_int64_t) :: nprocs, nnodes, msg_bytes, repeats, npairs, nrounds, steps, round_trips
    real(c_double) :: wall_s, mean_min_us, mean_max_us
    integer(c_int) :: schedule, root, timer, wait, has_matrices, from_log, partial, reserved
    character(kind=c_char) :: testing_host(LAT_HOSTNAME_LEN)
  end type lat_pair_summary

  !> The result of a pair matrix (or an mmpi log read back); free it with lat_pairs_free.
  type, public :: lat_pairs
    type(c_ptr) :: handle = c_null_ptr
  end type lat_pairs

  !> One observation for lat_fit_maxrate: k pairs at once, message bytes, time in microseconds.
  type, bind(C), public :: lat_maxrate_obs
    integer(c_int64_t) :: k, bytes
    real(c_double) :: time_us
  end type lat_maxrate_obs

  !> Options of lat_fit_maxrate (lat_fit_defaults fills them).
  type, bind(C), public :: lat_fit_options
    integer(c_int64_t) :: nthresholds, thresholds(LAT_MAX_REGIMES - 1)
    real(c_double) :: noise_rel
  end type lat_fit_options

  !> One model fitted in one regime (rates in MB/s; an infinite RN or k* is IEEE infinity; bounded: bits
  !> of LAT_BOUND_*, the fields that hold a bound, not a value; sse_gap and certified: the optimum's guarantee).
  type, bind(C), public :: lat_model_fit
    real(c_double) :: alpha_us, rc_mbs, rci_mbs, rn_mbs, rn_min_mbs, k_star, rel_err_sum, rel_err_sq, rel_err_max
    real(c_double) :: sse_gap
    integer(c_int64_t) :: npoints, nfit
    integer(c_int) :: model, regime, bounded, certified
  end type lat_model_fit

  !> What a fit did.
  type, bind(C), public :: lat_fit_summary
    integer(c_int64_t) :: nobs, kmax, nregimes, nthresholds, thresholds(LAT_MAX_REGIMES - 1)
    integer(c_int64_t) :: regime_first(LAT_MAX_REGIMES), regime_last(LAT_MAX_REGIMES)
    integer(c_int) :: thresholds_detected, reserved
  end type lat_fit_summary

  !> The result of lat_fit_maxrate; free it with lat_maxrate_free.
  type, public :: lat_maxrate_fit
    type(c_ptr) :: handle = c_null_ptr
  end type lat_maxrate_fit

  !> Options of lat_nodecomm_measure (lat_nodecomm_defaults fills them).
  type, bind(C), public :: lat_nodecomm_options
    integer(c_int64_t) :: size_last, reps, max_pairs, nr
    real(c_double) :: timeout_s
    integer(c_int) :: adaptive, timer, progress, sides
  end type lat_nodecomm_options

  !> One (k, n) of a nodecomm measurement: the slowest pair's full ping-pong time, microseconds.
  type, bind(C), public :: lat_nodecomm_point
    integer(c_int64_t) :: k, bytes, reps, n_avg
    real(c_double) :: min_us, median_us, mean_us, max_us
  end type lat_nodecomm_point

  !> What a nodecomm measurement did.
  type, bind(C), public :: lat_nodecomm_summary
    integer(c_int64_t) :: npoints, kmax, nsizes, ranks_a, ranks_b
    real(c_double) :: wall_s, res_timing_us, min_ov_us
    integer(c_int) :: intra_node, partial, timer, sides
    character(kind=c_char) :: host_a(LAT_HOSTNAME_LEN), host_b(LAT_HOSTNAME_LEN)
  end type lat_nodecomm_summary

  !> The result of lat_nodecomm_measure; free it with lat_nodecomm_free.
  type, public :: lat_nodecomm
    type(c_ptr) :: handle = c_null_ptr
  end type lat_nodecomm

  !> A frequency table (distinct values and their counts); free it with lat_histogram_free.
  type, public :: lat_histogram
    type(c_ptr) :: handle = c_null_ptr
  end type lat_histogram

  ! ---- public wrappers -----------------------------------------------------------------------------------
  public :: lat_strerror, lat_last_error_message, lat_get_api_version, lat_get_version
  public :: lat_request_stop, lat_clear_stop
  public :: lat_timer_available, lat_timer_name, lat_timer_from_name
  public :: lat_timer_defaults, lat_calibrate_timer
  public :: lat_timer_check, lat_pingpong_check, lat_sweep_check, lat_queue_check, lat_pair_check
  public :: lat_nodecomm_check, lat_fit_check
  public :: lat_pingpong_defaults, lat_pingpong_stats
  public :: lat_histogram_get, lat_histogram_free
  public :: lat_stats_compute, lat_npp_rule
  public :: lat_write_latency_files, lat_check_output_dir
  public :: lat_compare_defaults, lat_compare_distributions, lat_compare_launches
  public :: lat_write_latency_plots, lat_npp_study, lat_npp_study_check, lat_write_npp_study_files, lat_quantiles_compute
  public :: lat_string
  public :: lat_sweep_defaults, lat_size_sweep, lat_sweep_run, lat_sweep_get_summary, lat_sweep_points
  public :: lat_sweep_thresholds, lat_sweep_lines, lat_sweep_get_samples, lat_sweep_free, lat_write_sweep_files
  public :: lat_queue_defaults, lat_queue_sweep, lat_queue_get_summary, lat_queue_points, lat_queue_free
  public :: lat_write_queue_files
  public :: lat_pair_defaults, lat_pair_matrix, lat_pairs_get_summary, lat_pairs_get_matrix, lat_pairs_get_place
  public :: lat_pairs_free, lat_write_pair_files, lat_read_mmpi_log, lat_write_pair_matrices
  public :: lat_fit_defaults, lat_fit_maxrate, lat_maxrate_get_summary, lat_maxrate_get_model, lat_maxrate_errors
  public :: lat_maxrate_free, lat_nodecomm_defaults, lat_nodecomm_measure, lat_nodecomm_get_summary
  public :: lat_nodecomm_points, lat_nodecomm_observations, lat_nodecomm_free, lat_read_nodecomm_table
  public :: lat_write_maxrate_files

  !> The nodecomm measurement, collective over comm (type(MPI_Comm) or an integer handle).
  interface lat_nodecomm_measure
    module procedure nodecomm_measure_f08, nodecomm_measure_int
  end interface lat_nodecomm_measure

  !> All-pairs latency matrix, collective over comm (type(MPI_Comm) or an integer handle).
  interface lat_pair_matrix
    module procedure pair_matrix_f08, pair_matrix_int
  end interface lat_pair_matrix

  !> Queue-depth latency, collective over comm (type(MPI_Comm) or an integer handle).
  interface lat_queue_sweep
    module procedure queue_sweep_f08, queue_sweep_int
  end interface lat_queue_sweep

  !> Message-size sweep, collective over comm (type(MPI_Comm) or an integer handle).
  interface lat_size_sweep
    module procedure size_sweep_f08, size_sweep_int
  end interface lat_size_sweep

  !> Timer calibration, collective over comm (type(MPI_Comm) or an integer handle).
  interface lat_calibrate_timer
    module procedure calibrate_timer_f08, calibrate_timer_int
  end interface lat_calibrate_timer

  !> Ping-pong statistics, collective over comm (type(MPI_Comm) or an integer handle).
  interface lat_pingpong_stats
    module procedure pingpong_stats_f08, pingpong_stats_int
  end interface lat_pingpong_stats

  !> The paper's npp study, for type(MPI_Comm) or an integer handle.
  interface lat_npp_study
    module procedure npp_study_f08, npp_study_int
  end interface lat_npp_study

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
    function lat_timer_defaults_c(opts) bind(C, name="lat_timer_defaults") result(rc)
      import :: c_int, lat_timer_options
      type(lat_timer_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    ! The checks of the options (not collective): the rules the measurements apply, written once in C++.
    function lat_timer_check_c(opts, nprocs) bind(C, name="lat_timer_check") result(rc)
      import :: c_int, lat_timer_options
      type(lat_timer_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      integer(c_int) :: rc
    end function
    function lat_pingpong_check_c(opts, nprocs, timer) bind(C, name="lat_pingpong_check") result(rc)
      import :: c_int, c_ptr, lat_pingpong_options
      type(lat_pingpong_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      type(c_ptr), value :: timer
      integer(c_int) :: rc
    end function
    function lat_sweep_check_c(opts, nprocs, nsizes, sizes, timer) bind(C, name="lat_sweep_check") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_sweep_options
      type(lat_sweep_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes, timer
      integer(c_int) :: rc
    end function
    function lat_queue_check_c(opts, nprocs, nl, lengths, nf, fractions, ns, sizes, timer) &
        bind(C, name="lat_queue_check") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_queue_options
      type(lat_queue_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      integer(c_int64_t), value :: nl, nf, ns
      type(c_ptr), value :: lengths, fractions, sizes, timer
      integer(c_int) :: rc
    end function
    function lat_pair_check_c(opts, nprocs) bind(C, name="lat_pair_check") result(rc)
      import :: c_int, lat_pair_options
      type(lat_pair_options), intent(in) :: opts
      integer(c_int), value :: nprocs
      integer(c_int) :: rc
    end function
    function lat_nodecomm_check_c(opts, nsizes, sizes) bind(C, name="lat_nodecomm_check") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_nodecomm_options
      type(lat_nodecomm_options), intent(in) :: opts
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes
      integer(c_int) :: rc
    end function
    function lat_fit_check_c(opts) bind(C, name="lat_fit_check") result(rc)
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
    function lat_pingpong_defaults_c(opts) bind(C, name="lat_pingpong_defaults") result(rc)
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
        bind(C, name="lat_write_latency_files") result(rc)
      import :: c_int, c_char, c_double, c_ptr, lat_timer_result, lat_pingpong_result
      character(kind=c_char), intent(in) :: outdir(*), command_line(*)
      real(c_double), value :: program_seconds
      type(lat_timer_result), intent(in) :: timer
      type(c_ptr), value :: timer_hist
      type(lat_pingpong_result), intent(in) :: pp
      type(c_ptr), value :: pp_hist
      integer(c_int) :: rc
    end function
    function lat_write_latency_plots_c(outdir, pp, pp_hist) bind(C, name="lat_write_latency_plots") result(rc)
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
        bind(C, name="lat_npp_study_check") result(rc)
      import :: c_int, c_ptr, lat_pingpong_options
      type(lat_pingpong_options), intent(in) :: opts
      integer(c_int), value :: nprocs, nvalues
      type(c_ptr), value :: values
      integer(c_int), value :: by_res_npp
      integer(c_int) :: rc
    end function
    function lat_write_npp_study_files_c(outdir, command_line, pp, nrows, rows, render) &
        bind(C, name="lat_write_npp_study_files") result(rc)
      import :: c_int, c_char, lat_pingpong_result, lat_npp_study_row
      character(kind=c_char), intent(in) :: outdir(*), command_line(*)
      type(lat_pingpong_result), intent(in) :: pp
      integer(c_int), value :: nrows
      type(lat_npp_study_row), intent(in) :: rows(*)
      integer(c_int), value :: render
      integer(c_int) :: rc
    end function
    function lat_compare_defaults_c(opts) bind(C, name="lat_compare_defaults") result(rc)
      import :: c_int, lat_compare_options
      type(lat_compare_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_compare_distributions_c(na, a_values, a_counts, nb, b_values, b_counts, q, opts, result) &
        bind(C, name="lat_compare_distributions") result(rc)
      import :: c_int, c_int64_t, c_double, c_ptr, lat_compare_options, lat_compare_result
      integer(c_int64_t), value :: na, nb
      type(c_ptr), value :: a_values, b_values, a_counts, b_counts
      real(c_double), value :: q
      type(lat_compare_options), intent(in) :: opts
      type(lat_compare_result), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_compare_launches_c(na, a, nb, b, opts, result) bind(C, name="lat_compare_launches") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_compare_options, lat_compare_result
      integer(c_int64_t), value :: na, nb
      type(c_ptr), value :: a, b
      type(lat_compare_options), intent(in) :: opts
      type(lat_compare_result), intent(out) :: result
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
    function lat_sweep_defaults_c(opts) bind(C, name="lat_sweep_defaults") result(rc)
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
    function lat_sweep_run_c(opts, nsizes, sizes, measure, context, result) bind(C, name="lat_sweep_run") result(rc)
      import :: c_int, c_int64_t, c_ptr, c_funptr, lat_sweep_options
      type(lat_sweep_options), intent(in) :: opts
      integer(c_int64_t), value :: nsizes
      type(c_ptr), value :: sizes
      type(c_funptr), value :: measure
      type(c_ptr), value :: context
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_sweep_get_summary_c(sweep, summary) bind(C, name="lat_sweep_get_summary") result(rc)
      import :: c_int, c_ptr, lat_sweep_summary
      type(c_ptr), value :: sweep
      type(lat_sweep_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_sweep_get_point_c(sweep, i, point) bind(C, name="lat_sweep_get_point") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_sweep_point
      type(c_ptr), value :: sweep
      integer(c_int64_t), value :: i
      type(lat_sweep_point), intent(out) :: point
      integer(c_int) :: rc
    end function
    function lat_sweep_get_threshold_c(sweep, i, threshold) bind(C, name="lat_sweep_get_threshold") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_sweep_threshold
      type(c_ptr), value :: sweep
      integer(c_int64_t), value :: i
      type(lat_sweep_threshold), intent(out) :: threshold
      integer(c_int) :: rc
    end function
    function lat_sweep_get_line_c(sweep, i, line) bind(C, name="lat_sweep_get_line") result(rc)
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
    function lat_queue_defaults_c(opts) bind(C, name="lat_queue_defaults") result(rc)
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
    function lat_queue_get_summary_c(queue, summary) bind(C, name="lat_queue_get_summary") result(rc)
      import :: c_int, c_ptr, lat_queue_summary
      type(c_ptr), value :: queue
      type(lat_queue_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_queue_get_point_c(queue, i, point) bind(C, name="lat_queue_get_point") result(rc)
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
    function lat_pair_defaults_c(opts) bind(C, name="lat_pair_defaults") result(rc)
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
    function lat_pairs_get_summary_c(pairs, summary) bind(C, name="lat_pairs_get_summary") result(rc)
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
    function lat_write_pair_matrices_c(outdir, base, pairs, render) bind(C, name="lat_write_pair_matrices") &
        result(rc)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: outdir(*), base(*)
      type(c_ptr), value :: pairs
      integer(c_int), value :: render
      integer(c_int) :: rc
    end function
    function lat_fit_defaults_c(opts) bind(C, name="lat_fit_defaults") result(rc)
      import :: c_int, lat_fit_options
      type(lat_fit_options), intent(out) :: opts
      integer(c_int) :: rc
    end function
    function lat_fit_maxrate_c(opts, nobs, obs, result) bind(C, name="lat_fit_maxrate") result(rc)
      import :: c_int, c_int64_t, c_ptr, lat_fit_options
      type(lat_fit_options), intent(in) :: opts
      integer(c_int64_t), value :: nobs
      type(c_ptr), value :: obs
      type(c_ptr), intent(out) :: result
      integer(c_int) :: rc
    end function
    function lat_maxrate_get_summary_c(fit, summary) bind(C, name="lat_maxrate_get_summary") result(rc)
      import :: c_int, c_ptr, lat_fit_summary
      type(c_ptr), value :: fit
      type(lat_fit_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_maxrate_get_model_c(fit, regime, model, result) bind(C, name="lat_maxrate_get_model") result(rc)
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
    function lat_nodecomm_defaults_c(opts) bind(C, name="lat_nodecomm_defaults") result(rc)
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
    function lat_nodecomm_get_summary_c(h, summary) bind(C, name="lat_nodecomm_get_summary") result(rc)
      import :: c_int, c_ptr, lat_nodecomm_summary
      type(c_ptr), value :: h
      type(lat_nodecomm_summary), intent(out) :: summary
      integer(c_int) :: rc
    end function
    function lat_nodecomm_get_point_c(h, i, point) bind(C, name="lat_nodecomm_get_point") result(rc)
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
    function c_strlen(s) bind(C, name="strlen") result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function
  end interface

contains

  ! ---- helpers -------------------------------------------------------------------------------------------

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
    write (error_unit, '(a)') 'mpilat: '//where//': '//lat_strerror(int(rc))//': '//lat_last_error_message()
    error stop 1
  end subroutine handle

  !> An optional array argument for C: a contiguous copy (any stride, even reversed, reaches C in its own
  !> order), its address and length; c_null_ptr and 0 when absent or empty.
  subroutine int64_arg(values, copy, p, n)
    integer(c_int64_t), optional, intent(in) :: values(:)
    integer(c_int64_t), allocatable, target, intent(inout) :: copy(:)
    type(c_ptr), intent(out) :: p
    integer(c_int64_t), intent(out) :: n
    p = c_null_ptr
    n = 0
    if (.not. present(values)) return
    copy = values
    n = size(copy, kind=c_int64_t)
    if (n > 0) p = c_loc(copy(1))
  end subroutine int64_arg

  subroutine double_arg(values, copy, p, n)
    real(c_double), optional, intent(in) :: values(:)
    real(c_double), allocatable, target, intent(inout) :: copy(:)
    type(c_ptr), intent(out) :: p
    integer(c_int64_t), intent(out) :: n
    p = c_null_ptr
    n = 0
    if (.not. present(values)) return
    copy = values
    n = size(copy, kind=c_int64_t)
    if (n > 0) p = c_loc(copy(1))
  end subroutine double_arg

  function hist_arg(hist, want) result(p)
    type(lat_histogram), intent(inout), target :: hist
    logical, intent(in) :: want
    type(c_ptr) :: p
    p = c_null_ptr
    if (want) p = c_loc(hist%handle)
  end function hist_arg

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

  ! ---- timer calibration ---------------------------------------------------------------------------------

  subroutine lat_timer_defaults(opts)
    type(lat_timer_options), intent(out) :: opts
    integer(c_int) :: rc
    rc = lat_timer_defaults_c(opts)
  end subroutine lat_timer_defaults

  !> Collective over comm: resolution and minimum overhead of a clock (Luecke et al. section 3.1).
  !> hist, when present, receives the frequency table of the differences.
  subroutine calibrate_timer_f08(comm, opts, result, hist, ierr)
    type(MPI_Comm), intent(in) :: comm
    type(lat_timer_options), intent(in) :: opts
    type(lat_timer_result), intent(out) :: result
    type(lat_histogram), optional, intent(inout), target :: hist
    integer, optional, intent(out) :: ierr
    call calibrate_timer_int(comm%MPI_VAL, opts, result, hist, ierr)
  end subroutine calibrate_timer_f08

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


  subroutine lat_pingpong_defaults(opts)
    type(lat_pingpong_options), intent(out) :: opts
    integer(c_int) :: rc
    rc = lat_pingpong_defaults_c(opts)
  end subroutine lat_pingpong_defaults

  !> Collective over comm: ping-pong statistics between opts%source and opts%dest (sections 3.2-3.4).
  !> timer: a calibration of the source's clock; absent: calibrated here with opts%nr pairs.
  !> hist, when present, receives the frequency table of the measured times.
  subroutine pingpong_stats_f08(comm, opts, result, timer, hist, ierr)
    type(MPI_Comm), intent(in) :: comm
    type(lat_pingpong_options), intent(in) :: opts
    type(lat_pingpong_result), intent(out) :: result
    type(lat_timer_result), optional, intent(in), target :: timer
    type(lat_histogram), optional, intent(inout), target :: hist
    integer, optional, intent(out) :: ierr
    call pingpong_stats_int(comm%MPI_VAL, opts, result, timer, hist, ierr)
  end subroutine pingpong_stats_f08

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

  ! ---- frequency tables ----------------------------------------------------------------------------------

  !> The distinct values (microseconds, ascending) and their counts, in arrays allocated here.
  subroutine lat_histogram_get(hist, values_us, counts, ierr)
    type(lat_histogram), intent(in) :: hist
    real(c_double), allocatable, intent(out) :: values_us(:)
    integer(c_int64_t), allocatable, intent(out) :: counts(:)
    integer, optional, intent(out) :: ierr
    integer(c_int64_t) :: n
    integer(c_int) :: rc
    n = 0
    rc = lat_histogram_size_c(hist%handle, n)
    allocate (values_us(n), counts(n))
    if (rc == LAT_SUCCESS .and. n > 0) rc = lat_histogram_get_c(hist%handle, n, values_us, counts)
    call handle(rc, 'lat_histogram_get', ierr)
  end subroutine lat_histogram_get

  !> Frees the table; an empty handle is accepted.
  subroutine lat_histogram_free(hist)
    type(lat_histogram), intent(inout) :: hist
    integer(c_int) :: rc
    if (c_associated(hist%handle)) rc = lat_histogram_free_c(hist%handle)
    hist%handle = c_null_ptr
  end subroutine lat_histogram_free

  ! ---- statistics and the npp rule (not collective) ------------------------------------------------------

  !> Statistics of values_us for a message of bytes bytes, with the definitions of include/mpilat.h.
  subroutine lat_stats_compute(values_us, bytes, stats, ierr)
    real(c_double), intent(in) :: values_us(:)
    integer(c_int64_t), intent(in) :: bytes
    type(lat_stats), intent(out) :: stats
    integer, optional, intent(out) :: ierr
    real(c_double) :: dummy(1)
    integer(c_int) :: rc
    if (size(values_us) > 0) then
      rc = lat_stats_compute_c(size(values_us, kind=c_int64_t), values_us, bytes, stats)
    else
      dummy = 0
      rc = lat_stats_compute_c(0_c_int64_t, dummy, bytes, stats)
    end if
    call handle(rc, 'lat_stats_compute', ierr)
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

  ! ---- reports -------------------------------------------------------------------------------------------

  !> Writes latency.output, latency.summary.output and latency.json into outdir, whole or not at all.
  subroutine lat_write_latency_files(outdir, command_line, program_seconds, timer, timer_hist, pp, pp_hist, ierr)
    character(len=*), intent(in) :: outdir, command_line
    real(c_double), intent(in) :: program_seconds
    type(lat_timer_result), intent(in) :: timer
    type(lat_histogram), intent(in) :: timer_hist
    type(lat_pingpong_result), intent(in) :: pp
    type(lat_histogram), intent(in) :: pp_hist
    integer, optional, intent(out) :: ierr
    integer(c_int) :: rc
    rc = lat_write_latency_files_c(trim(outdir)//c_null_char, trim(command_line)//c_null_char, &
                                   program_seconds, timer, timer_hist%handle, pp, pp_hist%handle)
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
  subroutine npp_study_f08(comm, opts, values, by_res_npp, result, rows, timer, ierr)
    type(MPI_Comm), intent(in) :: comm
    type(lat_pingpong_options), intent(in) :: opts
    integer(c_int64_t), intent(in) :: values(:)
    logical, intent(in) :: by_res_npp
    type(lat_pingpong_result), intent(out) :: result
    type(lat_npp_study_row), allocatable, intent(out) :: rows(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    call npp_study_int(comm%MPI_VAL, opts, values, by_res_npp, result, rows, timer, ierr)
  end subroutine npp_study_f08

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
    type(lat_npp_study_row), allocatable :: room(:)
    type(c_ptr) :: timer_p, values_p
    integer(c_int64_t) :: n
    timer_p = c_null_ptr
    if (present(timer)) timer_p = c_loc(timer)
    call int64_arg(values, copy, values_p, n)
    allocate (room(max(n, 1_c_int64_t)))  ! never empty for C (an empty list is refused there, with its count)
    call handle(lat_npp_study_c(int(comm, c_int), opts, timer_p, int(n, c_int), values_p, &
                                merge(1_c_int, 0_c_int, by_res_npp), result, room), 'lat_npp_study', ierr)
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
    type(lat_npp_study_row), allocatable :: copy(:)
    copy = rows
    if (size(copy) == 0) allocate (copy(1))
    call handle(lat_write_npp_study_files_c(trim(outdir)//c_null_char, trim(command_line)//c_null_char, pp, &
                                            size(rows, kind=c_int), copy, merge(1_c_int, 0_c_int, render)), &
                'lat_write_npp_study_files', ierr)
  end subroutine lat_write_npp_study_files

  !> Fills opts with the comparisons' defaults (95 %, 10,000 resamples, seed 1).
  subroutine lat_compare_defaults(opts)
    type(lat_compare_options), intent(out) :: opts
    integer(c_int) :: rc
    rc = lat_compare_defaults_c(opts)
  end subroutine lat_compare_defaults

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

  !> Compares two groups of launch values (at least 3 each): bootstrap over launches.
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

  ! ---- size sweep (Gropp & Lusk) --------------------------------------------------------------------------

  !> Fills opts with the defaults of include/mpilat.h.
  subroutine lat_sweep_defaults(opts)
    type(lat_sweep_options), intent(out) :: opts
    integer(c_int) :: rc
    rc = lat_sweep_defaults_c(opts)
  end subroutine lat_sweep_defaults

  !> Collective over comm: minimum-of-averages times over message sizes (docs/method.md).
  !> sizes: distinct ascending sizes in bytes; absent: the grid of opts. timer: the leading rank's
  !> calibration; absent: calibrated there with opts%nr pairs. Free result with lat_sweep_free.
  subroutine size_sweep_f08(comm, opts, result, sizes, timer, ierr)
    type(MPI_Comm), intent(in) :: comm
    type(lat_sweep_options), intent(in) :: opts
    type(lat_sweep), intent(inout) :: result
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    call size_sweep_int(comm%MPI_VAL, opts, result, sizes, timer, ierr)
  end subroutine size_sweep_f08

  subroutine size_sweep_int(comm, opts, result, sizes, timer, ierr)
    integer, intent(in) :: comm
    type(lat_sweep_options), intent(in) :: opts
    type(lat_sweep), intent(inout) :: result
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: sizes_p, timer_p
    integer(c_int64_t) :: n
    integer(c_int64_t), allocatable, target :: sizes_copy(:)
    integer(c_int) :: rc
    call lat_sweep_free(result)
    timer_p = c_null_ptr
    call int64_arg(sizes, sizes_copy, sizes_p, n)
    if (present(timer)) timer_p = c_loc(timer)
    rc = lat_size_sweep_c(int(comm, c_int), opts, n, sizes_p, timer_p, result%handle)
    call handle(rc, 'lat_size_sweep', ierr)
  end subroutine size_sweep_int

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

  !> The summary of a sweep.
  subroutine lat_sweep_get_summary(sweep, summary, ierr)
    type(lat_sweep), intent(in) :: sweep
    type(lat_sweep_summary), intent(out) :: summary
    integer, optional, intent(out) :: ierr
    call handle(lat_sweep_get_summary_c(sweep%handle, summary), 'lat_sweep_get_summary', ierr)
  end subroutine lat_sweep_get_summary

  !> All points of a sweep, ascending size, in an array allocated here.
  subroutine lat_sweep_points(sweep, points, ierr)
    type(lat_sweep), intent(in) :: sweep
    type(lat_sweep_point), allocatable, intent(out) :: points(:)
    integer, optional, intent(out) :: ierr
    type(lat_sweep_summary) :: s
    integer(c_int) :: rc
    integer(c_int64_t) :: i
    rc = lat_sweep_get_summary_c(sweep%handle, s)
    if (rc /= LAT_SUCCESS) s%nsizes = 0
    allocate (points(s%nsizes))
    do i = 1, s%nsizes
      if (rc == LAT_SUCCESS) rc = lat_sweep_get_point_c(sweep%handle, i - 1, points(i))
    end do
    call handle(rc, 'lat_sweep_points', ierr)
  end subroutine lat_sweep_points

  !> All detected thresholds of a sweep, in an array allocated here.
  subroutine lat_sweep_thresholds(sweep, thresholds, ierr)
    type(lat_sweep), intent(in) :: sweep
    type(lat_sweep_threshold), allocatable, intent(out) :: thresholds(:)
    integer, optional, intent(out) :: ierr
    type(lat_sweep_summary) :: s
    integer(c_int) :: rc
    integer(c_int64_t) :: i
    rc = lat_sweep_get_summary_c(sweep%handle, s)
    if (rc /= LAT_SUCCESS) s%nthresholds = 0
    allocate (thresholds(s%nthresholds))
    do i = 1, s%nthresholds
      if (rc == LAT_SUCCESS) rc = lat_sweep_get_threshold_c(sweep%handle, i - 1, thresholds(i))
    end do
    call handle(rc, 'lat_sweep_thresholds', ierr)
  end subroutine lat_sweep_thresholds

  !> The startup and rate lines of a sweep, one per regime between steps, in an array allocated here.
  subroutine lat_sweep_lines(sweep, lines, ierr)
    type(lat_sweep), intent(in) :: sweep
    type(lat_sweep_line), allocatable, intent(out) :: lines(:)
    integer, optional, intent(out) :: ierr
    type(lat_sweep_summary) :: s
    integer(c_int) :: rc
    integer(c_int64_t) :: i
    rc = lat_sweep_get_summary_c(sweep%handle, s)
    if (rc /= LAT_SUCCESS) s%nlines = 0
    allocate (lines(s%nlines))
    do i = 1, s%nlines
      if (rc == LAT_SUCCESS) rc = lat_sweep_get_line_c(sweep%handle, i - 1, lines(i))
    end do
    call handle(rc, 'lat_sweep_lines', ierr)
  end subroutine lat_sweep_lines

  !> The samples of point i (1-based, as lat_sweep_points numbers them), in measurement order.
  subroutine lat_sweep_get_samples(sweep, i, values_us, ierr)
    type(lat_sweep), intent(in) :: sweep
    integer, intent(in) :: i
    real(c_double), allocatable, intent(out) :: values_us(:)
    integer, optional, intent(out) :: ierr
    type(lat_sweep_point) :: p
    integer(c_int) :: rc
    integer(c_int64_t) :: n
    p%samples = 0
    p%rerun_samples = 0
    rc = lat_sweep_get_point_c(sweep%handle, int(i - 1, c_int64_t), p)
    n = p%samples + p%rerun_samples
    allocate (values_us(max(n, 1_c_int64_t)))
    if (rc == LAT_SUCCESS) rc = lat_sweep_get_samples_c(sweep%handle, int(i - 1, c_int64_t), n, values_us)
    values_us = values_us(1:n)
    call handle(rc, 'lat_sweep_get_samples', ierr)
  end subroutine lat_sweep_get_samples

  !> Frees the result; an empty handle is accepted.
  subroutine lat_sweep_free(sweep)
    type(lat_sweep), intent(inout) :: sweep
    integer(c_int) :: rc
    if (c_associated(sweep%handle)) rc = lat_sweep_free_c(sweep%handle)
    sweep%handle = c_null_ptr
  end subroutine lat_sweep_free

  !> Writes <base>.csv and .json into outdir, whole or not at all; with render <base>.png (gnuplot), with
  !> gnuplot <base>.gpl and .gcm (mpptest's -gnuplot files), with table_path the results table there
  !> ("-": on standard output).
  subroutine lat_write_sweep_files(outdir, base, command_line, sweep, render, gnuplot, table_path, ierr)
    character(len=*), intent(in) :: outdir, base, command_line
    type(lat_sweep), intent(in) :: sweep
    logical, intent(in) :: render
    logical, optional, intent(in) :: gnuplot
    character(len=*), optional, intent(in) :: table_path
    integer, optional, intent(out) :: ierr
    integer(c_int) :: rc, flags
    flags = merge(LAT_SWEEP_FILES_PNG, 0, render)
    if (present(gnuplot)) then
      if (gnuplot) flags = flags + LAT_SWEEP_FILES_GNUPLOT
    end if
    if (present(table_path)) then
      rc = lat_write_sweep_files_c(trim(outdir)//c_null_char, trim(base)//c_null_char, &
                                   trim(command_line)//c_null_char, sweep%handle, flags, trim(table_path)//c_null_char)
    else
      rc = lat_write_sweep_files_c(trim(outdir)//c_null_char, trim(base)//c_null_char, &
                                   trim(command_line)//c_null_char, sweep%handle, flags, c_null_char)
    end if
    call handle(rc, 'lat_write_sweep_files', ierr)
  end subroutine lat_write_sweep_files

  ! ---- queue-depth latency (Underwood & Brightwell) -----------------------------------------------------

  !> Fills opts with the defaults of include/mpilat.h.
  subroutine lat_queue_defaults(opts)
    type(lat_queue_options), intent(out) :: opts
    integer(c_int) :: rc
    rc = lat_queue_defaults_c(opts)
  end subroutine lat_queue_defaults

  !> Collective over comm: latency against posted or unexpected queue length (docs/method.md, "Queues").
  !> Absent lists take the defaults (lengths 0..1000 by 100, fractions 0..100 by 25, size 0).
  subroutine queue_sweep_f08(comm, opts, result, lengths, fractions_percent, sizes, timer, ierr)
    type(MPI_Comm), intent(in) :: comm
    type(lat_queue_options), intent(in) :: opts
    type(lat_queue), intent(inout) :: result
    integer(c_int64_t), optional, intent(in) :: lengths(:), sizes(:)
    real(c_double), optional, intent(in) :: fractions_percent(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    call queue_sweep_int(comm%MPI_VAL, opts, result, lengths, fractions_percent, sizes, timer, ierr)
  end subroutine queue_sweep_f08

  subroutine queue_sweep_int(comm, opts, result, lengths, fractions_percent, sizes, timer, ierr)
    integer, intent(in) :: comm
    type(lat_queue_options), intent(in) :: opts
    type(lat_queue), intent(inout) :: result
    integer(c_int64_t), optional, intent(in) :: lengths(:), sizes(:)
    real(c_double), optional, intent(in) :: fractions_percent(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: lp, fp, sp, tp
    integer(c_int64_t) :: nl, nf, ns
    integer(c_int64_t), allocatable, target :: lengths_copy(:), sizes_copy(:)
    real(c_double), allocatable, target :: fractions_copy(:)
    call lat_queue_free(result)
    tp = c_null_ptr
    call int64_arg(lengths, lengths_copy, lp, nl)
    call double_arg(fractions_percent, fractions_copy, fp, nf)
    call int64_arg(sizes, sizes_copy, sp, ns)
    if (present(timer)) tp = c_loc(timer)
    call handle(lat_queue_sweep_c(int(comm, c_int), opts, nl, lp, nf, fp, ns, sp, tp, result%handle), &
                'lat_queue_sweep', ierr)
  end subroutine queue_sweep_int

  !> The summary of a queue sweep.
  subroutine lat_queue_get_summary(queue, summary, ierr)
    type(lat_queue), intent(in) :: queue
    type(lat_queue_summary), intent(out) :: summary
    integer, optional, intent(out) :: ierr
    call handle(lat_queue_get_summary_c(queue%handle, summary), 'lat_queue_get_summary', ierr)
  end subroutine lat_queue_get_summary

  !> All points (size, then fraction, then length), in an array allocated here.
  subroutine lat_queue_points(queue, points, ierr)
    type(lat_queue), intent(in) :: queue
    type(lat_queue_point), allocatable, intent(out) :: points(:)
    integer, optional, intent(out) :: ierr
    type(lat_queue_summary) :: s
    integer(c_int) :: rc
    integer(c_int64_t) :: i
    rc = lat_queue_get_summary_c(queue%handle, s)
    if (rc /= LAT_SUCCESS) s%npoints = 0
    allocate (points(s%npoints))
    do i = 1, s%npoints
      if (rc == LAT_SUCCESS) rc = lat_queue_get_point_c(queue%handle, i - 1, points(i))
    end do
    call handle(rc, 'lat_queue_points', ierr)
  end subroutine lat_queue_points

  !> Frees the result; an empty handle is accepted.
  subroutine lat_queue_free(queue)
    type(lat_queue), intent(inout) :: queue
    integer(c_int) :: rc
    if (c_associated(queue%handle)) rc = lat_queue_free_c(queue%handle)
    queue%handle = c_null_ptr
  end subroutine lat_queue_free

  !> Writes queuelat.txt, .csv, .json, .gp and, when render, .png into outdir, whole or not at all.
  subroutine lat_write_queue_files(outdir, command_line, queue, render, ierr)
    character(len=*), intent(in) :: outdir, command_line
    type(lat_queue), intent(in) :: queue
    logical, intent(in) :: render
    integer, optional, intent(out) :: ierr
    call handle(lat_write_queue_files_c(trim(outdir)//c_null_char, trim(command_line)//c_null_char, queue%handle, &
                                        merge(1_c_int, 0_c_int, render)), 'lat_write_queue_files', ierr)
  end subroutine lat_write_queue_files

  ! ---- all-pairs latency matrix (mmpi) --------------------------------------------------------------------

  !> Fills opts with the defaults of include/mpilat.h.
  subroutine lat_pair_defaults(opts)
    type(lat_pair_options), intent(out) :: opts
    integer(c_int) :: rc
    rc = lat_pair_defaults_c(opts)
  end subroutine lat_pair_defaults

  !> Collective over comm: round-trip latency between every pair of ranks (docs/method.md, "Pair matrix").
  subroutine pair_matrix_f08(comm, opts, pairs, ierr)
    type(MPI_Comm), intent(in) :: comm
    type(lat_pair_options), intent(in) :: opts
    type(lat_pairs), intent(inout) :: pairs
    integer, optional, intent(out) :: ierr
    call pair_matrix_int(comm%MPI_VAL, opts, pairs, ierr)
  end subroutine pair_matrix_f08

  subroutine pair_matrix_int(comm, opts, pairs, ierr)
    integer, intent(in) :: comm
    type(lat_pair_options), intent(in) :: opts
    type(lat_pairs), intent(inout) :: pairs
    integer, optional, intent(out) :: ierr
    call lat_pairs_free(pairs)
    call handle(lat_pair_matrix_c(int(comm, c_int), opts, pairs%handle), 'lat_pair_matrix', ierr)
  end subroutine pair_matrix_int

  !> The summary of a pair matrix.
  subroutine lat_pairs_get_summary(pairs, summary, ierr)
    type(lat_pairs), intent(in) :: pairs
    type(lat_pair_summary), intent(out) :: summary
    integer, optional, intent(out) :: ierr
    call handle(lat_pairs_get_summary_c(pairs%handle, summary), 'lat_pairs_get_summary', ierr)
  end subroutine lat_pairs_get_summary

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

  !> Frees the result; an empty handle is accepted.
  subroutine lat_pairs_free(pairs)
    type(lat_pairs), intent(inout) :: pairs
    integer(c_int) :: rc
    if (c_associated(pairs%handle)) rc = lat_pairs_free_c(pairs%handle)
    pairs%handle = c_null_ptr
  end subroutine lat_pairs_free

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

  !> Writes <base>_comm.dat, _var.dat, .csv, _heatmap.gp and, when render, _heatmap.png and .svg.
  subroutine lat_write_pair_matrices(outdir, base, pairs, render, ierr)
    character(len=*), intent(in) :: outdir, base
    type(lat_pairs), intent(in) :: pairs
    logical, intent(in) :: render
    integer, optional, intent(out) :: ierr
    call handle(lat_write_pair_matrices_c(trim(outdir)//c_null_char, trim(base)//c_null_char, pairs%handle, &
                                          merge(1_c_int, 0_c_int, render)), 'lat_write_pair_matrices', ierr)
  end subroutine lat_write_pair_matrices

  ! ---- the max-rate model and the nodecomm measurement --------------------------------------------------

  !> Fills opts with the defaults of include/mpilat.h (regimes detected by segmented regression, noise_rel 0.002).
  subroutine lat_fit_defaults(opts)
    type(lat_fit_options), intent(out) :: opts
    integer(c_int) :: rc
    rc = lat_fit_defaults_c(opts)
  end subroutine lat_fit_defaults

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

  !> The fit's summary.
  subroutine lat_maxrate_get_summary(fit, summary, ierr)
    type(lat_maxrate_fit), intent(in) :: fit
    type(lat_fit_summary), intent(out) :: summary
    integer, optional, intent(out) :: ierr
    call handle(lat_maxrate_get_summary_c(fit%handle, summary), 'lat_maxrate_get_summary', ierr)
  end subroutine lat_maxrate_get_summary

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

  !> Frees the fit; an empty handle is accepted.
  subroutine lat_maxrate_free(fit)
    type(lat_maxrate_fit), intent(inout) :: fit
    integer(c_int) :: rc
    if (c_associated(fit%handle)) rc = lat_maxrate_free_c(fit%handle)
    fit%handle = c_null_ptr
  end subroutine lat_maxrate_free

  !> Fills opts with the defaults of include/mpilat.h.
  subroutine lat_nodecomm_defaults(opts)
    type(lat_nodecomm_options), intent(out) :: opts
    integer(c_int) :: rc
    rc = lat_nodecomm_defaults_c(opts)
  end subroutine lat_nodecomm_defaults

  !> Collective over comm: k = 1..K pairs between two nodes (or a node's halves); sizes optional.
  subroutine nodecomm_measure_f08(comm, opts, result, sizes, ierr)
    type(MPI_Comm), intent(in) :: comm
    type(lat_nodecomm_options), intent(in) :: opts
    type(lat_nodecomm), intent(inout) :: result
    integer(c_int64_t), optional, intent(in) :: sizes(:)
    integer, optional, intent(out) :: ierr
    call nodecomm_measure_int(comm%MPI_VAL, opts, result, sizes, ierr)
  end subroutine nodecomm_measure_f08

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

  !> The summary of a nodecomm measurement.
  subroutine lat_nodecomm_get_summary(nodecomm, summary, ierr)
    type(lat_nodecomm), intent(in) :: nodecomm
    type(lat_nodecomm_summary), intent(out) :: summary
    integer, optional, intent(out) :: ierr
    call handle(lat_nodecomm_get_summary_c(nodecomm%handle, summary), 'lat_nodecomm_get_summary', ierr)
  end subroutine lat_nodecomm_get_summary

  !> All points (sizes ascending, k = 1..K within a size), in an array allocated here.
  subroutine lat_nodecomm_points(nodecomm, points, ierr)
    type(lat_nodecomm), intent(in) :: nodecomm
    type(lat_nodecomm_point), allocatable, intent(out) :: points(:)
    integer, optional, intent(out) :: ierr
    type(lat_nodecomm_summary) :: s
    integer(c_int) :: rc
    integer(c_int64_t) :: i
    rc = lat_nodecomm_get_summary_c(nodecomm%handle, s)
    if (rc /= LAT_SUCCESS) s%npoints = 0
    allocate (points(s%npoints))
    do i = 1, s%npoints
      if (rc == LAT_SUCCESS) rc = lat_nodecomm_get_point_c(nodecomm%handle, i - 1, points(i))
    end do
    call handle(rc, 'lat_nodecomm_points', ierr)
  end subroutine lat_nodecomm_points

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

  !> Frees the measurement; an empty handle is accepted.
  subroutine lat_nodecomm_free(nodecomm)
    type(lat_nodecomm), intent(inout) :: nodecomm
    integer(c_int) :: rc
    if (c_associated(nodecomm%handle)) rc = lat_nodecomm_free_c(nodecomm%handle)
    nodecomm%handle = c_null_ptr
  end subroutine lat_nodecomm_free

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

end module mpilat
