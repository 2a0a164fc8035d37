// compute.hpp: the computation of mpptest's overlap pattern (Gropp & Lusk), the one thing the communication
// is meant to hide.
#pragma once

#include <cstdint>

namespace lat {

/// The doubles of each of the two arrays the computation walks (2 x 512 KiB: beyond the first caches).
constexpr int64_t kComputeDoubles = 65536;

/// work multiply-adds over two arrays, walked from the start again and again (memory traffic, as the original
/// mpptest's computation), their running sum returned for the caller to keep. The arrays' values are set at
/// run time in another file and every addition depends on the one before: no compiler can fold the loop or
/// shorten it (the chain of a constant that multiplies to itself, 1.0 x 0.999999 + 1e-6, was folded: 0.005 us
/// for 100,000 multiply-adds). Its time grows linearly with work (core `overlap_computation_is_linear`).
double overlap_compute(int64_t work);

}  // namespace lat
