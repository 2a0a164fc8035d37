// result.hpp: the result of a size sweep as the C ABI hands it out (opaque lat_sweep handle),
// made from the engine's outcome, and flattened into bytes to travel from the leading rank to all.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "mpilat.h"
#include "sweep/engine.hpp"

namespace lat {

struct SweepResult {
  lat_sweep_options options{};
  lat_sweep_summary summary{};
  std::vector<lat_sweep_point> points;
  std::vector<lat_sweep_threshold> thresholds;
  std::vector<lat_sweep_line> lines;         // startup and rate per regime between thresholds
  std::vector<std::vector<double>> samples;  // per point, measurement order (passes, then the rerun)
  /// What travels between ranks (lib/common/bytes.hpp): all of it.
  auto fields() { return std::tie(options, summary, points, thresholds, lines, samples); }
};

/// What the measuring side knows per size beyond the engine's samples.
struct SizeExtras {
  int64_t n_avg = 1;
  double compute_us = 0.0;         // the overlap's computation: the fastest single call
  double compute_window_us = 0.0;  // ... per call in the fastest window of n_avg calls
};

/// The engine's outcome in the C ABI's shapes; npairs scales the rate (bisect), or with the halo exchange
/// halo_partners, the most partners a rank has (the original's scale; 0 for the other patterns).
SweepResult result_of(const SweepOutcome &outcome, const lat_sweep_options &opts,
                      const std::map<int64_t, SizeExtras> &extras, int64_t npairs, int64_t halo_partners);

/// The least-squares line s + r n of each regime of two sizes or more: the points up to each threshold's
/// below_bytes, then the rest (Gropp & Lusk's startup and rate, one regime at a time).
std::vector<lat_sweep_line> regime_lines(const std::vector<lat_sweep_point> &points,
                                         const std::vector<lat_sweep_threshold> &steps);


}  // namespace lat

struct lat_sweep_s {
  lat::SweepResult r;
};
