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

void lines_compose_along_the_tree(void **) {
  const lat::ClockLine a{0.5, 2e-6}, b{-0.25, -1e-6};
  const lat::ClockLine ab = lat::compose(a, b);
  for (double local : {0.0, 10.0, 1e4}) assert_true(std::fabs(ab.to_reference(local) - b.to_reference(a.to_reference(local))) < 1e-9);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(least_delayed_exchange_gives_the_offset),
      cmocka_unit_test(line_recovers_offset_and_drift),
      cmocka_unit_test(lines_compose_along_the_tree),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
