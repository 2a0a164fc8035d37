// timer.cpp: the C shims of the clocks and of the timer calibration, one thin function each (its check:
// lib/generated/capi_entries.cpp).
#include <cstring>

#include "common/clock.hpp"
#include "common/distribution_handle.hpp"
#include "guard.hpp"
#include "timer/calibration.hpp"
#include "timer/options.hpp"

extern "C" {

int lat_impl_calibrate_timer(MPI_Comm comm, const lat_timer_options *opts, lat_timer_result *result,
                        lat_histogram *hist) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    lat::require_nonnull(result, "result");
    *result = lat_timer_result{};  // a failure leaves zeros, never stale values
    if (hist != nullptr) *hist = nullptr;
    lat::Calibration c = lat::calibrate_timer(comm, *opts, hist != nullptr);
    *result = c.result;
    lat::hand_out(std::move(c.dist), hist);
    return lat::interrupted_code(c.interrupted, "timer calibration", "results are partial");
  });
}

int lat_timer_available(int timer, int *available) {
  return lat::guard([&] {
    lat::require_nonnull(available, "available");
    *available = lat::timer_available(timer) ? 1 : 0;
    return LAT_SUCCESS;
  });
}

const char *lat_timer_name(int timer) { return lat::timer_name(timer); }

const char *lat_timer_names(void) { return lat::timer_names(); }

int lat_timer_from_name(const char *name, int *timer) {
  return lat::guard([&] {
    lat::require_nonnull(name, "name");
    lat::require_nonnull(timer, "timer");
    for (int k = LAT_TIMER_MPI_WTIME; k <= LAT_TIMER_TSC; ++k) {
      if (std::strcmp(name, lat::timer_name(k)) == 0) {
        *timer = k;
        return LAT_SUCCESS;
      }
    }
    throw lat::ArgError(std::string("timer must be ") + lat::timer_names() + ", got '" + name + "'");
  });
}

}  // extern "C"
