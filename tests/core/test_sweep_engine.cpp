// test_sweep_engine.cpp: the mpptest schedule without MPI, on synthetic timing functions with known
// steps: refinement, interleaving, stopping rules, anomaly rerun, step detection, the verification
// patterns and the result's journey between ranks (serialisation).
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "sweep/measurement.hpp"
#include "sweep/options.hpp"
#include "sweep/walk.hpp"
#include "sweep/engine.hpp"
#include "common/bytes.hpp"
#include "sweep/result.hpp"
#include "sweep/report.hpp"

namespace {

using lat::SweepOutcome;
using lat::SweepPlan;

/// A latency curve with steps at 200 and 700 bytes (as packet and protocol thresholds look).
double stepped(int64_t n) {
  return 1.0 + 0.001 * static_cast<double>(n) + (n > 200 ? 0.5 : 0.0) + (n > 700 ? 1.0 : 0.0);
}

/// A straight line: no size sits above its neighbours' line, so nothing is rerun.
double linear(int64_t n) { return 1.0 + 0.001 * static_cast<double>(n); }

struct Recorder {
  std::vector<int64_t> calls;
  double clock_s = 0.0;  // one "second" per sample, for the budget
};

SweepOutcome sweep(const SweepPlan &plan, Recorder &rec, const std::function<double(int64_t, int)> &f) {
  std::map<int64_t, int> seen;
  SweepOutcome out = lat::run_sweep(
      plan,
      [&](int64_t n) {
        rec.calls.push_back(n);
        rec.clock_s += 1.0;
        return f(n, seen[n]++);
      },
      [&] { return rec.clock_s; }, [] { return false; });
  // Whatever ended it, every size reported was measured (a refinement after the last pass adds none).
  for (const auto &pt : out.points) assert_true(!pt.samples.empty());
  return out;
}

SweepPlan grid_plan() {
  SweepPlan p;
  p.sizes = {0, 256, 512, 768, 1024};
  p.reps = 5;
  p.n_stable = 0;
  return p;
}

/// The refinement brackets each step within autodx and leaves straight pieces alone.
void refinement_finds_steps(void **) {
  SweepPlan p = grid_plan();
  p.reps = 100;  // passes enough for every level of refinement; the sweep ends once they are stable
  p.n_stable = 3;
  p.adaptive = true;
  p.autodx = 4;
  Recorder rec;
  const SweepOutcome out = sweep(p, rec, [](int64_t n, int) { return stepped(n); });
  std::vector<int64_t> s;
  for (const auto &pt : out.points) s.push_back(pt.size);
  assert_true(std::is_sorted(s.begin(), s.end()));
  for (int64_t step : {200, 700}) {
    const auto above = std::upper_bound(s.begin(), s.end(), step);
    assert_true(above != s.begin() && above != s.end());
    assert_true(*above - *(above - 1) < 2 * p.autodx);  // split until narrower than 2 autodx
  }
  // Straight pieces need no more than their first midpoint: far fewer sizes than a 4-byte grid (257).
  assert_true(s.size() < 60);
  for (size_t k = 1; k < s.size(); ++k) assert_true(s[k] - s[k - 1] >= p.autodx);
  assert_int_equal(out.steps.size(), 2);
  assert_true(out.steps[0].below <= 200 && out.steps[0].above > 200);
  assert_true(out.steps[1].below <= 700 && out.steps[1].above > 700);
  assert_true(out.steps[1].above - out.steps[1].below < 2 * p.autodx);
  assert_true(std::fabs(out.steps[1].excess - 1.0) < 0.05);
  assert_false(out.capped);
}

/// A real step (1.04 -> 4.34 us between 8192 and 12288 bytes, at 10,000) with erratic times near it, as a
/// protocol switch gives: within 3,000 bytes of the step half the samples are 1 to 4 times too slow, and
/// everywhere else 1 % slow at most. The refinement re-examines every interval each round on all its samples
/// and samples a noisy point again before judging it: it must bracket the step within autodx in at least 19
/// of 20 seeds (before: one midpoint judged once on 3 samples, missed in 1 seed of 3 to 1 of 20), with at
/// most 60 sizes in any seed (the grid's 9, a midpoint in each of its intervals, and the bisection towards the
/// step from both sides: about 2 log2(4096 / 4) = 20).
void refinement_finds_an_erratic_step(void **) {
  SweepPlan p;
  for (int64_t n = 0; n <= 32768; n += 4096) p.sizes.push_back(n);
  p.reps = 200;
  p.n_stable = 8;
  p.adaptive = true;
  p.autodx = 4;
  constexpr int64_t kStep = 10000;
  int found = 0;
  size_t most = 0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Recorder rec;
    const SweepOutcome out = sweep(p, rec, [&](int64_t n, int) {
      const double t = (n < kStep ? 1.04 : 4.34) + 1e-5 * static_cast<double>(n);
      if (std::llabs(n - kStep) < 3000 && u(rng) < 0.5) return t * (1.0 + 3.0 * u(rng));
      return t * (1.0 + 0.01 * u(rng));
    });
    most = std::max(most, out.points.size());
    for (const lat::Step &st : out.steps)
      if (st.below < kStep && st.above >= kStep && st.above - st.below < 2 * p.autodx) ++found;
    if (out.points.size() > 60) print_message("seed %u: %zu sizes\n", seed, out.points.size());
  }
  print_message("erratic step bracketed within autodx in %d of 20 seeds; at most %zu sizes\n", found, most);
  assert_true(found >= 19);
  assert_true(most <= 60);
}

/// Section 3.3's loop: every pass measures every unsettled size once, ascending; refinement adds sizes
/// only after refine_after full passes.
void passes_interleave_sizes(void **) {
  SweepPlan p = grid_plan();
  p.adaptive = true;
  p.refine_after = 3;
  Recorder rec;
  sweep(p, rec, [](int64_t n, int) { return stepped(n); });
  const size_t g = p.sizes.size();
  for (size_t pass = 0; pass < 3; ++pass)
    for (size_t k = 0; k < g; ++k) assert_int_equal(rec.calls[pass * g + k], p.sizes[k]);
  // The fourth pass still has the grid's sizes (not yet settled) and the first midpoints, ascending.
  std::vector<int64_t> fourth;
  for (size_t k = 3 * g; k < rec.calls.size() && (fourth.empty() || rec.calls[k] > fourth.back()); ++k)
    fourth.push_back(rec.calls[k]);
  assert_true(fourth.size() > g);
  assert_int_equal(fourth[1], 128);
}

/// Noise in the first passes must not cause refinements: a noisy linear function refines once (the
/// first midpoints) and no further, because each new size is judged on its minimum of refine_after samples.
void noise_does_not_refine(void **) {
  SweepPlan p = grid_plan();
  p.adaptive = true;
  p.refine_after = 3;
  Recorder rec;
  // Positive perturbations (section 3: every disturbance adds time): the first sample of each size is
  // 30 % slow, the others exact.
  const SweepOutcome out = sweep(p, rec, [](int64_t n, int k) {
    const double t = 1.0 + 0.001 * static_cast<double>(n);
    return k == 0 ? 1.3 * t : t;
  });
  assert_int_equal(out.points.size(), 2 * p.sizes.size() - 1);
  assert_true(out.steps.empty());
}

/// n_stable is global: the sweep ends after n_stable passes in which no size found a new minimum.
void stops_when_minima_are_stable(void **) {
  SweepPlan p = grid_plan();
  p.reps = 100;
  p.n_stable = 4;
  p.refine_after = 1;
  Recorder rec;
  const SweepOutcome out = sweep(p, rec, [](int64_t n, int k) { return linear(n) + (k < 2 ? 1.0 / (k + 1) : 0.0); });
  // Samples 0, 1, 2 improve; 3..6 do not: 7 samples each.
  for (const auto &pt : out.points) assert_int_equal(pt.samples.size(), 7);
  assert_int_equal(out.measurements, 7 * p.sizes.size());
  assert_int_equal(static_cast<int>(out.end), static_cast<int>(lat::SweepEnd::kStable));
  // A gain of less than 0.5 % does not count as an improvement.
  Recorder slow;
  const SweepOutcome creeping = sweep(p, slow, [](int64_t n, int k) { return linear(n) * (1.0 - 1e-4 * k); });
  for (const auto &pt : creeping.points) assert_int_equal(pt.samples.size(), p.n_stable + 1);
}

void reps_and_budget_end_the_sweep(void **) {
  SweepPlan p = grid_plan();
  Recorder rec;
  SweepOutcome out = sweep(p, rec, [](int64_t n, int) { return linear(n); });
  assert_int_equal(static_cast<int>(out.end), static_cast<int>(lat::SweepEnd::kReps));
  assert_int_equal(out.measurements, p.reps * static_cast<int64_t>(p.sizes.size()));
  p.reps = 1000;
  p.budget_s = 12.0;  // one "second" per sample
  Recorder timed;
  out = sweep(p, timed, [](int64_t n, int) { return linear(n); });
  assert_int_equal(static_cast<int>(out.end), static_cast<int>(lat::SweepEnd::kBudget));
  assert_int_equal(out.measurements, 12);
  assert_int_equal(out.passes, 2);  // the third pass was cut short
  for (const auto &pt : out.points) assert_true(pt.samples.size() == 2 || pt.samples.size() == 3);
}

/// Section 3.3: every size is in every pass until the global stop, so one size whose minimum keeps
/// improving keeps them all going, and on a fixed grid every size ends with the same number of samples.
void every_size_in_every_pass(void **) {
  SweepPlan p = grid_plan();
  p.reps = 100;
  p.n_stable = 3;
  p.refine_after = 1;
  Recorder rec;
  // 512 improves in each of its first 13 samples (2.0, 1.92, ..., 1.12, then 1.0); the others never after
  // their first sample.
  const SweepOutcome out = sweep(p, rec, [](int64_t n, int k) {
    return linear(n) * (n == 512 && k < 12 ? 2.0 - 0.08 * k : 1.0);
  });
  assert_int_equal(out.passes, 13 + 3);
  for (const auto &pt : out.points) assert_int_equal(pt.samples.size(), 16);
  assert_int_equal(static_cast<int>(out.end), static_cast<int>(lat::SweepEnd::kStable));
  // The order of the calls: pass after pass over all five sizes, ascending.
  for (size_t k = 0; k < rec.calls.size(); ++k) assert_int_equal(rec.calls[k], p.sizes[k % p.sizes.size()]);
}

/// A size the refinement adds joins the passes from then on, and is judged against its neighbours'
/// minima over the same passes: a machine that turns slow after the grid's first passes (a phase of the
/// host) must not look like curvature between an old size (fast minimum) and a new one (slow only).
void refined_sizes_compare_over_the_same_passes(void **) {
  SweepPlan p = grid_plan();
  p.reps = 12;
  p.n_stable = 0;
  p.adaptive = true;
  p.refine_after = 3;
  Recorder rec;
  // Passes 0-2 hold the five grid sizes only (15 calls): fast; from the fourth pass on, slow.
  const SweepOutcome out = sweep(p, rec, [&](int64_t n, int) {
    return linear(n) * (rec.calls.size() > 15 ? 2.0 : 1.0);
  });
  // The first midpoints joined at pass 3 and were judged on the slow passes only: a straight line, so no
  // further refinement; judged against the neighbours' fast minima they would all have split again.
  assert_int_equal(out.points.size(), 2 * p.sizes.size() - 1);
  for (const auto &pt : out.points) {
    if (!pt.refined) {
      assert_int_equal(pt.joined, 0);
      assert_int_equal(pt.samples.size() - pt.rerun_samples, 12);
    } else {
      assert_int_equal(pt.joined, 3);
      assert_int_equal(pt.samples.size() - pt.rerun_samples, 12 - 3);
      assert_true(pt.best_since(3) == pt.best);
    }
  }
  const auto &grid_point = out.points[2];  // 256
  assert_true(grid_point.best_since(3) > 1.9 * grid_point.best);
}

/// A size disturbed through the main loop is rerun and recovers; a real peak is rerun and stays.
void anomalies_are_rerun(void **) {
  SweepPlan p = grid_plan();
  p.reps = 4;
  p.rerun_reps = 3;
  Recorder rec;
  const SweepOutcome out = sweep(p, rec, [](int64_t n, int k) {
    const double t = 1.0 + 0.001 * static_cast<double>(n);
    if (n == 256 && k < 4) return 1.5 * t;  // a long disturbance over the whole main loop
    if (n == 768) return 1.5 * t;           // a property of the system
    return t;
  });
  const auto &a = out.points[1], &b = out.points[3], &c = out.points[2];
  assert_true(a.rerun && !a.anomalous);
  assert_int_equal(a.samples.size(), 7);
  assert_int_equal(a.rerun_samples, 3);
  assert_true(std::fabs(a.best - 1.256) < 1e-12);
  assert_true(b.rerun && b.anomalous);
  // 512 sat below the line of its two high neighbours: measured again too (a low point is questioned like
  // a high one), and not marked: its minimum is its samples' level, and it is not below both neighbours.
  assert_true(c.rerun && !c.low && !c.anomalous);
  assert_int_equal(c.samples.size(), 7);
  // The reruns are interleaved: 256, 512, 768, 256, 512, 768, ...
  const std::vector<int64_t> tail(rec.calls.end() - 9, rec.calls.end());
  assert_true((tail == std::vector<int64_t>{256, 512, 768, 256, 512, 768, 256, 512, 768}));
}

void steps_need_a_jump_not_a_slope(void **) {
  const std::vector<int64_t> s = {0, 100, 200, 300, 400, 500};
  // A change of slope at 200 without a jump is no step; a 20 % jump between 300 and 400 is.
  const std::vector<double> kink = {1.0, 1.1, 1.2, 1.5, 1.8, 2.1};
  assert_true(lat::detect_steps(s, kink, 0.05).empty());
  const std::vector<double> jump = {1.0, 1.1, 1.2, 1.3, 1.7, 1.8};
  const auto steps = lat::detect_steps(s, jump, 0.05);
  assert_int_equal(steps.size(), 1);
  assert_int_equal(steps[0].below, 300);
  assert_int_equal(steps[0].above, 400);
  assert_true(std::fabs(steps[0].excess - 0.3) < 1e-9);
  // A rise the minima's own uncertainty could explain is no step.
  assert_true(lat::detect_steps(s, jump, 0.05, std::vector<double>(s.size(), 0.5)).empty());
  assert_int_equal(lat::detect_steps(s, jump, 0.05, std::vector<double>(s.size(), 0.1)).size(), 1);
  // A jump measured half-way (a point on the step itself) is still one step, starting after 200.
  const std::vector<double> halfway = {1.0, 1.1, 1.2, 1.5, 1.8, 1.9};
  const auto wide = lat::detect_steps(s, halfway, 0.05);
  assert_int_equal(wide.size(), 1);
  assert_int_equal(wide[0].below, 200);
  assert_true(wide[0].above == 300 || wide[0].above == 400);
  // One wild point is not a step, up or down.
  assert_true(lat::detect_steps(s, {1.0, 1.1, 1.2, 1.9, 1.4, 1.5}, 0.05).empty());
  assert_true(lat::detect_steps(s, {1.0, 1.1, 1.2, 0.6, 1.4, 1.5}, 0.05).empty());
  assert_true(lat::above_neighbours_line(s, {1.0, 1.5, 1.2, 1.3, 1.4, 1.5}, 1, 0.1));
  assert_false(lat::above_neighbours_line(s, {1.0, 1.5, 1.2, 1.3, 1.4, 1.5}, 2, 0.1));
}

/// A step is judged on the noise of its bracket's own points: a disturbed young neighbour (two samples far
/// apart, noise 8.6 us: 6.56 and 15.2) beside a +42 % jump at 50,000 bytes vetoed it; it vetoes nothing now.
/// The bracket's own noise still does.
void a_disturbed_neighbour_does_not_hide_a_step(void **) {
  const std::vector<int64_t> s = {49000, 49500, 49875, 49937, 50000, 50500, 51000};
  const std::vector<double> t = {4.60, 4.62, 4.63, 4.64, 6.59, 6.61, 6.63};  // +42 % between 49937 and 50000
  std::vector<double> noise(s.size(), 0.01);
  noise[2] = 15.2 - 6.56;  // the young neighbour beside the bracket
  const auto steps = lat::detect_steps(s, t, 0.10, noise);
  assert_int_equal(steps.size(), 1);
  assert_int_equal(steps[0].below, 49937);
  assert_int_equal(steps[0].above, 50000);
  noise[5] = 8.64;  // and a neighbour on the other side: still a step
  assert_int_equal(lat::detect_steps(s, t, 0.10, noise).size(), 1);
  noise[4] = 2.5;   // the bracket's own point unsure beyond the rise (1.95 us): no step
  assert_true(lat::detect_steps(s, t, 0.10, noise).empty());
}

/// A size whose minimum is one sample far below both neighbours and its own other samples (a disturbed
/// machine gave 3.91 us at 49,000 bytes against 6.02 next) is rerun and marked low; so is one whose lowest
/// samples are a cluster from a fast phase (3 of its 7 samples 40 % low: 1375 B once had six at 0.195-0.21 us
/// beside neighbours at 0.70); a real dip (every sample of it low) is rerun and not marked; and so is a size
/// far below its neighbours' line but not both of them. Steps leave the marked sizes out.
void low_samples_are_questioned(void **) {
  SweepPlan p = grid_plan();
  p.sizes = {0, 256, 512, 768, 1024, 1280, 1536, 1792, 2048};
  p.reps = 4;
  p.rerun_reps = 3;
  Recorder rec;
  const SweepOutcome out = sweep(p, rec, [](int64_t n, int k) {
    const double t = 1.0 + 0.001 * static_cast<double>(n);
    if (n == 256 && k == 1) return 0.6 * t;  // one sample 40 % low
    if (n == 1792 && k % 7 < 3) return 0.6 * t;  // a phase: a cluster of samples 40 % low
    if (n == 1280) return 0.6 * t;           // a property of the system: every sample low
    return t;
  });
  const auto &odd = out.points[1], &dip = out.points[5], &plain = out.points[3];
  assert_true(lat::below_neighbours_line({0, 256, 512}, {1.0, odd.best, 1.512}, 1, 0.1));
  assert_true(odd.rerun && odd.low && !odd.anomalous);
  assert_int_equal(odd.rerun_samples, 3);
  assert_true(std::fabs(odd.best - 0.6 * 1.256) < 1e-12);  // the minimum is what it is; the mark questions it
  assert_true(lat::minority_minimum(odd, 0.1));
  const auto &phase = out.points[7];
  assert_true(phase.rerun && phase.low && !phase.anomalous);
  assert_true(lat::minority_minimum(phase, 0.1));
  assert_true(dip.rerun && !dip.low && !dip.anomalous);
  assert_false(lat::minority_minimum(dip, 0.1));
  assert_false(plain.rerun || plain.low);
  assert_true(out.steps.empty());  // the marked sizes make no step
}

/// The refinement's end is stated: passes that run out while it still splits leave `refining`, and the
/// bracket of the step wider than autodx; given the passes, it brackets to autodx and `refining` is false.
void refinement_end_is_stated(void **) {
  SweepPlan p = grid_plan();
  p.adaptive = true;
  p.autodx = 4;
  p.n_stable = 3;
  p.reps = 8;
  Recorder short_rec;
  const SweepOutcome cut = sweep(p, short_rec, [](int64_t n, int) { return stepped(n); });
  assert_true(cut.end == lat::SweepEnd::kReps && cut.refining);
  bool wide = false;
  for (const lat::Step &st : cut.steps) wide = wide || st.above - st.below >= 2 * p.autodx;
  assert_true(wide);
  p.reps = 100;
  Recorder long_rec;
  const SweepOutcome done = sweep(p, long_rec, [](int64_t n, int) { return stepped(n); });
  assert_true(done.end == lat::SweepEnd::kStable && !done.refining);
}

/// The table warns where -cachesize is below LAT_CACHESIZE_LLC_FACTOR times the machine's last-level cache,
/// and where an overlap size's computation ran slower in its window of n_avg calls than alone by more than
/// LAT_OVERLAP_WINDOW_RATIO; the JSON says the first too. Nothing where neither holds.
void table_warns_of_warm_walks_and_disturbed_windows(void **) {
  lat::SweepResult r;
  r.options.pattern = LAT_SWEEP_PINGPONG;
  r.summary.pattern = LAT_SWEEP_PINGPONG;
  r.summary.cachesize = 1 << 20;
  r.summary.llc_bytes = 32 << 20;
  lat_sweep_point q{};
  q.bytes = 1024;
  q.min_us = 1.0;
  r.points.push_back(q);
  r.samples.push_back({1.0});
  std::string t = lat::sweep_table_text(r);
  assert_true(t.find("# WARNING: -cachesize 1048576 bytes is less than 4 times the last-level cache (33554432 bytes, hwloc)") !=
              std::string::npos);
  assert_true(lat::sweep_json_text(r, "mpptest").find("\"cachesize_below_llc_factor\": true") != std::string::npos);
  r.summary.cachesize = int64_t{256} << 20;  // 8 times: no warning
  assert_true(lat::sweep_table_text(r).find("WARNING") == std::string::npos);
  r.summary.llc_bytes = 0;  // not known: nothing claimed
  r.summary.cachesize = 1 << 20;
  assert_true(lat::sweep_table_text(r).find("WARNING") == std::string::npos);
  // -overlap: 1.30 us a call in the window against 1.00 alone is beyond 1.25; 1.20 is not.
  r.summary.cachesize = 0;
  r.summary.pattern = r.options.pattern = LAT_SWEEP_OVERLAP_ROUNDTRIP;
  r.points[0].compute_us = 1.0;
  r.points[0].compute_window_us = 1.30;
  r.points[0].n_avg = 50;
  t = lat::sweep_table_text(r);
  assert_true(t.find("# WARNING: at 1024 the computation took 1.3000 us a call in a window of 50 calls against 1.0000 us "
                     "alone (1.30x)") != std::string::npos);
  r.points[0].compute_window_us = 1.20;
  assert_true(lat::sweep_table_text(r).find("WARNING") == std::string::npos);
}

void bad_plans_are_named(void **) {
  SweepPlan p = grid_plan();
  p.sizes = {0, 64, 64};
  assert_true(lat::check_sweep_plan(p).find("distinct and ascending") != std::string::npos);
  p = grid_plan();
  p.autodx = 0;
  assert_true(lat::check_sweep_plan(p).find("autodx must be >= 1, got 0") != std::string::npos);
  p = grid_plan();
  p.max_sizes = 2;
  assert_true(lat::check_sweep_plan(p).find("max_sizes") != std::string::npos);
  p = grid_plan();
  p.budget_s = -1.0;
  assert_true(lat::check_sweep_plan(p).find("budget_s") != std::string::npos);
}

/// max_sizes caps the refinement and says so.
void refinement_cap(void **) {
  SweepPlan p = grid_plan();
  p.adaptive = true;
  p.reps = 40;
  p.max_sizes = 8;
  Recorder rec;
  const SweepOutcome out = sweep(p, rec, [](int64_t n, int) { return stepped(n); });
  assert_int_equal(out.points.size(), 8);
  assert_true(out.capped);
}

/// Verification mode: a corrupted byte, a stale message and a message from the wrong rank are caught,
/// and the bit patterns change from message to message.
void verification_catches_corruption(void **) {
  std::vector<std::vector<unsigned char>> kinds;
  for (int64_t op = 0; op < 5; ++op) {
    std::vector<unsigned char> m(64);
    lat::fill_pattern(m.data(), m.size(), lat::message_seed(3, op), 0);
    kinds.push_back(std::vector<unsigned char>(m.begin() + 8, m.end()));
  }
  for (size_t a = 0; a < kinds.size(); ++a)
    for (size_t b = a + 1; b < kinds.size(); ++b) assert_false(kinds[a] == kinds[b]);
  assert_true(std::all_of(kinds[0].begin(), kinds[0].end(), [&](unsigned char c) { return c == kinds[0][0]; }) ||
              std::all_of(kinds[1].begin(), kinds[1].end(), [&](unsigned char c) { return c == kinds[1][0]; }));
  std::vector<unsigned char> buf(1000);
  lat::fill_pattern(buf.data(), buf.size(), 7, 1);
  assert_int_equal(lat::first_mismatch(buf.data(), buf.size(), 7, 1), -1);
  buf[613] ^= 0x10;
  assert_int_equal(lat::first_mismatch(buf.data(), buf.size(), 7, 1), 613);
  buf[613] ^= 0x10;
  assert_true(lat::first_mismatch(buf.data(), buf.size(), 8, 1) >= 0);  // last sample's data
  assert_true(lat::first_mismatch(buf.data(), buf.size(), 7, 2) >= 0);  // another sender's data
  std::vector<unsigned char> zeros(64, 0);
  assert_true(lat::first_mismatch(zeros.data(), zeros.size(), 7, 1) >= 0);  // nothing arrived
}

/// The bisection's pairs, by hand: i with i + P/2, and the original's -bisectdist d (from rank 0 up, i with
/// (i + d) mod P while both are free; ranks left over stay idle).
void bisection_pairs_by_hand(void **) {
  using Pairs = std::vector<std::pair<int, int>>;
  assert_true(lat::bisection_pairs(4, 0) == (Pairs{{0, 2}, {1, 3}}));
  assert_true(lat::bisection_pairs(5, 0) == (Pairs{{0, 2}, {1, 3}}));  // rank 4 idle
  assert_true(lat::bisection_pairs(4, 1) == (Pairs{{0, 1}, {2, 3}}));
  assert_true(lat::bisection_pairs(4, 2) == (Pairs{{0, 2}, {1, 3}}));
  assert_true(lat::bisection_pairs(4, 3) == (Pairs{{0, 3}, {2, 1}}));  // 1's partner 0 is taken; 2 leads 1
  assert_true(lat::bisection_pairs(5, 1) == (Pairs{{0, 1}, {2, 3}}));  // 4's partner 0 is taken
  assert_true(lat::bisection_pairs(6, 2) == (Pairs{{0, 2}, {1, 3}}));  // 4 and 5: partners 0 and 1 taken
  assert_true(lat::bisection_pairs(6, 3) == (Pairs{{0, 3}, {1, 4}, {2, 5}}));
  assert_true(lat::bisection_pairs(2, 1) == (Pairs{{0, 1}}));
}

/// The halo exchange's partners, by hand (N: none, MPI_PROC_NULL), and the rule that makes it safe: every
/// message has a receive posted for it, i.e. q appears in r's list as often as r in q's, for every size and
/// count allowed; with the original's 6 partners that fails (s + 1 has no -s - 1), which is why 6 is refused.
void halo_partners_by_hand(void **) {
  using V = std::vector<int>;
  const int N = MPI_PROC_NULL;
  assert_true(lat::halo_partner_ranks(0, 9, 8, false) == (V{1, N, 3, N, 4, 2, N, N}));  // s = 3
  assert_true(lat::halo_partner_ranks(4, 9, 8, false) == (V{5, 3, 7, 1, 8, 6, 2, 0}));
  assert_true(lat::halo_partner_ranks(0, 9, 8, true) == (V{1, 8, 3, 6, 4, 2, 7, 5}));
  assert_true(lat::halo_partner_ranks(1, 4, 8, true) == (V{2, 0, 3, 3, 0, 1, 1, 2}));  // s = 2: +-3, +-4
  assert_true(lat::halo_partner_ranks(3, 4, 4, false) == (V{N, 2, N, 1}));
  assert_true(lat::halo_partner_ranks(2, 3, 1, false) == (V{N}));
  assert_true(lat::halo_partner_ranks(1, 3, 1, false) == (V{0}));
  assert_true(lat::halo_partner_ranks(3, 4, 1, true) == (V{2}));
  assert_true(lat::halo_partner_ranks(0, 2, 2, true) == (V{1, 1}));
  auto symmetric = [](int size, int n, bool periodic) {
    std::map<std::pair<int, int>, int> sends;
    for (int r = 0; r < size; ++r)
      for (int q : lat::halo_partner_ranks(r, size, n, periodic))
        if (q != MPI_PROC_NULL) ++sends[{r, q}];
    for (const auto &[rq, count] : sends)
      if (sends[{rq.second, rq.first}] != count) return false;
    return true;
  };
  for (int size = 2; size <= 40; ++size)
    for (int n : {1, 2, 4, 8})
      for (bool periodic : {false, true}) {
        if ((n == 8 && size < 4) || (n == 1 && periodic && size % 2 != 0)) continue;  // refused
        if (!symmetric(size, n, periodic)) fail_msg("halo: %d ranks, %d partners, periodic %d", size, n, periodic);
      }
  assert_false(symmetric(9, 6, false));
  assert_false(symmetric(3, 1, true));
}

/// The cache-cold walk: successive operations use successive slots, on and on across samples and passes,
/// so each slot is used again only a whole buffer later.
void cache_cold_walk(void **) {
  assert_int_equal(lat::slot_bytes_for(0), 64);
  assert_int_equal(lat::slot_bytes_for(1000), 1024);
  assert_int_equal(lat::slots_for(0, 1024), 1);
  assert_int_equal(lat::slots_for(5 * 1024, 1024), 5);
  assert_int_equal(lat::slots_for(5 * 1024 + 1, 1024), 6);  // at least cachesize bytes
  lat::SlotWalk walk(lat::slots_for(5 * 1024, 1024));
  // Two passes over two sizes, samples of 3 operations: 0 1 2 | 3 4 0 || 1 2 3 | 4 0 1.
  std::vector<int64_t> seen;
  for (int pass = 0; pass < 2; ++pass)
    for (int size = 0; size < 2; ++size)
      for (int op = 0; op < 3; ++op) seen.push_back(walk.next());
  assert_true((seen == std::vector<int64_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1}));
  lat::SlotWalk warm(1);
  for (int k = 0; k < 4; ++k) assert_int_equal(warm.next(), 0);
  // The options' check: at least two slots of the largest message.
  lat_sweep_options o = lat::sweep_defaults();
  o.size_last = 4096;
  o.cachesize = 4096;
  assert_true(lat::check_size_sweep_options(o, 0, nullptr, 2, 1, nullptr).find(
                  "cachesize must hold at least two slots of the largest message (2 x 4096 bytes), got 4096") !=
              std::string::npos);
  o.cachesize = 8192;
  assert_true(lat::check_size_sweep_options(o, 0, nullptr, 2, 1, nullptr).empty());
}

/// The default loop length and the time goal, as the options say them.
void loop_length_options(void **) {
  lat_sweep_options o = lat::sweep_defaults();
  assert_int_equal(o.n_avg, 0);
  assert_int_equal(o.n_avg_min, 50);  // mpptest's default -n_avg
  assert_true(o.budget_s == 900.0);    // mpptest's -max_run_time
  o.tgoal_s = -1.0;
  assert_true(lat::check_sweep_options(o, 0, nullptr).find("tgoal_s must be") != std::string::npos);
  o.tgoal_s = 0.001;
  o.n_avg_min = 0;
  assert_true(lat::check_sweep_options(o, 0, nullptr).find("n_avg_min must be in 1..") != std::string::npos);
}

/// Startup and rate: a least-squares line per regime between the steps, recovering the lines of a
/// synthetic two-regime curve exactly.
void startup_and_rate_per_regime(void **) {
  std::vector<lat_sweep_point> points;
  for (int64_t n = 0; n <= 1000; n += 100) {
    lat_sweep_point q{};
    q.bytes = n;
    q.min_us = n <= 500 ? 2.0 + 0.004 * static_cast<double>(n) : 10.0 + 0.001 * static_cast<double>(n);
    points.push_back(q);
  }
  const std::vector<lat_sweep_threshold> steps = {{500, 600, 4.0, 10.6, 6.0}};
  const auto lines = lat::regime_lines(points, steps);
  assert_int_equal(lines.size(), 2);
  assert_int_equal(lines[0].first_bytes, 0);
  assert_int_equal(lines[0].last_bytes, 500);
  assert_int_equal(lines[0].npoints, 6);
  assert_true(std::fabs(lines[0].startup_us - 2.0) < 1e-9);
  assert_true(std::fabs(lines[0].rate_mbs - 250.0) < 1e-6);
  assert_true(lines[0].max_rel_err < 1e-12);
  assert_int_equal(lines[1].first_bytes, 600);
  assert_int_equal(lines[1].last_bytes, 1000);
  assert_true(std::fabs(lines[1].startup_us - 10.0) < 1e-9);
  assert_true(std::fabs(lines[1].rate_mbs - 1000.0) < 1e-6);
  // Without steps, one line over everything, and its misfit says it does not describe the curve.
  const auto one = lat::regime_lines(points, {});
  assert_int_equal(one.size(), 1);
  assert_true(one[0].max_rel_err > 0.1);
  // A point marked low (a phase's minimum, 10 times too fast) is left out: the first regime's line is exact.
  points[2].min_us /= 10.0;
  points[2].low = 1;
  const auto kept = lat::regime_lines(points, steps);
  assert_int_equal(kept[0].npoints, 5);
  assert_true(std::fabs(kept[0].startup_us - 2.0) < 1e-9 && std::fabs(kept[0].rate_mbs - 250.0) < 1e-6);
  assert_string_equal(lat::sweep_line_questioned(kept[0]).c_str(), "");
  // Unmarked, it drags the line: the table and the JSON question a negative startup or a rate beyond any memory.
  points[2].low = 0;
  lat_sweep_line bad = lat::regime_lines(points, steps)[0];
  bad.startup_us = -795.9;
  assert_non_null(strstr(lat::sweep_line_questioned(bad).c_str(), "a negative startup (-795.9000 us)"));
  bad.startup_us = 1.0;
  bad.rate_mbs = 5993492.0;
  assert_non_null(strstr(lat::sweep_line_questioned(bad).c_str(), "a rate above 1000000 MB/s"));
}

/// The result travels between ranks as bytes: the round trip keeps every field and sample.
void result_round_trip(void **) {
  SweepPlan p = grid_plan();
  p.adaptive = true;
  Recorder rec;
  const SweepOutcome out = sweep(p, rec, [](int64_t n, int k) { return stepped(n) + 0.01 * (k % 3); });
  lat_sweep_options o{};
  o.pattern = LAT_SWEEP_HEAD_TO_HEAD;
  std::map<int64_t, lat::SizeExtras> extras{{256, {7, 0.0}}};
  lat::SweepResult r = lat::result_of(out, o, extras, 2, 0);
  const std::vector<char> bytes = lat::to_bytes(r.fields());
  lat::SweepResult back;
  lat::from_bytes(bytes, back.fields());
  assert_int_equal(back.points.size(), r.points.size());
  assert_memory_equal(&back.summary, &r.summary, sizeof r.summary);
  for (size_t k = 0; k < r.points.size(); ++k) {
    assert_memory_equal(&back.points[k], &r.points[k], sizeof r.points[k]);
    assert_true(back.samples[k] == r.samples[k]);
  }
  const auto at256 = std::find_if(r.points.begin(), r.points.end(), [](const lat_sweep_point &q) { return q.bytes == 256; });
  assert_int_equal(at256->n_avg, 7);
  assert_int_equal(r.points.front().n_avg, 1);
  assert_true(std::fabs(at256->rate_mbs - 2.0 * 256.0 / at256->min_us) < 1e-9);
  assert_int_equal(back.thresholds.size(), r.thresholds.size());
  // Bytes missing or left over are an error, never a result read from the wrong place.
  for (const std::vector<char> &wrong : {std::vector<char>(bytes.begin(), bytes.end() - 1),
                                         std::vector<char>(bytes.begin(), bytes.begin() + 100), [&] {
                                           std::vector<char> more = bytes;
                                           more.push_back(0);
                                           return more;
                                         }()}) {
    lat::SweepResult bad;
    bool thrown = false;
    try {
      lat::from_bytes(wrong, bad.fields());
    } catch (const std::runtime_error &) {
      thrown = true;
    }
    assert_true(thrown);
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(refinement_finds_steps),       cmocka_unit_test(refinement_finds_an_erratic_step),
      cmocka_unit_test(passes_interleave_sizes),
      cmocka_unit_test(noise_does_not_refine),        cmocka_unit_test(stops_when_minima_are_stable),
      cmocka_unit_test(reps_and_budget_end_the_sweep), cmocka_unit_test(anomalies_are_rerun),
      cmocka_unit_test(steps_need_a_jump_not_a_slope), cmocka_unit_test(bad_plans_are_named),
      cmocka_unit_test(a_disturbed_neighbour_does_not_hide_a_step), cmocka_unit_test(low_samples_are_questioned),
      cmocka_unit_test(refinement_end_is_stated), cmocka_unit_test(table_warns_of_warm_walks_and_disturbed_windows),
      cmocka_unit_test(refinement_cap),               cmocka_unit_test(verification_catches_corruption),
      cmocka_unit_test(result_round_trip),            cmocka_unit_test(every_size_in_every_pass),
      cmocka_unit_test(refined_sizes_compare_over_the_same_passes), cmocka_unit_test(cache_cold_walk),
      cmocka_unit_test(loop_length_options),          cmocka_unit_test(startup_and_rate_per_regime),
      cmocka_unit_test(bisection_pairs_by_hand),      cmocka_unit_test(halo_partners_by_hand),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
