// operations.hpp: one call of each collective operation on buffers allocated once for the largest size.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace lat {

class CollBuffers {
 public:
  /// Buffers for every op of ops (lat_coll_op bits) up to largest bytes on size ranks (std::bad_alloc).
  CollBuffers(int ops, int64_t largest, int size);
  /// One call of op with msg_bytes per rank; returns MPI's code (the caller checks it outside timed code).
  int call(int op, int64_t msg_bytes, int root, MPI_Comm comm);

 private:
  std::vector<char> send_, recv_;
  int size_;
};

}  // namespace lat
