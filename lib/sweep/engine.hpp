// engine.hpp: the mpptest way of choosing and scheduling message sizes (Gropp & Lusk, sections
// 3.1-3.3), independent of MPI: the engine calls a measuring function for one sample at a time, so the
// ping-pong sweep, the queue and max-rate measurements and the tests (synthetic timing functions) share it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lat {

/// How a sweep is scheduled and refined (the fields of lat_sweep_options that concern the schedule).
struct SweepPlan {
  std::vector<int64_t> sizes;  // the starting grid: distinct, ascending, >= 0
  int64_t reps = 50;           // most passes; a pass measures every size of the current set once
  int64_t n_stable = 8;        // the sweep ends after n_stable passes in which no size found a new minimum
  int64_t refine_after = 3;    // passes before the first refinement; passes a new size is in before it is judged
  bool adaptive = false;
  double autorel = 0.02;       // split [n0, n1] while |f(mid) - (f(n0) + f(n1)) / 2| > autorel x that mean
  int64_t autodx = 4;          // ... down to this spacing
  int64_t max_sizes = 1024;    // the refinement stops adding sizes here (SweepOutcome::capped)
  double anomaly_rel = 0.10;   // rerun a size whose time is this far above the line through its neighbours
  int64_t rerun_reps = 0;      // samples of each rerun; 0: n_stable (at least refine_after)
  double step_rel = 0.10;      // a step: a rise this much above the neighbouring trend, relative to f(n0)
  double budget_s = 0.0;       // wall-clock limit of the sweep; 0: none
};

/// A minimum counts as improved only when it drops by more than this fraction: timer-resolution jitter
/// must not keep the sweep going for ever.
constexpr double kImprovementRel = 0.005;

/// One message size and its samples (time per operation, microseconds, in measurement order: one per
/// pass since it joined, then the rerun's).
struct SizePoint {
  int64_t size = 0;
  std::vector<double> samples;
  std::vector<int64_t> pass_of;  // the pass of each sample; -1 for a sample of the rerun
  double best = 0.0;             // minimum of the samples: the reported time
  int64_t joined = 0;            // the first pass it was in (0 for the starting grid)
  int64_t rerun_samples = 0;     // samples of the rerun (after the passes)
  bool refined = false;          // added by the adaptive refinement
  bool rerun = false;            // measured again because it sat above or below its neighbours' line
  bool anomalous = false;        // still above both neighbours after the rerun
  bool low = false;              // still below both neighbours after the rerun, its minimum one sample far
                                 // below its others: questioned (a disturbed sample, not the size's time)
  /// The minimum over the samples of passes >= pass: how a neighbour compares with a size that joined
  /// at that pass, over the same passes (HUGE_VAL when there is none).
  double best_since(int64_t pass) const;
};

/// A message size where the time per byte changes abruptly: between below and above.
struct Step {
  int64_t below = 0, above = 0;      // the last size before the step and the first after it
  double time_below = 0.0, time_above = 0.0;  // their times (us)
  double excess = 0.0;               // rise beyond the neighbouring slope (us)
};

enum class SweepEnd { kStable = 0, kReps = 1, kBudget = 2, kStopped = 3 };

struct SweepOutcome {
  std::vector<SizePoint> points;  // ascending size
  std::vector<Step> steps;
  int64_t passes = 0;             // passes of the main loop (each over every size of the current set)
  int64_t measurements = 0;       // samples taken, reruns included
  SweepEnd end = SweepEnd::kStable;
  bool capped = false;            // the refinement wanted more than max_sizes sizes
  bool refining = false;          // the passes ran out (reps) while the refinement still split or judged
  double wall_s = 0.0;
};

/// One sample of size bytes: time per operation in microseconds. May throw; the sweep then ends with it.
using MeasureSample = std::function<double(int64_t size)>;
/// Seconds since the sweep began (a parameter so tests can drive the budget).
using ElapsedSeconds = std::function<double()>;
/// True when the sweep should stop now with what it has (lat_request_stop()).
using StopRequested = std::function<bool()>;
/// Called after every sample: (samples so far, an estimate of the total).
using SweepProgress = std::function<void(int64_t done, int64_t total)>;

/// "" or the complaint about plan (the values of lat_sweep_options it came from are named).
std::string check_sweep_plan(const SweepPlan &plan);

/**
 * Runs the sweep: passes over every size of the current set in ascending order (section 3.3's loop: each
 * size's samples are spread over the whole run, so a slow phase of the machine hits all sizes alike),
 * adaptive refinement after refine_after passes (section 3.2; a size it adds joins the passes from then
 * on), then a rerun of the sizes that sit above the line through their neighbours, then step detection.
 * Ends after n_stable passes in which no size found a new minimum (and no refinement is pending), after
 * reps passes, at the budget, or on a stop.
 */
SweepOutcome run_sweep(const SweepPlan &plan, const MeasureSample &measure, const ElapsedSeconds &elapsed,
                       const StopRequested &stop, const SweepProgress &progress = nullptr);

/// The steps of a curve (ascending sizes, times in us), merged where they touch. noise (empty, or one
/// value per point: how far each time may be off) of the bracket's own two points must be exceeded by a
/// step's rise as well; a neighbour's noise (a young point of two samples far apart) vetoes nothing.
std::vector<Step> detect_steps(const std::vector<int64_t> &sizes, const std::vector<double> &times,
                               double step_rel, const std::vector<double> &noise = {});

/// How far a size's minimum may still be from the truth: the gap between its two smallest samples.
double uncertainty(const SizePoint &p);

/// Whether point i lies more than rel above the straight line through points i-1 and i+1.
bool above_neighbours_line(const std::vector<int64_t> &sizes, const std::vector<double> &times, size_t i,
                           double rel);
/// Whether point i lies more than rel below that line.
bool below_neighbours_line(const std::vector<int64_t> &sizes, const std::vector<double> &times, size_t i,
                           double rel);
/// Whether a point's minimum comes from a minority of its samples: fewer than half of them within rel above
/// it (one sample far below the rest, or a cluster of them from a fast phase of the host), where a real dip
/// has most of its samples there.
bool minority_minimum(const SizePoint &p, double rel);

}  // namespace lat
