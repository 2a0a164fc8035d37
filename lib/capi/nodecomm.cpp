// nodecomm.cpp: the C shim of the nodecomm measurement's observations (its check and measurement:
// lib/generated/capi_entries.cpp).
#include "maxrate/nodecomm.hpp"
#include "guard.hpp"
#include "maxrate/options.hpp"

namespace {

const lat_nodecomm_s &handle(lat_nodecomm nodecomm) { return lat::deref(nodecomm, "nodecomm"); }

}  // namespace

extern "C" {

int lat_nodecomm_observations(lat_nodecomm nodecomm, int64_t n, lat_maxrate_obs *obs, int64_t *nobs) {
  return lat::guard([&] {
    const lat_nodecomm_s &h = handle(nodecomm);
    lat::require_nonnull(nobs, "nobs");
    int64_t count = 0;
    for (const lat_nodecomm_point &p : h.r.points) count += p.reps > 0 ? 1 : 0;
    if (n < count) throw lat::ArgError("n must be at least " + std::to_string(count) + ", got " + std::to_string(n));
    lat::require_nonnull(obs, "obs");
    int64_t at = 0;
    for (const lat_nodecomm_point &p : h.r.points)
      if (p.reps > 0) obs[at++] = {p.k, p.bytes, p.min_us};
    *nobs = count;
    return LAT_SUCCESS;
  });
}

}  // extern "C"
