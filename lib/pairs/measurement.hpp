// measurement.hpp: round-trip latency between every pair of ranks (the mmpi method of the 2009 TeraGrid
// study), in mmpi's sequential order or as a round-robin tournament of concurrent pairs.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "mpilat.h"
#include "pairs/options.hpp"  // matrix_bytes, matrix_memory_complaint

namespace lat {

/// The statistics of every pair i < j, each an upper triangle without its diagonal (triangle_index).
struct PairResult {
  lat_pair_options options{};
  lat_pair_summary summary{};
  std::array<std::vector<double>, LAT_PAIR_NSTATS> triangle;  // empty where summary.has_matrices is 0
  std::vector<lat_rank_place> places;  // every rank's with the matrices, else the caller's own only
  /// What travels from the root to every rank (the measurement harness's bytes).
  auto fields() { return std::tie(summary); }
  /// Statistic stat of the pair (i, j), any order; 0 on the diagonal.
  double at(int stat, int64_t i, int64_t j) const;
  /// The host name of rank (places holds every rank's: the result with the matrices).
  std::string host_of(int64_t rank) const { return places[static_cast<size_t>(rank)].host; }
};

/// Position of the pair (i, j), i < j, in a triangle of n ranks stored row after row.
inline int64_t triangle_index(int64_t n, int64_t i, int64_t j) { return i * (2 * n - i - 1) / 2 + (j - i - 1); }

/// Rounds of the round-robin tournament of n ranks: n - 1 for even n, n for odd n (one rank rests).
int64_t tournament_rounds(int64_t n);

/// The partner of rank in round k (0-based) of that tournament, or -1 when rank rests in round k.
int64_t tournament_partner(int64_t n, int64_t k, int64_t rank);

/// Allocates the triangles of n ranks (std::bad_alloc when the memory cannot be had).
void allocate_matrices(PairResult &r, int64_t n);


/// lat_pair_matrix(): collective over user_comm.
PairResult pair_matrix(MPI_Comm user_comm, const lat_pair_options &opts);

}  // namespace lat

struct lat_pairs_s {
  lat::PairResult r;
};
