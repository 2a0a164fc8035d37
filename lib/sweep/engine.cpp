#include "sweep/engine.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "common/error.hpp"

namespace lat {

namespace {

/// Records sample t of pass `pass` (-1: the rerun); true when it is a new minimum of its size (its first
/// sample, or better than the minimum by more than kImprovementRel).
bool record(SizePoint &p, double t, int64_t pass) {
  const bool improved = p.samples.empty() || t < p.best * (1.0 - kImprovementRel);
  p.best = p.samples.empty() ? t : std::min(p.best, t);
  p.samples.push_back(t);
  p.pass_of.push_back(pass);
  if (pass < 0) ++p.rerun_samples;
  return improved;
}

/// Whether a point's minimum over the passes from `since` is sure enough to judge a curvature of `off`: it
/// has refine_after samples there, its two smallest differ by less than off (two noisy samples far apart say
/// nothing yet), and no sample of the last refine_after - 1 lowered it (a minimum still falling is not yet the
/// point's time).
bool settled(const SizePoint &p, int64_t since, int64_t refine_after, double off) {
  std::vector<double> t;
  for (size_t k = 0; k < p.samples.size(); ++k)
    if (p.pass_of[k] >= since) t.push_back(p.samples[k]);
  if (static_cast<int64_t>(t.size()) < refine_after) return false;
  size_t reached = 0;  // the first sample within kImprovementRel of the minimum
  const double best = *std::min_element(t.begin(), t.end());
  while (t[reached] > best * (1.0 + kImprovementRel)) ++reached;
  if (static_cast<int64_t>(t.size() - 1 - reached) < refine_after - 1) return false;
  // The minimum's spread: its distance to the tenth percentile (the second smallest of up to 20 samples).
  const size_t k = std::max<size_t>(1, t.size() / 10);
  std::nth_element(t.begin(), t.begin() + static_cast<long>(k), t.end());
  return t[k] - best < off;
}

class Sweep {
 public:
  Sweep(const SweepPlan &plan, const MeasureSample &measure, const ElapsedSeconds &elapsed,
        const StopRequested &stop, const SweepProgress &progress)
      : plan_(plan), measure_(measure), elapsed_(elapsed), stop_(stop), progress_(progress) {
    for (int64_t s : plan.sizes) {
      SizePoint p;
      p.size = s;
      out_.points.push_back(p);
    }
  }

  SweepOutcome run() {
    int64_t quiet_passes = 0;  // passes in a row in which no size found a new minimum
    for (;;) {
      if (out_.passes >= plan_.reps) {
        out_.end = SweepEnd::kReps;
        break;
      }
      // Every size of the current set, ascending; a size inserted by the refinement joins next pass.
      bool new_minimum = false;
      for (const int64_t s : sizes()) {
        bool improved = false;
        if (!sample(s, out_.passes, improved)) return finish();
        new_minimum = new_minimum || improved;
      }
      ++out_.passes;
      quiet_passes = new_minimum ? 0 : quiet_passes + 1;
      // No refinement after the last pass allowed: its new sizes would never be measured.
      if (plan_.adaptive && out_.passes >= plan_.refine_after && out_.passes < plan_.reps) refine();
      // A round that added sizes, or a point still to be judged, keeps the passes going.
      const bool refining = plan_.adaptive && (std::exchange(added_, false) || unsettled_);
      out_.refining = refining;  // what the passes leave undone when they run out
      if (plan_.n_stable > 0 && quiet_passes >= plan_.n_stable && out_.passes >= plan_.refine_after && !refining) {
        out_.end = SweepEnd::kStable;
        break;
      }
    }
    rerun_anomalies();
    return finish();
  }

 private:
  SizePoint &point(int64_t size) {
    auto it = std::lower_bound(out_.points.begin(), out_.points.end(), size,
                               [](const SizePoint &p, int64_t s) { return p.size < s; });
    return *it;
  }

  /// One sample of size in pass `pass`; false when the budget or a stop request ends the sweep first.
  bool sample(int64_t size, int64_t pass, bool &improved) {
    if (stop_ && stop_()) {
      out_.end = SweepEnd::kStopped;
      return false;
    }
    if (plan_.budget_s > 0.0 && elapsed_() >= plan_.budget_s) {
      out_.end = SweepEnd::kBudget;
      return false;
    }
    const double t = measure_(size);
    improved = record(point(size), t, pass);
    ++out_.measurements;
    if (progress_) progress_(out_.measurements, out_.measurements + remaining());
    return true;
  }

  /// Samples the passes still allowed would take (an upper bound: the sweep may end earlier).
  int64_t remaining() const {
    return std::max<int64_t>(0, plan_.reps - out_.passes - 1) * static_cast<int64_t>(out_.points.size());
  }

  /// A round of refinement (section 3.2, as the original does it): the first splits every interval of the
  /// grid; every later one re-examines every point of the current set against the line through its two
  /// neighbours, on the minima of all their samples over the passes all three were in (an older neighbour's
  /// earlier samples saw other phases of the machine, and comparing them would make a change of phase look
  /// like curvature). A point off the line by more than autorel splits both its intervals, down to autodx;
  /// one off the line whose minimum is not settled yet is sampled again (the passes go on) before it is
  /// judged; a point on the line is looked at again next round, so a midpoint passed over early is not lost.
  void refine() {
    std::set<int64_t> split;  // left ends of the intervals to split
    unsettled_ = false;
    if (!refinement_started_) {
      for (size_t k = 0; k + 1 < out_.points.size(); ++k) split.insert(out_.points[k].size);
      refinement_started_ = true;
    }
    for (size_t i = 1; i + 1 < out_.points.size(); ++i) {
      const SizePoint &l = out_.points[i - 1], &m = out_.points[i], &r = out_.points[i + 1];
      const int64_t since = std::max({l.joined, m.joined, r.joined});
      if (out_.passes - since < plan_.refine_after) {
        unsettled_ = true;  // a point added last round: judged once it has been in refine_after passes
        continue;
      }
      const bool wide = m.size - l.size >= 2 * plan_.autodx || r.size - m.size >= 2 * plan_.autodx;
      if (!wide) continue;
      const double tl = l.best_since(since), tm = m.best_since(since), tr = r.best_since(since);
      const double line = tl + (tr - tl) * static_cast<double>(m.size - l.size) / static_cast<double>(r.size - l.size);
      const double off = std::fabs(tm - line);
      if (!(off > plan_.autorel * std::fabs(line))) continue;
      // Curvature must stand above how far the three minima are still uncertain, or noise refines.
      if (!settled(l, since, plan_.refine_after, off) || !settled(m, since, plan_.refine_after, off) ||
          !settled(r, since, plan_.refine_after, off)) {
        unsettled_ = true;
        continue;
      }
      split.insert(l.size);
      split.insert(m.size);
    }
    for (int64_t left : split) {
      auto it = std::lower_bound(out_.points.begin(), out_.points.end(), left,
                                 [](const SizePoint &p, int64_t s) { return p.size < s; });
      if (it == out_.points.end() || std::next(it) == out_.points.end()) continue;
      const int64_t right = std::next(it)->size;
      if (right - left < 2 * plan_.autodx) continue;
      if (static_cast<int64_t>(out_.points.size()) >= plan_.max_sizes) {
        out_.capped = true;
        continue;
      }
      SizePoint mid;
      mid.size = left + (right - left) / 2;
      mid.refined = true;
      mid.joined = out_.passes;
      out_.points.insert(std::next(it), mid);
      added_ = true;
    }
  }

  std::vector<double> times() const {
    std::vector<double> t;
    for (const SizePoint &p : out_.points) t.push_back(p.best);
    return t;
  }

  std::vector<int64_t> sizes() const {
    std::vector<int64_t> s;
    for (const SizePoint &p : out_.points) s.push_back(p.size);
    return s;
  }

  /// Section 3.3: a size far above its neighbours' line is measured again, interleaved with the others
  /// so measured; what stays above both neighbours afterwards is marked anomalous (a real peak). A size far
  /// below the line is measured again too (a disturbed machine gave samples 35-50 % below every quiet run,
  /// and the minimum takes them); what stays below both neighbours with its minimum from a minority of its
  /// samples (one far below the rest, or a cluster from a fast phase of the host: six samples at 0.195-0.21 us
  /// beside neighbours at 0.70) is marked low (questioned): more samples cannot raise a minimum, so the mark
  /// is what remains, and steps and regime lines leave it out.
  void rerun_anomalies() {
    const std::vector<int64_t> s = sizes();
    const std::vector<double> t = times();
    std::vector<int64_t> suspects;
    for (size_t i = 1; i + 1 < s.size(); ++i)
      if (above_neighbours_line(s, t, i, plan_.anomaly_rel) || below_neighbours_line(s, t, i, plan_.anomaly_rel))
        suspects.push_back(s[i]);
    const int64_t reps = std::max(plan_.rerun_reps > 0 ? plan_.rerun_reps : plan_.n_stable, plan_.refine_after);
    for (int64_t r = 0; r < reps && !suspects.empty(); ++r)
      for (int64_t size : suspects) {
        bool improved = false;
        if (!sample(size, -1, improved)) return;
        point(size).rerun = true;
      }
  }

  SweepOutcome finish() {
    // A size added just before the budget or a stop ended the sweep may have no sample: it is not reported.
    out_.points.erase(std::remove_if(out_.points.begin(), out_.points.end(),
                                     [](const SizePoint &p) { return p.samples.empty(); }),
                      out_.points.end());
    const std::vector<int64_t> s = sizes();
    const std::vector<double> t = times();
    for (size_t i = 0; i < out_.points.size(); ++i) {
      SizePoint &p = out_.points[i];
      if (p.rerun && i > 0 && i + 1 < s.size()) {
        p.anomalous = t[i] > (1.0 + plan_.anomaly_rel) * std::max(t[i - 1], t[i + 1]);
        p.low = t[i] < (1.0 - plan_.anomaly_rel) * std::min(t[i - 1], t[i + 1]) && minority_minimum(p, plan_.anomaly_rel);
      }
    }
    // Steps from the sizes the marks leave: a minimum questioned (a phase's cluster of fast samples) or a peak
    // is no level (a loaded run drew 3 false steps from such points).
    std::vector<int64_t> kept_sizes;
    std::vector<double> kept_times, noise;
    for (size_t i = 0; i < out_.points.size(); ++i)
      if (!out_.points[i].low && !out_.points[i].anomalous) {
        kept_sizes.push_back(s[i]);
        kept_times.push_back(t[i]);
        noise.push_back(uncertainty(out_.points[i]));
      }
    out_.steps = detect_steps(kept_sizes, kept_times, plan_.step_rel, noise);
    out_.wall_s = elapsed_();
    return std::move(out_);
  }

  const SweepPlan &plan_;
  const MeasureSample &measure_;
  const ElapsedSeconds &elapsed_;
  const StopRequested &stop_;
  const SweepProgress &progress_;
  SweepOutcome out_;
  bool refinement_started_ = false;
  bool added_ = false;      // the last round added sizes
  bool unsettled_ = false;  // the last round left a point unjudged (too new, or its minimum not settled)
};

}  // namespace

double SizePoint::best_since(int64_t pass) const {
  double m = HUGE_VAL;
  for (size_t k = 0; k < samples.size(); ++k)
    if (pass_of[k] >= pass) m = std::min(m, samples[k]);
  return m;
}

double uncertainty(const SizePoint &p) {
  if (p.samples.size() < 2) return 0.0;
  std::vector<double> two(2);
  std::partial_sort_copy(p.samples.begin(), p.samples.end(), two.begin(), two.end());
  return two[1] - two[0];
}

std::string check_sweep_plan(const SweepPlan &p) {
  if (p.sizes.empty()) return "the sweep needs at least one message size";
  for (size_t k = 0; k < p.sizes.size(); ++k) {
    if (p.sizes[k] < 0) return got("message sizes must be >= 0", p.sizes[k]);
    if (k > 0 && p.sizes[k] <= p.sizes[k - 1])
      return "message sizes must be distinct and ascending, got " + std::to_string(p.sizes[k - 1]) +
             " then " + std::to_string(p.sizes[k]);
  }
  if (p.reps < 1) return got("reps must be >= 1", p.reps);
  if (p.n_stable < 0) return got("n_stable must be >= 0 (0: always reps samples)", p.n_stable);
  if (p.refine_after < 1) return got("refine_after must be >= 1", p.refine_after);
  if (!(p.autorel > 0.0) || !std::isfinite(p.autorel)) return got("autorel must be a finite number > 0", p.autorel);
  if (p.autodx < 1) return got("autodx must be >= 1", p.autodx);
  if (p.max_sizes < static_cast<int64_t>(p.sizes.size()))
    return "max_sizes must be >= the number of sizes given (" + std::to_string(p.sizes.size()) + "), got " +
           std::to_string(p.max_sizes);
  if (!(p.anomaly_rel > 0.0) || !std::isfinite(p.anomaly_rel))
    return got("anomaly_rel must be a finite number > 0", p.anomaly_rel);
  if (p.rerun_reps < 0) return got("rerun_reps must be >= 0", p.rerun_reps);
  if (!(p.step_rel > 0.0) || !std::isfinite(p.step_rel)) return got("step_rel must be a finite number > 0", p.step_rel);
  if (!(p.budget_s >= 0.0) || !std::isfinite(p.budget_s)) return got("budget_s must be a finite number >= 0", p.budget_s);
  return "";
}

SweepOutcome run_sweep(const SweepPlan &plan, const MeasureSample &measure, const ElapsedSeconds &elapsed,
                       const StopRequested &stop, const SweepProgress &progress) {
  const std::string bad = check_sweep_plan(plan);
  if (!bad.empty()) throw ArgError(bad);
  return Sweep(plan, measure, elapsed, stop, progress).run();
}

namespace {
/// The straight line through points i-1 and i+1, at point i (0 at an end).
double neighbours_line(const std::vector<int64_t> &s, const std::vector<double> &t, size_t i) {
  if (i == 0 || i + 1 >= s.size()) return 0.0;
  const double span = static_cast<double>(s[i + 1] - s[i - 1]);
  return t[i - 1] + (t[i + 1] - t[i - 1]) * static_cast<double>(s[i] - s[i - 1]) / span;
}
}  // namespace

bool above_neighbours_line(const std::vector<int64_t> &s, const std::vector<double> &t, size_t i, double rel) {
  const double line = neighbours_line(s, t, i);
  return line > 0.0 && t[i] > (1.0 + rel) * line;
}

bool below_neighbours_line(const std::vector<int64_t> &s, const std::vector<double> &t, size_t i, double rel) {
  const double line = neighbours_line(s, t, i);
  return line > 0.0 && t[i] < (1.0 - rel) * line;
}

bool minority_minimum(const SizePoint &p, double rel) {
  if (p.samples.size() < 2) return false;
  size_t near = 0;
  for (double x : p.samples) near += x <= p.best * (1.0 + rel);
  return 2 * near < p.samples.size();
}

std::vector<Step> detect_steps(const std::vector<int64_t> &s, const std::vector<double> &t, double step_rel,
                               const std::vector<double> &noise) {
  // Wild points (far above or below both neighbours) are a disturbance or a peak, not a level: they
  // take no part in deciding steps.
  std::vector<size_t> k;  // indices of the points that do
  for (size_t i = 0; i < s.size(); ++i) {
    const bool interior = i > 0 && i + 1 < s.size();
    const bool wild = interior && (t[i] > (1.0 + step_rel) * std::max(t[i - 1], t[i + 1]) ||
                                   t[i] < (1.0 - step_rel) * std::min(t[i - 1], t[i + 1]));
    if (!wild) k.push_back(i);
  }
  const size_t n = k.size();
  auto x = [&](size_t m) { return static_cast<double>(s[k[m]]); };
  auto y = [&](size_t m) { return t[k[m]]; };
  // The trend of one side: the median of the slopes between its points (never across the step), >= 0.
  auto side_slope = [&](size_t first, size_t last) {
    std::vector<double> slopes;
    for (size_t i = first; i <= last; ++i)
      for (size_t j = i + 1; j <= last; ++j) slopes.push_back((y(j) - y(i)) / (x(j) - x(i)));
    std::nth_element(slopes.begin(), slopes.begin() + static_cast<long>(slopes.size() / 2), slopes.end());
    return std::max(0.0, slopes[slopes.size() / 2]);
  };
  // A step between neighbours a and a+1: the lowest of up to kWindow points after it, carried back to
  // a+1 along their own trend, stands above the highest of the points before it, carried to a along
  // theirs, by more than the steeper trend explains over the gap and by more than step_rel. Each side
  // needs two points. So a change of slope is not a step, and neither is one noisy point.
  constexpr size_t kWindow = 3;
  std::vector<Step> found;
  for (size_t a = 1; a + 2 < n; ++a) {
    const size_t lo = a + 1 >= kWindow ? a + 1 - kWindow : 0, hi = std::min(n - 1, a + kWindow);
    const double left_slope = side_slope(lo, a), right_slope = side_slope(a + 1, hi);
    double left = -HUGE_VAL, right = HUGE_VAL;
    for (size_t i = lo; i <= a; ++i) left = std::max(left, y(i) + left_slope * (x(a) - x(i)));
    for (size_t j = a + 1; j <= hi; ++j) right = std::min(right, y(j) - right_slope * (x(j) - x(a + 1)));
    const double rise = right - left - std::max(left_slope, right_slope) * (x(a + 1) - x(a));
    // The bracket's own points' noise; a neighbour's (a young point of 2 samples 6.56 and 15.2 us vetoed a +42 %
    // step at 50,000 bytes) does not count: its high minimum only lowers the rise, if it is the window's edge.
    const double unsure = noise.empty() ? 0.0 : std::max(noise[k[a]], noise[k[a + 1]]);
    if (!(left > 0.0) || rise <= step_rel * left || rise <= unsure) continue;
    found.push_back({s[k[a]], s[k[a + 1]], t[k[a]], t[k[a + 1]], rise});
  }
  // Neighbouring intervals that both pass are one step somewhere in their union (a point measured on
  // the step itself); its rise is the largest found.
  std::vector<Step> steps;
  for (const Step &st : found) {
    if (!steps.empty() && steps.back().above == st.below) {
      steps.back().above = st.above;
      steps.back().time_above = st.time_above;
      steps.back().excess = std::max(steps.back().excess, st.excess);
    } else {
      steps.push_back(st);
    }
  }
  return steps;
}

}  // namespace lat
