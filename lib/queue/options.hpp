// options.hpp: the queue sweep's options (lat_queue_options) and its grid of queue lengths, fractions and
// sizes: defaults, checks and the values every rank must share, the one place each is written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"

namespace lat {

// Queue entries are pending requests, all posted at once: MPICH 4's request pool aborts the job (an
// assertion, not an error code) beyond about 2^17 of them (tried: 131072 ran, 262144 aborted).
constexpr int64_t kMaxQueueLength = 100000;
constexpr int64_t kMaxQueuePoints = int64_t{1} << 20;
/// The most queue entries a grid may post and walk in all (docs/hostile-input.md).
constexpr double kMaxQueueWork = 1e11;

/// lat_queue_defaults(): 1000 timed iterations, 5 measurements a point, posted mode, ranks 0 and last.
lat_queue_options queue_defaults();

/// The grid the arguments describe, with the defaults for empty lists.
struct QueueGrid {
  std::vector<int64_t> lengths, sizes;
  std::vector<double> fractions;  // percent; {100} in unexpected mode
};

/// The grid of the arguments; an empty list gets its default (lengths 0..1000 by 100, fractions 0..100 % by
/// 25, size 0).
QueueGrid grid_of(const lat_queue_options &opts, int64_t nlengths, const int64_t *lengths, int64_t nfractions,
                  const double *fractions, int64_t nsizes, const int64_t *sizes);

/// "" or what is wrong with the arguments on a communicator of size ranks, as rank `rank` sees it (the
/// source also checks the calibration it will use: cal, or with NULL its own nr and timer).
std::string check_queue_options(const lat_queue_options &opts, int64_t nlengths, const int64_t *lengths,
                                int64_t nfractions, const double *fractions, int64_t nsizes, const int64_t *sizes,
                                int size, int rank, const lat_timer_result *cal);

/// The values that must be equal on every rank (all but progress), the list lengths and the grid.
std::vector<Shared> queue_shared_values(const lat_queue_options &opts, int64_t nlengths, int64_t nfractions,
                                        int64_t nsizes, const QueueGrid &grid);

}  // namespace lat
