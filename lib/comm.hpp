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

/// A duplicate of the caller's communicator with MPI_ERRORS_RETURN, freed on scope exit.
class LibComm {
 public:
  explicit LibComm(MPI_Comm user_comm);
  ~LibComm();
  LibComm(const LibComm &) = delete;
  LibComm &operator=(const LibComm &) = delete;
  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 0;
};

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
void agree_arguments(MPI_Comm comm, const std::string &local_error, const std::vector<Shared> &shared);

/// Waits for req by MPI_Test and a short sleep, so a waiting rank gives its core to the measuring ones.
void wait_yielding(MPI_Request &req, const char *what);

/// A barrier that yields: MPI_Ibarrier then wait_yielding.
void barrier_yielding(MPI_Comm comm);

/// MPI_Ibcast then wait_yielding.
void bcast_yielding(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);

/// Sends root's result (a plain struct of `bytes` bytes) to every rank, and root's distribution to every
/// rank if any rank wants it; dist is left empty where want_dist is false. Collective, yielding waits.
void share_from_root(void *result, size_t bytes, Distribution &dist, bool want_dist, int root, MPI_Comm comm);

}  // namespace lat
