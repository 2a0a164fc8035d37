/**
 * @file mpilat.h
 * @brief The whole public C ABI of mpilat: MPI latency measured the way the literature says it must be.
 *
 * Conventions (see docs/api.md):
 * - Every function returns an int: LAT_SUCCESS (0) or one of LAT_ERR_*; lat_strerror() names the code,
 *   lat_last_error_message() gives the detail of the last failure on the calling thread.
 * - Options come in structs initialised by lat_*_defaults(); results come back in plain structs of
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

/** Detail of the last error on the calling thread ("ntrial must be >= 1, got 0"); "" if none. */
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


/** Options of lat_calibrate_timer(); initialise with lat_timer_defaults(). */
typedef struct lat_timer_options {
  int64_t nr;   /**< back-to-back timer pairs; default 2^24 */
  int timer;    /**< lat_timer_kind; default LAT_TIMER_MPI_WTIME */
  int rank;     /**< the rank that calibrates, or LAT_ALL_RANKS (default): each rank its own clock */
  double timeout_s; /**< watchdog: seconds a rank waits for the others to call in before
                         LAT_ERR_TIMEOUT; 0 (default): wait for ever. Must be equal on all ranks */
  int progress;     /**< 1: the calibrating rank (rank 0 of LAT_ALL_RANKS) prints percent and time left on
                         stderr; default 0 */
} lat_timer_options;

/** Result of lat_calibrate_timer(). */
typedef struct lat_timer_result {
  int64_t nr_requested;     /**< pairs asked for */
  int64_t nr;               /**< pairs measured: fewer than asked only after lat_request_stop() */
  int64_t n_negative;       /**< differences below zero (a clock that stepped back); not in the bins */
  int64_t n_zero;           /**< differences equal to zero (two reads inside one clock tick) */
  int64_t bin_count[LAT_NBINS]; /**< Appendix A: counts in [0.2 i, 0.2 (i+1)) us; the last bin is open */
  double res_timing_us;     /**< resolution: minimum positive difference; 0 if none was positive */
  double min_ov_us;         /**< minimum timing overhead: minimum non-negative difference */
  double min_us, median_us, mean_us, max_us, stddev_us; /**< over all nr differences */
  double tick_us;           /**< the clock's own claim: MPI_Wtick() or clock_getres(), for reference */
  double unit_us;           /**< what every difference is a whole number of: 0.001 (a nanosecond) for
                                 mpi_wtime and monotonic_raw, one cycle for tsc; the tables count in it */
  int timer;                /**< the lat_timer_kind measured */
  int rank;                 /**< the rank whose clock this is */
} lat_timer_result;

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


/** Options of lat_pingpong_stats(); initialise with lat_pingpong_defaults(). Must be equal on all ranks
    (except progress). */
typedef struct lat_pingpong_options {
  int64_t n;        /**< message size in 8-byte elements (MPI_DOUBLE); default 1 */
  int64_t bytes;    /**< message size in bytes (MPI_BYTE), 0 allowed; -1 (default): use n */
  int64_t nr;       /**< timer pairs for the calibration done when no calibration is passed; 2^24 */
  int64_t npptrial; /**< timing trials for the npp estimate; default 2^23 */
  int64_t npp_init; /**< ping-pongs per timing loop during the npp estimate; default 10 */
  int64_t res_npp;  /**< npp * median_ppt >= res_npp * res_timing; default 50 */
  int64_t npp;      /**< ping-pongs per timing loop; 0 (default): calculate by the rule above */
  int64_t ntrial;   /**< timing trials; default 2^23 */
  double cut_coef;  /**< filter: trials with time > cut_coef * median are removed; default 2.0 */
  int source;       /**< the rank that times; default 0 */
  int dest;         /**< its partner; default LAT_LAST_RANK */
  int timer;        /**< lat_timer_kind for the calibration done here; default LAT_TIMER_MPI_WTIME */
  int progress;     /**< 1: the source rank prints phase, percent and time left on stderr; default 0 */
  double timeout_s; /**< watchdog (docs/method.md): the longest a rank waits for a peer at any step
                         before LAT_ERR_TIMEOUT, and never less than 10 expected timing loops
                         (npp x median_ppt); 0 (default): wait for ever */
  int estimate;     /**< 1 (default): Part 2, the npp estimate, runs even when npp is given, so the rule's
                         value is reported beside the one used; 0: skipped when npp is given */
  double minutes;   /**< > 0: ntrial is chosen so that the trials take about this long, from the time
                         per trial seen in Part 2 (which then must run); 0 (default): ntrial as given */
} lat_pingpong_options;

/** Statistics of one set of ping-pong times (all of them, or those kept by the filter). */
typedef struct lat_stats {
  int64_t count;           /**< number of timing trials described */
  double min_us, median_us, mean_us, max_us; /**< ping-pong time divided by two */
  double variance_us2;     /**< sample variance, divisor count - 1, in us^2 */
  double stddev_us;        /**< sqrt(variance) */
  double cv_percent;       /**< coefficient of variation: 100 * stddev / mean */
  double stderr_us;        /**< standard error: stddev / sqrt(count) */
  double rse;              /**< relative standard error: stderr / mean (a fraction, not percent) */
  double rate_min_mbs, rate_median_mbs, rate_mean_mbs, rate_max_mbs; /**< bytes / time */
} lat_stats;

/** Percentiles of a set of times, by the nearest-rank rule (the ceil(p n / 100)-th smallest time), with
    distribution-free 95 % confidence intervals of the median and of p99 from order statistics: the
    interval [x_(l), x_(u)] whose binomial coverage is at least 95 % (docs/method.md, "Percentiles"). An
    end the sample is too small to give is -INFINITY or INFINITY. */
typedef struct lat_quantiles {
  double level[LAT_NPERCENTILES]; /**< the percent levels: 1 5 10 25 50 75 90 95 99 99.9 99.99 */
  double p_us[LAT_NPERCENTILES];  /**< the percentiles, microseconds */
  double median_ci_us[2];         /**< 95 % confidence interval of the median (p50) */
  double p99_ci_us[2];            /**< 95 % confidence interval of p99 */
} lat_quantiles;

/** Where a rank ran, as far as the platform tells; -1 where it does not. */
typedef struct lat_rank_place {
  double res_timing_us, min_ov_us; /**< its clock's resolution and minimum overhead (0 from a log) */
  int rank;           /**< in the communicator */
  int node;           /**< index of its node, nodes numbered by their lowest rank: a shared-memory domain
                           of MPI_Comm_split_type (from a log: ranks grouped by hostname) */
  int node_rank;      /**< its place among the ranks of its node */
  int socket;         /**< hwloc logical index of the package its binding lies in; -1: unknown (the
                           binding spans packages, or no hwloc information) */
  int core;           /**< the same for the core; -1 when not bound inside one core */
  int cpu;            /**< OS index of the processor it was running on when asked; -1 unknown */
  int numa;           /**< hwloc logical index of the NUMA node its binding lies in; -1 unknown */
  char host[LAT_HOSTNAME_LEN]; /**< MPI_Get_processor_name(), or the log's ProcName */
  char cpus[LAT_CPUSET_LEN];   /**< the processors it may run on (OS indexes, "0-3,8"); "" unknown */
} lat_rank_place;

/** Values of lat_pingpong_result.partial. */
enum lat_partial_cause { LAT_PARTIAL_CAUSES(LAT_C_ENUMERATOR) };

/** Result of lat_pingpong_stats(), returned on every rank. */
typedef struct lat_pingpong_result {
  int64_t bytes;           /**< message size in bytes */
  int64_t n;               /**< message size in 8-byte elements, or -1 when given in bytes */
  int64_t npptrial, npp_init, res_npp;
  int64_t npp_calculated;  /**< the npp rule's value (0 if the estimate was skipped: npp fixed) */
  int64_t npp_used;        /**< ping-pongs per timing loop actually used */
  int64_t ntrial;          /**< trials requested */
  int64_t ntrial_done;     /**< trials measured: < ntrial when the run was stopped early (partial) */
  int64_t n_kept, n_removed; /**< trials kept and removed by the filter */
  int64_t nprocs;          /**< size of the communicator */
  double median_ppt_us;    /**< median round-trip time of one ping-pong from the estimate (not halved) */
  double res_timing_us, min_ov_us; /**< the calibration applied */
  double cut_coef, cut_off_us; /**< the filter: times above cut_off_us = cut_coef * median removed */
  lat_stats all;           /**< statistics of all ntrial_done trials */
  lat_stats filtered;      /**< the same after filtering */
  int source, dest, timer;
  int partial;             /**< lat_partial_cause: why fewer than ntrial trials were measured, or 0 */
  int warnings;            /**< bits of lat_run_warning: 0 for a run the statistics describe well */
  int nlevels;             /**< levels of the chunk medians (1: steady; 0: no trials); see level_us */
  int64_t nchunks;         /**< chunks of ~0.25 s the trials were timed in */
  double level_us[LAT_MAX_LEVELS];    /**< each level's median one-way time, ascending (nlevels of them) */
  double level_share[LAT_MAX_LEVELS]; /**< each level's share of the trials */
  char source_host[LAT_HOSTNAME_LEN]; /**< MPI_Get_processor_name() of source, NUL-terminated */
  char dest_host[LAT_HOSTNAME_LEN];   /**< the same for dest */
  double unit_us;          /**< the clock's counting unit (lat_timer_result.unit_us): one-way times are
                                whole multiples of unit_us / (2 npp_used), less min_ov / (2 npp_used) */
  double minutes;          /**< the minutes asked for (ntrial was chosen from them), or 0 */
  lat_quantiles all_q;     /**< percentiles and intervals of all trials */
  lat_quantiles filtered_q; /**< the same after filtering */
  lat_rank_place source_place, dest_place; /**< where source and dest ran */
  int shared;              /**< bits of lat_place_share: what source and dest share (node, socket, core) */
  int estimate;            /**< 1: Part 2 ran (npp_calculated is the rule's value); 0: skipped (npp given
                                and opts.estimate = 0) */
} lat_pingpong_result;

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

/** Why a sweep ended (lat_sweep_summary.end). */
enum lat_sweep_end { LAT_SWEEP_ENDS(LAT_C_ENUMERATOR) };

/** Options of lat_size_sweep() and lat_sweep_run(); initialise with lat_sweep_defaults(). Must be equal
    on all ranks (except progress). */
typedef struct lat_sweep_options {
  int64_t size_first, size_last, size_stride; /**< the starting grid when no list is given: first,
                                                   first + stride, ..., last (last always included);
                                                   default 0, 1024, 32 */
  int64_t reps;         /**< most passes: a pass measures every size of the current set once, so every size
                             has one sample per pass it was in (mpptest's -sample_reps); default 50 */
  int64_t n_stable;     /**< the sweep ends after n_stable passes in which no size found a new minimum (by
                             more than 0.5 %); 0: always reps passes; default 8 */
  int64_t n_avg;        /**< operations per sample; 0 (default): tgoal_s / one operation when tgoal_s > 0,
                             else the same for every size: at least n_avg_min, and enough that res_factor x
                             the timer's measured resolution (and minimum overhead) fits in the shortest
                             sample */
  int64_t n_avg_min;    /**< the fewest operations of a sample under the default rule; default 50 (mpptest's
                             default -n_avg) */
  int64_t res_factor;   /**< see n_avg; default 100 (the clock's error below 1 % of a sample) */
  int64_t refine_after; /**< passes before the first refinement, and passes a new size is in before it is
                             judged; default 3 */
  int64_t autodx;       /**< smallest spacing the refinement makes, bytes; default 4 */
  int64_t max_sizes;    /**< most sizes a refined sweep may hold; default 1024 */
  int64_t rerun_reps;   /**< samples of each rerun of an anomalous size; 0 (default): n_stable */
  int64_t cachesize;    /**< 0 (default): one buffer; else buffers of at least this many bytes (and two
                             slots of the largest message) on both ranks, walked slot after slot across
                             operations, samples and passes, so each operation's data were last touched a
                             whole buffer ago: from memory, not cache (peril 10) */
  int64_t overlap_bytes; /**< message size of LAT_SWEEP_OVERLAP; default 1024 */
  int64_t nr;           /**< timer pairs of the calibration made when none is passed; default 2^20 */
  double autorel;       /**< relative interpolation error that splits an interval; default 0.02 */
  double anomaly_rel;   /**< rerun a size this far above its neighbours' line; default 0.10 */
  double step_rel;      /**< report a step where the time rises this far (relative) above the neighbouring
                             trend, and further than the minima's uncertainty; default 0.10 */
  double budget_s;      /**< wall-clock limit of the sweep in seconds, after which it ends with what it has;
                             0: none; default 900 (mpptest's -max_run_time) */
  double tgoal_s;       /**< n_avg == 0: a sample of each size lasts about this many seconds (mpptest's
                             -tgoal); 0 (default): the n_avg_min rule */
  double timeout_s;     /**< watchdog as in lat_pingpong_options; 0 (default): wait for ever */
  int adaptive;         /**< 1: refine the grid where straight lines do not fit (section 3.2); default 0 */
  int pattern;          /**< lat_sweep_pattern; default LAT_SWEEP_PINGPONG */
  int bisect;           /**< 1: ranks 0..P/2-1 each with rank + P/2, all pairs at once; the time is the
                             slowest pair's and the rate the aggregate (perils 6, 12, 13); default 0 */
  int source, dest;     /**< the pair when bisect == 0; default 0 and LAT_LAST_RANK */
  int timer;            /**< lat_timer_kind; default LAT_TIMER_MPI_WTIME */
  int verify;           /**< 1: every received message is checked against what was sent, with bit patterns
                             that change from message to message (peril 8; the clock covers only the
                             operations, but the partner's checks can delay them: times are for correctness
                             runs only); a difference is LAT_ERR_DATA
                             naming the size, the sample and the byte; default 0 */
  int progress;         /**< 1: the leading rank prints progress on stderr; default 0 */
} lat_sweep_options;

/** One message size of a sweep. Times are per operation in microseconds (see lat_sweep_pattern). */
typedef struct lat_sweep_point {
  int64_t bytes;        /**< message size; for LAT_SWEEP_OVERLAP the computation (multiply-adds) */
  int64_t samples;      /**< samples of the passes: one per pass the size was in */
  int64_t rerun_samples; /**< samples of the rerun of anomalous sizes (after the passes) */
  int64_t n_avg;        /**< operations per sample */
  double min_us;        /**< minimum of the samples: THE reported time (minimum of averages) */
  double median_us, mean_us, max_us, stddev_us; /**< over the samples, for the spread */
  double rate_mbs;      /**< bytes / min_us (times the pairs with bisect): MB/s */
  double compute_us;    /**< LAT_SWEEP_OVERLAP: the computation alone, minimum over samples; else 0 */
  int refined;          /**< 1: added by the adaptive refinement */
  int rerun;            /**< 1: sat above its neighbours' line and was measured again */
  int anomalous;        /**< 1: still above both neighbours after the rerun (a real peak, look at it) */
  int reserved;         /**< 0 */
} lat_sweep_point;

/** A message size where the time per byte changes abruptly (a packet or protocol threshold). */
typedef struct lat_sweep_threshold {
  int64_t below_bytes;  /**< the last measured size before the step */
  int64_t above_bytes;  /**< the first measured size after it: the threshold lies in (below, above] */
  double time_below_us, time_above_us; /**< their times */
  double excess_us;     /**< the rise beyond what the neighbouring slope explains */
} lat_sweep_threshold;

/** The least-squares line time = startup + bytes / rate over the points of one regime (between two steps):
    the original mpptest's startup and rate. One line does not describe a whole curve: it is an estimate
    for the regime only, and max_rel_err says how well it fits there. */
typedef struct lat_sweep_line {
  int64_t first_bytes, last_bytes; /**< the regime's smallest and largest measured size */
  int64_t npoints;      /**< its points */
  double startup_us;    /**< s: the line at 0 bytes (us) */
  double per_byte_us;   /**< r: the slope (us per byte) */
  double rate_mbs;      /**< 1 / r in MB/s (one pair; 0 when r <= 0) */
  double max_rel_err;   /**< the largest |s + r n - t(n)| / t(n) over the regime's points */
} lat_sweep_line;

/** What a sweep did, as a whole. */
typedef struct lat_sweep_summary {
  int64_t nsizes;       /**< points (lat_sweep_get_point indices 0..nsizes-1), ascending size */
  int64_t nthresholds;  /**< detected steps */
  int64_t nlines;       /**< the startup and rate lines: one per regime of two sizes or more between steps
                             (lat_sweep_get_line); 0 for LAT_SWEEP_OVERLAP */
  int64_t passes;       /**< passes over the sizes */
  int64_t measurements; /**< samples taken in all */
  int64_t nprocs;       /**< size of the communicator (0 for lat_sweep_run) */
  int64_t npairs;       /**< pairs that communicated (1, or P/2 with bisect) */
  int64_t cachesize, overlap_bytes;
  double wall_s;        /**< duration of the sweep */
  double res_timing_us, min_ov_us; /**< the calibration the n_avg rule used */
  int end;              /**< lat_sweep_end */
  int capped;           /**< 1: the refinement wanted more than max_sizes sizes */
  int pattern, bisect, adaptive, verify, timer, source, dest;
  char source_host[LAT_HOSTNAME_LEN], dest_host[LAT_HOSTNAME_LEN];
} lat_sweep_summary;

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
 * wrote it: length, time, rate, min, max) and <base>.gcm (gnuplot commands: time against size with min,
 * median and max); with LAT_SWEEP_FILES_PNG <base>.png drawn by gnuplot (LAT_ERR_UNSUPPORTED when gnuplot
 * cannot be run). table_path: NULL or "": no table; "-": the table (mpptest's output: every size, the
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

/** Options of lat_queue_sweep(); initialise with lat_queue_defaults(). Must be equal on all ranks
    (except progress). */
typedef struct lat_queue_options {
  int64_t iters;     /**< timed iterations per measurement (the paper's inner loop); default 1000 */
  int64_t reps;      /**< measurements per point, interleaved over the whole grid; default 5 */
  int64_t nr;        /**< timer pairs of the calibration made on source when none is passed; default 2^20 */
  double timeout_s;  /**< watchdog as in lat_pingpong_options; 0 (default): wait for ever */
  int mode;          /**< lat_queue_mode; default LAT_QUEUE_POSTED */
  int any_source;    /**< 1: traversed and latency receives use MPI_ANY_SOURCE (defeats hash matching) */
  int source, dest;  /**< the two ranks; default 0 and LAT_LAST_RANK */
  int timer;         /**< lat_timer_kind; default LAT_TIMER_MPI_WTIME */
  int progress;      /**< 1: source prints progress on stderr; default 0 */
} lat_queue_options;

/** One point of the grid (queue length x fraction x message size); times one-way, microseconds. */
typedef struct lat_queue_point {
  int64_t length;           /**< receives pre-posted, or unexpected messages queued, on each side */
  int64_t traversed;        /**< posted mode: receives before the latency receive (round(length x fraction));
                                 unexpected mode: length */
  int64_t bytes;            /**< latency message size */
  int64_t measurements;     /**< measurements made (reps, fewer after a stop) */
  double fraction_percent;  /**< posted mode: the fraction traversed; unexpected mode: 100 */
  double paper_us;          /**< the paper's figure: the mean over all timed iterations of (t2 - t1) / 2, the
                                 clock's overhead not subtracted (as the paper; Gropp & Lusk's peril 9) */
  double min_us, median_us, mean_us, max_us, stddev_us; /**< over the measurements (each a mean of iters) */
} lat_queue_point;

/** What a queue sweep did, as a whole. */
typedef struct lat_queue_summary {
  int64_t npoints, nlengths, nfractions, nsizes;
  int64_t iters, reps;
  int64_t leftover_messages; /**< messages of ours found by MPI_Iprobe after the sweep: 0 unless a bug */
  double slope_us_per_entry; /**< latency added per traversed entry (least squares over the points with the
                                  largest fraction and the first size), microseconds */
  double intercept_us;       /**< that line's latency at 0 entries */
  double wall_s, res_timing_us, min_ov_us;
  int mode, any_source, source, dest, timer;
  int partial;               /**< 1: stopped early (lat_request_stop); points hold what was measured */
  char source_host[LAT_HOSTNAME_LEN], dest_host[LAT_HOSTNAME_LEN];
} lat_queue_summary;

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

/** Options of lat_pair_matrix(); initialise with lat_pair_defaults(). Must be equal on all ranks
    (except progress). */
typedef struct lat_pair_options {
  int64_t msg_bytes;  /**< message size of each round trip; default 64 (as the paper) */
  int64_t repeats;    /**< timed round trips per pair, interleaved over the pairs; default 100 */
  int64_t nr;         /**< timer pairs of each rank's own clock calibration (reported, not subtracted);
                           default 2^16 */
  double timeout_s;   /**< watchdog as in lat_pingpong_options; 0 (default): wait for ever */
  int schedule;       /**< lat_pair_schedule; default LAT_PAIRS_SEQUENTIAL */
  int root;           /**< the rank that gathers the N x N matrices; default 0 */
  int timer;          /**< lat_timer_kind; default LAT_TIMER_MPI_WTIME */
  int wait;           /**< lat_wait_mode; default LAT_WAIT_AUTO */
  int progress;       /**< 1: root prints progress on stderr; default 0 */
  int reserved;       /**< 0 */
} lat_pair_options;


/** What a pair matrix holds, as a whole. */
typedef struct lat_pair_summary {
  int64_t nprocs;       /**< N: the matrices are N x N */
  int64_t nnodes;       /**< distinct nodes among the ranks */
  int64_t msg_bytes, repeats;
  int64_t npairs;       /**< N(N-1)/2 */
  int64_t nrounds;      /**< synchronised steps per repeat: npairs (sequential) or the rounds */
  int64_t steps;        /**< synchronised steps made, the warm-up pass not counted */
  int64_t round_trips;  /**< round trips timed in all (npairs x repeats unless stopped) */
  double wall_s;        /**< from the call to the matrices gathered */
  double mean_min_us, mean_max_us; /**< smallest and largest pair mean */
  int schedule;         /**< lat_pair_schedule; -1 when read from a log */
  int root;             /**< the rank holding the matrices */
  int timer;
  int wait;             /**< the lat_wait_mode used (LAT_WAIT_SPIN or LAT_WAIT_YIELD) */
  int has_matrices;     /**< 1 on root (and for a log read back); 0 elsewhere */
  int from_log;         /**< 1: read from an mmpi log (only mean and standard deviation are known) */
  int partial;          /**< 1: stopped by lat_request_stop(): the counts say what was measured */
  int reserved;         /**< 0 */
  char testing_host[LAT_HOSTNAME_LEN]; /**< root's processor name (the log's "Testing Hostname") */
} lat_pair_summary;

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
 * malformed log is LAT_ERR_DATA, the message naming the file, the line and what was expected; a
 * missing file LAT_ERR_IO. Not collective.
 */
int lat_read_mmpi_log(const char *path, lat_pairs *result);

/**
 * Writes <base>_comm.dat and <base>_var.dat (the mean and standard deviation N x N matrices as text that
 * MATLAB/Octave `load` reads), <base>.csv (a row per pair), <base>_heatmap.gp (gnuplot) and, when render
 * is 1, <base>_heatmap.png and <base>_heatmap.svg (ranks on both axes, node boundaries marked, colour
 * bar in us), into outdir, whole or not at all. Needs the matrices. Not collective.
 */
int lat_write_pair_matrices(const char *outdir, const char *base, lat_pairs pairs, int render);

/* ---------------------------------------------------------------------------------------------------
 * The max-rate model (Gropp, Olson & Samfass 2016; docs/method.md, "Max-rate fit")
 * ------------------------------------------------------------------------------------------------- */

/** One observation: k pairs communicating at once, messages of bytes, time T in microseconds (the
    slowest pair's, in whatever convention the caller measured: round trip or one way). */
typedef struct lat_maxrate_obs {
  int64_t k;
  int64_t bytes;
  double time_us;
} lat_maxrate_obs;

/** Bits of lat_pingpong_result.warnings. */
enum lat_run_warning { LAT_RUN_WARNINGS(LAT_C_ENUMERATOR) };

/** Bits of lat_pingpong_result.shared. */
enum lat_place_share { LAT_PLACE_SHARES(LAT_C_ENUMERATOR) };

/** Between what nodecomm measures (lat_nodecomm_options.sides, lat_nodecomm_summary.sides). */
enum lat_nodecomm_sides { LAT_NODECOMM_SIDES(LAT_C_ENUMERATOR) };

/** Options of lat_nodecomm_measure(); initialise with lat_nodecomm_defaults(). Must be equal on all ranks
    (except progress). */
typedef struct lat_nodecomm_options {
  int64_t size_last;   /**< the largest message of the starting grid (0, then 4 sizes per octave from 1 byte
                            up to it); default 1 MiB */
  int64_t reps;        /**< measurements per (k, n), interleaved over the whole grid; default 5 */
  int64_t max_pairs;   /**< most pairs K; 0 (default): as many as the two sides have ranks */
  int64_t nr;          /**< timer pairs of the calibration on the leading rank; default 2^18 */
  double timeout_s;    /**< watchdog as in lat_pingpong_options; 0 (default): wait for ever */
  int adaptive;        /**< 1 (default): the size-sweep engine refines the single-pair grid where it bends,
                            so every regime holds points; 0: the starting grid only */
  int timer;           /**< lat_timer_kind; default LAT_TIMER_MPI_WTIME */
  int progress;        /**< 1: the leading rank prints progress on stderr; default 0 */
  int sides;           /**< lat_nodecomm_sides: LAT_SIDES_NODE (default) or LAT_SIDES_SOCKET */
} lat_nodecomm_options;

/** One (k, n) of a nodecomm measurement: the full ping-pong time of the slowest of k pairs, us. */
typedef struct lat_nodecomm_point {
  int64_t k;           /**< pairs communicating at once */
  int64_t bytes;       /**< message size */
  int64_t reps;        /**< measurements made */
  int64_t n_avg;       /**< ping-pongs per measurement */
  double min_us;       /**< minimum over the measurements of the slowest pair's mean: THE time */
  double median_us, mean_us, max_us; /**< over the measurements, for the spread */
} lat_nodecomm_point;

/** What a nodecomm measurement did. */
typedef struct lat_nodecomm_summary {
  int64_t npoints;     /**< kmax x nsizes points, k-major within each size (lat_nodecomm_get_point) */
  int64_t kmax;        /**< K */
  int64_t nsizes;
  int64_t ranks_a, ranks_b; /**< ranks on each side */
  double wall_s;
  double res_timing_us, min_ov_us; /**< the leading rank's clock */
  int intra_node;      /**< 1: one node only (not the network): its two sockets, or its two halves */
  int partial;         /**< 1: stopped early by lat_request_stop() */
  int timer;
  int sides;           /**< what was measured: LAT_SIDES_NODE, LAT_SIDES_SOCKET, or LAT_SIDES_HALVES (one node,
                            or one socket where sockets were asked for) */
  char host_a[LAT_HOSTNAME_LEN], host_b[LAT_HOSTNAME_LEN]; /**< the two sides' hosts */
} lat_nodecomm_summary;

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
 * pair's. Collective over comm; *result on every rank (also on LAT_ERR_INTERRUPTED).
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

/** Options of lat_fit_maxrate(); initialise with lat_fit_defaults(). */
typedef struct lat_fit_options {
  int64_t nthresholds;     /**< -1 (default): detect from the k = 1 curve; 0..LAT_MAX_REGIMES-1: use thresholds[] */
  int64_t thresholds[LAT_MAX_REGIMES - 1]; /**< regime boundaries, ascending: a size n <= thresholds[0] is in regime 0 */
  double noise_rel;        /**< detection: the relative error below which a straight piece of the k = 1 curve
                                counts as exact (the floor of the segmented regression's criterion); 0.002 */
} lat_fit_options;

/** One model fitted in one regime. */
typedef struct lat_model_fit {
  double alpha_us;     /**< latency term (s of LAT_MODEL_MAXPOSTAL) */
  double rc_mbs;       /**< RC (postal, max-rate) or RCb (four-parameter): the rate of one pair alone */
  double rci_mbs;      /**< RCi of the four-parameter model (may be negative); 0 for the others */
  double rn_mbs;       /**< RN; INFINITY where the network never limits (and for postal models) */
  double rn_min_mbs;   /**< with LAT_BOUND_RN: the smallest RN the data allow (the aggregate rate the model
                            reaches at the most pairs); NaN otherwise */
  double k_star;       /**< from this many pairs on the network limits: RN / RC (max-rate), 1 + (RN - RCb) / RCi
                            (four-parameter); INFINITY where it never does */
  double rel_err_sum;  /**< sum over the regime's points of |T_model - T| / T (the paper's Table 2) */
  double rel_err_sq;   /**< sum of squared relative errors over the regime's points: the objective */
  double rel_err_max;  /**< largest |relative error| */
  double sse_gap;      /**< the certificate: no parameters of this model give a rel_err_sq over the points
                            fitted lower than the reported one minus sse_gap (0: exact); NaN: no certificate */
  int64_t npoints;     /**< the regime's points (the errors are over these) */
  int64_t nfit;        /**< the points the fit used (k = 1 or k = K only for the postal variants) */
  int model;           /**< lat_rate_model */
  int regime;          /**< 0-based */
  int bounded;         /**< bits of lat_fit_bound: the fields that hold a bound, not a value */
  int certified;       /**< 1: the global optimum, exactly or within sse_gap <= 1e-3 rel_err_sq (docs/method.md);
                            0: the best found by a search without a certificate */
} lat_model_fit;

/** What a fit did. */
typedef struct lat_fit_summary {
  int64_t nobs;              /**< observations */
  int64_t kmax;              /**< K: the most pairs observed */
  int64_t nregimes;          /**< 1..LAT_MAX_REGIMES */
  int64_t nthresholds;       /**< nregimes - 1 */
  int64_t thresholds[LAT_MAX_REGIMES - 1]; /**< the boundaries used (bytes) */
  int64_t regime_first[LAT_MAX_REGIMES], regime_last[LAT_MAX_REGIMES]; /**< smallest and largest size per regime */
  int thresholds_detected;   /**< 1: from the data; 0: given */
  int reserved;
} lat_fit_summary;

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
 * bytes >= 0, finite times > 0, at least 3 sizes. A pure function: no MPI, callable on data measured
 * anywhere. Not collective.
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
 * echoed); a missing file LAT_ERR_IO. Not collective.
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

/** One value of an npp study: the npp measured (and the res_npp it came from, or 0), its trials and
    their statistics, one way in microseconds. */
typedef struct lat_npp_study_row {
  int64_t npp;             /**< ping-pongs per timing loop */
  int64_t res_npp;         /**< the res_npp that gave npp by the rule (a --res-npp-study), or 0 */
  lat_stats stats;         /**< min, median, mean, max, stddev of its trials */
  lat_quantiles q;         /**< its percentiles (p99 among them) */
} lat_npp_study_row;

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

/** Options of the comparisons; initialise with lat_compare_defaults(). */
typedef struct lat_compare_options {
  double confidence;   /**< of the interval of B/A; default 0.95 */
  int64_t resamples;   /**< bootstrap resamples over launches; default 10000 */
  int64_t seed;        /**< of the bootstrap's generator, so a comparison is repeatable; default 1 */
} lat_compare_options;

/** A comparison of B against A: the value of each, their ratio B/A with its interval, the verdict. */
typedef struct lat_compare_result {
  double a_value, b_value;       /**< each group's value (median of its launches, or the quantile of its trials) */
  double ratio;                  /**< b_value / a_value */
  double ratio_low, ratio_high;  /**< the interval of the ratio; NaN where there is none, +-INFINITY where
                                      the samples are too few to bound an end */
  double confidence;             /**< its confidence */
  int64_t a_count, b_count;      /**< launches (LAT_METHOD_LAUNCHES) or trials (LAT_METHOD_TRIALS) */
  int method;                    /**< lat_compare_method */
  int verdict;                   /**< lat_compare_verdict */
} lat_compare_result;

/** Fills opts with the defaults above. */
int lat_compare_defaults(lat_compare_options *opts);

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
 * median of its launches, the interval of B/A the percentile bootstrap over launches (opts->resamples
 * resamples of each group with replacement). At least 3 launches a group, values finite and > 0;
 * method LAT_METHOD_LAUNCHES.
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

/** Checks that files can be created in outdir (creates and removes a probe file). Not collective. */
int lat_check_output_dir(const char *outdir);

#ifdef __cplusplus
}
#endif

#endif /* MPILAT_H */
