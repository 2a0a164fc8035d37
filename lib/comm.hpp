// comm.hpp: the library's own communicator, MPI error checking, collective argument agreement, and the
// waits that yield the processor (ranks that are not measuring must not spin on an oversubscribed node).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "stats.hpp"

namespace lat {

/// Throws MpiError("MPI_Send failed: <MPI's error string>") when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char *call);

/// Throws NotInitError unless MPI is initialised and not finalised.
void require_mpi_initialized();

/// "" or the complaint about a watchdog timeout (seconds, 0 = none).
std::string check_timeout(double timeout_s);

/**
 * What a rank waits for, and what the watchdog says when it waits too long: "rank 0: timeout: no
 * answer from rank 1 within 2 s (phase 'trials': the hand-shake before a trial)".
 */
struct Waiting {
  int rank = 0;               // the waiting rank, in the library's communicator
  const char *peers = "";     // "rank 1", "ranks 0..7"
  const char *phase = "";     // "phase 'trials': the hand-shake before a trial"
  double timeout_s = 0.0;     // 0: no limit
};

/// A duplicate of the caller's communicator with MPI_ERRORS_RETURN, freed on scope exit. Made with
/// MPI_Comm_idup and a yielding wait, so a rank that never calls in is a TimeoutError after timeout_s.
class LibComm {
 public:
  LibComm(MPI_Comm user_comm, double timeout_s);
  ~LibComm();
  LibComm(const LibComm &) = delete;
  LibComm &operator=(const LibComm &) = delete;
  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  double timeout_s() const { return timeout_s_; }
  /// "ranks 0..N-1", for Waiting::peers of collective waits.
  const char *all_ranks() const { return all_ranks_.c_str(); }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 0;
  double timeout_s_ = 0.0;
  std::string all_ranks_;
};

/// The communicator of `members` (ranks of comm, in that order), made by MPI_Comm_create_group: collective
/// over the members only, so the other ranks go straight on. tag keeps concurrent creations apart.
MPI_Comm create_member_comm(MPI_Comm comm, const std::vector<int> &members, int tag);

/// Checks the caller's communicator before it is duplicated: not NULL, an intracommunicator.
void validate_user_comm(MPI_Comm comm);

/// A value that must be the same on every rank, for agree_arguments().
struct Shared {
  const char *name;
  bool is_double;
  int64_t i;
  double d;
  static Shared integer(const char *n, int64_t v) { return {n, false, v, 0.0}; }
  static Shared real(const char *n, double v) { return {n, true, 0, v}; }
};

/**
 * The collective verdict on the arguments: local_error is this rank's complaint ("" if none). One
 * allreduce; if any rank complained, every rank throws ArgError quoting the complaint of the highest
 * failing rank ("rank 3: ntrial must be >= 1, got 0"); if a Shared value differs between ranks,
 * every rank throws ArgError naming it. Call it before any message is timed.
 */
void agree_arguments(const LibComm &comm, const std::string &local_error, const std::vector<Shared> &shared);

/// The collective verdict on a failure some ranks may have met (code LAT_SUCCESS where none): if any
/// did, every rank throws the exception of the highest failing rank's code, quoting its message.
void agree_on_failure(const LibComm &comm, int code, const std::string &message);

/// Throws the exception of a LAT_ERR_* code with message (the inverse of lib/capi/guard.hpp).
[[noreturn]] void throw_code(int code, const std::string &message);

/**
 * A failure reported by a measuring rank to the ranks that only wait for its result: without it they
 * would wait for ever for a rank that gave up. Listening is a posted receive, tested while waiting.
 */
class FailureListener {
 public:
  explicit FailureListener(MPI_Comm comm);
  ~FailureListener();  // cancels the receive if nothing came
  FailureListener(const FailureListener &) = delete;
  FailureListener &operator=(const FailureListener &) = delete;
  /// Throws the reported failure if one has arrived.
  void check();

 private:
  MPI_Request req_ = MPI_REQUEST_NULL;
  std::vector<char> note_;
};

/// Tells the ranks in `to` that this rank failed with code and message (non-blocking, best effort).
void report_failure(MPI_Comm comm, const std::vector<int> &to, int code, const std::string &message);

/// In a catch block: reports the exception being handled to the ranks in `to` when it is one a peer
/// must hear of (timeout, MPI, data, unsupported), then rethrows it.
[[noreturn]] void report_current_failure(MPI_Comm comm, const std::vector<int> &to);

/// Waits for req by MPI_Test and a short sleep, so a waiting rank gives its core to the measuring ones.
/// TimeoutError after w.timeout_s; throws a failure reported to listener (may be null).
void wait_yielding(MPI_Request &req, const Waiting &w, FailureListener *listener = nullptr);

/// Waits for req by MPI_Test alone, for the measuring ranks between timed loops; TimeoutError as above.
void wait_spinning(MPI_Request &req, const Waiting &w, FailureListener *listener = nullptr);

/// Completes n requests by MPI_Testall and sched_yield(): for timed regions on an oversubscribed machine,
/// where a blocking call would spin through its time slice while the partner waits for the processor (the
/// time would be the scheduler's, milliseconds). Returns MPI's code; no watchdog (use StallWatch).
int complete_yielding(MPI_Request *reqs, int n);

/// A barrier that yields: MPI_Ibarrier then wait_yielding.
void barrier_yielding(MPI_Comm comm, const Waiting &w);

/// MPI_Ibcast then wait_yielding.
void bcast_yielding(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const Waiting &w,
                    FailureListener *listener = nullptr);

/// Sends root's bytes (any length) to every rank of comm; bytes is resized where it is not root.
void share_bytes_from_root(std::vector<char> &bytes, int root, MPI_Comm comm, const Waiting &w,
                           FailureListener *listener = nullptr);

/// Sends root's result (a plain struct of `bytes` bytes) to every rank, and root's distribution to every
/// rank if any rank wants it; dist is left empty where want_dist is false. Collective, yielding waits
/// limited by w; listener (may be null) lets a waiting rank learn that a measuring rank failed.
void share_from_root(void *result, size_t bytes, Distribution &dist, bool want_dist, int root, MPI_Comm comm,
                     const Waiting &w, FailureListener *listener = nullptr);

}  // namespace lat
