// histogram.hpp: what the opaque lat_histogram handle of the C ABI holds.
#pragma once

#include "stats.hpp"

struct lat_histogram_s {
  lat::Distribution dist;
};
