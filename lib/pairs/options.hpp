// options.hpp: the pair matrix's options (lat_pair_options): defaults, checks and the values every rank
// must share, the one place each is written.
#pragma once

#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"

namespace lat {

/// lat_pair_defaults(): mmpi's 64-byte messages, 100 repeats, the sequential schedule, root 0.
lat_pair_options pair_defaults();

/// "" or what is wrong with opts on a communicator of size ranks.
std::string check_pair_options(const lat_pair_options &opts, int size);

/// The values that must be equal on every rank (all but progress).
std::vector<Shared> pair_shared_values(const lat_pair_options &opts);

}  // namespace lat
