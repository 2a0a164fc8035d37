#include "comm.hpp"

#include <time.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "error.hpp"

namespace lat {

namespace {
// How long a waiting rank sleeps between tests. 0.5 ms costs a waiting rank well under 1 % of a core
// and delays the end of a wait by at most that much, which is never inside a timed region.
constexpr long kPollSleepNs = 500 * 1000;

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

void validate_user_comm(MPI_Comm comm) {
  require_mpi_initialized();
  if (comm == MPI_COMM_NULL) throw ArgError("comm must not be MPI_COMM_NULL");
  int inter = 0;
  check_mpi(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) throw ArgError("comm must be an intracommunicator, got an intercommunicator");
}

LibComm::LibComm(MPI_Comm user_comm) {
  validate_user_comm(user_comm);
  check_mpi(MPI_Comm_dup(user_comm, &comm_), "MPI_Comm_dup");
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

void agree_arguments(MPI_Comm comm, const std::string &local_error, const std::vector<Shared> &shared) {
  int rank = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
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
  wait_yielding(req, "MPI_Test (argument check)");
  if (buf[0] >= 0) {
    const int root = static_cast<int>(buf[0]);
    std::array<char, 1024> text{};
    if (rank == root) std::snprintf(text.data(), text.size(), "%s", local_error.c_str());
    bcast_yielding(text.data(), static_cast<int>(text.size()), MPI_CHAR, root, comm);
    text.back() = '\0';
    throw ArgError("rank " + std::to_string(root) + ": " + text.data());
  }
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

void wait_yielding(MPI_Request &req, const char *what) {
  const timespec pause{0, kPollSleepNs};
  for (;;) {
    int done = 0;
    check_mpi(MPI_Test(&req, &done, MPI_STATUS_IGNORE), what);
    if (done) return;
    nanosleep(&pause, nullptr);
  }
}

void barrier_yielding(MPI_Comm comm) {
  MPI_Request req;
  check_mpi(MPI_Ibarrier(comm, &req), "MPI_Ibarrier");
  wait_yielding(req, "MPI_Test (barrier)");
}

void bcast_yielding(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request req;
  check_mpi(MPI_Ibcast(buf, count, type, root, comm, &req), "MPI_Ibcast");
  wait_yielding(req, "MPI_Test (broadcast)");
}

void share_from_root(void *result, size_t bytes, Distribution &dist, bool want_dist, int root, MPI_Comm comm) {
  int any_wants = want_dist ? 1 : 0;
  MPI_Request req;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &any_wants, 1, MPI_INT, MPI_MAX, comm, &req), "MPI_Iallreduce");
  wait_yielding(req, "MPI_Test (result)");
  bcast_yielding(result, static_cast<int>(bytes), MPI_BYTE, root, comm);
  if (any_wants) {
    int64_t n = static_cast<int64_t>(dist.values.size());
    bcast_yielding(&n, 1, MPI_INT64_T, root, comm);
    dist.values.resize(static_cast<size_t>(n));
    dist.counts.resize(static_cast<size_t>(n));
    // Sent in pieces of at most 2^26 entries: MPI counts are ints.
    constexpr int64_t kPiece = int64_t{1} << 26;
    for (int64_t at = 0; at < n; at += kPiece) {
      const int len = static_cast<int>(std::min(kPiece, n - at));
      bcast_yielding(dist.values.data() + at, len, MPI_DOUBLE, root, comm);
      bcast_yielding(dist.counts.data() + at, len, MPI_INT64_T, root, comm);
    }
  }
  if (!want_dist) dist = Distribution{};
}

}  // namespace lat
