#include "common/clock.hpp"

#include <cstring>
#include <string>

#if LAT_HAVE_TSC
#include <cpuid.h>
#endif

namespace lat {

double MonotonicRawClock::tick() const {
  timespec res{};
  if (clock_getres(CLOCK_MONOTONIC_RAW, &res) != 0) return 0.0;
  return static_cast<double>(res.tv_sec) + 1e-9 * static_cast<double>(res.tv_nsec);
}

namespace {
bool has_invariant_tsc() {
#if LAT_HAVE_TSC
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) return false;
  if (!__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx)) return false;
  return (edx & (1u << 8)) != 0;  // "Invariant TSC": constant rate across P-, C- and T-states
#else
  return false;
#endif
}
}  // namespace

TscClock::TscClock() {
#if LAT_HAVE_TSC
  if (!has_invariant_tsc()) throw UnsupportedError("timer tsc: this CPU does not report an invariant TSC");
  // Rate against CLOCK_MONOTONIC_RAW over ~20 ms; reading both clocks back to back at each end bounds
  // the error by their read times (~50 ns of 20 ms: 2.5e-6 relative).
  MonotonicRawClock raw;
  const double s0 = raw.now();
  const uint64_t c0 = __rdtsc();
  double s1 = s0;
  while (s1 - s0 < 0.02) s1 = raw.now();
  const uint64_t c1 = __rdtsc();
  if (c1 <= c0) throw UnsupportedError("timer tsc: the counter did not advance");
  seconds_per_tick = (s1 - s0) / static_cast<double>(c1 - c0);
#else
  throw UnsupportedError("timer tsc: not an x86 processor");
#endif
}

bool timer_available(int kind) {
  switch (kind) {
    case LAT_TIMER_MPI_WTIME: return true;
    case LAT_TIMER_MONOTONIC_RAW: {
      timespec ts;
      return clock_gettime(CLOCK_MONOTONIC_RAW, &ts) == 0;
    }
    case LAT_TIMER_TSC: return has_invariant_tsc();
    default: return false;
  }
}

const char *timer_name(int kind) {
  switch (kind) {
    case LAT_TIMER_MPI_WTIME: return "mpi_wtime";
    case LAT_TIMER_MONOTONIC_RAW: return "monotonic_raw";
    case LAT_TIMER_TSC: return "tsc";
    default: return "unknown";
  }
}

const char *timer_names() {
  static const std::string names = [] {
    std::string n;
    for (int k = LAT_TIMER_MPI_WTIME; k <= LAT_TIMER_TSC; ++k)
      n += std::string(k == LAT_TIMER_MPI_WTIME ? "" : k == LAT_TIMER_TSC ? " or " : ", ") + timer_name(k);
    return n;
  }();
  return names.c_str();
}

}  // namespace lat
