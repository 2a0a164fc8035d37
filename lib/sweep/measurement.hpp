// measurement.hpp: lat_size_sweep(): the sweep engine driven by MPI patterns between a pair of ranks, or
// between all pairs of a bisection at once; plus the data patterns of the verification mode.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mpilat.h"
#include "sweep/result.hpp"

namespace lat {

/// Collective over user_comm; the result is returned on every rank. calibration: the leading rank's, or
/// nullptr to calibrate there. On a stop request the result holds the points measured so far
/// (summary.end == LAT_SWEEP_END_STOPPED).
SweepResult size_sweep(MPI_Comm user_comm, const lat_sweep_options &opts, int64_t nsizes, const int64_t *sizes,
                       const lat_timer_result *calibration);

/// The pairs (initiator, responder) of a bisection of size ranks, rank 0's first. distance 0: i with
/// i + size/2; distance d in 1..size-1: the original mpptest's -bisectdist d (its BisectChange on the default
/// ring): for i = 0, 1, ..., i leads a pair with (i + d) mod size when neither is in a pair yet.
std::vector<std::pair<int, int>> bisection_pairs(int size, int distance);

/// The original mpptest's strided message of size bytes (-vector, -vectortype): size/8 doubles, each stride
/// doubles apart; as_vector: one MPI_Type_vector (count 1), else MPI_DOUBLE resized to the stride (count
/// size/8). Makes and commits *type (the caller frees it) and returns the count to send it with.
int vector_message_type(int64_t size, int stride, bool as_vector, MPI_Datatype *type);

/// The partners of rank in the halo exchange of size ranks (the original mpptest's -halo -npartner), in the
/// order its messages are posted: 1: rank +1 if even, -1 if odd; 2: +1, -1; 4: and +s, -s (s =
/// floor(sqrt(size))); 8: and s + 1, s - 1, -s + 1, -s - 1 (with s = 2: 3, 4, -4, -3). Periodic: modulo size;
/// else a partner beyond 0..size-1 is MPI_PROC_NULL. partners, size: as check_size_sweep_options allows.
std::vector<int> halo_partner_ranks(int rank, int size, int partners, bool periodic);

/// The seed of one message in verification mode: sample and operation within it.
uint64_t message_seed(int64_t sample, int64_t operation);

/// The bytes a sender puts in a message in verification mode: the seed picks the kind of bit pattern (all
/// ones, all zeros, alternating, a walking one, pseudo-random) and, with the sender, the first 8 bytes, so
/// stale data or a message from the wrong rank are caught too.
void fill_pattern(unsigned char *buf, size_t n, uint64_t seed, int sender);

/// The first byte of buf that differs from fill_pattern's, or -1 when all n are right.
int64_t first_mismatch(const unsigned char *buf, size_t n, uint64_t seed, int sender);

}  // namespace lat
