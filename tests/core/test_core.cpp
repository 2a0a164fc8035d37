// test_core.cpp: pieces of the C++ core the C ABI does not expose one by one.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <tuple>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>  // before cmocka.h, whose fail() macro breaks <ios>

extern "C" {
#include <cmocka.h>
}

#include "capi/sized_refusal.hpp"
#include "common/abi_sized.hpp"
#include "queue/measurement.hpp"
#include "sweep/compute.hpp"
#include "queue/report.hpp"
#include "latency/npp_rule.hpp"
#include "common/run_levels.hpp"
#include "latency/report.hpp"
#include "common/stats.hpp"
#include "common/tally.hpp"
#include "common/report_json.hpp"
#include "generated/spec_json.hpp"

namespace {

void fortran_e_format(void **) {
  assert_string_equal(lat::fortran_e(0.1463).c_str(), "0.1463E+00");
  assert_string_equal(lat::fortran_e(28.92).c_str(), "0.2892E+02");
  assert_string_equal(lat::fortran_e(1.321e-4).c_str(), "0.1321E-03");
  assert_string_equal(lat::fortran_e(46.83).c_str(), "0.4683E+02");
  assert_string_equal(lat::fortran_e(0.0).c_str(), "0.0000E+00");
  assert_string_equal(lat::fortran_e(-2.5).c_str(), "-0.2500E+01");
  assert_string_equal(lat::fortran_e(0.99996).c_str(), "0.1000E+01");  // rounding carries into the exponent
  assert_string_equal(lat::fortran_e(8.0 / 1.2451).c_str(), "0.6425E+01");
  assert_string_equal(lat::fortran_e(1e123).c_str(), "0.1000E+124");
}

void tally_counts_distinct_values(void **) {
  lat::Tally t;
  for (int i = 0; i < 100000; ++i) t.add(int64_t{i % 7});
  t.add(int64_t{0});
  assert_int_equal(t.total(), 100001);
  assert_int_equal(t.distinct(), 7);
  std::vector<int64_t> v, c;
  t.sorted(v, c);
  assert_int_equal(v.size(), 7);
  assert_true(v[0] == 0 && c[0] == 14286 + 1);
  for (size_t k = 1; k < v.size(); ++k) assert_true(v[k - 1] < v[k]);
  // Growth past the initial table keeps every count; negative ticks (a clock stepping back) sort first.
  lat::Tally big;
  for (int i = 0; i < 50000; ++i) big.add(int64_t{i} - 3, 2);
  assert_int_equal(big.distinct(), 50000);
  assert_int_equal(big.total(), 100000);
  big.sorted(v, c);
  assert_true(v.front() == -3 && v.back() == 49996);
}

/// The reason for ticks: the difference of two absolute readings of a 1 ns clock carries rounding noise, so
/// the same time gave several doubles (Part 4 printed one time on several lines). In ticks it is one key.
void ticks_merge_equal_times(void **) {
  lat::Tally seconds_keyed, ticks;
  std::vector<double> as_doubles;
  for (int i = 0; i < 1000; ++i) {
    // Readings as clock_gettime gives them to MPI_Wtime or CLOCK_MONOTONIC_RAW: seconds plus nanoseconds
    // of an uptime, as one double each; the second 190 ns after the first.
    const int64_t ns = 123456789012345 + 1000003 * i;
    const double t1 = static_cast<double>(ns / 1000000000) + 1e-9 * static_cast<double>(ns % 1000000000);
    const double t2 = static_cast<double>((ns + 190) / 1000000000) + 1e-9 * static_cast<double>((ns + 190) % 1000000000);
    as_doubles.push_back(t2 - t1);
    ticks.add(lat::to_ticks(t2 - t1, 1e-9));
  }
  const lat::Distribution noisy = lat::distribution_of_values(as_doubles);
  assert_true(noisy.values.size() > 1);  // the doubles differ
  assert_int_equal(ticks.distinct(), 1);
  const lat::Distribution d = lat::distribution_of(ticks, [](int64_t k) { return static_cast<double>(k) * 1e-3; });
  assert_int_equal(d.values.size(), 1);
  assert_true(std::fabs(d.values[0] - 0.19) < 1e-12 && d.counts[0] == 1000);
  // A TSC cycle of 1/2.9 GHz: 551 cycles stay 551.
  assert_int_equal(lat::to_ticks(551.0 / 2.9e9, 1.0 / 2.9e9), 551);
}

/// Percentiles by the nearest rank and the distribution-free intervals, on tables whose answers are known.
void percentiles_and_order_statistic_intervals(void **) {
  // 1..100 once each: p_k is k (the ceil(k n / 100)-th value), p99.9 and p99.99 are 100.
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  lat_quantiles q = lat::quantiles_of(lat::distribution_of_values(v));
  const double want[LAT_NPERCENTILES] = {1, 5, 10, 25, 50, 75, 90, 95, 99, 100, 100};
  for (int i = 0; i < LAT_NPERCENTILES; ++i) assert_true(q.p_us[i] == want[i]);
  // The 95 % interval of the median of 100 is [x_(40), x_(61)] (binomial coverage 0.9648), the textbook
  // table's; p99's upper end needs more than 100 samples: unbounded.
  assert_true(q.median_ci_us[0] == 40.0 && q.median_ci_us[1] == 61.0);
  assert_true(std::isinf(q.p99_ci_us[1]) && q.p99_ci_us[1] > 0);
  auto [l, u] = lat::order_statistic_interval(100, 0.5);
  assert_int_equal(l, 40);
  assert_int_equal(u, 61);
  // n = 10: [x_(2), x_(9)] (coverage 0.9785); n = 5: no interval at 95 % (0.9375 at best): both ends open.
  std::tie(l, u) = lat::order_statistic_interval(10, 0.5);
  assert_int_equal(l, 2);
  assert_int_equal(u, 9);
  std::tie(l, u) = lat::order_statistic_interval(5, 0.5);
  assert_int_equal(l, 0);
  assert_int_equal(u, 6);
  // Exact at any n: for n = 10^6 the median's ranks are those of the normal approximation, n/2 -+ 1.96 sqrt(n)/2
  // (980 each side), within a rank.
  std::tie(l, u) = lat::order_statistic_interval(1000000, 0.5);
  assert_true(l >= 499019 && l <= 499021 && u >= 500980 && u <= 500982);
  // One more trial moves the ends of p99's interval by at most a rank or two (no switch of method at 10^5).
  const auto exact = lat::order_statistic_interval(100000, 0.99);
  const auto approx = lat::order_statistic_interval(100001, 0.99);
  assert_true(std::llabs(exact.first - approx.first) <= 2 && std::llabs(exact.second - approx.second) <= 2);
  // A tally of ticks: 2^20 trials, 90 % at 190 ticks, 9 % at 200, 1 % at 5000: percentiles land on the
  // right tick and the intervals of the median collapse onto it.
  lat::Tally t;
  t.add(190, 943718);
  t.add(200, 94372);
  t.add(5000, 10486);
  const lat::Distribution d = lat::distribution_of(t, [](int64_t k) { return static_cast<double>(k) / 2000.0; });
  q = lat::quantiles_of(d);
  assert_true(q.p_us[4] == 190 / 2000.0 && q.p_us[7] == 200 / 2000.0 && q.p_us[8] == 5000 / 2000.0 && q.p_us[9] == 5000 / 2000.0);
  assert_true(q.median_ci_us[0] == 190 / 2000.0 && q.median_ci_us[1] == 190 / 2000.0);
  // p99 is the 1038091-th of 1048576 (ceil(0.99 n)); 200 runs up to the 1038090-th: p99 is the first 5000,
  // and its interval reaches down into the 200s.
  assert_true(q.p99_ci_us[0] == 200 / 2000.0 && q.p99_ci_us[1] == 5000 / 2000.0);
  // No values: zeros.
  q = lat::quantiles_of(lat::Distribution{});
  assert_true(q.p_us[4] == 0.0 && q.level[10] == 99.99);
}

lat::Distribution dist(std::vector<double> v, std::vector<int64_t> c) {
  lat::Distribution d;
  d.values = std::move(v);
  d.counts = std::move(c);
  return d;
}

void bins_follow_printed_edges(void **) {
  // 0.6 belongs to "0.60 <= times < 0.80" although 0.6 / 0.2 = 2.9999999999999996 in doubles.
  int64_t bins[LAT_NBINS];
  lat::fill_bins(dist({-1.0, 0.0, 0.19999, 0.2, 0.6, 0.954, 1.192, 9.79, 9.8, 1204.967}, {5, 1, 1, 1, 1, 3, 2, 1, 1, 1}),
                 bins);
  assert_int_equal(bins[0], 2);  // 0.0 and 0.19999; the negative value is not binned
  assert_int_equal(bins[1], 1);  // 0.2
  assert_int_equal(bins[3], 1);  // 0.6
  assert_int_equal(bins[4], 3);  // 0.954: Appendix A's 0.80 <= times < 1.00
  assert_int_equal(bins[5], 2);  // 1.192: 1.00 <= times < 1.20
  assert_int_equal(bins[48], 1); // 9.79: 9.60 <= times < 9.80
  assert_int_equal(bins[49], 2); // 9.80 <= times, open-ended
  int64_t total = 0;
  for (int64_t b : bins) total += b;
  assert_int_equal(total, 12);
}

void filtering_keeps_at_most_the_cut(void **) {
  const lat::Distribution d = dist({1.0, 1.3, 2.6, 2.7, 500.0}, {10, 70, 1, 3, 1});
  assert_true(lat::median_of(d) == 1.3);
  const lat::Distribution kept = lat::at_most(d, 2.0 * lat::median_of(d));
  assert_int_equal(kept.total(), 81);  // 2.6 == 2 * 1.3 is kept: only times larger than the cut go
  const lat_stats s = lat::describe(kept, 8);
  assert_true(s.max_us == 2.6 && s.count == 81);
}

void median_of_even_count_across_values(void **) {
  assert_true(lat::median_of(dist({1.0, 3.0}, {2, 2})) == 2.0);
  assert_true(lat::median_of(dist({1.0, 3.0}, {3, 1})) == 1.0);
  assert_true(lat::median_of(dist({}, {})) == 0.0);
}

/// The npp guard: a clock that reads 0 for short loops makes the estimate double its loop until the
/// median is positive (then the rule on that median); a clock that never sees a loop gives npp 0, never
/// LAT_NPP_MAX; a stop ends the doubling.
void npp_guard_with_a_clock_that_reads_zero(void **) {
  // Ticks of 1 us, a ping-pong of 0.3 us: loops under 4 ping-pongs read 0, so 1 -> 2 -> 4.
  std::vector<int64_t> tried;
  auto coarse = [&](int64_t loop, bool &) {
    tried.push_back(loop);
    const double read = std::floor(0.3 * static_cast<double>(loop));  // whole ticks
    return read / static_cast<double>(loop);
  };
  lat::NppEstimate e = lat::guarded_npp_estimate(1, 100, 1.0, coarse);
  assert_true(tried == std::vector<int64_t>({1, 2, 4}));
  assert_int_equal(e.npp_init, 4);
  assert_true(std::fabs(e.median_ppt_us - 0.25) < 1e-12);
  assert_int_equal(e.npp, lat::npp_rule(100, 1.0, 0.25));  // 400
  // A clock that never moves: doubling stops at its bound, npp 0 (the measurement then fails by name).
  tried.clear();
  e = lat::guarded_npp_estimate(10, 100, 1.0, [&](int64_t loop, bool &) { tried.push_back(loop); return 0.0; });
  assert_int_equal(e.npp, 0);
  assert_int_equal(static_cast<int64_t>(tried.size()), lat::kNppDoublings + 1);
  assert_int_equal(e.npp_init, int64_t{10} << lat::kNppDoublings);
  // A stop request during the estimate: no doubling, no npp.
  tried.clear();
  e = lat::guarded_npp_estimate(10, 100, 1.0, [&](int64_t loop, bool &stopped) { tried.push_back(loop); stopped = true; return 0.0; });
  assert_true(e.stopped && e.npp == 0 && tried.size() == 1);
  // A fine clock: one estimate, the rule as before.
  e = lat::guarded_npp_estimate(10, 100, 0.001, [](int64_t, bool &) { return 0.5; });
  assert_int_equal(e.npp_init, 10);
  assert_int_equal(e.npp, 1);
}

/// Chunk series of a given median per chunk (1000 trials each, a chunk every 0.25 s).
std::vector<lat::TrialChunk> series(const std::vector<double> &medians) {
  std::vector<lat::TrialChunk> c;
  for (size_t i = 0; i < medians.size(); ++i)
    c.push_back({static_cast<int64_t>(1000 * i), 1000, 0.25 * static_cast<double>(i), 0.25 * static_cast<double>(i + 1),
                 0.9 * medians[i], medians[i]});
  return c;
}

/// The level detection: one level with noise, two levels (the host moving the processors: 0.2 and 0.6 us,
/// the slow phase in the middle), a slow drift (not two levels), and the filter's 5 % warning.
void run_levels_one_two_drift(void **) {
  uint64_t state = 7;
  auto jitter = [&](double x) {  // +-4 %, deterministic
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return x * (1.0 + 0.08 * (static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5));
  };
  std::vector<double> one, two, drift;
  for (int i = 0; i < 200; ++i) one.push_back(jitter(0.2));
  for (int i = 0; i < 200; ++i) two.push_back(jitter(i >= 80 && i < 156 ? 0.6 : 0.2));
  for (int i = 0; i < 200; ++i) drift.push_back(jitter(0.2 + 0.4 * i / 199.0));
  std::vector<lat::RunLevel> l = lat::run_levels(series(one));
  assert_int_equal(l.size(), 1);
  assert_true(std::fabs(l[0].median_us - 0.2) < 0.01 && l[0].share == 1.0);
  std::vector<std::string> lines;
  assert_int_equal(lat::run_warnings(l, {}, 10, 200000, &lines), 0);
  assert_true(lines.empty());
  l = lat::run_levels(series(two));
  assert_int_equal(l.size(), 2);
  assert_true(std::fabs(l[0].median_us - 0.2) < 0.01 && std::fabs(l[1].median_us - 0.6) < 0.03);
  assert_true(std::fabs(l[1].share - 76.0 / 200.0) < 1e-12);
  // When: the slow level held from chunk 80 to 155, i.e. 20 s to 39 s; the fast one before and after.
  assert_int_equal(l[1].spans.size(), 1);
  assert_true(l[1].spans[0].first == 20.0 && l[1].spans[0].second == 39.0);
  assert_int_equal(l[0].spans.size(), 2);
  assert_int_equal(lat::run_warnings(l, {}, 0, 200000, &lines), LAT_WARN_LEVELS);
  assert_int_equal(lines.size(), 1);
  assert_non_null(strstr(lines[0].c_str(), "2 levels"));
  assert_non_null(strstr(lines[0].c_str(), "20.0-39.0 s"));
  l = lat::run_levels(series(drift));
  assert_int_equal(l.size(), 1);  // a drift has no gap: one level
  // The filter: 5 % is the paper's rare outliers, 38 % (this VM's default run) is not.
  lines.clear();
  assert_int_equal(lat::run_warnings(l, {}, 5000, 100000, &lines), 0);
  assert_int_equal(lat::run_warnings(l, {}, 3224416, 8388608, &lines), LAT_WARN_FILTERED);
  assert_non_null(strstr(lines[0].c_str(), "removed 3224416 of 8388608 trials (38.4 %)"));
  // Chunks travel with the result as doubles and come back the same.
  const std::vector<lat::TrialChunk> c = series(two);
  const std::vector<lat::TrialChunk> back = lat::unpack_chunks(lat::pack_chunks(c));
  assert_int_equal(back.size(), c.size());
  assert_true(back[99].first_trial == 99000 && back[99].median_us == c[99].median_us && back[99].end_s == c[99].end_s);
  assert_true(lat::run_levels({}).empty());
}

/// --precision's rule: the median's 95 % interval from LAT_PRECISION_BATCHES batch medians (a prediction of
/// one more batch: t(0.975, 7) x sd x sqrt(1 + 1/8)) in percent of the median, and a quiet run over time.
void precision_rule(void **) {
  static_assert(LAT_PRECISION_BATCHES == 8, "the hand-computed values below are for 8 batches");
  // 16 chunks, two a batch, each pair equal: the batch medians 1.0 1.1 0.9 1.0 1.2 0.8 1.0 1.0, mean 1.0,
  // squares 0.1, sd sqrt(0.1 / 7) = 0.1195229; t(0.975, 7) = 2.3646243; x sqrt(9/8) = 1.0606602:
  // 0.2997706 of a median 1.0, 29.97706 %.
  const std::vector<double> batch = {1.0, 1.1, 0.9, 1.0, 1.2, 0.8, 1.0, 1.0};
  std::vector<double> m;
  for (double b : batch) m.push_back(b), m.push_back(b);
  assert_true(std::fabs(lat::batch_median_half_pct(series(m), 1.0) - 29.97706) < 1e-4);
  // Of a median of 2.0 the same spread is half the percent.
  assert_true(std::fabs(lat::batch_median_half_pct(series(m), 2.0) - 29.97706 / 2.0) < 1e-4);
  // A batch's value is the median of its chunks' medians: one wild chunk of three does not move it.
  std::vector<double> m3;
  for (double b : batch) m3.push_back(b), m3.push_back(b), m3.push_back(b);
  m3[4] = 50.0;  // the second batch's middle chunk
  assert_true(std::fabs(lat::batch_median_half_pct(series(m3), 1.0) - 29.97706) < 1e-4);
  // Chunks that do not divide by 8 (10: batches of 1, 1, 1, 2, 1, 1, 1, 2 chunks) and are all equal: 0.
  assert_true(lat::batch_median_half_pct(series(std::vector<double>(10, 0.3)), 0.3) == 0.0);
  // A step in the middle (0.2 then 0.6 us): four batches at each level, sd 0.2138, +-0.5363 us: far from
  // precise however many trials each chunk had.
  std::vector<double> step(16, 0.2);
  for (size_t i = 8; i < 16; ++i) step[i] = 0.6;
  assert_true(std::fabs(lat::batch_median_half_pct(series(step), 0.4) - 2.3646243 * std::sqrt(0.32 / 7.0) * std::sqrt(9.0 / 8.0) / 0.4 * 100.0) < 1e-3);
  // Fewer chunks than batches, or a median not above 0: no interval (never precise).
  assert_true(std::isinf(lat::batch_median_half_pct(series(std::vector<double>(7, 0.3)), 0.3)));
  assert_true(std::isinf(lat::batch_median_half_pct(series(m), 0.0)));
  // The npp a precision run holds: the power of two at or above res_npp x res_timing / median_ppt.
  assert_int_equal(lat::npp_for_precision(50, 0.02, 1.0), 1);    // 1.0: the rule's 1
  assert_int_equal(lat::npp_for_precision(50, 0.02, 0.8), 2);    // 1.25: the rule says 1, the loop would be short
  assert_int_equal(lat::npp_for_precision(50, 0.02, 0.6), 2);    // 1.67: the rule's 2
  assert_int_equal(lat::npp_for_precision(50, 0.02, 0.34), 4);   // 2.94: the rule's 3
  assert_int_equal(lat::npp_for_precision(50, 1.0, 1.0), 64);    // 50
  assert_int_equal(lat::npp_for_precision(50, 1.0, 0.0), LAT_NPP_MAX);  // a clock that saw no loop
  assert_int_equal(lat::npp_for_precision(100, 1e7, 1.0), LAT_NPP_MAX); // 10^9: beyond the largest power of two
  assert_int_equal(lat::npp_for_precision(1, 536870912.0, 1.0), 536870912);  // 2^29 exactly
  assert_true(lat::precision_limit_s(0.0) == LAT_PRECISION_LIMIT_S);
  assert_true(lat::precision_limit_s(6.0) == 6.0);
  // The run over time: LAT_PRECISION_MIN_CHUNKS steady chunks are quiet, one fewer is not, and so is not
  // a run whose second half is three times slower (two levels), however precise its pooled median.
  std::vector<double> steady(LAT_PRECISION_MIN_CHUNKS, 0.2), slow(2 * LAT_PRECISION_MIN_CHUNKS, 0.2);
  for (size_t i = 0; i < steady.size(); ++i) steady[i] *= 1.0 + 0.01 * static_cast<double>(i % 3);
  assert_true(lat::run_is_quiet(series(steady)));
  steady.pop_back();
  assert_false(lat::run_is_quiet(series(steady)));
  for (size_t i = 0; i < slow.size(); ++i) slow[i] *= (i >= slow.size() / 2 ? 3.0 : 1.0) * (1.0 + 0.01 * static_cast<double>(i % 3));
  assert_false(lat::run_is_quiet(series(slow)));
}

/// State changes: change points of the chunks' median, p99 and trials per second (a steady noisy series has
/// none; a slow phase, a tail that grows, a hog that slows the trials outside the timed region, a stall of
/// one chunk each have theirs, with their times and levels).
void state_changes_steady_step_rate_stall(void **) {
  uint64_t state = 11;
  auto jitter = [&](double x, double rel) {  // +-rel/2, deterministic
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return x * (1.0 + rel * (static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5));
  };
  // 200 chunks of 0.25 s: median 0.2 us (+-4 %), p99 0.5 us (+-20 %), 80,000 trials/s (+-4 %).
  const auto chunks = [&](auto median_at, auto p99_at, auto rate_at, auto length_at) {
    std::vector<lat::TrialChunk> c;
    double t = 0.0;
    for (int i = 0; i < 200; ++i) {
      lat::TrialChunk k;
      k.start_s = t;
      k.end_s = t += length_at(i);
      k.count = static_cast<int64_t>(rate_at(i) * (k.end_s - k.start_s));
      k.median_us = median_at(i);
      k.p99_us = p99_at(i);
      c.push_back(k);
    }
    return c;
  };
  const auto steady_median = [&](int) { return jitter(0.2, 0.08); };
  const auto steady_p99 = [&](int) { return jitter(0.5, 0.4); };
  const auto steady_rate = [&](int) { return jitter(80000.0, 0.08); };
  const auto quarter = [](int) { return 0.25; };
  std::vector<lat::StateChange> c = lat::state_changes(chunks(steady_median, steady_p99, steady_rate, quarter));
  assert_int_equal(c.size(), 0);
  std::vector<std::string> lines;
  assert_int_equal(lat::run_warnings({}, c, 0, 1000, &lines), 0);
  assert_true(lines.empty());
  // A slow phase from chunk 80 to 155 (20 s to 39 s): median x3, tail x3; the trials per second unchanged.
  c = lat::state_changes(chunks([&](int i) { return jitter(i >= 80 && i < 156 ? 0.6 : 0.2, 0.08); },
                                [&](int i) { return jitter(i >= 80 && i < 156 ? 1.5 : 0.5, 0.4); }, steady_rate, quarter));
  assert_int_equal(c.size(), 4);  // median up and down, p99 up and down
  assert_int_equal(c[0].quantity == LAT_CHANGE_MEDIAN || c[0].quantity == LAT_CHANGE_P99, 1);
  int medians = 0;
  for (const lat::StateChange &x : c) {
    if (x.quantity != LAT_CHANGE_MEDIAN) continue;
    ++medians;
    if (x.after > x.before) {
      assert_true(x.start_s == 20.0 && x.end_s == 39.0);
      assert_true(std::fabs(x.before - 0.2) < 0.01 && std::fabs(x.after - 0.6) < 0.03);
    } else {
      assert_true(x.start_s == 39.0 && x.end_s == 50.0);
    }
  }
  assert_int_equal(medians, 2);
  assert_int_equal(lat::run_warnings({}, c, 0, 1000, &lines), LAT_WARN_STATE);
  assert_int_equal(lines.size(), 2);  // one line per moment: the median and the tail at 20 s, both back at 39 s
  assert_non_null(strstr(lines[0].c_str(), "WARNING: the run changed state at 20.00 s: the chunks' "));
  assert_non_null(strstr(lines[0].c_str(), "median rose from 0."));
  assert_non_null(strstr(lines[0].c_str(), "until 39.00 s"));
  assert_non_null(strstr(lines[1].c_str(), "at 39.00 s"));
  // A hog that slows everything outside the timed loop: half the trials per second from 10 s to 15 s.
  c = lat::state_changes(chunks(steady_median, steady_p99, [&](int i) { return jitter(i >= 40 && i < 60 ? 40000.0 : 80000.0, 0.08); },
                                quarter));
  assert_int_equal(c.size(), 2);
  assert_true(c[0].quantity == LAT_CHANGE_RATE && c[0].start_s == 10.0 && c[0].end_s == 15.0);
  assert_true(std::fabs(c[0].after / c[0].before - 0.5) < 0.05);
  // A stall: one chunk of 1.25 s (a trial of a second: dest stopped) between chunks of 0.25 s.
  c = lat::state_changes(chunks(steady_median, steady_p99, [&](int i) { return i == 100 ? 16000.0 : jitter(80000.0, 0.08); },
                                [](int i) { return i == 100 ? 1.25 : 0.25; }));
  assert_int_equal(c.size(), 2);
  assert_true(c[0].quantity == LAT_CHANGE_RATE && c[0].start_s == 25.0 && c[0].end_s == 26.25);
  assert_true(lat::state_changes({}).empty());
}

// The ABI's scheme on a struct that grew (docs/api.md, "How the ABI grows"): version 1 is what an older
// header gave its caller, version 2 this library's. The older caller's shorter input is read as far as it
// goes and completed with the defaults; its shorter output is written as far as it goes, never beyond.
struct OptionsV1 {
  int64_t n;
  double t;
};
struct OptionsV2 {
  int64_t n;
  double t;
  int added;  // API 11's field, unknown to the older caller
  int later;
};
void abi_sized_older_shorter_struct(void **) {
  const OptionsV2 defaults{100, 1.5, 7, 9};
  const OptionsV1 older{3, 2.5};
  lat::SizedIn<OptionsV2> in(reinterpret_cast<const OptionsV2 *>(&older), sizeof older, "opts", sizeof(OptionsV1), sizeof(OptionsV1), defaults);
  assert_int_equal(in.check().code, LAT_SUCCESS);
  assert_true(in.get()->n == 3 && in.get()->t == 2.5 && in.get()->added == 7 && in.get()->later == 9);
  // An output: the older caller's struct, then a canary the library must not touch.
  struct {
    OptionsV1 out;
    uint64_t canary;
  } caller{{-1, -1.0}, 0x1122334455667788ULL};
  lat::SizedOut<OptionsV2> out(reinterpret_cast<OptionsV2 *>(&caller.out), sizeof caller.out, "result", sizeof(OptionsV1));
  assert_int_equal(out.check().code, LAT_SUCCESS);
  *out.get() = OptionsV2{42, 0.25, 1, 2};
  out.give_back();
  assert_true(caller.out.n == 42 && caller.out.t == 0.25);
  assert_true(caller.canary == 0x1122334455667788ULL);
  // Shorter than the first extensible version: refused, nothing read or written.
  lat::SizedIn<OptionsV2> tiny(reinterpret_cast<const OptionsV2 *>(&older), 4, "opts", sizeof(OptionsV1), sizeof(OptionsV1), defaults);
  assert_int_equal(tiny.check().code, LAT_ERR_ARG);
  assert_int_equal(lat::sized_refusal(in, tiny), LAT_ERR_ARG);
  assert_non_null(strstr(lat_last_error_message(), "opts: a struct of 4 bytes, smaller than its 16 bytes"));
  assert_int_equal(lat::sized_refusal(in), LAT_SUCCESS);
}

// queuelat's slope from the per-point minima (Gropp & Lusk's minimum), with its fit's quality and a warning
// where it is no latency per entry (issue 34, part 3): minima on a line with medians an interruption away.
lat::QueueResult queue_points(double (*min_of)(int64_t traversed), const std::vector<int64_t> &lengths) {
  lat::QueueResult r;
  r.summary.mode = LAT_QUEUE_POSTED;
  r.summary.nsizes = 1;
  for (double f : {0.0, 100.0})
    for (int64_t len : lengths) {
      lat_queue_point q{};
      q.length = len;
      q.traversed = std::llround(static_cast<double>(len) * f / 100.0);
      q.bytes = 8;
      q.fraction_percent = f;
      q.measurements = 5;
      q.min_us = min_of(q.traversed);
      q.median_us = q.mean_us = q.paper_us = q.min_us * (len == 500 ? 40.0 : 1.3);  // an interruption at 500
      r.points.push_back(q);
    }
  return r;
}
void queue_slope_from_minima(void **) {
  const std::vector<int64_t> five = {0, 250, 500, 750, 1000};
  lat::QueueResult r = queue_points([](int64_t x) { return 0.25 + 0.0062 * static_cast<double>(x); }, five);
  lat::fit_minima(r);
  assert_true(std::fabs(r.summary.slope_us_per_entry - 0.0062) < 1e-12);
  assert_true(std::fabs(r.summary.intercept_us - 0.25) < 1e-12);
  assert_int_equal(r.summary.fit_points, 5);
  assert_true(r.summary.fit_r2 > 0.999999 && r.summary.fit_residual_max_us < 1e-12);
  assert_int_equal(r.summary.warnings, 0);
  std::string text = lat::queue_table_text(r);
  assert_non_null(strstr(text.c_str(), "latency added per traversed entry: 0.00620 us (least squares of the minima over "
                                       "the 100% curve: 5 points, R^2 1.000, largest residual 0.0000 us; 0.250 us at 0)"));
  assert_null(strstr(text.c_str(), "WARNING"));
  // A step in the minima: y = 0.25, 0.25, 5, 5, 5 against 0..1000: R^2 = 20.306 / 27.075 = 0.750.
  r = queue_points([](int64_t x) { return x >= 500 ? 5.0 : 0.25; }, five);
  lat::fit_minima(r);
  assert_true(std::fabs(r.summary.fit_r2 - 0.75) < 1e-3);
  assert_int_equal(r.summary.warnings, LAT_WARN_FIT);
  text = lat::queue_table_text(r);
  assert_non_null(strstr(text.c_str(), "WARNING: the minima do not lie on a line (R^2 = 0.750 < 0.9"));
  // A negative slope, on a line.
  r = queue_points([](int64_t x) { return 1.0 - 0.0001 * static_cast<double>(x); }, five);
  lat::fit_minima(r);
  assert_true(r.summary.slope_us_per_entry < 0.0 && r.summary.fit_r2 > 0.999999);
  assert_int_equal(r.summary.warnings, LAT_WARN_FIT);
  text = lat::queue_table_text(r);
  assert_non_null(strstr(text.c_str(), "WARNING: the slope is negative (-0.00010 us per entry)"));
  // Two lengths: a line through any two points; too few to judge.
  r = queue_points([](int64_t x) { return 0.25 + 0.0062 * static_cast<double>(x); }, {0, 1000});
  lat::fit_minima(r);
  assert_int_equal(r.summary.fit_points, 2);
  assert_true(r.summary.fit_r2 == 0.0 && r.summary.warnings == LAT_WARN_FIT);
  text = lat::queue_table_text(r);
  assert_non_null(strstr(text.c_str(), "WARNING: the line goes through 2 points: too few"));
  // The negative control: the 0% curve flat (the points above: constant) passes; one that rises 0.5 us over the
  // lengths (0.25 + 0.0005 x length), beyond its own lowest minimum (0.25 us) but not a quarter of the 100%
  // curve's rise (6.2 us x 0.25 = 1.55), passes too; one that rises 2.0 us fails and says so, and still fails
  // where the reps' spread is 1.5 us (load inflates the spread: curves that rose 100-1,300x passed beside it).
  r = queue_points([](int64_t x) { return 0.25 + 0.0062 * static_cast<double>(x); }, five);
  lat::fit_minima(r);
  assert_true(r.summary.control_points == 5 && r.summary.control_rise_us == 0.0 && !(r.summary.warnings & LAT_WARN_CONTROL));
  const auto control = [&](double rise_us, double spread_us) {
    for (lat_queue_point &q : r.points)
      if (q.fraction_percent == 0.0) q.min_us = 0.25 + rise_us * static_cast<double>(q.length) / 1000.0, q.stddev_us = spread_us;
    lat::fit_minima(r);
  };
  control(0.5, 0.1);
  assert_true(std::fabs(r.summary.control_rise_us - 0.5) < 1e-9 && std::fabs(r.summary.control_spread_us - 0.1) < 1e-12);
  assert_int_equal(r.summary.warnings, 0);
  control(2.0, 0.1);
  assert_int_equal(r.summary.warnings, LAT_WARN_CONTROL);
  text = lat::queue_table_text(r);
  assert_non_null(strstr(text.c_str(), "WARNING: the negative control failed: the 0% curve, which must be flat, rose 2.0000 us"));
  assert_non_null(strstr(text.c_str(), "; the 0% control was not flat (WARNING below): the slope cannot be trusted"));
  assert_non_null(strstr(lat::queue_json_text(r, "queuelat").c_str(), "\"flat\": false"));
  control(2.0, 1.5);
  assert_int_equal(r.summary.warnings, LAT_WARN_CONTROL);
  // Under a curve that barely rises (0.1 us over the lengths: a quarter is 0.025 us), a control rise of 0.2 us
  // is within its own lowest level (0.25 us): flat; 0.3 us is not.
  r = queue_points([](int64_t x) { return 0.25 + 0.0001 * static_cast<double>(x); }, five);
  control(0.2, 0.01);
  assert_int_equal(r.summary.warnings & LAT_WARN_CONTROL, 0);
  control(0.3, 0.01);
  assert_int_equal(r.summary.warnings & LAT_WARN_CONTROL, LAT_WARN_CONTROL);
  // The JSON: the residuals of the fitted points, in length order.
  r = queue_points([](int64_t x) { return x == 500 ? 3.6 : 0.25 + 0.0062 * static_cast<double>(x); }, five);
  lat::fit_minima(r);
  const std::string json = lat::queue_json_text(r, "queuelat");
  assert_non_null(strstr(json.c_str(), "\"of\": \"minima\""));
  assert_non_null(strstr(json.c_str(), "\"residuals_us\": ["));
}

// The reports' JSON of a result struct comes from the spec's `json` keys (spec/README.md): each kind written
// as the spec says, renamed where json_name says, and a field without the key left to the report.
void result_json_from_the_spec(void **) {
  lat_queue_point q{};
  q.length = 500;
  q.fraction_percent = 50.0;
  q.paper_us = 1.25;
  const nlohmann::json qj = lat::spec_result_json(q);
  assert_int_equal(qj.size(), 11);  // every field of lat_queue_point
  assert_true(qj.at("length") == 500 && qj.at("fraction_percent") == 50.0 && qj.at("paper_us") == 1.25);

  lat_sweep_point p{};
  p.refined = 1;
  p.compute_us = 3.0;  // written by the report, in the overlap patterns only
  const nlohmann::json pj = lat::spec_result_json(p);
  assert_true(pj.at("refined") == true && pj.at("rerun") == false);
  assert_false(pj.contains("compute_us") || pj.contains("reserved"));

  lat_coll_point c{};
  c.msg_bytes = 64;
  c.warnings = 5;
  c.nchanges = 2;
  const nlohmann::json cj = lat::spec_result_json(c);
  assert_true(cj.at("bytes") == 64 && cj.at("warning_bits") == 5 && cj.at("state_changes") == 2);
  assert_false(cj.contains("msg_bytes") || cj.contains("op"));

  lat_model_fit f{};
  f.rn_mbs = NAN;
  f.k_star = HUGE_VAL;
  f.bic_gain = -HUGE_VAL;
  f.alpha_us = 0.5;
  f.certified = 1;
  const nlohmann::json fj = lat::spec_result_json(f);
  assert_true(fj.at("rn_mbs") == "n/a" && fj.at("k_star") == "inf" && fj.at("bic_gain") == "-inf");
  assert_true(fj.at("alpha_us") == 0.5 && fj.at("certified") == true);

  lat_rank_place r{};
  r.core = -1;
  r.cpu = 3;
  std::strcpy(r.host, "n01");
  const nlohmann::json rj = lat::spec_result_json(r);
  assert_true(rj.at("core").is_null() && rj.at("cpu_when_asked") == 3 && rj.at("host") == "n01");

  lat_stats s{};
  s.count = 2;
  s.mean_us = 1.5;
  s.rse = NAN;
  nlohmann::json sj = lat::stats_json(s);
  assert_true(sj.at("mean_us") == 1.5 && sj.at("rse").is_null());
  s.count = 0;  // statistics of nothing: every figure null, never 0 us
  sj = lat::stats_json(s);
  assert_true(sj.at("count") == 0 && sj.at("mean_us").is_null() && sj.at("min_us").is_null());
}

// The overlap pattern's computation takes time in proportion to its length (issue 34, part 2): a loop a
// compiler folded or removed would take as long for 1 million multiply-adds as for 250,000 (it read 0.005 us
// for 100,000). Each repetition times one call of 1e6 against four calls of 250,000, back to back and in
// alternating order: the same work, the same length of time, so a slow spell of the machine lands on both
// alike. Linear reads 1, a folded loop 0.25. The median of 9 such ratios, of the thread's CPU time, not the
// wall clock (beside a compile a 4 ms case lost a 4 ms scheduler slice). Comparing the fastest 4e6 call with
// the fastest 1e6 call failed: under ASan the longer calls caught more of the other vCPU's load (ratio 4.1-5.2
// on a quiet machine, 6.26 in CI).
double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void overlap_computation_is_linear(void **) {
  constexpr int64_t kWhole = 1000000, kQuarter = kWhole / 4;
  double sink = lat::overlap_compute(0), fastest_whole = HUGE_VAL;
  std::vector<double> ratios;
  for (int rep = 0; rep < 9; ++rep) {
    double whole = 0.0, quarters = 0.0;
    for (int half = 0; half < 2; ++half) {
      const double a = thread_cpu_s();
      if ((rep + half) % 2 == 0) {
        sink += lat::overlap_compute(kWhole);
        whole = thread_cpu_s() - a;
      } else {
        for (int q = 0; q < 4; ++q) sink += lat::overlap_compute(kQuarter);
        quarters = thread_cpu_s() - a;
      }
    }
    ratios.push_back(whole / quarters);
    fastest_whole = std::min(fastest_whole, whole);
  }
  std::sort(ratios.begin(), ratios.end());
  const double median = ratios[ratios.size() / 2];
  print_message("overlap computation (CPU time): 1e6 multiply-adds %.3f ms at best; 1e6 / (4 x 250,000): median %.3f "
                "of 9 (%.3f..%.3f) (sum %g)\n",
                fastest_whole * 1e3, median, ratios.front(), ratios.back(), sink);
  assert_true(fastest_whole > 1e-4);  // 1e6 dependent additions: 0.1 ns each would be 10 GFLOP/s on one chain
  assert_true(median > 0.7 && median < 1.4);
  assert_true(sink > 0.0);
}

}  // namespace

/// Bytes that are not UTF-8 kept as \xNN, valid UTF-8 as it is (issue 45: a Latin-1 byte of --outdir made
/// every driver fail after the run with nlohmann's type_error 316, writing nothing).
void json_keeps_bytes_that_are_not_utf8(void **) {
  assert_string_equal(lat::utf8_or_escaped("caf\xc3\xa9").c_str(), "caf\xc3\xa9");        // é, two bytes
  assert_string_equal(lat::utf8_or_escaped("caf\xe9").c_str(), "caf\\xE9");                 // Latin-1 é
  assert_string_equal(lat::utf8_or_escaped("x\xc3").c_str(), "x\\xC3");                    // cut inside a character
  assert_string_equal(lat::utf8_or_escaped("\xc0\xaf").c_str(), "\\xC0\\xAF");             // an overlong '/'
  assert_string_equal(lat::utf8_or_escaped("\xed\xa0\x80").c_str(), "\\xED\\xA0\\x80");  // a surrogate
  assert_string_equal(lat::utf8_or_escaped("\xf0\x9f\x98\x80").c_str(), "\xf0\x9f\x98\x80");  // U+1F600
  nlohmann::json j = {{"run", {{"command_line", "mpptest -outdir caf\xe9"}}}, {"k\xff", {"\x80"}}};
  const std::string text = lat::json_document_text(j, 1);
  const nlohmann::json back = nlohmann::json::parse(text);
  assert_string_equal(back["run"]["command_line"].get<std::string>().c_str(), "mpptest -outdir caf\\xE9");
  assert_string_equal(back["k\\xFF"][0].get<std::string>().c_str(), "\\x80");
}

int main() {
  const CMUnitTest tests[] = {
      cmocka_unit_test(json_keeps_bytes_that_are_not_utf8),
      cmocka_unit_test(fortran_e_format),         cmocka_unit_test(tally_counts_distinct_values),
      cmocka_unit_test(bins_follow_printed_edges), cmocka_unit_test(filtering_keeps_at_most_the_cut),
      cmocka_unit_test(median_of_even_count_across_values), cmocka_unit_test(npp_guard_with_a_clock_that_reads_zero),
      cmocka_unit_test(run_levels_one_two_drift), cmocka_unit_test(state_changes_steady_step_rate_stall), cmocka_unit_test(ticks_merge_equal_times),
      cmocka_unit_test(percentiles_and_order_statistic_intervals), cmocka_unit_test(abi_sized_older_shorter_struct),
      cmocka_unit_test(queue_slope_from_minima), cmocka_unit_test(overlap_computation_is_linear),
      cmocka_unit_test(precision_rule),           cmocka_unit_test(result_json_from_the_spec),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
