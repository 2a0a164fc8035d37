#include "common/agreement.hpp"

#include <cstdio>
#include <cstring>
#include <limits>

#include "common/error.hpp"
#include "common/waits.hpp"

namespace lat {

namespace {

int64_t saturating_negate(int64_t v) {
  return v == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : -v;
}

/// Every rank: throws the failure of rank `root` (its code and message, sent from there).
[[noreturn]] void throw_failure_of(const LibComm &lib, int root, Fault fault, const std::string &message,
                                   const Waiting &w) {
  struct Note {
    int code;
    char text[1024];
  } note{};
  if (lib.rank() == root) {
    note.code = static_cast<int>(fault);
    std::snprintf(note.text, sizeof note.text, "%s", message.c_str());
  }
  bcast_yielding(&note, static_cast<int>(sizeof note), MPI_BYTE, root, lib.get(), w);
  note.text[sizeof note.text - 1] = '\0';
  throw_fault(static_cast<Fault>(note.code), "rank " + std::to_string(root) + ": " + note.text);
}

}  // namespace

void agree_on_failure(const LibComm &lib, const std::string &failure, Fault fault) {
  const Waiting w{lib.rank(), lib.all_ranks(), "phase 'setup': every rank must reach the same step", lib.timeout_s()};
  int failing = failure.empty() ? -1 : lib.rank();
  MPI_Request req;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MAX, lib.get(), &req), "MPI_Iallreduce (failure check)");
  wait_yielding(req, w);
  if (failing >= 0) throw_failure_of(lib, failing, fault, failure, w);
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
  if (buf[0] >= 0) throw_failure_of(lib, static_cast<int>(buf[0]), Fault::arg, local_error, w);
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

}  // namespace lat
