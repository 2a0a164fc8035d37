/* driver_support.c: the little the Fortran drivers need from POSIX and cannot say in standard Fortran. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT, RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "driver_support.h"
#include "mpilat.h"

/* Progress lines are on by default only where a person is watching. */
/* The start of a small file of the kernel's (/proc) into text, ended by a NUL: 1, or 0 where it cannot be read. */
static int read_proc_text(const char *path, char *text, size_t size) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  const size_t n = fread(text, 1, size - 1, f);
  fclose(f);
  text[n] = '\0';
  return 1;
}

/* The parent of pid and its command name, from /proc/<pid>/stat ("pid (comm) state ppid ..."; comm may hold
   spaces and parentheses: it ends at the last ')'). */
static pid_t parent_of(pid_t pid, char *comm, size_t comm_size) {
  char path[64], text[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  if (!read_proc_text(path, text, sizeof text)) return 0;
  char *open = strchr(text, '('), *close = strrchr(text, ')');
  int ppid = 0;
  if (open == NULL || close == NULL || close < open || sscanf(close + 1, " %*c %d", &ppid) != 1) return 0;
  snprintf(comm, comm_size, "%.*s", (int)(close - open - 1), open + 1);
  return (pid_t)ppid;
}

int latency_stderr_is_terminal(void) {
  if (isatty(STDERR_FILENO)) return 1;
  /* Up through the launcher's processes only: a shell above mpiexec may have a terminal that mpiexec's own
     stderr (a file) does not reach. */
  static const char *const launchers[] = {"hydra_pmi_proxy", "mpiexec", "mpiexec.hydra", "mpiexec.mpich", "mpirun",
                                          "mpirun.mpich", "mpiexec.openmpi", "mpirun.openmpi", "orterun", "orted",
                                          "prted", "prterun", NULL};
  char comm[64];
  pid_t pid = getppid();
  for (int depth = 0; depth < 4 && pid > 1; ++depth) {
    const pid_t parent = parent_of(pid, comm, sizeof comm);
    int launcher = 0;
    for (int k = 0; launchers[k] != NULL; ++k) launcher |= strcmp(comm, launchers[k]) == 0;
    if (!launcher) return 0;
    char path[64], target[64];
    snprintf(path, sizeof path, "/proc/%d/fd/2", (int)pid);
    const ssize_t len = readlink(path, target, sizeof target - 1);
    if (len > 0) {
      target[len] = '\0';
      if (strncmp(target, "/dev/pts/", 9) == 0 || strncmp(target, "/dev/tty", 8) == 0) return 1;
    }
    pid = parent;
  }
  return 0;
}

static volatile sig_atomic_t stop_signo = 0;
static struct timespec first_stop_at;

/* A second stop signal within this time of the first is part of the same request: at a time limit or a
   scancel, Slurm's slurmstepd sends SIGTERM, then SIGCONT and SIGTERM again within milliseconds. */
#define STOP_BURST_SECONDS 1.0

/* The first SIGTERM/SIGINT/SIGUSR1/SIGHUP asks the measurement to stop at its next safe point (the files are then
   written with what was measured); one that comes later than STOP_BURST_SECONDS after it restores the
   default action and ends the program (a person pressing Ctrl-C again). clock_gettime is
   async-signal-safe. */
static void on_stop_signal(int signo) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (stop_signo != 0) {
    double since = (double)(now.tv_sec - first_stop_at.tv_sec) + 1e-9 * (double)(now.tv_nsec - first_stop_at.tv_nsec);
    if (since < STOP_BURST_SECONDS) return;
    signal(signo, SIG_DFL);
    raise(signo);
    return;
  }
  first_stop_at = now;
  stop_signo = signo;
  lat_request_stop();
}

/* A reader that closes the pipe early (`mpilat-compare ... | head -1`) must cost no file: with SIGPIPE's
   default a driver died silently at its first line after that, before its files were written. Ignored, a
   write to the closed pipe fails (EPIPE), the files are written, and driver_stdout_status says so (exit 1).
   Every driver links this file, and each is a program of its own: ignored before main. */
__attribute__((constructor)) static void ignore_closed_pipes(void) { signal(SIGPIPE, SIG_IGN); }

void latency_install_stop_handlers(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  /* Slurm's early warning (sbatch --signal=USR1@60, scancel --signal=USR1) and a hang-up: the same stop.
     Installed after MPI_Init, so UCX's own SIGHUP handler (a page of debug lines, and the run goes on) is
     replaced. */
  sigaction(SIGUSR1, &action, NULL);
  sigaction(SIGHUP, &action, NULL);
  /* A soft CPU-time limit (ulimit -t, a batch system's CPU limit): the kernel's SIGXCPU would end the run
     with nothing written; the hard limit's SIGKILL follows only later. */
  sigaction(SIGXCPU, &action, NULL);
}

int latency_stop_signal(void) { return (int)stop_signo; }

void latency_pause_seconds(double seconds) {
  struct timespec pause;
  pause.tv_sec = (time_t)seconds;
  pause.tv_nsec = (long)((seconds - (double)pause.tv_sec) * 1e9);
  while (nanosleep(&pause, &pause) != 0) {
  }
}

/* The directories this process made for its outputs (an --outdir, -fname's folder), each part it made
   itself, in order, with its identity: what driver_outdir_unmake removes again. A part that another process
   made first (mkdir's EEXIST) is not ours and is never removed, even while it is empty. */
#define MADE_MAX 16
static char made_path[MADE_MAX][4096];
static dev_t made_dev[MADE_MAX];
static ino_t made_ino[MADE_MAX];
static int nmade = 0;

/* Makes the missing parts of dir, shallowest first (0755, as the library's own), noting each it made. The
   library's check that follows finds them there and checks the rest. */
static void make_missing_directories(const char *dir) {
  if (dir == NULL || dir[0] == '\0' || strlen(dir) >= sizeof made_path[0]) return;
  char prefix[sizeof made_path[0]];
  const size_t n = strlen(dir);
  for (size_t at = 1; at <= n; ++at) {
    if (at < n && dir[at] != '/') continue;
    memcpy(prefix, dir, at);
    prefix[at] = '\0';
    struct stat st;
    if (lstat(prefix, &st) == 0 || errno != ENOENT) continue;
    if (nmade == MADE_MAX) return;
    if (mkdir(prefix, 0755) != 0) {
      if (errno == EEXIST) continue;  /* another process made it meanwhile: not ours, the deeper parts may be */
      return;                         /* the library's check says why */
    }
    if (lstat(prefix, &st) != 0) return;
    snprintf(made_path[nmade], sizeof made_path[0], "%s", prefix);
    made_dev[nmade] = st.st_dev;
    made_ino[nmade] = st.st_ino;
    ++nmade;
  }
}

/* This process's rank, or 0 in a tool that runs without an MPI job (mmpi2mat, nodecomm --fit,
   mpilat-compare). */
static int rank_or_zero(void) {
  int initialized = 0, finalized = 0, rank = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int driver_outdir_make(const char *outdir) {
  make_missing_directories(outdir);
  return lat_check_output_dir(outdir);
}

void driver_outdir_unmake(void) {
  if (rank_or_zero() != 0) return;
  /* The deepest first; only the directory this process made (the same identity), and rmdir removes only an
     empty one, so nothing put there meanwhile is lost. */
  while (nmade > 0) {
    --nmade;
    struct stat st;
    if (lstat(made_path[nmade], &st) == 0 && S_ISDIR(st.st_mode) && st.st_dev == made_dev[nmade] &&
        st.st_ino == made_ino[nmade])
      rmdir(made_path[nmade]);
  }
}

int driver_shown_text(const char *text, size_t len, char *out) {
  int control = 0;
  for (size_t k = 0; k < len; ++k) {
    const unsigned char c = (unsigned char)text[k];
    if (c < 0x20 || c == 0x7f) {
      snprintf(out, 5, "\\x%02x", c);
      out += 4;
      control = 1;
    } else {
      *out++ = (char)c;
    }
  }
  *out = '\0';
  return control;
}

int driver_outdir_usable(const char *program, const char *option, const char *outdir, const char *kind, const char *base) {
  const int rank = rank_or_zero();
  int usable = 1;
  if (rank == 0 && (driver_outdir_make(outdir) != LAT_SUCCESS ||
                    (kind != NULL && lat_check_outputs(kind, outdir, base) != LAT_SUCCESS))) {
    /* The library's message shows a control character as \xNN; the name here does the same. */
    const size_t len = strlen(outdir);
    char *shown = malloc(4 * len + 1);
    if (shown != NULL) driver_shown_text(outdir, len, shown);
    fprintf(stderr, "%s: %s '%s': %s\n", program, option, shown != NULL ? shown : "?", lat_last_error_message());
    free(shown);
    usable = 0;
  }
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) driver_bcast_int_politely(&usable);
  if (!usable) driver_outdir_unmake();
  return usable;
}

int driver_agree_options(const char *program, int status, const char *complaint) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *all = malloc((size_t)size * sizeof *all);
  if (all == NULL) {
    fprintf(stderr, "%s: rank %d: out of memory agreeing on the options\n", program, rank);
    MPI_Abort(MPI_COMM_WORLD, DRIVER_FAILED);
  }
  MPI_Request req;
  MPI_Iallgather(&status, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &req);
  for (int done = 0; !done;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (!done) latency_pause_seconds(0.001);
  }
  int agreed = -1, refused = 0, first_refused = -1;
  for (int r = 0; r < size; ++r) {
    if (all[r] > agreed) agreed = all[r];
    if (all[r] == DRIVER_BAD_INPUT) {
      ++refused;
      if (first_refused < 0) first_refused = r;
    }
  }
  if (all[0] != DRIVER_BAD_INPUT && refused > 0) {
    if (status == DRIVER_BAD_INPUT && complaint != NULL && complaint[0] != '\0') fprintf(stderr, "rank %d: %s\n", rank, complaint);
    if (rank == 0)
      fprintf(stderr, "%s: the options of %d rank(s) were refused (rank %d first) although rank 0's were not: the launch "
                      "gives ranks different options; every rank must be given the same. Nothing was measured\n",
              program, refused, first_refused);
  }
  free(all);
  return agreed;
}

int driver_plotter_usable(const char *program, const char *noplot_option) {
  const char *path = getenv("PATH");
  if (path != NULL) {
    /* Each entry of the PATH as execvp reads it (an empty one is the working directory). */
    for (const char *entry = path;; ++entry) {
      const char *end = strchr(entry, ':');
      const size_t length = end != NULL ? (size_t)(end - entry) : strlen(entry);
      char candidate[4096];
      if (length + sizeof "/gnuplot" <= sizeof candidate) {
        if (length == 0) snprintf(candidate, sizeof candidate, "gnuplot");
        else snprintf(candidate, sizeof candidate, "%.*s/gnuplot", (int)length, entry);
        struct stat st;
        if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode) && access(candidate, X_OK) == 0) return 1;
      }
      if (end == NULL) break;
      entry = end;
    }
  }
  fprintf(stderr, "%s: gnuplot is not on the PATH, and the pictures are drawn with it: install it (Debian: gnuplot-nox) "
                  "or give %s (the gnuplot scripts are still written); nothing was measured\n", program, noplot_option);
  return 0;
}

void driver_pause_seconds(double seconds) { latency_pause_seconds(seconds); }

void driver_bcast_int_politely(int *value) { driver_bcast_int_politely_from(0, value); }

void driver_bcast_int_politely_from(int root, int *value) {
  MPI_Request req;
  MPI_Ibcast(value, 1, MPI_INT, root, MPI_COMM_WORLD, &req);
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    latency_pause_seconds(0.001);
  }
}

int driver_warn_oversubscribed(const char *program) {
  cpu_set_t mine, node_cpus;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) CPU_ZERO(&mine);
  MPI_Comm node;
  int node_ranks = 1, rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_ranks);
  MPI_Allreduce(&mine, &node_cpus, (int)sizeof mine, MPI_BYTE, MPI_BOR, node);
  MPI_Comm_free(&node);
  const int processors = CPU_COUNT(&node_cpus);
  /* The worst node: the most ranks beyond its processors, and its two counts. */
  int excess[2] = {processors > 0 ? node_ranks - processors : 0, rank}, worst[2];
  MPI_Allreduce(excess, worst, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
  int counts[2] = {node_ranks, processors};
  MPI_Bcast(counts, 2, MPI_INT, worst[1], MPI_COMM_WORLD);
  if (worst[0] <= 0) return 0;
  if (rank == 0)
    fprintf(stderr,
            "%s: WARNING: ranks outnumber processors: %d ranks on a node whose ranks may use %d processors. "
            "Waiting ranks yield, and a time can include the scheduler's (milliseconds): use as many ranks as "
            "processors per node for figures to trust.\n",
            program, counts[0], counts[1]);
  return 1;
}

#define FINALIZE_LIMIT_SECONDS 10

/* The watch's limit: 10 s, or MPILAT_FINALIZE_WATCH_S (1 to 10 s: the test that holds MPI_Finalize). */
static int finalize_limit_seconds(void) {
  const char *text = getenv("MPILAT_FINALIZE_WATCH_S");
  const int s = text != NULL ? atoi(text) : 0;
  return s >= 1 && s <= FINALIZE_LIMIT_SECONDS ? s : FINALIZE_LIMIT_SECONDS;
}

/* MPICH's launcher takes a rank whose PMI socket closes before PMI's finalize for a dead one: it kills the
   job's other processes on that node (their watches never speak) and may report 1 or 255, not the run's
   status. MPI_Finalize ends with PMI's barrier and then its finalize, after the transport's teardown that
   hangs, so the watch does what is left of them on the socket MPICH's PMI client opened at MPI_Init (PMI_FD:
   hydra's, or Slurm's pmi2 plugin, which takes PMI-1 too), in PMI-1's lines:
   - the thread in MPI_Finalize is parked first, in a signal handler that never returns: it may be waiting on
     the socket (in the barrier) and would take the answers;
   - the barrier: where that thread was waiting in it (a read of the socket, /proc/self/task/<tid>/syscall),
     its barrier_in is sent; else the watch sends it, for the ranks waiting there (the launcher answers a
     barrier only when every rank is in it, and writes its barrier_out to every rank: a rank gone by then
     costs the job, 255). Waited for at most 10 s;
   - then finalize, its answer waited for at most 2 s (ending first makes the launcher's answer fail: 255).
   Any step that fails ends the process as before. */
#define PMI_BARRIER_MILLISECONDS 10000
#define PMI_ANSWER_MILLISECONDS 2000
static pthread_t finalizing_thread;
static pid_t finalizing_tid;
static volatile sig_atomic_t finalizing_thread_parked = 0;

/* Waits, a millisecond at a time, until *flag is set or ms have passed (either launcher's ending). */
static void wait_for_flag(volatile sig_atomic_t *flag, int ms) {
  for (int k = 0; k < ms && !*flag; ++k) {
    struct timespec one_ms = {0, 1000000};
    nanosleep(&one_ms, NULL);
  }
}

#if defined(MPICH_VERSION)
static void park_finalizing_thread(int sig) {
  (void)sig;
  finalizing_thread_parked = 1;
  for (;;) pause();
}

/* Whether thread tid of this process is blocked in a read of fd (Linux: its current system call). */
static int thread_reading(pid_t tid, int fd) {
  char path[64], text[128];
  snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
  if (!read_proc_text(path, text, sizeof text)) return 0;
  long number = -1;
  unsigned long first = 0;
  return sscanf(text, "%ld %lx", &number, &first) == 2 && number == SYS_read && first == (unsigned long)fd;
}

/* Reads fd for at most ms until a line holding answer came: 1, else 0. */
static int pmi_answer(int fd, const char *answer, int ms) {
  char got[512];
  size_t have = 0;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const long left = ms - ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
    struct pollfd wait = {fd, POLLIN, 0};
    if (left <= 0 || poll(&wait, 1, (int)left) != 1) return 0;
    if (have == sizeof got - 1) have = 0; /* only the last line matters */
    const ssize_t n = read(fd, got + have, sizeof got - 1 - have);
    if (n <= 0) return 0;
    have += (size_t)n;
    got[have] = '\0';
    if (strstr(got, answer) != NULL) return 1;
  }
}
#endif

static void pmi_finalize_for_launcher(void) {
#if defined(MPICH_VERSION)
  const char *fd_text = getenv("PMI_FD");
  char *end = NULL;
  const long fd = fd_text != NULL ? strtol(fd_text, &end, 10) : -1;
  struct stat st;
  if (fd < 0 || fd > 65535 || end == fd_text || *end != '\0' || fstat((int)fd, &st) != 0 || !S_ISSOCK(st.st_mode))
    return;
  const int in_barrier = thread_reading(finalizing_tid, (int)fd);
  struct sigaction park;
  memset(&park, 0, sizeof park);
  park.sa_handler = park_finalizing_thread; /* no SA_RESTART: a read of the socket is interrupted */
  sigfillset(&park.sa_mask);
  const int signal_number = SIGRTMIN + 4;
  if (sigaction(signal_number, &park, NULL) != 0 || pthread_kill(finalizing_thread, signal_number) != 0) return;
  wait_for_flag(&finalizing_thread_parked, 1000);
  static const char barrier[] = "cmd=barrier_in\n", finalize[] = "cmd=finalize\n";
  if (!in_barrier && write((int)fd, barrier, sizeof barrier - 1) < 0) return;
  if (!pmi_answer((int)fd, "cmd=barrier_out", PMI_BARRIER_MILLISECONDS)) return;
  if (write((int)fd, finalize, sizeof finalize - 1) < 0) return;
  pmi_answer((int)fd, "cmd=finalize_ack", PMI_ANSWER_MILLISECONDS);
#endif
}

#if defined(OPEN_MPI)
/* Open MPI's launcher takes a rank that ends without PMIx's finalize for one that exited improperly and
   reports 1: the watch calls PMIx_Finalize (libpmix, which Open MPI loaded; found at run time), in a thread of
   its own and for at most 2 s, since it talks to the node's daemon. */
static volatile sig_atomic_t pmix_finalized = 0;

static void *pmix_finalize(void *function) {
  typedef int (*pmix_finalize_fn)(const void *, size_t);
  ((pmix_finalize_fn)function)(NULL, 0);
  pmix_finalized = 1;
  return NULL;
}

static void pmix_finalize_for_launcher(void) {
  void *function = dlsym(RTLD_DEFAULT, "PMIx_Finalize");
  pthread_t t;
  if (function == NULL || pthread_create(&t, NULL, pmix_finalize, function) != 0) return;
  pthread_detach(t);
  wait_for_flag(&pmix_finalized, PMI_ANSWER_MILLISECONDS);
}
#endif

static void *finalize_watch(void *status) {
  const int limit = finalize_limit_seconds();
  struct timespec left = {limit, 0};
  while (nanosleep(&left, &left) != 0) {
  }
  fprintf(stderr,
          "mpilat: MPI_Finalize did not return within %d s (a teardown hang of UCX's TCP transport, "
          "openucx/ucx#8738); every rank had finished and the files are complete: exiting with status %d\n",
          limit, (int)(intptr_t)status);
  fflush(stderr);
#if defined(OPEN_MPI)
  pmix_finalize_for_launcher();
#endif
  pmi_finalize_for_launcher(); /* MPICH's */
  _exit((int)(intptr_t)status);
  return NULL;
}

void driver_finalize(int status) {
  MPI_Barrier(MPI_COMM_WORLD);
  pthread_t watch;
  finalizing_thread = pthread_self();
  finalizing_tid = (pid_t)syscall(SYS_gettid);
  const int watching = pthread_create(&watch, NULL, finalize_watch, (void *)(intptr_t)status) == 0;
  MPI_Finalize();
  if (watching) {
    pthread_cancel(watch);
    pthread_join(watch, NULL);
  }
}

int driver_measurement_failed(const char *program, int rc, int rank) {
  if (rank == 0 || rc == LAT_ERR_TIMEOUT) fprintf(stderr, "%s: %s: %s\n", program, lat_strerror(rc), lat_last_error_message());
  driver_outdir_unmake();  /* a run the library refused or that failed writes nothing: the --outdir it made goes */
  if (rc == LAT_ERR_TIMEOUT) {
    driver_pause_seconds(1.0);
    MPI_Abort(MPI_COMM_WORLD, DRIVER_FAILED);
  }
  MPI_Finalize();
  return rc == LAT_ERR_ARG ? DRIVER_BAD_INPUT : DRIVER_FAILED;
}

int driver_show_options_asked(void) {
  const char *v = getenv("MPILAT_SHOW_OPTIONS");
  return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

void driver_launch_hint(const char *program) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1) return;
  const char *ntasks = getenv("SLURM_STEP_NUM_TASKS");
  if (ntasks == NULL) ntasks = getenv("SLURM_NTASKS");
  /* The other MPI's launcher: each process it started is an MPI job of one (Open MPI's mpirun sets
     OMPI_COMM_WORLD_SIZE, MPICH's hydra PMI_SIZE). "Run it with mpiexec -n 2" would send the user back to it. */
#if defined(MPICH_VERSION)
  const char *other = getenv("OMPI_COMM_WORLD_SIZE");
  const char *built = "MPICH", *launcher = "Open MPI's mpirun", *mine = "MPICH's mpiexec (mpiexec.mpich)";
#elif defined(OPEN_MPI)
  const char *other = getenv("PMI_SIZE");
  const char *built = "Open MPI", *launcher = "MPICH's mpiexec", *mine = "Open MPI's mpirun (mpiexec.openmpi)";
#else
  const char *other = NULL, *built = "", *launcher = "", *mine = "";
#endif
  if (other != NULL && atoi(other) > 1)
    fprintf(stderr,
            "%s: %s started %d processes but MPI sees 1 in this one: this program is built with %s; launch it "
            "with %s\n",
            program, launcher, atoi(other), built, mine);
  else if (ntasks != NULL && atoi(ntasks) > 1)
    fprintf(stderr,
            "%s: Slurm started %d tasks but MPI sees 1 process in this one: each task is an MPI job of its own. "
            "Launch MPICH's programs with srun --mpi=pmi2 (docs/batch.md)\n",
            program, atoi(ntasks));
}

int driver_write_failed_status(int rc) { return rc == LAT_ERR_ARG ? DRIVER_BAD_INPUT : DRIVER_FAILED; }

int driver_output_usable(const char *program, const char *option, const char *path) {
  /* Its directory too (missing ones made, a read-only one refused), as the output directory is checked:
     before, mpptest -fname in a read-only directory measured, then wrote nothing. */
  char dir[4096];
  const char *slash = strrchr(path, '/');
  const size_t length = slash == NULL ? 0 : (slash == path ? 1 : (size_t)(slash - path));
  if (length >= sizeof dir) {
    fprintf(stderr, "%s: %s: a directory name of %zu bytes is too long\n", program, option, length);
    return 0;
  }
  memcpy(dir, path, length);
  dir[length] = '\0';
  make_missing_directories(dir);
  if (lat_check_output_dir(dir) != LAT_SUCCESS) {
    fprintf(stderr, "%s: %s: %s\n", program, option, lat_last_error_message());
    driver_outdir_unmake();
    return 0;
  }
  if (lat_check_output_file(path) == LAT_SUCCESS) return 1;
  fprintf(stderr, "%s: %s: %s\n", program, option, lat_last_error_message());
  driver_outdir_unmake();
  return 0;
}

int driver_stdout_status(const char *program) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return DRIVER_DONE;
  fprintf(stderr, "%s: writing to standard output: %s\n", program, errno ? strerror(errno) : "failed");
  return DRIVER_FAILED;
}

const char *driver_stop_cause(void) {
  static char cause[48];
  if (stop_signo == 0) return "by a signal to another rank";
  snprintf(cause, sizeof cause, "by signal %d", (int)stop_signo);
  return cause;
}

void driver_stopped_note(const char *program, const char *kept) {
  fprintf(stderr, "%s: stopped %s: %s\n", program, driver_stop_cause(), kept);
}

void driver_print_file(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return;
  char line[4096];
  while (fgets(line, sizeof line, f)) fputs(line, stdout);
  fclose(f);
}

void driver_print_lines_of(const char *program, const char *path, const char *starting) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return;
  char line[8192];
  int at_start = 1; /* a line longer than the buffer comes in pieces: only a line's first piece is tested */
  int printing = 0, printed = 0;
  while (fgets(line, sizeof line, f) && printed < 40) {
    if (at_start) printing = strncmp(line, starting, strlen(starting)) == 0;
    if (printing) fprintf(stderr, "%s%s", at_start ? program : "", at_start ? ": " : ""), fputs(line, stderr);
    at_start = strchr(line, '\n') != NULL;
    printed += printing && at_start;
  }
  fclose(f);
}
