// measurement.hpp: latency against MPI queue depth (Underwood & Brightwell 2004, Figures 1 and 2):
// the posted-receive queue, a fraction of it traversed, and the unexpected-message queue.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "mpilat.h"
#include "queue/options.hpp"

namespace lat {

struct QueueResult {
  lat_queue_options options{};
  lat_queue_summary summary{};
  std::vector<lat_queue_point> points;  // size, then fraction, then length
  /// What travels between ranks (lib/common/bytes.hpp): all of it.
  auto fields() { return std::tie(options, summary, points); }
};

/// lat_queue_sweep(): collective over user_comm; the result on every rank.
QueueResult queue_sweep(MPI_Comm user_comm, const lat_queue_options &opts, int64_t nlengths, const int64_t *lengths,
                        int64_t nfractions, const double *fractions, int64_t nsizes, const int64_t *sizes,
                        const lat_timer_result *calibration);


/// The line through the per-point minima of the largest fraction at the first size (points in the order
/// size, fraction, length) into the summary: slope, intercept, points, R^2, largest residual, and
/// LAT_WARN_FIT when the slope is negative, the minima are not on a line or there are fewer than 3. The
/// minimum, as Gropp & Lusk take it: a mean or a median keeps the run's interruptions (over 7 runs the
/// slope of the medians came out 10-84 x too large, or negative).
void fit_minima(QueueResult &r);

/// The points that line goes through (fit_minima's choice, the one place it is made), in length order.
std::vector<const lat_queue_point *> fitted_points(const QueueResult &r);

/// Posted mode: receives traversed before the latency receive, round(length x fraction / 100).
int64_t traversed_of(int64_t length, double fraction_percent);


}  // namespace lat

struct lat_queue_s {
  lat::QueueResult r;
};
