// npp_rule.hpp: how many ping-pongs one timing loop holds (Luecke et al. 2009, section 3.3), so that the
// clock's resolution is a small part of every timed loop.
#pragma once

#include <cstdint>
#include <functional>

namespace lat {

/// nint(max(1, res_npp * res_timing / median_ppt)), capped at LAT_NPP_MAX; median_ppt is the median
/// round-trip time of one ping-pong from the estimate (Part 2).
int64_t npp_rule(int64_t res_npp, double res_timing_us, double median_ppt_us);

/// The npp a --precision run holds when none is given (docs/method.md, "Precision"): the power of two at or
/// above the rule's unrounded value res_npp x res_timing / median_ppt (1 at or below 1; at most LAT_NPP_MAX).
/// The rule's nint moves at every half (1.5, 2.5, ...), so launches near one measure at npp 1 or 2, and the
/// median moves with it; the held value moves only where the unrounded value crosses a power of two, and its
/// loop is never shorter than the rule asks.
int64_t npp_for_precision(int64_t res_npp, double res_timing_us, double median_ppt_us);

/// The npp estimate, guarded against a clock too coarse to see npp_init ping-pongs (it reads 0 for most
/// loops, the median is 0 and the rule would give LAT_NPP_MAX: a run that never ends). median_at(loop,
/// stopped) runs the estimate with `loop` ping-pongs per timing loop and returns the median round trip per
/// ping-pong (us). While that is <= 0 the loop is doubled, at most kNppDoublings times, while a doubled
/// estimate is expected to take under kNppGuardSeconds. npp = 0 when the clock never saw the loops.
struct NppEstimate {
  double median_ppt_us = 0.0;
  int64_t npp_init = 0;   // the loop that gave the median
  int64_t npp = 0;        // the rule's value; 0: the clock never saw a loop
  bool stopped = false;   // median_at said a stop was requested
};
constexpr int kNppDoublings = 20;
constexpr double kNppGuardSeconds = 60.0;
NppEstimate guarded_npp_estimate(int64_t npp_init, int64_t res_npp, double res_timing_us,
                                 const std::function<double(int64_t, bool &)> &median_at);

}  // namespace lat
