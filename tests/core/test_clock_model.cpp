// test_clock_model.cpp: the clock lines of lat_collective's synchronisation on synthetic clocks whose offset
// and drift are known: exchanges with random one-way delays, bursts reduced to their least delayed
// exchange, the line fitted, two lines composed along a tree.
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <random>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "collective/clock_model.hpp"

namespace {

/// A reference clock ahead of the client's by offset + drift x local, and one-way delays of 0.3 us plus an
/// exponential tail (mean 1 us), drawn the same on every run.
struct SyntheticClocks {
  double offset, drift;
  std::mt19937_64 rng{20261125};
  std::exponential_distribution<double> tail{1e6};
  double reference_at(double local) const { return local + offset + drift * local; }
  lat::ClockExchange exchange(double local) {
    const double out = 0.3e-6 + tail(rng), back = 0.3e-6 + tail(rng);
    return {local, reference_at(local + out), local + out + back};
  }
};

void least_delayed_exchange_gives_the_offset(void **) {
  SyntheticClocks c{0.0123, 0.0};
  std::vector<lat::ClockExchange> burst;
  for (int k = 0; k < 50; ++k) burst.push_back(c.exchange(100.0 + 1e-4 * k));
  const lat::OffsetPoint p = lat::offset_point(burst);
  // Its error is the asymmetry of its own two delays, within half its round trip.
  assert_true(std::fabs(p.offset - 0.0123) <= 0.5 * p.rtt);
  assert_true(p.rtt < 1.5e-6);  // of 50, one answer came back within 0.9 us of the 0.6 us floor
  // A clock that went back (received < sent) is never taken.
  burst.push_back({200.0, 0.0, 199.0});
  assert_true(lat::offset_point(burst).rtt >= 0.0);
}

void line_recovers_offset_and_drift(void **) {
  // 5e-6 drift (5 us per second, a poor crystal), 12.3 ms offset, a clock counting from 1e5 s.
  SyntheticClocks c{0.0123, 5e-6};
  std::vector<lat::OffsetPoint> points;
  for (int f = 0; f < 20; ++f) {
    std::vector<lat::ClockExchange> burst;
    for (int k = 0; k < 30; ++k) burst.push_back(c.exchange(1e5 + 0.05 * f + 1e-5 * k));
    points.push_back(lat::offset_point(burst));
  }
  const lat::ClockLine line = lat::fit_clock_line(points);
  // Each point is off by its exchange's asymmetry (~0.1 us here): over 0.95 s that is ~3e-8 of slope.
  assert_true(std::fabs(line.slope - 5e-6) < 1e-7);
  // What matters is the time it gives: within 0.2 us of the reference over the fitted second and after it.
  for (double local : {1e5, 1e5 + 0.5, 1e5 + 1.0, 1e5 + 2.0})
    assert_true(std::fabs(line.to_reference(local) - c.reference_at(local)) < 0.2e-6);
  // One point: the offset alone.
  const lat::ClockLine one = lat::fit_clock_line({points.front()});
  assert_true(one.slope == 0.0 && one.intercept == points.front().offset);
}

void delayed_points_do_not_tilt_the_line(void **) {
  // 20 fit points 0.05 s apart on the line offset = 12.3 ms + 5e-6 local, round trips 0.5 us; 4 of them
  // delayed (a rank preempted during its burst: every exchange of the burst 2-3 ms late, the offset off by
  // up to half that). Weighted as the others they tilt the line by ~1e-3; left out, the line is the truth's.
  const auto truth = [](double l) { return 0.0123 + 5e-6 * l; };
  std::vector<lat::OffsetPoint> points;
  for (int f = 0; f < 20; ++f) {
    const double local = 1e5 + 0.05 * f;
    const bool delayed = f % 5 == 4;
    points.push_back({local, truth(local) + (delayed ? 1.1e-3 : 0.0), delayed ? 2.5e-3 : 0.5e-6});
  }
  const lat::ClockLine line = lat::fit_clock_line(points);
  assert_true(std::fabs(line.slope - 5e-6) < 1e-9);
  for (double local : {1e5, 1e5 + 0.5, 1e5 + 1.0}) assert_true(std::fabs(line.to_reference(local) - local - truth(local)) < 1e-9);
  // The same points weighted alike (every round trip equal): the line is far off, as it was before.
  for (lat::OffsetPoint &p : points) p.rtt = 0.5e-6;
  assert_true(std::fabs(lat::fit_clock_line(points).to_reference(1e5 + 1.0) - (1e5 + 1.0) - truth(1e5 + 1.0)) > 1e-4);
  // The rule: at most 2 x the best round trip + 50 ns.
  assert_true(lat::least_delayed({0.0, 0.0, 1.05e-6}, 0.5e-6) && !lat::least_delayed({0.0, 0.0, 1.06e-6}, 0.5e-6));
}

void round_trips_in_two_modes_keep_the_drift(void **) {
  // What 4 ranks on 2 cores gave (test_clock_sync_mpi): 8 points 0.1 s apart, one with a round trip of
  // 0.46 us, seven of 1.45 us whose offsets are off by up to 0.3 us. Through the least-delayed point alone
  // the drift was lost (slope 0: an error of 5e-6); weighted, the seven carry it: slope within 4.7e-8 here.
  const auto truth = [](double l) { return 0.0123 + 5e-6 * l; };
  const double off[7] = {0.3e-6, -0.2e-6, 0.1e-6, -0.3e-6, 0.2e-6, -0.1e-6, 0.25e-6};
  std::vector<lat::OffsetPoint> points;
  for (int f = 0; f < 8; ++f) {
    const double local = 1e5 + 0.1 * f;
    points.push_back(f < 7 ? lat::OffsetPoint{local, truth(local) + off[f], 1.45e-6} : lat::OffsetPoint{local, truth(local), 0.46e-6});
  }
  const lat::ClockLine line = lat::fit_clock_line(points);
  assert_true(std::fabs(line.slope - 5e-6) < 1e-7);
  // A point whose round trip is NaN or negative never counts: the line is the same.
  points.push_back({1e5 + 0.8, 1.0, std::nan("")});
  points.push_back({1e5 + 0.9, -1.0, -1e-6});
  const lat::ClockLine same = lat::fit_clock_line(points);
  assert_true(same.slope == line.slope && same.intercept == line.intercept);
  // The weights: the least delayed weighs 1, one of twice its round trip 1/4 (hand-computed line below).
  const std::vector<lat::OffsetPoint> two = {{0.0, 0.0, 1e-6}, {1.0, 1e-6, 2e-6}, {2.0, 0.0, 1e-6}};
  // Weights 1, 1/4, 1: mean local 1, mean offset (0.25e-6) / 2.25; the slope 0 by symmetry.
  const lat::ClockLine sym = lat::fit_clock_line(two);
  assert_true(std::fabs(sym.slope) < 1e-15 && std::fabs(sym.intercept - 0.25e-6 / 2.25) < 1e-15);
}

void a_synchronisation_is_checked_and_bounded(void **) {
  // Fit round trip 0.5 us: a residual within 0.25 + 0.1 us passes, beyond it the synchronisation is redone.
  assert_true(lat::residual_within_bound({0.0, 0.34e-6, 0.6e-6}, 0.5e-6));
  assert_true(lat::residual_within_bound({0.0, -0.34e-6, 0.6e-6}, 0.5e-6));
  assert_false(lat::residual_within_bound({0.0, 0.36e-6, 0.6e-6}, 0.5e-6));
  // The bound: |residual| + half the residual exchange's own round trip (not the fit's best).
  assert_true(std::fabs(lat::error_bound_of({0.0, -0.2e-6, 3.0e-6}) - 1.7e-6) < 1e-15);
}

void lines_compose_along_the_tree(void **) {
  const lat::ClockLine a{0.5, 2e-6}, b{-0.25, -1e-6};
  const lat::ClockLine ab = lat::compose(a, b);
  for (double local : {0.0, 10.0, 1e4}) assert_true(std::fabs(ab.to_reference(local) - b.to_reference(a.to_reference(local))) < 1e-9);
}

}  // namespace

void drift_tracker_corrects_a_line_off_by_its_drift(void **) {
  // The truth: the root's time = local + 3 s + 2e-6 local (a clock of another node, 3 s apart). The base
  // line has the offset right at local 1000 s but a drift off by 1e-7 (as a fit over 0.1 s can be): after
  // 10 s it is 1 us wrong. Checks every 0.1 s with +-5 ns of noise (and one delayed check with an offset
  // 3 us off, which must be left out) bring the line in use within 20 ns over the whole run.
  const auto truth = [](double l) { return l + 3.0 + 2e-6 * l; };
  const double t0 = 1000.0;
  lat::ClockLine base;
  base.slope = 2e-6 + 1e-7;
  base.intercept = truth(t0) - t0 - base.slope * t0;
  lat::DriftTracker tracker(base);
  assert_true(std::fabs(tracker.in_use().to_reference(t0 + 10.0) - truth(t0 + 10.0)) > 0.9e-6);
  for (int k = 0; k <= 100; ++k) {
    const double local = t0 + 0.1 * k, noise = ((k * 7919) % 11 - 5) * 1e-9;
    const lat::OffsetPoint on_base{base.to_reference(local), truth(local) - base.to_reference(local) + noise, 0.25e-6};
    assert_true(tracker.add(on_base));
    if (k == 50) assert_false(tracker.add({base.to_reference(local), 3e-6, 5e-6}));  // delayed: left out
  }
  assert_int_equal(tracker.checks(), 101);
  for (double local = t0; local <= t0 + 10.0; local += 0.5)
    assert_true(std::fabs(tracker.in_use().to_reference(local) - truth(local)) < 20e-9);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(least_delayed_exchange_gives_the_offset), cmocka_unit_test(round_trips_in_two_modes_keep_the_drift),
      cmocka_unit_test(line_recovers_offset_and_drift),
      cmocka_unit_test(delayed_points_do_not_tilt_the_line),
      cmocka_unit_test(a_synchronisation_is_checked_and_bounded),
      cmocka_unit_test(lines_compose_along_the_tree),
      cmocka_unit_test(drift_tracker_corrects_a_line_off_by_its_drift),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
