/* driver_support.h: what the C++ drivers share with each other and with the Fortran latency driver
   (drivers/driver_support.c): exit statuses, stop-signal handlers, polite waits for rank 0. */
#ifndef MPILAT_DRIVER_SUPPORT_H
#define MPILAT_DRIVER_SUPPORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Exit statuses of every driver. */
/* DRIVER_PRECISION_NOT_MET: a complete run whose --precision was not reached (latency, mpilat-coll), or a
   campaign's (mpilat-campaign): the files are whole and say why. */
enum driver_exit { DRIVER_DONE = 0, DRIVER_FAILED = 1, DRIVER_BAD_INPUT = 2, DRIVER_PARTIAL = 3, DRIVER_PRECISION_NOT_MET = 4 };

/** 1 when stderr is a terminal, or is a launcher's pipe and that launcher's own stderr is one (MPICH's hydra
    and Open MPI's daemons forward a rank's stderr through pipes, so under mpiexec at a terminal the rank's
    own never is): progress lines are on by default only there. */
int latency_stderr_is_terminal(void);
/** First SIGTERM/SIGINT: lat_request_stop(); more within 1 s are the same request (Slurm sends TERM, CONT,
    TERM); one later than that ends the program. */
void latency_install_stop_handlers(void);
/** The stop signal received, or 0. */
int latency_stop_signal(void);
/** Sleeps the given seconds (nanosleep, resumed after signals). */
void driver_pause_seconds(double seconds);
/** The len bytes of text as a terminal may be shown them, into out (4 * len + 1 bytes at least): each control
    character as \xNN, so that an escape sequence in a file or a name never acts on the terminal (the
    library's messages show names the same way). 1 when text held one. */
int driver_shown_text(const char *text, size_t len, char *out);
/** Collective: rank 0 checks that files can be created in outdir (made when missing), and then every file
    the capability `kind` may write there under `base` (lat_check_outputs; kind NULL: the directory only);
    if not, it prints "<program>: <option> '<outdir>': <why>" and every rank gets 0. 1 when all is usable. */
int driver_outdir_usable(const char *program, const char *option, const char *outdir, const char *kind, const char *base);
/** A tool without an MPI job: lat_check_output_dir(outdir), noting the directories it makes, which
    driver_outdir_unmake removes again on a later refusal. */
int driver_outdir_make(const char *outdir);
/** Rank 0 removes the directories driver_outdir_usable, driver_output_usable and driver_outdir_make made (only those, only while
    empty): a run refused after those checks leaves no directory behind. Each calls it on its own refusal,
    the drivers on a later one. */
void driver_outdir_unmake(void);
/** After a measuring call returned rc (neither LAT_SUCCESS nor LAT_ERR_INTERRUPTED): prints "<program>:
    <error>: <message>" (on rank 0, and on every rank for a timeout), ends the job on a timeout (a rank that
    stopped answering may never reach MPI_Finalize; after a 1 s pause in which the launcher forwards the
    messages), else MPI_Finalize. Returns the exit status: DRIVER_BAD_INPUT for LAT_ERR_ARG, else
    DRIVER_FAILED. */
int driver_measurement_failed(const char *program, int rc, int rank);
/** Under srun with Slurm's default --mpi=none, every task is an MPI job of one process: says so (on stderr,
    naming the program and the fix, --mpi=pmi2) when MPI_COMM_WORLD has 1 process but the step has more
    tasks; likewise under the other MPI's launcher (Open MPI's mpirun for an MPICH build, and the reverse),
    naming the launcher to use. Call after MPI_Init. */
void driver_launch_hint(const char *program);
/** Collective over MPI_COMM_WORLD, after each rank has read its options: status is this rank's verdict (-1 to
    go on, 0 after --help, DRIVER_BAD_INPUT refused) and complaint its message ("" if none). Returns the
    verdict every rank follows, the largest: one refused rank ends the job on all (before, a launch that gave
    one rank a bad value, `mpiexec -n 1 mmpi : -n 1 mmpi --repeats -5`, had rank 0 measure and wait for ever).
    Rank 0 printed its own complaint; a refused rank whose options rank 0 accepted prints its own, "rank R:
    <complaint>", and rank 0 says the ranks were given different options. Polls and sleeps as it waits. */
int driver_agree_options(const char *program, int status, const char *complaint);
/** Whether gnuplot, which draws the pictures, is an executable on this process's PATH: 1, or 0 after
    "<program>: gnuplot is not on the PATH ... give <noplot_option>" on stderr. Called where the pictures are
    drawn (rank 0) before anything is measured: without it a run measured to its end (69 s in a review)
    before the drawing failed. No MPI. */
int driver_plotter_usable(const char *program, const char *noplot_option);
/** Rank 0's *value on every rank of MPI_COMM_WORLD; the others poll and sleep instead of spinning. */
void driver_bcast_int_politely(int *value);
/** The same from rank root of MPI_COMM_WORLD. */
void driver_bcast_int_politely_from(int root, int *value);
/** Collective over MPI_COMM_WORLD: where a node runs more ranks than its ranks have processors (the union of
    their CPU affinity masks), rank 0 prints "<program>: WARNING: ..." on stderr naming the worst node's counts:
    waiting ranks there yield and a time can include the scheduler's. Returns 1 when so, on every rank. */
int driver_warn_oversubscribed(const char *program);
/** The end of a run whose exit status is status: every rank of MPI_COMM_WORLD meets in a blocking
    MPI_Barrier, then MPI_Finalize. Ranks that reach MPI_Finalize milliseconds apart (one still asleep in a
    polite wait) hang there for ever over UCX's TCP transport: the first ones in tear their connections down
    and stop progressing them while a late one's teardown waits for them (openucx/ucx#8738; seen with
    nodecomm between two nodes, and with mmpi on 2 x 2 ranks of 2 cores even after the barrier). So a watch
    thread ends the process with status, saying why, when MPI_Finalize has not returned within 10 s: by then
    every rank has passed the barrier, after the files were written; under MPICH it first ends PMI as
    MPI_Finalize would have (its barrier, its finalize; under Open MPI, PMIx_Finalize), so that the
    launcher's status is the run's. Tested by driver_finalize_watch (MPI_Finalize held
    for ever by a preloaded library) and the cluster tests. */
void driver_finalize(int status);

/* Non-zero when MPILAT_SHOW_OPTIONS is set (and not "0"): the driver prints on rank 0 the options structs it
   would measure with (drivers/options_show.h: every field, after its checks) and ends with 0, measuring
   nothing. For a job script checked before it is queued, and for the test option_fields. */
int driver_show_options_asked(void);
/** The exit status after a lat_write_* or lat_check_output_file call failed with rc: DRIVER_BAD_INPUT for
    LAT_ERR_ARG (an output that is a directory or device, an input, or another output of the run), else
    DRIVER_FAILED (the disk full, no permission). */
int driver_write_failed_status(int rc);
/** Rank 0, before anything is measured: 1 when path may be written (lat_check_output_file) in a directory
    that can take files (lat_check_output_dir, which makes a missing one), else prints "<program>: <option>:
    <why>" and returns 0. Not collective. */
int driver_output_usable(const char *program, const char *option, const char *path);
/** How this rank's run was stopped, for a message: "by signal 15", or "by a signal to another rank" when the
    stop came from a peer (the measuring ranks pass a stop request on). */
const char *driver_stop_cause(void);
/** After a stop cut the run short: "<program>: stopped <driver_stop_cause()>: <kept>" on stderr. */
void driver_stopped_note(const char *program, const char *kept);
/** Copies the file at path (a table just written) to standard output; nothing where it cannot be read. */
void driver_print_file(const char *path);
/** Prints to stderr the lines of the file at path that begin with `starting` ("" for every line), at most 40,
    each after "<program>: ": latency's warnings as latency.output words and formats them ("WARNING"), a failed
    launch's own words (mpilat-campaign). Nothing where the file cannot be read. */
void driver_print_lines_of(const char *program, const char *path, const char *starting);
/** Flushes standard output; 0 when everything written there arrived, else prints "<program>: writing to
    standard output: <why>" on stderr and returns DRIVER_FAILED. */
int driver_stdout_status(const char *program);

#ifdef __cplusplus
}
#endif

#endif
