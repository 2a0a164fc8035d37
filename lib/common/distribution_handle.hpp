// distribution_handle.hpp: what the opaque lat_histogram handle of the C ABI holds.
#pragma once

#include <utility>
#include <vector>

#include "common/handles.hpp"
#include "common/stats.hpp"
#include "mpilat.h"

struct lat_histogram_s {
  lat::Distribution dist;
  std::vector<lat::TrialChunk> chunks;  // the run over time, where the samples came in chunks
};

namespace lat {

/// Hands a distribution to the caller as a lat_histogram when hist is not NULL.
inline void hand_out(Distribution &&dist, lat_histogram *hist, std::vector<TrialChunk> &&chunks = {}) {
  if (hist != nullptr) *hist = new_handle<lat_histogram_s>(std::move(dist), std::move(chunks));
}

}  // namespace lat
