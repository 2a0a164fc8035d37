// options.hpp: the pair matrix's options (lat_pair_options): defaults, checks and the values every rank
// must share, the one place each is written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"

namespace lat {

/// lat_pair_defaults(): mmpi's 64-byte messages, 100 repeats, the sequential schedule, root 0.
lat_pair_options pair_defaults();

/// "" or what is wrong with opts on a communicator of size ranks: the memory of the samples (rank 0's, the
/// most) and of the root's matrices included, so lat_pair_check refuses what lat_pair_matrix refuses.
std::string check_pair_options(const lat_pair_options &opts, int size);

/// Bytes the gathering rank needs for the matrices of n ranks (the triangles of every statistic).
double matrix_bytes(int64_t n);

/// "" or the complaint when matrix_bytes(n) exceeds the memory available (available < 0: unknown).
std::string matrix_memory_complaint(int64_t n, int64_t available_bytes);

/// The values that must be equal on every rank (all but progress).
std::vector<Shared> pair_shared_values(const lat_pair_options &opts);

}  // namespace lat
