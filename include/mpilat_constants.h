/**
 * @file mpilat_constants.h
 * @brief Every constant of the mpilat ABI, written once for C and for Fortran.
 *
 * mpilat.h includes this file and makes each list an enum; module mpilat (fortran/mpilat.F90, which is
 * preprocessed) includes it too and makes each entry an integer parameter of the same name and value. So
 * this file holds only preprocessor lines and C comments, which C's preprocessor and gfortran's
 * traditional one both read. A list is an X-macro: LAT_X(name, value) for each entry.
 */
#ifndef MPILAT_CONSTANTS_H
#define MPILAT_CONSTANTS_H

/* Return codes of every mpilat function (enum lat_error).
 *   LAT_SUCCESS          success
 *   LAT_ERR_ARG          an argument is out of range, NULL, or differs between ranks
 *   LAT_ERR_NOMEM        memory could not be allocated
 *   LAT_ERR_MPI          an MPI call failed (the message names it)
 *   LAT_ERR_NOT_INIT     MPI is not initialised, or already finalised
 *   LAT_ERR_UNSUPPORTED  the requested feature (e.g. a timer) is not available on this machine
 *   LAT_ERR_IO           a file could not be written or read (nothing partial is left behind)
 *   LAT_ERR_INTERNAL     a bug in mpilat: please report it with lat_last_error_message()
 *   LAT_ERR_INTERRUPTED  stopped early by lat_request_stop(); results hold what was measured
 *   LAT_ERR_TIMEOUT      a peer did not answer within opts.timeout_s; the message names the ranks and the
 *                        phase; on the timing rank the result holds what was measured
 *   LAT_ERR_DATA         received data differ from what was sent (verification mode); the message names the
 *                        ranks, the message size and the first wrong byte
 */
#define LAT_ERROR_CODES(LAT_X) \
  LAT_X(LAT_SUCCESS, 0) \
  LAT_X(LAT_ERR_ARG, 1) \
  LAT_X(LAT_ERR_NOMEM, 2) \
  LAT_X(LAT_ERR_MPI, 3) \
  LAT_X(LAT_ERR_NOT_INIT, 4) \
  LAT_X(LAT_ERR_UNSUPPORTED, 5) \
  LAT_X(LAT_ERR_IO, 6) \
  LAT_X(LAT_ERR_INTERNAL, 7) \
  LAT_X(LAT_ERR_INTERRUPTED, 8) \
  LAT_X(LAT_ERR_TIMEOUT, 9) \
  LAT_X(LAT_ERR_DATA, 10)

/* The clocks mpilat can time with (enum lat_timer_kind).
 *   LAT_TIMER_MPI_WTIME      MPI_Wtime(), as in the paper (default)
 *   LAT_TIMER_MONOTONIC_RAW  clock_gettime(CLOCK_MONOTONIC_RAW): not slewed by NTP
 *   LAT_TIMER_TSC            x86 invariant time-stamp counter, calibrated against MONOTONIC_RAW
 */
#define LAT_TIMER_KINDS(LAT_X) \
  LAT_X(LAT_TIMER_MPI_WTIME, 0) \
  LAT_X(LAT_TIMER_MONOTONIC_RAW, 1) \
  LAT_X(LAT_TIMER_TSC, 2)

/* Values of lat_pingpong_result.partial: why fewer than ntrial trials were measured (enum lat_partial_cause).
 *   LAT_COMPLETE         all ntrial trials measured
 *   LAT_PARTIAL_STOPPED  lat_request_stop() was called (a SIGTERM/SIGINT in the drivers)
 *   LAT_PARTIAL_TIMEOUT  the watchdog found a peer that did not answer (opts.timeout_s)
 */
#define LAT_PARTIAL_CAUSES(LAT_X) \
  LAT_X(LAT_COMPLETE, 0) \
  LAT_X(LAT_PARTIAL_STOPPED, 1) \
  LAT_X(LAT_PARTIAL_TIMEOUT, 2)

/* Values of lat_pingpong_result.ended_by: what ended the trials of a complete run (enum lat_run_end).
 *   LAT_END_TRIALS     ntrial trials were done
 *   LAT_END_TIME       the minutes' limit was reached
 *   LAT_END_PRECISION  the median's 95 % interval within this launch came within precision_pct of it, on a
 *                      quiet run (the ping-pong; the collective's interval still has the placement's term)
 *   LAT_END_UNREACHABLE (since 10) precision_pct cannot be met: (lat_collective) the placement's term alone
 *                      passes it, or a point kept no sample in its first LAT_UNREACHABLE_ROUNDS rounds (every
 *                      sync start late); the ping-pong no longer ends so (docs/method.md, "Precision") */
#define LAT_RUN_ENDS(LAT_X) \
  LAT_X(LAT_END_TRIALS, 0) \
  LAT_X(LAT_END_TIME, 1) \
  LAT_X(LAT_END_PRECISION, 2) \
  LAT_X(LAT_END_UNREACHABLE, 3)

/* The rounds after which lat_collective's precision_pct is called unreachable for a point that kept no
 * sample (every one started late): an oversubscribed node measured 2026 of 2026 late. */
#define LAT_UNREACHABLE_ROUNDS 100

/* The fewest chunks of trials (about 0.25 s each) before precision_pct may end a run: the run over time
   needs them to say whether it is quiet. */
#define LAT_PRECISION_MIN_CHUNKS 8

/* A measurement is disturbed when a measuring rank's thread spent this share or more of the time it could run
   (on a processor or waiting for one) waiting for a processor (Linux's /proc/thread-self/schedstat): 0.2-4 % on
   a quiet 2-core machine, 26-40 % beside two busy loops (docs/method.md, "A disturbed run"). */
#define LAT_DISTURBED_SHARE 0.05

/* ... and only when that rank waited this long (seconds): the job's start alone made a quiet rank wait 5-23 ms
   (mmpi's 0.05-0.1 s runs: 6-20 % of their wall clock), a run beside a hog hundreds. */
#define LAT_DISTURBED_MIN_WAIT_S 0.05

/* The overlap patterns: a size's computation in a window of n_avg calls slower than this times its fastest
   single call was measured on a disturbed machine (1.6-2.8x at 200,000 multiply-adds under load). */
#define LAT_OVERLAP_WINDOW_RATIO 1.25

/* cachesize below this many times the last-level cache may leave the "cold" walk in the cache. */
#define LAT_CACHESIZE_LLC_FACTOR 4

/* Until the campaign driver, queuelat's negative control failed only when the 0 %-traversed curve rose by more
   than this many times the reps' spread: load inflates that spread, and curves that rose 100-1,300x passed. No
   longer used (the control's yardstick is its own lowest minimum, docs/method.md, "Queues"); kept for the ABI. */
#define LAT_QUEUE_CONTROL_SPREADS 2.0
/* queuelat's negative control fails when the 0 %-traversed curve rises by more than its own lowest minimum (the
   run's quiet reference) and by more than this share of the fitted curve's rise over the same lengths (a quiet
   run here: the control rose 0.06 us over 1,000 posted receives, 1 % of the 100 % curve's 5.2 us). */
#define LAT_QUEUE_CONTROL_SHARE 0.25

/* The batches of consecutive chunks whose medians give precision_pct's interval (a prediction interval of one
   more batch, which is how the next launch is taken: docs/method.md, "Precision"). */
#define LAT_PRECISION_BATCHES 8

/* The cache lines (a page each) through which precision_pct's probe ping-pongs between two ranks of one node,
   to bound how far a launch's draw of where the MPI's lines land moves the median (docs/method.md,
   "Precision"). */
#define LAT_PLACEMENT_LINES 64

/* The longest a run with precision_pct > 0 measures when its options' precision_limit_s is 0, in seconds:
   a precision the machine never gives ends there, saying so. */
#define LAT_PRECISION_LIMIT_S 600.0

/* Values of lat_pingpong_result.stopped_in: the phase a partial run ended in (enum lat_run_phase).
 *   LAT_PHASE_NONE         the run was complete
 *   LAT_PHASE_CALIBRATION  the timer calibration (Part 1): no npp estimate, no trial
 *   LAT_PHASE_ESTIMATE     the npp estimate (Part 2): no trial; npptrial holds the loops it timed
 *   LAT_PHASE_TRIALS       the timing trials (Part 3, or an npp study's)
 */
#define LAT_RUN_PHASES(LAT_X) \
  LAT_X(LAT_PHASE_NONE, 0) \
  LAT_X(LAT_PHASE_CALIBRATION, 1) \
  LAT_X(LAT_PHASE_ESTIMATE, 2) \
  LAT_X(LAT_PHASE_TRIALS, 3)

/* What one operation of a sweep is (lat_sweep_options.pattern; enum lat_sweep_pattern).
 *   LAT_SWEEP_PINGPONG      blocking MPI_Send/MPI_Recv round trip; time = round trip / 2
 *   LAT_SWEEP_NONBLOCKING   the same with MPI_Irecv posted first, MPI_Isend, MPI_Wait; / 2
 *   LAT_SWEEP_HEAD_TO_HEAD  both ranks MPI_Irecv + MPI_Isend + MPI_Waitall at once; time per exchange
 *   LAT_SWEEP_OVERLAP       head-to-head exchange of overlap_bytes around a computation of `size` multiply-
 *                           adds; the swept "size" is the computation (peril 4); time per exchange
 *   LAT_SWEEP_OVERLAP_ROUNDTRIP (since 10) the original mpptest's -overlap: a round trip of overlap_bytes, the
 *                           initiator computing `size` multiply-adds between its MPI_Isend and the wait for
 *                           the reply, the responder as many after its reply's MPI_Isend; time per round trip
 *   LAT_SWEEP_PERSISTENT    (since 10) the original mpptest's -persistant: the non-blocking ping-pong with
 *                           persistent requests (MPI_Recv_init, MPI_Send_init, MPI_Start), made once a
 *                           sample outside the clock; one pair of buffers, so not with cachesize; / 2
 *   LAT_SWEEP_MEMCPY        (since 10) the original mpptest's -memcpy: no communication, the source rank
 *                           copies `size` bytes with memcpy, alone (dest is not used; one process is enough;
 *                           not with bisect); time per copy
 *   LAT_SWEEP_HALO          (since 10) the original mpptest's -halo: every rank of the communicator exchanges
 *                           `size` bytes with each of its halo_partners at once (an MPI_Irecv and an
 *                           MPI_Isend each, one MPI_Waitall); time per exchange, the slowest rank's
 *   LAT_SWEEP_GOP           (since 10) the original mpptest's -gop: every rank of the communicator calls the
 *                           collective operation lat_sweep_options.gop (lat_sweep_gop) n_avg times in a row;
 *                           time per call, the slowest rank's
 */
#define LAT_SWEEP_PATTERNS(LAT_X) \
  LAT_X(LAT_SWEEP_PINGPONG, 0) \
  LAT_X(LAT_SWEEP_NONBLOCKING, 1) \
  LAT_X(LAT_SWEEP_HEAD_TO_HEAD, 2) \
  LAT_X(LAT_SWEEP_OVERLAP, 3) \
  LAT_X(LAT_SWEEP_OVERLAP_ROUNDTRIP, 4) \
  LAT_X(LAT_SWEEP_PERSISTENT, 5) \
  LAT_X(LAT_SWEEP_MEMCPY, 6) \
  LAT_X(LAT_SWEEP_HALO, 7) \
  LAT_X(LAT_SWEEP_GOP, 8)

/* The collective operation of LAT_SWEEP_GOP (lat_sweep_options.gop; enum lat_sweep_gop), the original
 * mpptest's -gop choices; a size is bytes here (the original counts -dsum's in doubles and -isum's in ints):
 *   LAT_SWEEP_GOP_SYNC   MPI_Barrier (the size is not used), the original's -sync and its default
 *   LAT_SWEEP_GOP_DSUM   MPI_Allreduce of size/8 doubles with MPI_SUM (-dsum)
 *   LAT_SWEEP_GOP_ISUM   MPI_Allreduce of size/sizeof(int) ints with MPI_SUM (-isum)
 *   LAT_SWEEP_GOP_BCAST  MPI_Bcast of size bytes, the root turning from rank 0 to the last call after call
 *                        (-bcast, -scatter)
 */
#define LAT_SWEEP_GOPS(LAT_X) \
  LAT_X(LAT_SWEEP_GOP_SYNC, 0) \
  LAT_X(LAT_SWEEP_GOP_DSUM, 1) \
  LAT_X(LAT_SWEEP_GOP_ISUM, 2) \
  LAT_X(LAT_SWEEP_GOP_BCAST, 3)

/* Why a sweep ended (lat_sweep_summary.end; enum lat_sweep_end).
 *   LAT_SWEEP_END_STABLE   every size's minimum stopped improving (n_stable)
 *   LAT_SWEEP_END_REPS     every size has reps samples
 *   LAT_SWEEP_END_BUDGET   the wall-clock budget ran out (no rerun of anomalies was made)
 *   LAT_SWEEP_END_STOPPED  lat_request_stop(): the call returns LAT_ERR_INTERRUPTED with the points so far
 */
#define LAT_SWEEP_ENDS(LAT_X) \
  LAT_X(LAT_SWEEP_END_STABLE, 0) \
  LAT_X(LAT_SWEEP_END_REPS, 1) \
  LAT_X(LAT_SWEEP_END_BUDGET, 2) \
  LAT_X(LAT_SWEEP_END_STOPPED, 3)

/* What lat_write_sweep_files() writes besides the CSV and the JSON, as bits of its flags (enum
 * lat_sweep_files_flag).
 *   LAT_SWEEP_FILES_PNG      draw <base>.png with gnuplot
 *   LAT_SWEEP_FILES_GNUPLOT  write <base>.gpl and <base>.gcm (mpptest's -gnuplot output)
 *   LAT_SWEEP_FILES_GIVEDY   with GNUPLOT: <base>.gpl gets the mean and the max (mpptest's -givedy)
 *   LAT_SWEEP_FILES_RATE     (since 10) the pictures (<base>.png, <base>.gcm) show the rate against the size
 *                            instead of the time (mpptest's -rate)
 */
#define LAT_SWEEP_FILES_FLAGS(LAT_X) \
  LAT_X(LAT_SWEEP_FILES_PNG, 1) \
  LAT_X(LAT_SWEEP_FILES_GNUPLOT, 2) \
  LAT_X(LAT_SWEEP_FILES_GIVEDY, 4) \
  LAT_X(LAT_SWEEP_FILES_RATE, 8)

/* What lat_write_pair_matrices draws (its `render` argument, bits; enum lat_pair_files_flag).
 *   LAT_PAIR_FILES_PNG   render the heat map as PNG and SVG (else only its gnuplot script)
 *   LAT_PAIR_FILES_MEAN  the heat map of the mean; without it, of the median where the result has medians
 *                        (a measurement, or our JSON read back), else of the mean (an mmpi log has no median)
 */
#define LAT_PAIR_FILES_FLAGS(LAT_X) \
  LAT_X(LAT_PAIR_FILES_PNG, 1) \
  LAT_X(LAT_PAIR_FILES_MEAN, 2)

/* Which queue a queue sweep fills (lat_queue_options.mode; enum lat_queue_mode).
 *   LAT_QUEUE_POSTED      pre-posted receives, a fraction of them traversed by the latency message
 *   LAT_QUEUE_UNEXPECTED  unexpected messages; the latency receive is posted inside the timed region
 */
#define LAT_QUEUE_MODES(LAT_X) \
  LAT_X(LAT_QUEUE_POSTED, 0) \
  LAT_X(LAT_QUEUE_UNEXPECTED, 1)

/* What makes a ping-pong run untrustworthy (bits of lat_pingpong_result.warnings; enum lat_run_warning).
 *   LAT_WARN_LEVELS    the medians of the ~0.25 s chunks of trials fall into two or more separated levels:
 *                      the machine changed state during the run (level_us, level_share)
 *   LAT_WARN_FILTERED  the filter removed more than 5 % of the trials, not the rare outliers it assumes
 *   LAT_WARN_STATE     the run changed state at a time: a change point in the chunks' median, their p99 or
 *                      their trials per second (change_*: when, what and by how much; docs/method.md)
 *   LAT_WARN_OVERSUBSCRIBED  lat_collective: a node holds more ranks than processors; the times are the
 *                      scheduler's (milliseconds per barrier), not the network's
 *   LAT_WARN_LATE      lat_collective: more than 5 % of the synchronised samples had a rank start late
 *                      (the window is too short for this machine's noise: lat_collective_options.window_us)
 *   LAT_WARN_CLOCKS    lat_collective: the clocks could not be kept: a rank's residual offset to rank 0, after
 *                      3 synchronisations or at the end of the run, was beyond what its exchanges allow (half
 *                      the fit's best round trip + 0.1 us); the sync mode's figures are withheld
 *   LAT_WARN_FIT       lat_queue_sweep (lat_queue_summary.warnings): the line through the minima has a negative
 *                      slope, or its points do not lie on a line (R^2 < LAT_QUEUE_FIT_R2_MIN), or it has fewer
 *                      than 3 points: the slope is no latency per entry
 *   LAT_WARN_DISTURBED (since 10) lat_queue_sweep, lat_collective: a measuring rank waited for a processor
 *                      LAT_DISTURBED_SHARE of the time it could run or more (and LAT_DISTURBED_MIN_WAIT_S) (runqueue_share_max; the size sweep, the
 *                      pair matrix and nodecomm report the same share without a warnings field)
 *   LAT_WARN_CONTROL   (since 10) lat_queue_sweep, posted mode: the 0 %-traversed curve, which must be flat, rose
 *                      beyond the reps' spread and a share of the fitted curve's rise: the machine, not the queue,
 *                      moved the times (control_rise_us, control_spread_us)
 */
#define LAT_RUN_WARNINGS(LAT_X) \
  LAT_X(LAT_WARN_LEVELS, 1) \
  LAT_X(LAT_WARN_FILTERED, 2) \
  LAT_X(LAT_WARN_STATE, 4) \
  LAT_X(LAT_WARN_OVERSUBSCRIBED, 8) \
  LAT_X(LAT_WARN_LATE, 16) \
  LAT_X(LAT_WARN_CLOCKS, 32) \
  LAT_X(LAT_WARN_FIT, 64) \
  LAT_X(LAT_WARN_DISTURBED, 128) \
  LAT_X(LAT_WARN_CONTROL, 256)

/* What changed at a state change of a run (lat_pingpong_result.change_quantity; enum lat_change_quantity).
 *   LAT_CHANGE_MEDIAN  the chunks' median one-way time (us)
 *   LAT_CHANGE_P99     the chunks' 99th percentile (us): the tail
 *   LAT_CHANGE_RATE    the trials per second: what slows everything, inside and outside the timed region
 */
#define LAT_CHANGE_QUANTITIES(LAT_X) \
  LAT_X(LAT_CHANGE_MEDIAN, 0) \
  LAT_X(LAT_CHANGE_P99, 1) \
  LAT_X(LAT_CHANGE_RATE, 2)

/* What two ranks share (bits of lat_pingpong_result.shared; enum lat_place_share): a bit is set when the
 * platform tells that they share it, and LAT_SHARE_KNOWN_* when it can tell at all (hwloc knew both
 * bindings).
 *   LAT_SHARE_NODE          one shared-memory node (MPI_Comm_split_type)
 *   LAT_SHARE_SOCKET        one package (socket) of that node
 *   LAT_SHARE_CORE          one core: the two ranks take turns on it
 *   LAT_SHARE_KNOWN_SOCKET  both packages are known, so LAT_SHARE_SOCKET is an answer, not a blank
 *   LAT_SHARE_KNOWN_CORE    both cores are known
 */
#define LAT_PLACE_SHARES(LAT_X) \
  LAT_X(LAT_SHARE_NODE, 1) \
  LAT_X(LAT_SHARE_SOCKET, 2) \
  LAT_X(LAT_SHARE_CORE, 4) \
  LAT_X(LAT_SHARE_KNOWN_SOCKET, 8) \
  LAT_X(LAT_SHARE_KNOWN_CORE, 16)

/* How a comparison found its interval (lat_compare_result.method; enum lat_compare_method).
 *   LAT_METHOD_NONE      no interval: fewer than 3 launches a group and no samples, or a value <= 0
 *   LAT_METHOD_LAUNCHES  bootstrap over launches (>= 3 a group): the launch is the unit
 *   LAT_METHOD_TRIALS    order-statistic intervals of the two quantiles over the trials (pooled): one
 *                         launch cannot show the variation between launches
 */
#define LAT_COMPARE_METHODS(LAT_X) \
  LAT_X(LAT_METHOD_NONE, 0) \
  LAT_X(LAT_METHOD_LAUNCHES, 1) \
  LAT_X(LAT_METHOD_TRIALS, 2)

/* What a comparison concluded (lat_compare_result.verdict; enum lat_compare_verdict).
 *   LAT_VERDICT_UNRESOLVED  the interval of B/A holds 1 (or there is none): no difference resolvable
 *   LAT_VERDICT_B_HIGHER    the whole interval is above 1: B's value is higher (slower, for a time)
 *   LAT_VERDICT_B_LOWER     the whole interval is below 1: B's value is lower (faster, for a time)
 */
#define LAT_COMPARE_VERDICTS(LAT_X) \
  LAT_X(LAT_VERDICT_UNRESOLVED, 0) \
  LAT_X(LAT_VERDICT_B_HIGHER, 1) \
  LAT_X(LAT_VERDICT_B_LOWER, 2)

/* Between what nodecomm measures its k pairs (lat_nodecomm_options.sides, lat_nodecomm_summary.sides;
 * enum lat_nodecomm_sides). The paper measures "to another node or another chip".
 *   LAT_SIDES_NODE    rank 0's node against the lowest-ranked other node (default)
 *   LAT_SIDES_SOCKET  on rank 0's node, the ranks bound in its package (socket, hwloc) against those of
 *                     the lowest-ranked other package; ranks on other nodes take no part
 *   LAT_SIDES_HALVES  (summary only) one node, or one package, or packages unknown: the first half of
 *                     its ranks against the second
 */
#define LAT_NODECOMM_SIDES(LAT_X) \
  LAT_X(LAT_SIDES_NODE, 0) \
  LAT_X(LAT_SIDES_SOCKET, 1) \
  LAT_X(LAT_SIDES_HALVES, 2)

/* The order in which a pair matrix visits the pairs (lat_pair_options.schedule; enum lat_pair_schedule).
 *   LAT_PAIRS_SEQUENTIAL  one pair at a time, in mmpi's order (0,1), (0,2), ..., (N-2,N-1): the network is
 *                         otherwise idle; N(N-1)/2 synchronised steps per repeat
 *   LAT_PAIRS_ROUNDS      round-robin tournament: N-1 rounds (N for odd N, one rank resting) of disjoint
 *                         pairs measured at the same time: latency under concurrent load
 */
#define LAT_PAIR_SCHEDULES(LAT_X) \
  LAT_X(LAT_PAIRS_SEQUENTIAL, 0) \
  LAT_X(LAT_PAIRS_ROUNDS, 1)

/* How ranks wait between steps of a pair matrix (lat_pair_options.wait; enum lat_wait_mode).
 *   LAT_WAIT_AUTO   spin, unless some machine (ranks under one kernel, by its boot id) holds more ranks than
 *                   it has processors: then yield
 *   LAT_WAIT_SPIN   test in a loop (fastest steps; wants a core per rank)
 *   LAT_WAIT_YIELD  test, then sleep 0.5 ms between steps, and in the timed round trip test and
 *                   sched_yield(): on an oversubscribed node a blocking call would spin through its time
 *                   slice while its partner waits for the processor (milliseconds)
 */
#define LAT_WAIT_MODES(LAT_X) \
  LAT_X(LAT_WAIT_AUTO, 0) \
  LAT_X(LAT_WAIT_SPIN, 1) \
  LAT_X(LAT_WAIT_YIELD, 2)

/* The statistics of a pair matrix (lat_pairs_get_matrix; enum lat_pair_stat).
 *   LAT_PAIR_MEAN    mean of the repeats (the mmpi log's AvgCommTime)
 *   LAT_PAIR_STDDEV  sample standard deviation (divisor repeats - 1): the log's StdDev column
 *   LAT_PAIR_STDERR  standard error of the mean, stddev / sqrt(repeats) (what the 2009 mmpi's "StdDev" column
 *                    really held)
 *   LAT_PAIR_MIN
 *   LAT_PAIR_MEDIAN
 *   LAT_PAIR_MAX
 *   LAT_PAIR_COUNT   round trips timed for the pair (repeats, fewer after a stop)
 */
#define LAT_PAIR_STATS(LAT_X) \
  LAT_X(LAT_PAIR_MEAN, 0) \
  LAT_X(LAT_PAIR_STDDEV, 1) \
  LAT_X(LAT_PAIR_STDERR, 2) \
  LAT_X(LAT_PAIR_MIN, 3) \
  LAT_X(LAT_PAIR_MEDIAN, 4) \
  LAT_X(LAT_PAIR_MAX, 5) \
  LAT_X(LAT_PAIR_COUNT, 6)

/* The models fitted in every regime (lat_model_fit.model); rates in MB/s = bytes/us (enum lat_rate_model).
 *   LAT_MODEL_POSTAL_1PAIR   T = alpha + n/RC fitted on the k = 1 points (errors over all k)
 *   LAT_MODEL_POSTAL_KPAIRS  the same fitted on the k = K points
 *   LAT_MODEL_POSTAL_ALL     the same fitted on all points
 *   LAT_MODEL_MAXRATE        T = alpha + k n / min(RN, k RC), RN = infinity allowed
 *   LAT_MODEL_MAXRATE4       T = alpha + k n / min(RN, RCb + (k-1) RCi)
 *   LAT_MODEL_MAXPOSTAL      the paper's modified model (5): T = k n / min(RN, k n / (alpha + n/RC)), that is
 *                            max(alpha + n/RC, k n/RN): a pair is a postal link until the network limits
 */
#define LAT_RATE_MODELS(LAT_X) \
  LAT_X(LAT_MODEL_POSTAL_1PAIR, 0) \
  LAT_X(LAT_MODEL_POSTAL_KPAIRS, 1) \
  LAT_X(LAT_MODEL_POSTAL_ALL, 2) \
  LAT_X(LAT_MODEL_MAXRATE, 3) \
  LAT_X(LAT_MODEL_MAXRATE4, 4) \
  LAT_X(LAT_MODEL_MAXPOSTAL, 5)

/* What the data leave open in a fitted model (bits of lat_model_fit.bounded): the field then holds a bound.
 *   LAT_BOUND_RC     every point is network-bound: rc_mbs is only a lower bound (RC >= it)
 *   LAT_BOUND_RCI    RCi is not determined (fewer than two core-bound pair counts): rci_mbs is NaN
 *   LAT_BOUND_RN     no point is network-bound: rn_mbs is INFINITY and the data only say RN >= rn_min_mbs
 *   LAT_BOUND_ALPHA  every point is network-bound (LAT_MODEL_MAXPOSTAL): alpha_us is only an upper bound
 *   LAT_BOUND_NARROW (since 10) the regime is too narrow (or too flat) to fix any rate: its one-pair times
 *                    show no slope in the size at 95 % (t test); with LAT_BOUND_RC, rc_mbs is the lower bound
 *                    the slope's upper limit gives, and k* and RCi are NaN
 */
/* Values of lat_model_fit.verdict (enum lat_fit_verdict): whether a model describes a regime's data.
 *   LAT_VERDICT_FITS    its relative errors show no pattern in k or in size (runs test z >= -LAT_VERDICT_RUNS_Z)
 *   LAT_VERDICT_MISFIT  its relative errors are systematic: the model does not describe the data; or (since 10)
 *                       the time grows from 1 to K pairs at the regime's smaller sizes more than
 *                       LAT_VERDICT_LATENCY_GROWTH beyond the model (lat_model_fit.latency_growth): a latency that
 *                       grows with k, found on tables too small for the runs test
 *   LAT_VERDICT_NO_K    it fits, but its dependence on k does not pay for its extra parameters over the postal
 *                       model (BIC gain < LAT_VERDICT_BIC_GAIN): the data show no network limit, and RN and k* are
 *                       not claimed (RN infinite with LAT_BOUND_RN, k* infinite)
 *   LAT_VERDICT_UNTESTED (since 10) too few observations for the runs test to find a systematic error even in
 *                       its most extreme arrangement (two runs): the model can be neither confirmed nor refuted
 *                       (5 sizes x 2 pairs: 10 observations reach z = -2.5 at most); never "fits" */
#define LAT_FIT_VERDICTS(LAT_X) \
  LAT_X(LAT_VERDICT_FITS, 0) \
  LAT_X(LAT_VERDICT_MISFIT, 1) \
  LAT_X(LAT_VERDICT_NO_K, 2) \
  LAT_X(LAT_VERDICT_UNTESTED, 3)
#define LAT_VERDICT_RUNS_Z 3.5
#define LAT_VERDICT_BIC_GAIN 10.0
#define LAT_VERDICT_LATENCY_GROWTH 0.10

#define LAT_FIT_BOUNDS(LAT_X) \
  LAT_X(LAT_BOUND_RC, 1) \
  LAT_X(LAT_BOUND_RCI, 2) \
  LAT_X(LAT_BOUND_RN, 4) \
  LAT_X(LAT_BOUND_ALPHA, 8) \
  LAT_X(LAT_BOUND_NARROW, 16)

/* The collective operations lat_collective() measures (bits of lat_collective_options.ops; enum
 * lat_coll_op). The rooted ones (bcast, reduce, gather, scatter) use lat_collective_options.root; reduce and
 * allreduce sum doubles (msg_bytes / 8 of them, none below 8 bytes); gather, scatter, allgather and alltoall move
 * msg_bytes to or from each rank.
 */
#define LAT_COLL_OPS(LAT_X) \
  LAT_X(LAT_COLL_BARRIER, 1) \
  LAT_X(LAT_COLL_BCAST, 2) \
  LAT_X(LAT_COLL_REDUCE, 4) \
  LAT_X(LAT_COLL_ALLREDUCE, 8) \
  LAT_X(LAT_COLL_GATHER, 16) \
  LAT_X(LAT_COLL_SCATTER, 32) \
  LAT_X(LAT_COLL_ALLGATHER, 64) \
  LAT_X(LAT_COLL_ALLTOALL, 128)

/* How lat_collective() times one call (bits of lat_collective_options.modes; enum lat_coll_mode).
 *   LAT_COLL_MODE_SYNC     each call starts at a time scheduled on the synchronised global clock; the value
 *                          is the last rank's end minus the first rank's start on that clock; a sample where
 *                          a rank started late is counted and discarded (ReproMPI's method)
 *   LAT_COLL_MODE_BARRIER  MPI_Barrier before each call; the value is the largest local time over the ranks
 *   LAT_COLL_MODE_LOOP     calls back to back (loop_calls of them) after a barrier; the value is the mean over
 *                          the ranks of each rank's average per call, as OSU and IMB report: for comparison
 */
#define LAT_COLL_MODES(LAT_X) \
  LAT_X(LAT_COLL_MODE_SYNC, 1) \
  LAT_X(LAT_COLL_MODE_BARRIER, 2) \
  LAT_X(LAT_COLL_MODE_LOOP, 4)

/* Single values: rank selectors, limits and sizes. */
/** Every rank calibrates its own clock (a value of lat_timer_options.rank). */
#define LAT_ALL_RANKS (-1)
/** The last rank of the communicator, as a value of lat_*_options.dest. */
#define LAT_LAST_RANK (-1)
/** Number of 0.2 us bins in the Appendix A distribution: [0,0.2), ..., [9.6,9.8), then [9.8, inf). */
#define LAT_NBINS 50
/** lat_queue_sweep: the least R^2 of the line through the minima for its slope to be read as a latency per
    entry (LAT_WARN_FIT below it). */
#define LAT_QUEUE_FIT_R2_MIN 0.9
/** Width of those bins in microseconds (module mpilat gives it kind c_double). */
#define LAT_BIN_WIDTH_US 0.2
/** Room for a processor name in results, terminating NUL included. */
#define LAT_HOSTNAME_LEN 256
/** Largest npp the calculation may return (a guard against a median ping-pong time of ~0). */
#define LAT_NPP_MAX 1000000000
/** Number of lat_pair_stat values. */
#define LAT_PAIR_NSTATS 7
/** Number of lat_rate_model values. */
#define LAT_NMODELS 6
/** Most levels of a run's chunk medians reported (lat_pingpong_result.level_us). */
#define LAT_MAX_LEVELS 4
/** Most state changes of a run held in lat_pingpong_result (the files list them all). */
#define LAT_MAX_CHANGES 8
/** Percentiles of lat_quantiles (their levels in percent: lat_quantiles.level). */
#define LAT_NPERCENTILES 11
/** Room for a processor set in list form ("0-3,8"), terminating NUL included. */
#define LAT_CPUSET_LEN 64
/** Most values of an npp study (lat_npp_study). */
#define LAT_STUDY_MAX 64
/** Most regimes of a max-rate fit (short, eager, rendezvous, and one more where a protocol switches twice);
    thresholds: LAT_MAX_REGIMES - 1. */
#define LAT_MAX_REGIMES 4
/** Every operation of lat_coll_op (the default of lat_collective_options.ops). */
#define LAT_COLL_ALL_OPS 255
/** Every mode of lat_coll_mode (the default of lat_collective_options.modes). */
#define LAT_COLL_ALL_MODES 7
/** Most message sizes of one lat_collective() call. */
#define LAT_COLL_MAX_SIZES 64
/** The largest file the readers take, in bytes (1 GiB), and the longest line of a line-oriented one (an mmpi
    log, a nodecomm table): lat_check_input_file. */
#define LAT_MAX_INPUT_BYTES 1073741824
#define LAT_MAX_INPUT_LINE 65536
/** The one version of mpilat, written here only (CMake and Makefile.legacy read these three lines): the
    project's version is LAT_VERSION_MAJOR.LAT_API_VERSION.LAT_VERSION_PATCH. LAT_API_VERSION is bumped
    whenever the C ABI or module mpilat changes (a struct field added, removed, moved or retyped; a function
    added or changed; a constant's value), LAT_VERSION_PATCH for fixes that change neither (NEWS.md).
    Compare LAT_API_VERSION with lat_get_api_version() at run time. */
#define LAT_VERSION_MAJOR 0
#define LAT_API_VERSION 10
#define LAT_VERSION_PATCH 0

#endif /* MPILAT_CONSTANTS_H */
