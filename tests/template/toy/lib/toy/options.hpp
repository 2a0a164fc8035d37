// options.hpp: the toy barrier run's options (lat_toy_options): defaults, checks and the values every rank
// must share, the one place each is written.
#pragma once

#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"

namespace lat {

/// lat_toy_defaults(): 100 barriers a loop, 50 loops.
lat_toy_options toy_defaults();

/// "" or what is wrong with opts on a communicator of nprocs ranks.
std::string check_toy_options(const lat_toy_options &opts, int nprocs);

/// The values that must be equal on every rank (all but progress).
std::vector<Shared> toy_shared_values(const lat_toy_options &opts);

}  // namespace lat
