// npp_rule.hpp: how many ping-pongs one timing loop holds (Luecke et al. 2009, section 3.3), so that the
// clock's resolution is a small part of every timed loop.
#pragma once

#include <cstdint>

namespace lat {

/// nint(max(1, res_npp * res_timing / median_ppt)), capped at LAT_NPP_MAX; median_ppt is the median
/// round-trip time of one ping-pong from the estimate (Part 2).
int64_t npp_rule(int64_t res_npp, double res_timing_us, double median_ppt_us);

}  // namespace lat
