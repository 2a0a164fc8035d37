// clock.hpp: the clocks mpilat times with. Each is a small class with an inline now() in seconds, so the
// timing loops are templates over the clock and no indirect call sits between two reads. unit() is what a
// difference of two readings is a whole number of: the nanosecond of clock_gettime (under MPI_Wtime too,
// in MPICH and Open MPI), the cycle of the TSC; the tallies count differences in that unit.
#pragma once

#include <mpi.h>
#include <time.h>

#include <cstdint>
#include <utility>

#include "common/error.hpp"
#include "mpilat.h"

#if defined(__x86_64__) || defined(__i386__)
// __rdtsc and _mm_lfence alone: x86intrin.h brings every vector intrinsic, about 1 s of parsing for each of
// the 17 files that include this header (GCC 11 and Clang 12 have x86gprintrin.h).
#if defined(__has_include) && __has_include(<x86gprintrin.h>)
#include <emmintrin.h>
#include <x86gprintrin.h>
#else
#include <x86intrin.h>
#endif
#define LAT_HAVE_TSC 1
#else
#define LAT_HAVE_TSC 0
#endif

namespace lat {

struct MpiWtimeClock {
  static constexpr int kind = LAT_TIMER_MPI_WTIME;
  double now() const { return MPI_Wtime(); }
  double tick() const { return MPI_Wtick(); }
  double unit() const { return 1e-9; }
};

struct MonotonicRawClock {
  static constexpr int kind = LAT_TIMER_MONOTONIC_RAW;
  double now() const {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  double tick() const;
  double unit() const { return 1e-9; }
};

/// The invariant TSC. now() is ticks * seconds_per_tick, the rate measured against MONOTONIC_RAW when
/// the clock is made (about 20 ms), so the differences it gives are quantised at one tick.
struct TscClock {
  static constexpr int kind = LAT_TIMER_TSC;
  TscClock();  // throws UnsupportedError without an invariant TSC
  double now() const {
#if LAT_HAVE_TSC
    _mm_lfence();  // keep the read from moving above earlier instructions
    const uint64_t t = __rdtsc();
    _mm_lfence();
    return static_cast<double>(t) * seconds_per_tick;
#else
    return 0.0;
#endif
  }
  double tick() const { return seconds_per_tick; }
  double unit() const { return seconds_per_tick; }
  double seconds_per_tick = 0.0;
};

bool timer_available(int kind);
const char *timer_name(int kind);
/// Every kind's name, as a message lists them: "mpi_wtime, monotonic_raw or tsc" (from timer_name).
const char *timer_names();

/// Calls f(clock) with the clock object of the given kind; throws ArgError for an unknown kind.
template <class F>
decltype(auto) with_clock(int kind, F &&f) {
  switch (kind) {
    case LAT_TIMER_MPI_WTIME: return std::forward<F>(f)(MpiWtimeClock{});
    case LAT_TIMER_MONOTONIC_RAW: return std::forward<F>(f)(MonotonicRawClock{});
    case LAT_TIMER_TSC: return std::forward<F>(f)(TscClock{});
    default: throw ArgError(got("timer must be 0 (mpi_wtime), 1 (monotonic_raw) or 2 (tsc)", kind));
  }
}

}  // namespace lat
