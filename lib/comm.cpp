#include "comm.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <list>
#include <mutex>
#include <new>

#include "error.hpp"
#include "mpilat.h"

namespace lat {

namespace {
// How long a waiting rank sleeps between tests. 0.5 ms costs a waiting rank well under 1 % of a core
// and delays the end of a wait by at most that much, which is never inside a timed region.
constexpr long kPollSleepNs = 500 * 1000;
// Failure notes travel on the library's communicator under a tag of their own.
constexpr int kTagFailure = 0x4c41;  // "LA"
constexpr int kNoteBytes = 1024;

int64_t saturating_negate(int64_t v) {
  return v == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : -v;
}
}  // namespace

void check_mpi(int rc, const char *call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  throw MpiError(std::string(call) + " failed: " + std::string(text, static_cast<size_t>(len)));
}

void require_mpi_initialized() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized) throw NotInitError("MPI is not initialised: call MPI_Init first");
  if (finalized) throw NotInitError("MPI is already finalised");
}

MPI_Comm create_member_comm(MPI_Comm comm, const std::vector<int> &members, int tag) {
  MPI_Group all, some;
  check_mpi(MPI_Comm_group(comm, &all), "MPI_Comm_group");
  const int rc_incl = MPI_Group_incl(all, static_cast<int>(members.size()), members.data(), &some);
  MPI_Group_free(&all);
  check_mpi(rc_incl, "MPI_Group_incl");
  MPI_Comm made = MPI_COMM_NULL;
  const int rc = MPI_Comm_create_group(comm, some, tag, &made);
  MPI_Group_free(&some);
  check_mpi(rc, "MPI_Comm_create_group");
  return made;
}

void validate_user_comm(MPI_Comm comm) {
  require_mpi_initialized();
  if (comm == MPI_COMM_NULL) throw ArgError("comm must not be MPI_COMM_NULL");
  int inter = 0;
  check_mpi(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) throw ArgError("comm must be an intracommunicator, got an intercommunicator");
}

std::string check_timeout(double timeout_s) {
  if (timeout_s >= 0.0 && std::isfinite(timeout_s)) return "";
  return got("timeout_s must be a finite number of seconds >= 0 (0: no limit)", timeout_s);
}

LibComm::LibComm(MPI_Comm user_comm, double timeout_s)
    : timeout_s_(check_timeout(timeout_s).empty() ? timeout_s : 0.0) {  // a bad value: agree_arguments says so
  validate_user_comm(user_comm);
  int user_rank = 0, user_size = 0;
  check_mpi(MPI_Comm_rank(user_comm, &user_rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(user_comm, &user_size), "MPI_Comm_size");
  all_ranks_ = "ranks 0.." + std::to_string(user_size - 1);
  // Non-blocking, so that a rank that never calls in is reported instead of waited for.
  MPI_Request req;
  check_mpi(MPI_Comm_idup(user_comm, &comm_, &req), "MPI_Comm_idup");
  wait_yielding(req, {user_rank, all_ranks_.c_str(),
                      "phase 'start': every rank must call the same mpilat function", timeout_s_});
  int rc = MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_rank(comm_, &rank_);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_size(comm_, &size_);
  if (rc != MPI_SUCCESS) {
    MPI_Comm_free(&comm_);
    check_mpi(rc, "MPI_Comm_set_errhandler/rank/size");
  }
}

LibComm::~LibComm() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

namespace {

/// Every rank: throws the failure of rank `root` (its code and message, sent from there).
[[noreturn]] void throw_failure_of(const LibComm &lib, int root, int code, const std::string &message,
                                   const Waiting &w) {
  struct Note {
    int code;
    char text[1024];
  } note{};
  if (lib.rank() == root) {
    note.code = code;
    std::snprintf(note.text, sizeof note.text, "%s", message.c_str());
  }
  bcast_yielding(&note, static_cast<int>(sizeof note), MPI_BYTE, root, lib.get(), w);
  note.text[sizeof note.text - 1] = '\0';
  throw_code(note.code, "rank " + std::to_string(root) + ": " + note.text);
}

}  // namespace

void agree_on_failure(const LibComm &lib, int code, const std::string &message) {
  const Waiting w{lib.rank(), lib.all_ranks(), "phase 'setup': every rank must reach the same step", lib.timeout_s()};
  int failing = code != LAT_SUCCESS ? lib.rank() : -1;
  MPI_Request req;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MAX, lib.get(), &req), "MPI_Iallreduce (failure check)");
  wait_yielding(req, w);
  if (failing >= 0) throw_failure_of(lib, failing, code, message, w);
}

void agree_arguments(const LibComm &lib, const std::string &local_error, const std::vector<Shared> &shared) {
  const MPI_Comm comm = lib.get();
  const int rank = lib.rank();
  const Waiting w{rank, lib.all_ranks(), "phase 'argument check': every rank must call the same mpilat function",
                  lib.timeout_s()};
  const size_t n = shared.size();
  // One vector, reduced with MAX: [failing rank or -1, v..., -v...] gives every rank the highest
  // failing rank and the max and min of each shared value. Doubles travel as their bit patterns.
  std::vector<int64_t> buf(1 + 2 * n);
  buf[0] = local_error.empty() ? -1 : rank;
  for (size_t k = 0; k < n; ++k) {
    int64_t v = shared[k].i;
    if (shared[k].is_double) std::memcpy(&v, &shared[k].d, sizeof v);
    buf[1 + k] = v;
    buf[1 + n + k] = saturating_negate(v);
  }
  MPI_Request req;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()), MPI_INT64_T, MPI_MAX, comm, &req),
            "MPI_Iallreduce (argument check)");
  wait_yielding(req, w);
  if (buf[0] >= 0) throw_failure_of(lib, static_cast<int>(buf[0]), LAT_ERR_ARG, local_error, w);
  for (size_t k = 0; k < n; ++k) {
    const int64_t hi = buf[1 + k], lo = saturating_negate(buf[1 + n + k]);
    if (hi == lo) continue;
    std::string range;
    if (shared[k].is_double) {
      double dlo, dhi;
      std::memcpy(&dlo, &lo, sizeof dlo);
      std::memcpy(&dhi, &hi, sizeof dhi);
      range = std::to_string(dlo) + " and " + std::to_string(dhi);
    } else {
      range = std::to_string(lo) + " and " + std::to_string(hi);
    }
    throw ArgError(std::string(shared[k].name) + " must be the same on all ranks, got values between " + range);
  }
}

[[noreturn]] void throw_code(int code, const std::string &message) {
  switch (code) {
    case LAT_ERR_ARG: throw ArgError(message);
    case LAT_ERR_MPI: throw MpiError(message);
    case LAT_ERR_NOT_INIT: throw NotInitError(message);
    case LAT_ERR_UNSUPPORTED: throw UnsupportedError(message);
    case LAT_ERR_IO: throw IoError(message);
    case LAT_ERR_TIMEOUT: throw TimeoutError(message);
    case LAT_ERR_DATA: throw DataError(message);
    case LAT_ERR_NOMEM: throw NoMemError(message);
    default: throw std::runtime_error(message);
  }
}

FailureListener::FailureListener(MPI_Comm comm) : note_(kNoteBytes) {
  check_mpi(MPI_Irecv(note_.data(), kNoteBytes, MPI_CHAR, MPI_ANY_SOURCE, kTagFailure, comm, &req_),
            "MPI_Irecv (failure note)");
}

FailureListener::~FailureListener() {
  if (req_ == MPI_REQUEST_NULL) return;
  MPI_Cancel(&req_);
  MPI_Wait(&req_, MPI_STATUS_IGNORE);
}

void FailureListener::check() {
  if (req_ == MPI_REQUEST_NULL) return;
  int arrived = 0;
  check_mpi(MPI_Test(&req_, &arrived, MPI_STATUS_IGNORE), "MPI_Test (failure note)");
  if (!arrived) return;
  // The note is "<code>\n<message>", NUL-terminated.
  note_.back() = '\0';
  char *text = nullptr;
  const long code = std::strtol(note_.data(), &text, 10);
  throw_code(static_cast<int>(code), *text == '\n' ? text + 1 : text);
}

void report_failure(MPI_Comm comm, const std::vector<int> &to, int code, const std::string &message) {
  // The buffers outlive the sends on purpose (the receivers may be slow, and this rank is about to
  // return an error): kept until exit, one small note per failed call.
  static std::mutex kept_lock;
  static std::list<std::vector<char>> kept;
  std::vector<char> *note = nullptr;
  {
    std::lock_guard<std::mutex> hold(kept_lock);
    note = &kept.emplace_back(kNoteBytes, '\0');
  }
  std::snprintf(note->data(), note->size(), "%d\n%s", code, message.c_str());
  for (int r : to) {
    MPI_Request req;
    if (MPI_Isend(note->data(), kNoteBytes, MPI_CHAR, r, kTagFailure, comm, &req) == MPI_SUCCESS)
      MPI_Request_free(&req);
  }
}

void report_current_failure(MPI_Comm comm, const std::vector<int> &to) {
  try {
    throw;
  } catch (const TimeoutError &e) {
    report_failure(comm, to, LAT_ERR_TIMEOUT, e.what());
    throw;
  } catch (const MpiError &e) {
    report_failure(comm, to, LAT_ERR_MPI, e.what());
    throw;
  } catch (const DataError &e) {
    report_failure(comm, to, LAT_ERR_DATA, e.what());
    throw;
  } catch (const UnsupportedError &e) {
    report_failure(comm, to, LAT_ERR_UNSUPPORTED, e.what());
    throw;
  }
}

namespace {

[[noreturn]] void throw_timeout(const Waiting &w, double waited_s) {
  char text[512];
  std::snprintf(text, sizeof text, "rank %d: timeout: no answer from %s within %g s (%s)", w.rank, w.peers,
                waited_s, w.phase);
  throw TimeoutError(text);
}

/// MPI_Test until done; between tests, pause (if any), the listener, and every 1024 tests the deadline.
void wait_polling(MPI_Request &req, const Waiting &w, FailureListener *listener, bool pause) {
  const timespec nap{0, kPollSleepNs};
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t tests = 1;; ++tests) {
    int done = 0;
    if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      throw MpiError(std::string("MPI_Test failed on rank ") + std::to_string(w.rank) + " (" + w.phase + ")");
    if (done) return;
    if (listener != nullptr) listener->check();
    if (pause) nanosleep(&nap, nullptr);
    if (w.timeout_s > 0.0 && (pause || tests % 1024 == 0)) {
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (waited > w.timeout_s) throw_timeout(w, waited);
    }
  }
}

}  // namespace

void wait_yielding(MPI_Request &req, const Waiting &w, FailureListener *listener) {
  wait_polling(req, w, listener, true);
}

void wait_spinning(MPI_Request &req, const Waiting &w, FailureListener *listener) {
  wait_polling(req, w, listener, false);
}

int complete_yielding(MPI_Request *reqs, int n) {
  for (;;) {
    int done = 0;
    const int rc = MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS || done) return rc;
    sched_yield();
  }
}

void barrier_yielding(MPI_Comm comm, const Waiting &w) {
  MPI_Request req;
  check_mpi(MPI_Ibarrier(comm, &req), "MPI_Ibarrier");
  wait_yielding(req, w);
}

void bcast_yielding(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const Waiting &w,
                    FailureListener *listener) {
  MPI_Request req;
  check_mpi(MPI_Ibcast(buf, count, type, root, comm, &req), "MPI_Ibcast");
  wait_yielding(req, w, listener);
}

void share_bytes_from_root(std::vector<char> &bytes, int root, MPI_Comm comm, const Waiting &w,
                           FailureListener *listener) {
  int64_t n = static_cast<int64_t>(bytes.size());
  bcast_yielding(&n, 1, MPI_INT64_T, root, comm, w, listener);
  bytes.resize(static_cast<size_t>(n));
  constexpr int64_t kPiece = int64_t{1} << 30;  // MPI counts are ints
  for (int64_t at = 0; at < n; at += kPiece) {
    const int len = static_cast<int>(std::min(kPiece, n - at));
    bcast_yielding(bytes.data() + at, len, MPI_BYTE, root, comm, w, listener);
  }
}

void share_from_root(void *result, size_t bytes, Distribution &dist, bool want_dist, int root, MPI_Comm comm,
                     const Waiting &w, FailureListener *listener) {
  int any_wants = want_dist ? 1 : 0;
  MPI_Request req;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &any_wants, 1, MPI_INT, MPI_MAX, comm, &req), "MPI_Iallreduce");
  wait_yielding(req, w, listener);
  bcast_yielding(result, static_cast<int>(bytes), MPI_BYTE, root, comm, w, listener);
  if (any_wants) {
    int64_t n = static_cast<int64_t>(dist.values.size());
    bcast_yielding(&n, 1, MPI_INT64_T, root, comm, w, listener);
    dist.values.resize(static_cast<size_t>(n));
    dist.counts.resize(static_cast<size_t>(n));
    // Sent in pieces of at most 2^26 entries: MPI counts are ints.
    constexpr int64_t kPiece = int64_t{1} << 26;
    for (int64_t at = 0; at < n; at += kPiece) {
      const int len = static_cast<int>(std::min(kPiece, n - at));
      bcast_yielding(dist.values.data() + at, len, MPI_DOUBLE, root, comm, w, listener);
      bcast_yielding(dist.counts.data() + at, len, MPI_INT64_T, root, comm, w, listener);
    }
  }
  if (!want_dist) dist = Distribution{};
}

}  // namespace lat
