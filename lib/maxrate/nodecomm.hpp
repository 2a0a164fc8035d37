// nodecomm.hpp: the nodecomm measurement of Gropp, Olson & Samfass (2016): ping-pongs between two nodes
// with k = 1..K pairs at once, the time of the slowest pair, over message sizes the size-sweep engine
// chose; the observations the max-rate fit (maxrate/fit.hpp) needs.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mpilat.h"

namespace lat {

struct NodecommResult {
  lat_nodecomm_options options{};
  lat_nodecomm_summary summary{};
  std::vector<lat_nodecomm_point> points;  // sizes ascending, k = 1..K within a size
};

/// The starting grid: 0, then 4 sizes per octave from 1 byte to size_last (size_last included).
std::vector<int64_t> nodecomm_grid(int64_t size_last);

/// The two sides of the measurement from every rank's (node index, place on the node), in rank order:
/// side A the ranks of rank 0's node, side B those of the lowest-ranked other node; with one node, its
/// first and second halves (intra = true). Pairs are (a[p], b[p]), p < min(|a|, |b|).
void nodecomm_sides(const std::vector<int> &node_of_rank, std::vector<int> &a, std::vector<int> &b, bool &intra);


/// lat_nodecomm(): collective over user_comm; the result on every rank.
NodecommResult nodecomm(MPI_Comm user_comm, const lat_nodecomm_options &opts, int64_t nsizes, const int64_t *sizes);

std::vector<char> serialize(const NodecommResult &r);
NodecommResult deserialize_nodecomm(const std::vector<char> &bytes);

}  // namespace lat

struct lat_nodecomm_s {
  lat::NodecommResult r;
};
