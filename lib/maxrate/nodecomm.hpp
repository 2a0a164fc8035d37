// nodecomm.hpp: the nodecomm measurement of Gropp, Olson & Samfass (2016): ping-pongs between two nodes
// with k = 1..K pairs at once, the time of the slowest pair, over message sizes the size-sweep engine
// chose; the observations the max-rate fit (maxrate/fit.hpp) needs.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "mpilat.h"

namespace lat {

struct NodecommResult {
  lat_nodecomm_options options{};
  lat_nodecomm_summary summary{};
  std::vector<lat_nodecomm_point> points;  // sizes ascending, k = 1..K within a size
  /// What travels between ranks (lib/common/bytes.hpp): all of it.
  auto fields() { return std::tie(options, summary, points); }
};

/// The starting grid: 0, then 4 sizes per octave from 1 byte to size_last (size_last included).
std::vector<int64_t> nodecomm_grid(int64_t size_last);

/// The two sides of the measurement from every rank's group (its node, or its package on rank 0's node;
/// kNotASide: the rank takes no part), in rank order: side A the ranks of rank 0's group, side B those of
/// the lowest-ranked other group; with one group, its first and second halves (halves = true). Pairs
/// are (a[p], b[p]), p < min(|a|, |b|).
constexpr int kNotASide = -2;
void nodecomm_sides(const std::vector<int> &group_of_rank, std::vector<int> &a, std::vector<int> &b, bool &halves);

/// The groups nodecomm_sides takes for opts.sides, from every rank's node and package (-1: unknown). For
/// LAT_SIDES_SOCKET: the package on rank 0's node, kNotASide elsewhere; all of rank 0's node in one group
/// when a package there is unknown (its halves are then measured).
std::vector<int> side_groups(int sides, const std::vector<int> &node_of_rank, const std::vector<int> &socket_of_rank);


/// lat_nodecomm(): collective over user_comm; the result on every rank.
NodecommResult nodecomm(MPI_Comm user_comm, const lat_nodecomm_options &opts, int64_t nsizes, const int64_t *sizes);


}  // namespace lat

struct lat_nodecomm_s {
  lat::NodecommResult r;
};
