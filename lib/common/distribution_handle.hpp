// distribution_handle.hpp: what the opaque lat_histogram handle of the C ABI holds.
#pragma once

#include <utility>

#include "common/stats.hpp"
#include "mpilat.h"

struct lat_histogram_s {
  lat::Distribution dist;
};

namespace lat {

/// Hands a distribution to the caller as a lat_histogram when hist is not NULL.
inline void hand_out(Distribution &&dist, lat_histogram *hist) {
  if (hist != nullptr) *hist = new lat_histogram_s{std::move(dist)};
}

}  // namespace lat
