#include "collective/operations.hpp"

#include <algorithm>

#include "collective/options.hpp"
#include "mpilat.h"

namespace lat {

CollBuffers::CollBuffers(int ops, int64_t largest, int size) : size_(size) {
  double need = 0.0;
  for (int op : ops_of(ops)) need = std::max(need, coll_buffer_bytes(op, largest, size));
  // Send and receive halves, zeroed: reduce adds doubles, and zeros keep the sums finite.
  const size_t half = static_cast<size_t>(need / 2.0) + 8;
  send_.assign(half, 0);
  recv_.assign(half, 0);
}

int CollBuffers::call(int op, int64_t msg_bytes, int root, MPI_Comm comm) {
  const int n = static_cast<int>(msg_bytes);
  void *s = send_.data(), *r = recv_.data();
  switch (op) {
    case LAT_COLL_BARRIER: return MPI_Barrier(comm);
    case LAT_COLL_BCAST: return MPI_Bcast(s, n, MPI_BYTE, root, comm);
    case LAT_COLL_REDUCE: return MPI_Reduce(s, r, n / 8, MPI_DOUBLE, MPI_SUM, root, comm);
    case LAT_COLL_ALLREDUCE: return MPI_Allreduce(s, r, n / 8, MPI_DOUBLE, MPI_SUM, comm);
    case LAT_COLL_GATHER: return MPI_Gather(s, n, MPI_BYTE, r, n, MPI_BYTE, root, comm);
    case LAT_COLL_SCATTER: return MPI_Scatter(s, n, MPI_BYTE, r, n, MPI_BYTE, root, comm);
    case LAT_COLL_ALLGATHER: return MPI_Allgather(s, n, MPI_BYTE, r, n, MPI_BYTE, comm);
    case LAT_COLL_ALLTOALL: return MPI_Alltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, comm);
    default: return MPI_ERR_ARG;
  }
}

}  // namespace lat
