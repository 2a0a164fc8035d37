// agreement.hpp: the collective verdict on arguments and failures: every rank learns of a bad argument or a
// failure on any rank, so one bad value cannot deadlock the job.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/communicator.hpp"
#include "common/error.hpp"

namespace lat {

/// A value that must be the same on every rank, for agree_arguments().
struct Shared {
  const char *name;
  bool is_double;
  int64_t i;
  double d;
  static Shared integer(const char *n, int64_t v) { return {n, false, v, 0.0}; }
  static Shared real(const char *n, double v) { return {n, true, 0, v}; }
  /// A list that must be the same everywhere, as sum((k + 1) * v[k]): its length is agreed separately.
  template <class T>
  static Shared weighted_sum(const char *n, const T *v, size_t count) {
    double sum = 0.0;
    for (size_t k = 0; k < count; ++k) sum += static_cast<double>(v[k]) * static_cast<double>(k + 1);
    return real(n, sum);
  }
};

/**
 * The collective verdict on the arguments: local_error is this rank's complaint ("" if none). One
 * allreduce; if any rank complained, every rank throws ArgError quoting the complaint of the highest
 * failing rank ("rank 3: ntrial must be >= 1, got 0"); if a Shared value differs between ranks,
 * every rank throws ArgError naming it. Call it before any message is timed.
 */
void agree_arguments(const LibComm &comm, const std::string &local_error, const std::vector<Shared> &shared);

/// The collective verdict on a failure some ranks may have met (failure "" where none): if any did, every
/// rank throws the exception of kind `fault` of the highest failing rank, quoting its message.
void agree_on_failure(const LibComm &comm, const std::string &failure, Fault fault);

}  // namespace lat
