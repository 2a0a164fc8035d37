/**
 * @file mpilat.h
 * @brief The whole public C ABI of mpilat: MPI latency measured the way the literature says it must be.
 *
 * Conventions (see docs/api.md):
 * - Every function returns an int: LAT_SUCCESS (0) or one of LAT_ERR_*; lat_strerror() names the code,
 *   lat_last_error_message() gives the detail of the last failure on the calling thread.
 * - Options come in structs initialised by lat_*_defaults() (a NULL options pointer is refused everywhere);
 *   results come back in plain structs of
 *   int64_t, double and int that Fortran mirrors with bind(C) (module mpilat).
 * - All times are in microseconds (suffix _us), all rates in MB/s with MB = 10^6 bytes (suffix _mbs).
 * - Collective functions work on their own duplicate of the caller's communicator (with
 *   MPI_ERRORS_RETURN attached), so they never disturb the application's messages. Their arguments are
 *   validated on every rank and the verdict agreed before any message is timed: a bad value on one rank
 *   is an error returned on every rank (LAT_ERR_ARG, the message naming the rank and the value), never a
 *   hang. Values that must be equal on all ranks but differ are LAT_ERR_ARG too.
 *
 * Statistics (identical definitions everywhere in mpilat; Appendix C of Luecke et al. 2009 checks them):
 * - median: of the sorted values x(1) <= ... <= x(N): x((N+1)/2) for odd N, (x(N/2) + x(N/2+1)) / 2 for even N.
 * - mean: sum(x) / N.  variance: sum((x - mean)^2) / (N - 1), 0 when N == 1 (sample variance).
 * - stddev: sqrt(variance).  coefficient of variation: 100 * stddev / mean, in percent.
 * - standard error: stddev / sqrt(N).  relative standard error: standard error / mean (a fraction).
 * - rate: message bytes / time in microseconds = MB/s; 0 when the time is not positive (undefined).
 */
#ifndef MPILAT_H
#define MPILAT_H

#include <mpi.h>
#include <stdint.h>

#include "mpilat_constants.h"
#include "mpilat_types.h"  /* the option and result structs, generated from spec/ */
#include "mpilat_version.h"

#if MPILAT_BUILT_WITH_MPICH && !defined(MPICH_VERSION)
#error "mpilat was built with MPICH, but this compilation's mpi.h is another MPI's: compile with MPICH's mpicc, or rebuild mpilat with this MPI"
#endif
#if MPILAT_BUILT_WITH_OPENMPI && !defined(OMPI_MAJOR_VERSION)
#error "mpilat was built with Open MPI, but this compilation's mpi.h is another MPI's: compile with Open MPI's mpicc, or rebuild mpilat with this MPI"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The enums below are made from the lists of mpilat_constants.h, which says what each value means. */
#define LAT_C_ENUMERATOR(name, value) name = value,

/* ---------------------------------------------------------------------------------------------------
 * Errors and versions
 * ------------------------------------------------------------------------------------------------- */

/** Return codes of every mpilat function. */
enum lat_error { LAT_ERROR_CODES(LAT_C_ENUMERATOR) };

/** A static English description of an error code ("invalid argument"); never NULL. */
const char *lat_strerror(int code);

/** Detail of the last error on the calling thread ("ntrial must be >= 1, got 0"); "" if none. Every function
    returning a code clears it when it starts (since API 10), except lat_request_stop, which is for signal
    handlers and leaves it as it is. */
const char *lat_last_error_message(void);

/** The LAT_API_VERSION the library was built with; compare with the header's LAT_API_VERSION. */
int lat_get_api_version(void);

/** The library version; any pointer may be NULL. */
int lat_get_version(int *major, int *minor, int *patch);

/** Asks a running measurement to stop at the next safe point (between trials) and return what it has.
    Async-signal-safe: call it from a SIGTERM/SIGINT handler. The measuring call returns
    LAT_ERR_INTERRUPTED with its result marked partial (ntrial_done < ntrial). */
int lat_request_stop(void);

/** Clears a stop requested by lat_request_stop(), so later measurements run normally. */
int lat_clear_stop(void);

/* ---------------------------------------------------------------------------------------------------
 * Timers
 * ------------------------------------------------------------------------------------------------- */

/** The clocks mpilat can time with. */
enum lat_timer_kind { LAT_TIMER_KINDS(LAT_C_ENUMERATOR) };

/** Whether a timer kind can be used on this machine: *available = 1 or 0. Not collective. */
int lat_timer_available(int timer, int *available);

/** The name of a timer kind ("mpi_wtime", "monotonic_raw", "tsc"), or "unknown". */
const char *lat_timer_name(int timer);

/** Every timer kind's name, as a message lists them: "mpi_wtime, monotonic_raw or tsc". */
const char *lat_timer_names(void);

/** Parses a timer name as given to the drivers' --timer option into a lat_timer_kind. */
int lat_timer_from_name(const char *name, int *timer);

/* ---------------------------------------------------------------------------------------------------
 * Distributions: the table of distinct measured values and their frequencies
 * ------------------------------------------------------------------------------------------------- */

/** Opaque handle to a frequency table (distinct values in ascending order with their counts). */
typedef struct lat_histogram_s *lat_histogram;

/** Number of distinct values in the table. */
int lat_histogram_size(lat_histogram hist, int64_t *nvalues);

/** Copies the first min(n, size) distinct values (microseconds, ascending) and their counts into
    caller buffers of length n. */
int lat_histogram_get(lat_histogram hist, int64_t n, double *values_us, int64_t *counts);

/** Frees the table and sets *hist to NULL; a NULL *hist is accepted. */
int lat_histogram_free(lat_histogram *hist);


/* ---------------------------------------------------------------------------------------------------
 * Timer calibration (Luecke et al. 2009, section 3.1)
 * ------------------------------------------------------------------------------------------------- */


/* The structs lat_timer_options, lat_timer_result: include/mpilat_types.h, generated from spec/. */
/** Fills opts with the defaults above. */
int lat_timer_defaults(lat_timer_options *opts);

/** Checks opts as lat_calibrate_timer() would on a communicator of nprocs processes, seen from the
    calibrating rank (the timer must exist on this machine): LAT_SUCCESS, or LAT_ERR_ARG with
    lat_last_error_message() naming the option and its value. Not collective: no MPI call. */
int lat_timer_check(const lat_timer_options *opts, int nprocs);

/**
 * Measures the resolution and minimum overhead of a clock from opts->nr back-to-back pairs of reads
 * (res_timing = min positive difference, min_ov = min non-negative difference).
 * Collective over comm. With opts->rank == LAT_ALL_RANKS every rank measures and gets its own clock's
 * result; otherwise that rank measures (the others wait, yielding the processor) and every rank gets
 * its result. hist may be NULL; otherwise *hist receives the frequency table of the differences, to be
 * freed with lat_histogram_free().
 */
int lat_calibrate_timer(MPI_Comm comm, const lat_timer_options *opts, lat_timer_result *result,
                        lat_histogram *hist);

/* ---------------------------------------------------------------------------------------------------
 * Ping-pong statistics (Luecke et al. 2009, sections 3.2-3.4)
 * ------------------------------------------------------------------------------------------------- */


/* The structs lat_pingpong_options, lat_stats, lat_quantiles, lat_rank_place: include/mpilat_types.h, generated from spec/. */
/** Values of lat_pingpong_result.partial. */
enum lat_partial_cause { LAT_PARTIAL_CAUSES(LAT_C_ENUMERATOR) };
/** Values of lat_pingpong_result.stopped_in. */
enum lat_run_phase { LAT_RUN_PHASES(LAT_C_ENUMERATOR) };
/** Values of lat_model_fit.verdict. */
enum lat_fit_verdict { LAT_FIT_VERDICTS(LAT_C_ENUMERATOR) };
/** Values of lat_pingpong_result.ended_by. */
enum lat_run_end { LAT_RUN_ENDS(LAT_C_ENUMERATOR) };

/* The structs lat_pingpong_result: include/mpilat_types.h, generated from spec/. */
/** Fills opts with the defaults above. */
int lat_pingpong_defaults(lat_pingpong_options *opts);

/** Checks opts (and timer, the calibration to be passed, or NULL) as lat_pingpong_stats() would on a
    communicator of nprocs processes, seen from the source rank: LAT_SUCCESS, or LAT_ERR_ARG with
    lat_last_error_message() naming the option and its value ("ntrial must be >= 1, got 0"). The same rules
    the measurement applies, so callers and drivers never write them again. Not collective. */
int lat_pingpong_check(const lat_pingpong_options *opts, int nprocs, const lat_timer_result *timer);

/**
 * Ping-pong latency between ranks opts->source and opts->dest, timed on source as in Luecke et al.:
 * each trial is a barrier of the two ranks, a hand-shake (dest sends, source receives), then
 * t1 = clock; npp x (send, recv); t2 = clock; time = (t2 - t1 - min_ov) / (2 npp).
 * When opts->npp == 0, npp = nint(max(1, res_npp * res_timing / median_ppt)) from npptrial trials of
 * npp_init ping-pongs. Then ntrial trials; statistics of all of them and of those <= cut_coef * median.
 * Collective over comm: ranks other than source and dest wait yielding the processor.
 * timer: a calibration from lat_calibrate_timer() on the source rank, or NULL to calibrate here with
 * opts->nr pairs on source. hist: NULL, or receives the frequency table of the measured times (us,
 * divided by two), on every rank where it is not NULL. On LAT_ERR_INTERRUPTED the result and the
 * table hold the trials measured before the stop.
 */
int lat_pingpong_stats(MPI_Comm comm, const lat_pingpong_options *opts, const lat_timer_result *timer,
                       lat_pingpong_result *result, lat_histogram *hist);

/* ---------------------------------------------------------------------------------------------------
 * Message-size sweep, the mpptest way (Gropp & Lusk 1999; docs/method.md, "Size sweep")
 * ------------------------------------------------------------------------------------------------- */

/** What one operation of a sweep is (lat_sweep_options.pattern). */
enum lat_sweep_pattern { LAT_SWEEP_PATTERNS(LAT_C_ENUMERATOR) };
/** The collective operation of LAT_SWEEP_GOP (mpilat_constants.h). */
enum lat_sweep_gop { LAT_SWEEP_GOPS(LAT_C_ENUMERATOR) };

/** Why a sweep ended (lat_sweep_summary.end). */
enum lat_sweep_end { LAT_SWEEP_ENDS(LAT_C_ENUMERATOR) };

/* The structs lat_sweep_options, lat_sweep_point, lat_sweep_threshold, lat_sweep_line, lat_sweep_summary: include/mpilat_types.h, generated from spec/. */
/** Opaque handle to the result of a sweep; free with lat_sweep_free(). */
typedef struct lat_sweep_s *lat_sweep;

/** A measuring function for lat_sweep_run(): one sample of `size`, time per operation in *time_us.
    A nonzero return ends the sweep with that code. */
typedef int (*lat_measure_fn)(int64_t size, void *context, double *time_us);

/** Fills opts with the defaults above. */
int lat_sweep_defaults(lat_sweep_options *opts);

/** Checks the arguments as lat_size_sweep() would on a communicator of nprocs processes (seen from the
    leading rank), or as lat_sweep_run() would when nprocs is 0: LAT_SUCCESS, or LAT_ERR_ARG naming the
    option and its value. Not collective. */
int lat_sweep_check(const lat_sweep_options *opts, int nprocs, int64_t nsizes, const int64_t *sizes,
                    const lat_timer_result *timer);

/**
 * Minimum-of-averages times over message sizes between two ranks (or all pairs with opts->bisect):
 * passes over all sizes interleave the samples over the whole run; a pair is warmed up before anything
 * is timed; with opts->adaptive the grid is refined where straight lines misfit; sizes above their
 * neighbours' line are measured again; the steps of the curve are reported.
 * sizes: nsizes distinct ascending sizes in bytes, or nsizes == 0 and sizes NULL for the grid of opts.
 * timer: the leading rank's calibration (lat_calibrate_timer), or NULL to calibrate there with opts->nr.
 * Collective over comm: ranks outside the pair(s) wait yielding the processor. *result, on every rank,
 * receives the handle (also on LAT_ERR_INTERRUPTED, with the points measured so far), else NULL.
 */
int lat_size_sweep(MPI_Comm comm, const lat_sweep_options *opts, int64_t nsizes, const int64_t *sizes,
                   const lat_timer_result *timer, lat_sweep *result);

/**
 * The same schedule, refinement, rerun and step detection with any measuring function, without MPI
 * (for other measurements, or tests with a synthetic timing function). Fields of opts about MPI,
 * patterns and the timer are ignored; n_avg is reported as 1. Not collective.
 */
int lat_sweep_run(const lat_sweep_options *opts, int64_t nsizes, const int64_t *sizes, lat_measure_fn measure,
                  void *context, lat_sweep *result);

/** The summary of a sweep. */
int lat_sweep_get_summary(lat_sweep sweep, lat_sweep_summary *summary);

/** Point i (0-based, ascending size) of a sweep. */
int lat_sweep_get_point(lat_sweep sweep, int64_t i, lat_sweep_point *point);

/** Threshold i (0-based) of a sweep. */
int lat_sweep_get_threshold(lat_sweep sweep, int64_t i, lat_sweep_threshold *threshold);

/** Startup and rate line i (0-based, ascending sizes) of a sweep, 0 <= i < summary.nlines. */
int lat_sweep_get_line(lat_sweep sweep, int64_t i, lat_sweep_line *line);

/** The first min(n, samples + rerun_samples) samples of point i, in measurement order (one per pass, then
    the rerun's), into values_us[n]. */
int lat_sweep_get_samples(lat_sweep sweep, int64_t i, int64_t n, double *values_us);

/** Frees the result and sets *sweep to NULL; a NULL *sweep is accepted. */
int lat_sweep_free(lat_sweep *sweep);

/** Flags of lat_write_sweep_files() (mpilat_constants.h). */
enum lat_sweep_files_flag { LAT_SWEEP_FILES_FLAGS(LAT_C_ENUMERATOR) };

/**
 * Writes a sweep's files into outdir (NULL or "": the working directory), whole or not at all:
 * <base>.csv (one row per size, every statistic) and <base>.json (the run, its options, points,
 * thresholds, startup and rate lines); with LAT_SWEEP_FILES_GNUPLOT <base>.gpl (gnuplot data as mpptest
 * wrote it, tab-separated: proc1 proc2 distance len time rate; with LAT_SWEEP_FILES_GIVEDY also the mean and
 * the max, which without GNUPLOT is LAT_ERR_ARG) and <base>.gcm (gnuplot commands: time against size, log-log
 * with logscale); with LAT_SWEEP_FILES_PNG <base>.gp and <base>.png drawn by gnuplot from the CSV (min,
 * median and max; LAT_ERR_UNSUPPORTED when gnuplot cannot be run); with LAT_SWEEP_FILES_RATE both pictures
 * show the rate (MB/s, from the min) against the size instead. table_path: NULL or "": no table; "-": the table (mpptest's output: every size, the
 * steps, the startup and rate per regime) printed on stdout once the files are in place; else a file
 * path (not relative to outdir) written with the others. Not collective.
 */
int lat_write_sweep_files(const char *outdir, const char *base, const char *command_line, lat_sweep sweep,
                          int flags, const char *table_path);

/* ---------------------------------------------------------------------------------------------------
 * Queue-depth latency (Underwood & Brightwell 2004; docs/method.md, "Queues")
 * ------------------------------------------------------------------------------------------------- */

/** What lat_queue_sweep loads before each timed ping-pong (lat_queue_options.mode). */
enum lat_queue_mode { LAT_QUEUE_MODES(LAT_C_ENUMERATOR) };

/* The structs lat_queue_options, lat_queue_point, lat_queue_summary: include/mpilat_types.h, generated from spec/. */
/** Opaque handle to the result of a queue sweep; free with lat_queue_free(). */
typedef struct lat_queue_s *lat_queue;

/** Fills opts with the defaults above. */
int lat_queue_defaults(lat_queue_options *opts);

/** Checks the arguments as lat_queue_sweep() would on a communicator of nprocs processes (seen from the
    source rank): LAT_SUCCESS, or LAT_ERR_ARG naming the option and its value. Not collective. */
int lat_queue_check(const lat_queue_options *opts, int nprocs, int64_t nlengths, const int64_t *lengths,
                    int64_t nfractions, const double *fractions_percent, int64_t nsizes, const int64_t *sizes,
                    const lat_timer_result *timer);

/**
 * Latency against queue depth between opts->source and opts->dest (Underwood & Brightwell, Figures 1
 * and 2). For every point and measurement, iters times: load the queues on both ranks (posted: the
 * traversed receives, the latency receive, the untraversed rest; unexpected: length messages sent to
 * each side), a point-to-point barrier that lets dest leave first, one timed ping-pong (unexpected: the
 * non-blocking send first, then the latency receive posted inside the timed region), then both queues
 * emptied by matching messages or receives. Measurements are interleaved over the whole grid.
 * lengths: nlengths values >= 0 (0: default 0, 100, ..., 1000); fractions_percent: 0..100 (0 given:
 * 0, 25, 50, 75, 100; ignored in unexpected mode); sizes: bytes (0 given: 0). timer: source's
 * calibration or NULL. Collective over comm: other ranks wait yielding. *result on every rank.
 */
int lat_queue_sweep(MPI_Comm comm, const lat_queue_options *opts, int64_t nlengths, const int64_t *lengths,
                    int64_t nfractions, const double *fractions_percent, int64_t nsizes, const int64_t *sizes,
                    const lat_timer_result *timer, lat_queue *result);

/** The summary of a queue sweep. */
int lat_queue_get_summary(lat_queue queue, lat_queue_summary *summary);

/** Point i (0-based): ordered by size, then fraction, then length. */
int lat_queue_get_point(lat_queue queue, int64_t i, lat_queue_point *point);

/** Frees the result and sets *queue to NULL; a NULL *queue is accepted. */
int lat_queue_free(lat_queue *queue);

/**
 * Writes queuelat.txt (a table: one row per queue length, one column per fraction or size),
 * queuelat.csv (a row per point), queuelat.json (run, options, points), queuelat.gp (gnuplot: latency
 * against queue length, a curve per fraction or size) and, when render is 1, queuelat.png, into outdir,
 * whole or not at all. Not collective.
 */
int lat_write_queue_files(const char *outdir, const char *command_line, lat_queue queue, int render);

/* ---------------------------------------------------------------------------------------------------
 * All-pairs latency matrix, the mmpi way (docs/method.md, "Pair matrix")
 * ------------------------------------------------------------------------------------------------- */

/** In what order lat_pair_matrix() visits the pairs (lat_pair_options.schedule). */
enum lat_pair_schedule { LAT_PAIR_SCHEDULES(LAT_C_ENUMERATOR) };

/** How ranks that wait between steps wait (lat_pair_options.wait). */
enum lat_wait_mode { LAT_WAIT_MODES(LAT_C_ENUMERATOR) };

/** The per-pair statistics of a pair matrix (lat_pairs_get_matrix). Round-trip times, microseconds. */
enum lat_pair_stat { LAT_PAIR_STATS(LAT_C_ENUMERATOR) };

/* The structs lat_pair_options: include/mpilat_types.h, generated from spec/. */

/* The structs lat_pair_summary: include/mpilat_types.h, generated from spec/. */
/** Opaque handle to a pair matrix; free with lat_pairs_free(). */
typedef struct lat_pairs_s *lat_pairs;

/** Fills opts with the defaults above. */
int lat_pair_defaults(lat_pair_options *opts);

/** Checks opts as lat_pair_matrix() would on a communicator of nprocs processes: LAT_SUCCESS, or
    LAT_ERR_ARG naming the option and its value. Not collective. */
int lat_pair_check(const lat_pair_options *opts, int nprocs);

/**
 * Round-trip latency between every pair of ranks of comm (the mmpi method): after a warm-up pass, for
 * each of opts->repeats passes over the schedule, every step starts with a synchronisation of all
 * ranks, then each pair of the step does a hand-shake (the responder has posted its receive) and one
 * timed round trip of msg_bytes, timed by the lower rank. Per pair: mean, standard deviation, standard
 * error, min, median, max. Collective over comm. root receives the N x N matrices and every rank's
 * place; its O(N^2) memory is checked before anything is timed (LAT_ERR_NOMEM on every rank when it
 * cannot be had). *result on every rank (the matrices on root only), also on LAT_ERR_INTERRUPTED.
 */
int lat_pair_matrix(MPI_Comm comm, const lat_pair_options *opts, lat_pairs *result);

/** The summary of a pair matrix. */
int lat_pairs_get_summary(lat_pairs pairs, lat_pair_summary *summary);

/** Copies the N x N matrix of statistic stat (lat_pair_stat) into matrix[n], n >= N*N, row-major
    (matrix[i*N + j]); symmetric, zero diagonal. LAT_ERR_ARG where summary.has_matrices is 0, or for a
    statistic an mmpi log does not hold. */
int lat_pairs_get_matrix(lat_pairs pairs, int stat, int64_t n, double *matrix);

/** Where rank ran. Where summary.has_matrices is 0, only the calling rank's own place is known. */
int lat_pairs_get_place(lat_pairs pairs, int rank, lat_rank_place *place);

/** Frees the handle and sets *pairs to NULL; a NULL *pairs is accepted. */
int lat_pairs_free(lat_pairs *pairs);

/**
 * Writes the mmpi log (docs/output-formats.md: "# Testing Hostname:", "# Processors: N MsgLen M
 * Repeats: R", the column header, a line per pair i <= j, mean and standard deviation in us with 2
 * decimals) as outdir/log_name, and outdir/<log_name without its extension>.json (every statistic at
 * full precision, the places, the run), whole or not at all. Needs the matrices. Not collective.
 */
int lat_write_pair_files(const char *outdir, const char *log_name, const char *command_line, lat_pairs pairs);

/**
 * Reads an mmpi log (ours, or the 2009 program's: dotted hostnames, rank fields of any width,
 * "host:rank" fields, CRLF) into a handle with the mean and StdDev matrices and the hostnames. A
 * malformed log (a line longer than LAT_MAX_INPUT_LINE too) is LAT_ERR_DATA, the message naming the file,
 * the line and what was expected; a missing file LAT_ERR_IO. Not collective.
 */
int lat_read_mmpi_log(const char *path, lat_pairs *result);

/**
 * Reads the JSON of a pair matrix (mmpi's <log>.json, format mpilat-pairs) back into a handle: every
 * statistic's matrix it holds (mean, standard deviation, standard error, minimum, median, maximum, count),
 * the ranks' hosts and nodes, the run's figures. Another format, or a file of more ranks than its JSON holds
 * matrices for, is LAT_ERR_DATA naming the file; a missing file LAT_ERR_IO. Not collective.
 */
int lat_read_pair_json(const char *path, lat_pairs *result);

/**
 * Writes <base>_comm.dat and <base>_var.dat (the mean and standard deviation N x N matrices as text that
 * MATLAB/Octave `load` reads), <base>.csv (a row per pair, a column per statistic the result holds),
 * <base>_heatmap.gp (gnuplot) and, with LAT_PAIR_FILES_PNG in render, <base>_heatmap.png and .svg (ranks
 * on both axes, node boundaries marked, a logarithmic colour bar in us so that one slow pair cannot flatten
 * the rest, the title naming the statistic: the median where the result has it, the mean with
 * LAT_PAIR_FILES_MEAN or from an mmpi log), into outdir, whole or not at all. Needs the matrices. Not
 * collective.
 */
int lat_write_pair_matrices(const char *outdir, const char *base, lat_pairs pairs, int render);

/* ---------------------------------------------------------------------------------------------------
 * The max-rate model (Gropp, Olson & Samfass 2016; docs/method.md, "Max-rate fit")
 * ------------------------------------------------------------------------------------------------- */

/* The structs lat_maxrate_obs: include/mpilat_types.h, generated from spec/. */
/** Bits of lat_pingpong_result.warnings. */
enum lat_run_warning { LAT_RUN_WARNINGS(LAT_C_ENUMERATOR) };

/** What lat_write_pair_matrices draws (bits of its render argument). */
enum lat_pair_files_flag { LAT_PAIR_FILES_FLAGS(LAT_C_ENUMERATOR) };

/** What changed at a state change of a run. */
enum lat_change_quantity { LAT_CHANGE_QUANTITIES(LAT_C_ENUMERATOR) };

/** Bits of lat_pingpong_result.shared. */
enum lat_place_share { LAT_PLACE_SHARES(LAT_C_ENUMERATOR) };

/** Between what nodecomm measures (lat_nodecomm_options.sides, lat_nodecomm_summary.sides). */
enum lat_nodecomm_sides { LAT_NODECOMM_SIDES(LAT_C_ENUMERATOR) };

/* The structs lat_nodecomm_options, lat_nodecomm_point, lat_nodecomm_summary: include/mpilat_types.h, generated from spec/. */
/** Opaque handle to a nodecomm measurement; free with lat_nodecomm_free(). */
typedef struct lat_nodecomm_s *lat_nodecomm;

/** Fills opts with the defaults above. */
int lat_nodecomm_defaults(lat_nodecomm_options *opts);

/** Checks opts and the size list as lat_nodecomm_measure() would (whether the job has two sides is known
    only when it runs): LAT_SUCCESS, or LAT_ERR_ARG naming the option and its value. Not collective. */
int lat_nodecomm_check(const lat_nodecomm_options *opts, int64_t nsizes, const int64_t *sizes);

/**
 * The nodecomm measurement (Gropp et al.): ping-pongs between two nodes with k = 1..K pairs at once,
 * each pair one rank on each node (rank 0's node and the node of the lowest rank elsewhere; on a single
 * node its two halves, reported as intra-node); with opts->sides LAT_SIDES_SOCKET between two packages of
 * rank 0's node (its halves where it has one, said in summary.sides). Sizes: nsizes given (ascending), or the starting grid of
 * opts refined by the size-sweep engine on one pair. Every (k, n) is measured opts->reps times,
 * interleaved; each measurement starts with a barrier of the pairs, and its time is the slowest active
 * pair's. A job whose fit would pass lat_fit_maxrate's bounds (the sizes given, or 256, times K) is
 * refused before anything is measured (LAT_ERR_ARG). Collective over comm; *result on every rank (also on
 * LAT_ERR_INTERRUPTED).
 */
int lat_nodecomm_measure(MPI_Comm comm, const lat_nodecomm_options *opts, int64_t nsizes, const int64_t *sizes,
                         lat_nodecomm *result);

/** The summary of a nodecomm measurement. */
int lat_nodecomm_get_summary(lat_nodecomm nodecomm, lat_nodecomm_summary *summary);

/** Point i (0-based): sizes ascending, k = 1..K within each size. */
int lat_nodecomm_get_point(lat_nodecomm nodecomm, int64_t i, lat_nodecomm_point *point);

/** The observations for lat_fit_maxrate(): (k, bytes, min_us) of every measured point, into obs[n],
    n >= npoints; *nobs receives the count. */
int lat_nodecomm_observations(lat_nodecomm nodecomm, int64_t n, lat_maxrate_obs *obs, int64_t *nobs);

/** Frees the handle and sets *nodecomm to NULL; a NULL *nodecomm is accepted. */
int lat_nodecomm_free(lat_nodecomm *nodecomm);

/** The models fitted in every regime (lat_model_fit.model). Rates in MB/s = bytes/us. */
enum lat_rate_model { LAT_RATE_MODELS(LAT_C_ENUMERATOR) };

/** Bits of lat_model_fit.bounded: the parameters the data only bound. */
enum lat_fit_bound { LAT_FIT_BOUNDS(LAT_C_ENUMERATOR) };

/* The structs lat_fit_options, lat_model_fit, lat_fit_summary: include/mpilat_types.h, generated from spec/. */
/** Opaque handle to a fit; free with lat_maxrate_free(). */
typedef struct lat_maxrate_fit_s *lat_maxrate_fit;

/** Fills opts with the defaults above. */
int lat_fit_defaults(lat_fit_options *opts);

/** Checks opts as lat_fit_maxrate() would: LAT_SUCCESS, or LAT_ERR_ARG naming the option and its value. */
int lat_fit_check(const lat_fit_options *opts);

/**
 * Fits the postal, max-rate, four-parameter and modified (5) models to nobs observations, per regime, by
 * least squares of the relative error (docs/method.md: the postal and max-rate fits are exact, the
 * four-parameter one certified within lat_model_fit.sse_gap, the modified one the best of a search).
 * Regimes are split at opts' thresholds or found by segmented regression of the k = 1 curve (rises, drops, changes of slope). Needs k >= 1,
 * bytes >= 0, finite times > 0, at least 3 sizes; takes k <= 1024, at most 4096 sizes and 65,536
 * observations (its time grows with the square of the sizes; docs/hostile-input.md), LAT_ERR_ARG beyond.
 * A pure function: no MPI, callable on data measured anywhere. Not collective.
 */
int lat_fit_maxrate(const lat_fit_options *opts, int64_t nobs, const lat_maxrate_obs *obs, lat_maxrate_fit *result);

/** The fit's summary. */
int lat_maxrate_get_summary(lat_maxrate_fit fit, lat_fit_summary *summary);

/** Model `model` (lat_rate_model) of regime `regime`. */
int lat_maxrate_get_model(lat_maxrate_fit fit, int regime, int model, lat_model_fit *result);

/** The relative error (T_model - T) / T of each observation (input order) under `model` of its regime,
    into rel_err[n], n >= nobs. */
int lat_maxrate_get_errors(lat_maxrate_fit fit, int model, int64_t n, double *rel_err);

/** Frees the fit and sets *fit to NULL; a NULL *fit is accepted. */
int lat_maxrate_free(lat_maxrate_fit *fit);

/**
 * Reads a nodecomm table: rows of a message length then one time per process count k = 1..K
 * (tab- or blank-separated, as the original nodecomm printed them, and as nodecomm.txt holds them); lines
 * starting with '#' and a header row starting with "len" are skipped. Times are multiplied by
 * us_per_unit (1 for microseconds, 1e6 for seconds). A cell "-" (a point not measured, as a partial
 * nodecomm.txt holds them) is skipped; *nmissing (when nmissing is not NULL) receives how many. Two calls:
 * with n = 0 and obs NULL, *nobs receives the count; then with n >= that count. A malformed table is
 * LAT_ERR_DATA naming the line and what was expected (a line that is not text is described, never
 * echoed), and so is a table beyond lat_fit_maxrate's bounds (at the row that passes one) or a line longer
 * than LAT_MAX_INPUT_LINE; a missing file LAT_ERR_IO. Not collective.
 */
int lat_read_nodecomm_table(const char *path, double us_per_unit, int64_t n, lat_maxrate_obs *obs, int64_t *nobs,
                            int64_t *nmissing);

/**
 * Writes into outdir, whole or not at all: nodecomm.txt (the table: len, then the time of k = 1..K),
 * nodecomm_fit.txt (the parameters per regime and model as the paper's Table 1, the relative-error sums
 * as its Table 2), nodecomm.csv (a row per observation with each model's relative error),
 * nodecomm.json (run, options, points, regimes, models), and for every model nodecomm_bw_<model>.gp and
 * nodecomm_err_<model>.gp (gnuplot: aggregate bandwidth k n / T against n for each k, measured beside the
 * model, as Figure 1; the model's relative error over (n, k), as Figure 2; k* of each regime on both) and,
 * when render is 1, their PNGs and SVGs. <model>: maxrate4, maxrate, maxpostal, postal_1pair,
 * postal_kpairs, postal_all.
 * nodecomm: the measurement, or NULL for observations read from a table. Not collective.
 */
int lat_write_maxrate_files(const char *outdir, const char *command_line, lat_nodecomm nodecomm, int64_t nobs,
                            const lat_maxrate_obs *obs, lat_maxrate_fit fit, int render);

/* ---------------------------------------------------------------------------------------------------
 * Statistics on samples (the same code the measurements use; not collective)
 * ------------------------------------------------------------------------------------------------- */

/** Statistics of n values (microseconds) for a message of bytes bytes, with the definitions above. */
int lat_stats_compute(int64_t n, const double *values_us, int64_t bytes, lat_stats *stats);

/** The npp rule: nint(max(1, res_npp * res_timing / median_ppt)), capped at LAT_NPP_MAX. */
int lat_npp_rule(int64_t res_npp, double res_timing_us, double median_ppt_us, int64_t *npp);

/* ---------------------------------------------------------------------------------------------------
 * Reports: the files of the 2009 `latency` program (docs/output-formats.md)
 * ------------------------------------------------------------------------------------------------- */

/**
 * Writes latency.output, latency.summary.output and latency.json into directory outdir (NULL or "":
 * the working directory). Each file is written to a temporary file first and renamed into place only
 * when all three are complete: they appear whole or not at all, and existing files are untouched on
 * failure. Not collective: call it on one rank. command_line and program_seconds are reported as given;
 * timer_hist and pp_hist may be NULL (their tables are then omitted).
 */
int lat_write_latency_files(const char *outdir, const char *command_line, double program_seconds,
                            const lat_timer_result *timer, lat_histogram timer_hist,
                            const lat_pingpong_result *pp, lat_histogram pp_hist);

/**
 * Draws latency.png and latency.svg into outdir with gnuplot (whole or not at all): the distribution of
 * pp_hist (a histogram on a log time axis, the median and the filter's cut marked) and the chunk medians
 * of the run over time, each level shaded. pp_hist must hold the table and its chunks (as
 * lat_pingpong_stats() hands it out). LAT_ERR_UNSUPPORTED when gnuplot cannot be run. Not collective.
 */
int lat_write_latency_plots(const char *outdir, const lat_pingpong_result *pp, lat_histogram pp_hist);

/* The structs lat_npp_study_row: include/mpilat_types.h, generated from spec/. */
/**
 * The paper's npp study (Tables 4.1-4.3): the ping-pong of opts timed with each of nvalues values of npp
 * (values: npp; or, when by_res_npp is 1, res_npp, each turned into npp by the rule with the median of
 * Part 2), opts->ntrial trials each, interleaved chunk by chunk (a chunk of ~0.25 s of each value in
 * turn) so that the machine's phases fall on every value alike. opts->npp must be 0. rows: nvalues rows,
 * on every rank. 1 <= nvalues <= LAT_STUDY_MAX; values positive and distinct. timer as in
 * lat_pingpong_stats(). result: the run's Part 2 fields (median_ppt_us, npp_calculated, ...) and
 * calibration. Collective over comm.
 */
int lat_npp_study(MPI_Comm comm, const lat_pingpong_options *opts, const lat_timer_result *timer, int nvalues,
                  const int64_t *values, int by_res_npp, lat_pingpong_result *result, lat_npp_study_row *rows);

/** Checks an npp study's options and values as lat_npp_study() would (seen from the source rank):
    LAT_SUCCESS, or LAT_ERR_ARG naming the value (a duplicate, a value < 1, npp given). Not collective. */
int lat_npp_study_check(const lat_pingpong_options *opts, int nprocs, int nvalues, const int64_t *values, int by_res_npp);

/**
 * Writes latency.npp.txt (a table of npp, res_npp, trials, min, median, mean, max, SD and p99 per value),
 * latency.npp.csv, latency.npp.json and, when render is 1, latency.npp.png and .svg (median and p99 with
 * min..p99 bars against npp), whole or not at all. Not collective.
 */
int lat_write_npp_study_files(const char *outdir, const char *command_line, const lat_pingpong_result *pp,
                              int nrows, const lat_npp_study_row *rows, int render);

/** Percentiles and their intervals (lat_quantiles) of n values (microseconds), as the measurements
    compute them. Not collective. */
int lat_quantiles_compute(int64_t n, const double *values_us, lat_quantiles *q);

/* ---------------------------------------------------------------------------------------------------
 * Comparisons: is a difference real? (docs/method.md, "Comparing results"; not collective, no MPI)
 * ------------------------------------------------------------------------------------------------- */

/** Methods and verdicts of lat_compare_result. */
enum lat_compare_method { LAT_COMPARE_METHODS(LAT_C_ENUMERATOR) };
enum lat_compare_verdict { LAT_COMPARE_VERDICTS(LAT_C_ENUMERATOR) };

/* The structs lat_compare_options, lat_compare_result: include/mpilat_types.h, generated from spec/. */
/** Fills opts with the defaults above. */
int lat_compare_defaults(lat_compare_options *opts);

/** Checks opts as lat_compare_distributions() and lat_compare_launches() would: LAT_SUCCESS, or LAT_ERR_ARG
    naming the option and its value ("confidence must be in (0, 1), got 1.500000"). Not collective. */
int lat_compare_check(const lat_compare_options *opts);

/**
 * Compares the q-quantile (0 < q < 1; 0.5: the median) of two frequency tables or sample sets: values (us,
 * any order) with counts (NULL: each value once). The interval of B/A is [B_low / A_high, B_high / A_low]
 * from the distribution-free order-statistic intervals of each quantile at 1 - (1 - confidence)/2
 * (Bonferroni: together at least `confidence`); method LAT_METHOD_TRIALS. The trials are the unit: one
 * launch cannot show the spread between launches, which on shared machines is far larger. Values must be
 * finite and > 0, counts >= 0 with a positive total.
 */
int lat_compare_distributions(int64_t na, const double *a_values, const int64_t *a_counts, int64_t nb,
                              const double *b_values, const int64_t *b_counts, double q,
                              const lat_compare_options *opts, lat_compare_result *result);

/**
 * Compares two groups of launches, one value each (a launch's median, say): each group's value is the
 * median of its launches; the ratio B/A is the Hodges-Lehmann estimate (exp of the median of ln b_j - ln a_i
 * over all pairs) and its interval the exact rank interval [exp d_(k), exp d_(N+1-k)], k from Mann-Whitney's
 * distribution, which covers a shift of the log values with at least opts->confidence at every group size
 * (docs/compare.md). Small groups cannot reach every level: result->max_confidence says what they reach
 * (3 and 3: 0.9), and above it the interval is (0, inf), unresolved. At least 3 launches a group, values
 * finite and > 0; method LAT_METHOD_LAUNCHES (opts->resamples and seed are not used since API 8).
 */
int lat_compare_launches(int64_t na, const double *a, int64_t nb, const double *b, const lat_compare_options *opts,
                         lat_compare_result *result);

/**
 * Writes text files into outdir, whole or not at all (each to a temporary file, renamed when all are
 * complete): names[i] (a plain file name) with contents[i]. With render = 1 every name ending in ".gp"
 * (a gnuplot script that draws into outfile in format png or svg) is also drawn as <name>.png and .svg,
 * renamed with the set. Not collective. For tools that report as the drivers do (mpilat-compare).
 */
int lat_write_report_files(const char *outdir, int nfiles, const char *const *names, const char *const *contents,
                           int render);

/** Checks that files can be created in outdir (creates and removes a probe file), making outdir and its missing
    parents first (mode 0755; since API 10); a file in its place is refused (LAT_ERR_IO). Not collective. */
int lat_check_output_dir(const char *outdir);

/**
 * Checks, before anything is measured, that a file the caller will have written may be: absent, a regular
 * file or a symbolic link (replaced by the file, never written through), and not naming an input of this
 * process. A directory, device, FIFO or socket is refused (LAT_ERR_ARG), as is an input; every lat_write_*
 * function applies the same rule to each of its files, and never lets two of them have one name. Not
 * collective. Since API 10.
 */
int lat_check_output_file(const char *path);

/**
 * Checks, before anything is measured, every file that a capability's writer may write into outdir (NULL or
 * "": the working directory), with the rule of lat_check_output_file: the first that is a directory, device,
 * FIFO or socket, or an input of this process, is refused (LAT_ERR_ARG naming it). kind and base: "latency"
 * (lat_write_latency_files and _plots), "npp_study", "queue" and "nodecomm" (lat_write_maxrate_files) write
 * fixed names (base NULL or ""); "sweep", "coll" and "matrices" (lat_write_pair_matrices) take the base name
 * given to the writer, "pairs" the log's name (the log and its JSON). Each writer refuses to write a file
 * not on the list this checks. Not collective. Since API 10.
 */
int lat_check_outputs(const char *kind, const char *outdir, const char *base);

/**
 * Checks, before anything is measured, a file the caller will write beside a writer's (mpptest's -fname
 * table, given to lat_write_sweep_files): path by the rule of lat_check_output_file, and not one of the files
 * the writer of kind (as lat_check_outputs) may write into outdir under any spelling ("./x.csv", "d/../x.csv",
 * a directory reached through a link): LAT_ERR_ARG naming both. Not collective. Since API 10.
 */
int lat_check_output_apart(const char *kind, const char *outdir, const char *base, const char *path);

/**
 * Checks that path is an input the library's readers take: a regular file of at most LAT_MAX_INPUT_BYTES
 * (LAT_ERR_IO otherwise, the message naming what it is or its size; a FIFO or device is never opened), and
 * records it as an input of this process, which no lat_write_* function will replace. The readers
 * (lat_read_mmpi_log, lat_read_pair_json, lat_read_nodecomm_table) apply it themselves, and refuse a line
 * longer than LAT_MAX_INPUT_LINE bytes. Not collective. Since API 10.
 */
int lat_check_input_file(const char *path);

/** Opaque handle to the bytes of an input read once; free with lat_input_free(). */
typedef struct lat_input_s *lat_input;

/**
 * Reads path once, as the library's readers do: checked as lat_check_input_file (and recorded as an input),
 * opened without waiting (O_NONBLOCK), checked again on what was opened (a name swapped for a FIFO after the
 * check is refused, never waited on), read to its end and bounded by the bytes read, not by the size the
 * check saw (a file appended to while it is read stops at LAT_MAX_INPUT_BYTES). LAT_ERR_IO naming the file
 * and what went wrong otherwise. For a caller that must read a user's file itself (a JSON parser, a
 * namelist reader that opens by name): the bytes are what was checked. Not collective. Since API 10.
 */
int lat_read_input(const char *path, lat_input *input);

/** The number of bytes read (the file's own bytes may hold NULs). Since API 10. */
int lat_input_size(lat_input input, int64_t *nbytes);

/** Copies the first min(n, size) bytes read into bytes, a caller buffer of n bytes (no NUL is added).
    Since API 10. */
int lat_input_get(lat_input input, int64_t n, char *bytes);

/** Frees the bytes and sets *input to NULL; a NULL *input is accepted. Since API 10. */
int lat_input_free(lat_input *input);

/** Checks, before a JSON text of nbytes is parsed, that the parse fits the process's memory limit (ulimit -v,
    -d) with what is already mapped, at the worst case of 20 bytes of memory a byte of JSON: LAT_ERR_NOMEM
    naming `name`, its size and the limit otherwise (nlohmann-json, the library's and the drivers' parser,
    aborts instead of throwing when memory runs out as it unwinds). LAT_SUCCESS where no limit is set.
    The library's own JSON readers apply it. Not collective. Since API 10. */
int lat_check_json_memory(int64_t nbytes, const char *name);

/* ---------------------------------------------------------------------------------------------------
 * Collective latency, one call at a time from a synchronised start (docs/collective.md)
 * ------------------------------------------------------------------------------------------------- */

/** The collective operations (bits of lat_collective_options.ops). */
enum lat_coll_op { LAT_COLL_OPS(LAT_C_ENUMERATOR) };

/** How one call is timed (bits of lat_collective_options.modes). */
enum lat_coll_mode { LAT_COLL_MODES(LAT_C_ENUMERATOR) };

/* The structs lat_collective_options, lat_coll_summary, lat_coll_point, lat_coll_rank: include/mpilat_types.h,
   generated from spec/collective.toml. */
/** Opaque handle to a collective measurement; free with lat_coll_free(). */
typedef struct lat_coll_s *lat_coll;

/** Fills opts with the defaults of spec/collective.toml. */
int lat_collective_defaults(lat_collective_options *opts);

/** Checks opts and the size list (nsizes 0: size_first..size_last) as lat_collective() would on a
    communicator of nprocs processes, memory included (the buffers, and the samples the root keeps, as if this
    process were the root): LAT_SUCCESS, or LAT_ERR_ARG naming the value. Not
    collective. */
int lat_collective_check(const lat_collective_options *opts, int64_t nsizes, const int64_t *sizes, int nprocs);

/** The lat_coll_op of a name ("barrier", "bcast", "reduce", "allreduce", "gather", "scatter", "allgather",
    "alltoall") in *op; LAT_ERR_ARG for another name. */
int lat_coll_op_from_name(const char *name, int *op);

/**
 * Collective latency over comm, one call per sample: the clocks of all ranks are synchronised to rank 0's
 * (an offset and a drift each, by HCA's tree, again every opts->resync_s), then in each of opts->reps rounds
 * every point (operation x message size x mode) gets one sample, in an order that turns from round to round
 * (a slow phase of the machine falls on all points). Modes (lat_coll_mode): sync (each call starts at a
 * scheduled time on the synchronised clock; last end - first start; a sample with a late rank is discarded
 * and counted), barrier (largest local time after MPI_Barrier), loop (mean over ranks of the average of
 * loop_calls calls back to back). Sizes: the list sizes[nsizes] (ascending), or with nsizes = 0
 * size_first..size_last (powers of two between), refined by the size-sweep engine when opts->adaptive.
 * Collective over comm (a duplicate is used); bad arguments are LAT_ERR_ARG on every rank, among them a
 * window_us below 10 x the synchronisation error bound found. *result on every rank (the samples on root
 * only), also on LAT_ERR_INTERRUPTED (lat_request_stop: the rounds made).
 */
int lat_collective(MPI_Comm comm, const lat_collective_options *opts, int64_t nsizes, const int64_t *sizes,
                   lat_coll *result);

/** The summary of a collective measurement (the same on every rank). */
int lat_coll_get_summary(lat_coll coll, lat_coll_summary *summary);

/** Point index (0..summary.npoints-1; modes, then operations, then sizes, in their enums' order). */
int lat_coll_get_point(lat_coll coll, int64_t index, lat_coll_point *point);

/** Rank rank's part in point index: how often it finished last, started late, its local median. */
int lat_coll_get_rank(lat_coll coll, int64_t index, int rank, lat_coll_rank *result);

/** The kept samples of point index (us, in time order) into values[n]; *count gets how many there are
    (a short n gets the first n). Where summary.has_samples is 0 (not the root rank): LAT_ERR_ARG. */
int lat_coll_get_samples(lat_coll coll, int64_t index, int64_t n, double *values, int64_t *count);

/**
 * Writes outdir/<base>.txt (the table, every mode labelled with the quantity it reports), .json (format
 * mpilat-coll, read by mpilat-compare), .csv (a row per point), .samples.csv (a row per sample), the
 * gnuplot scripts .dist.gp (every point's distribution) and .size.gp with .size.dat (median against size)
 * and, when render is 1, their PNG; whole or not at all. Needs the samples (the root rank). Not collective.
 */
int lat_write_coll_files(const char *outdir, const char *base, const char *command_line, lat_coll coll, int render);

/** Frees the handle and sets *coll to NULL; a NULL *coll is accepted. */
int lat_coll_free(lat_coll *coll);

#ifdef __cplusplus
}
#endif

#include "mpilat_sized.h" /* the entry points with sizes, and the macros that call them */

#endif /* MPILAT_H */
