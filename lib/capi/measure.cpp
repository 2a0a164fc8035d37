// measure.cpp: the C shims of the measuring calls, one thin function each.
#include <cstring>

#include "../calibrate.hpp"
#include "../clock.hpp"
#include "../histogram.hpp"
#include "../pingpong.hpp"
#include "guard.hpp"

namespace {

void hand_out(lat::Distribution &&dist, lat_histogram *hist) {
  if (hist != nullptr) *hist = new lat_histogram_s{std::move(dist)};
}

int interrupted_code(bool interrupted, const char *what) {
  return lat::interrupted_code(interrupted, what, "results are partial");
}

}  // namespace

extern "C" {

int lat_timer_defaults(lat_timer_options *opts) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    *opts = lat_timer_options{};
    opts->nr = int64_t{1} << 24;
    opts->timer = LAT_TIMER_MPI_WTIME;
    opts->rank = LAT_ALL_RANKS;
    return LAT_SUCCESS;
  });
}

int lat_calibrate_timer(MPI_Comm comm, const lat_timer_options *opts, lat_timer_result *result,
                        lat_histogram *hist) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    lat::require_nonnull(result, "result");
    *result = lat_timer_result{};  // a failure leaves zeros, never stale values
    if (hist != nullptr) *hist = nullptr;
    lat::Calibration c = lat::calibrate_timer(comm, *opts, hist != nullptr);
    *result = c.result;
    hand_out(std::move(c.dist), hist);
    return interrupted_code(c.interrupted, "timer calibration");
  });
}

int lat_pingpong_defaults(lat_pingpong_options *opts) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    *opts = lat_pingpong_options{};
    opts->n = 1;
    opts->bytes = -1;
    opts->nr = int64_t{1} << 24;
    opts->npptrial = int64_t{1} << 23;
    opts->npp_init = 10;
    opts->res_npp = 50;
    opts->npp = 0;
    opts->ntrial = int64_t{1} << 23;
    opts->cut_coef = 2.0;
    opts->source = 0;
    opts->dest = LAT_LAST_RANK;
    opts->timer = LAT_TIMER_MPI_WTIME;
    opts->progress = 0;
    opts->timeout_s = 0.0;
    return LAT_SUCCESS;
  });
}

int lat_pingpong_stats(MPI_Comm comm, const lat_pingpong_options *opts, const lat_timer_result *timer,
                       lat_pingpong_result *result, lat_histogram *hist) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    lat::require_nonnull(result, "result");
    *result = lat_pingpong_result{};  // a failure leaves zeros, never stale values
    if (hist != nullptr) *hist = nullptr;
    lat::PingPong pp = lat::pingpong_stats(comm, *opts, timer, hist != nullptr);
    *result = pp.result;
    hand_out(std::move(pp.dist), hist);
    if (pp.code != LAT_SUCCESS) {
      lat::set_last_error(pp.message);
      return pp.code;
    }
    return interrupted_code(pp.result.partial != LAT_COMPLETE, "ping-pong");
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
    throw lat::ArgError(std::string("timer must be mpi_wtime, monotonic_raw or tsc, got '") + name + "'");
  });
}

}  // extern "C"
