// options.hpp: lat_collective's options (lat_collective_options): defaults, the checks across fields, the
// values every rank must share, the starting sizes, and the names of operations and modes; each written once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"

namespace lat {

/// lat_collective_defaults(): every operation in every mode, 1000 samples of 8 bytes.
lat_collective_options collective_defaults();

/// "" or what is wrong with a lat_collective call on a communicator of size ranks (the sizes list may be
/// empty: then size_first..size_last), seen from the rank that calls it; as_root: that rank is the root,
/// which keeps every sample (its memory is checked for them). lat_collective_check is seen from the root.
std::string check_collective_options(const lat_collective_options &opts, int64_t nsizes, const int64_t *sizes, int size,
                                     bool as_root);

/// The values every rank must share (all but progress), with the size list's length and contents.
std::vector<Shared> collective_shared_values(const lat_collective_options &opts, int64_t nsizes, const int64_t *sizes);

/// The sizes to start from: the list, or size_first, the powers of two between, size_last.
std::vector<int64_t> starting_sizes(const lat_collective_options &opts, int64_t nsizes, const int64_t *sizes);

/// The operations of the bits, in lat_coll_op's order.
std::vector<int> ops_of(int bits);
/// The modes of the bits, in lat_coll_mode's order.
std::vector<int> modes_of(int bits);

/// "allreduce", ... ; "" for a value that is not one operation.
const char *coll_op_name(int op);
/// The lat_coll_op of a name, or 0.
int coll_op_from_name(const std::string &name);
/// "sync", "barrier", "loop".
const char *coll_mode_name(int mode);
/// The quantity a mode reports, as every output labels it.
const char *coll_mode_quantity(int mode);
/// The same in a few words, for a CSV column and a plot's key.
const char *coll_mode_short_quantity(int mode);
/// Whether the operation has a root.
bool coll_op_rooted(int op);

/// Bytes of the buffers one rank needs for op at msg_bytes on size ranks (send + receive).
double coll_buffer_bytes(int op, int64_t msg_bytes, int size);

}  // namespace lat
