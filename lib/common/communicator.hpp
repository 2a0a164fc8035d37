// communicator.hpp: the library's own duplicate of the caller's communicator, MPI error checking, and the
// communicators of a subset of ranks.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace lat {

/// Throws MpiError("MPI_Send failed: <MPI's error string>") when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char *call);

/// Throws NotInitError unless MPI is initialised and not finalised.
void require_mpi_initialized();

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

}  // namespace lat
