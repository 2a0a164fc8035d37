// failure_notes.hpp: a measuring rank that fails tells the ranks waiting for it, which would otherwise wait for ever.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "common/error.hpp"

namespace lat {

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

/// Tells the ranks in `to` that this rank failed with a fault of this kind and message (non-blocking, best effort).
void report_failure(MPI_Comm comm, const std::vector<int> &to, Fault fault, const std::string &message);

/// In a catch block: reports the exception being handled to the ranks in `to` when it is one a peer
/// must hear of (timeout, MPI, data, unsupported), then rethrows it.
[[noreturn]] void report_current_failure(MPI_Comm comm, const std::vector<int> &to);

}  // namespace lat
