// test_collective_analysis.cpp: the rules of lat_collective's samples on hand-made records, against values
// computed by hand: the value of each mode, the late sample discarded and counted, who finished last, the
// spread over ranks, the late-start warning, the chunks of the run over time. No MPI.
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" {
#include <cmocka.h>
}

#include "collective/analysis.hpp"
#include "collective/options.hpp"
#include "collective/report.hpp"

namespace {

// Values in us made from seconds near 100 s carry ~1e-8 us of rounding.
bool near(double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b)); }

void sync_is_last_end_minus_first_start(void **) {
  // Rank 0 starts at 10 s and ends 5 us later; rank 1 starts 1 us late (on time: not flagged) and ends at 8 us.
  const lat::RankRecord r[2] = {{10.0, 10.000005, 5e-6, 0.0}, {10.000001, 10.000008, 7e-6, 0.0}};
  const lat::SampleVerdict v = lat::judge_sample(LAT_COLL_MODE_SYNC, r, 2);
  assert_true(v.kept);
  assert_true(near(v.value_s, 8e-6));
  assert_int_equal(v.last_rank, 1);
  assert_true(near(v.local_max_s, 7e-6));
  assert_true(v.first_start_s == 10.0);
  lat::RankRecord late[2] = {r[0], r[1]};
  late[0].late = 1.0;
  assert_false(lat::judge_sample(LAT_COLL_MODE_SYNC, late, 2).kept);
}

void barrier_is_the_largest_local_and_loop_the_mean(void **) {
  const lat::RankRecord r[3] = {{0, 0, 3e-6, 0}, {0, 0, 7e-6, 0}, {0, 0, 5e-6, 0}};
  const lat::SampleVerdict b = lat::judge_sample(LAT_COLL_MODE_BARRIER, r, 3);
  assert_true(b.kept && near(b.value_s, 7e-6));
  assert_int_equal(b.last_rank, 1);
  const lat::RankRecord l[3] = {{0, 0, 2e-6, 0}, {0, 0, 4e-6, 0}, {0, 0, 6e-6, 0}};
  const lat::SampleVerdict m = lat::judge_sample(LAT_COLL_MODE_LOOP, l, 3);
  assert_true(m.kept && near(m.value_s, 4e-6));
  assert_int_equal(m.last_rank, 2);
}

void a_point_from_its_samples(void **) {
  // 20 sync samples of 2 ranks: values 1..20 us (rank 1 ends last in the even ones), the 21st late.
  lat::PointSeries s(LAT_COLL_ALLREDUCE, LAT_COLL_MODE_SYNC, 8, 2);
  s.window_us = 50.0;
  for (int k = 1; k <= 20; ++k) {
    const double t0 = 100.0 + k;
    const bool even = k % 2 == 0;
    const lat::RankRecord r[2] = {{t0, t0 + (even ? 0.5 : 1.0) * k * 1e-6, 1e-6, 0.0},
                                  {t0, t0 + (even ? 1.0 : 0.5) * k * 1e-6, 2e-6, 0.0}};
    s.add(r, 2, 0.01 * k);
  }
  const lat::RankRecord late[2] = {{200.0, 200.00001, 1e-5, 0.0}, {200.0, 200.00001, 1e-5, 1.0}};
  s.add(late, 2, 0.3);
  const lat::PointOutcome o = lat::finish_point(s);
  const lat_coll_point &p = o.point;
  assert_int_equal(p.samples, 20);
  assert_int_equal(p.late, 1);
  assert_int_equal(p.stats.count, 20);
  assert_true(near(p.stats.min_us, 1.0) && near(p.stats.max_us, 20.0));
  assert_true(near(p.stats.median_us, 10.5));  // the mean of the 10th and 11th
  assert_true(near(p.stats.mean_us, 10.5));
  assert_true(near(p.stats.variance_us2, 35.0));  // (n^2 - 1) / 12 x n / (n - 1) for 1..20: 35
  assert_true(near(p.q.p_us[6], 18.0));           // p90: the 18th of 20 (nearest rank)
  assert_int_equal(p.last_rank_count, 10);
  assert_int_equal(o.ranks[0].last_count + o.ranks[1].last_count, 20);
  assert_int_equal(o.ranks[1].late_count, 1);
  assert_int_equal(o.ranks[0].late_count, 0);
  assert_true(near(o.ranks[0].local_median_us, 1.0) && near(o.ranks[1].local_median_us, 2.0));
  assert_true(p.window_us == 50.0);
  assert_false(p.warnings & LAT_WARN_LATE);  // 1 of 21: below 5 %
  // Two more late samples: 3 of 23 is above 5 %, and the point says so.
  s.add(late, 2, 0.31);
  s.add(late, 2, 0.32);
  const lat::PointOutcome w = lat::finish_point(s);
  assert_true(w.point.warnings & LAT_WARN_LATE);
  assert_false(w.warnings.empty());
}

/// --precision over the points: every median within +-P % (its 95 % interval between launches: 8 batch medians
/// of its 0.25 s chunks and the placement's term) and every run over time quiet; the placement's own end.
void precision_over_the_points(void **) {
  // A point of 120 barrier samples over 3 s (12 chunks of 10 samples, 0.25 s), 1.00, 1.01 or 1.02 us in turn:
  // every chunk's median 1.01 (3 or 4 of each value), every batch's too: 0 %.
  auto point = [](double slow_after_s) {
    lat::PointSeries s(LAT_COLL_BCAST, LAT_COLL_MODE_BARRIER, 8, 2);
    for (int k = 0; k < 120; ++k) {
      const double at = 0.025 * k, v = (1.0 + 0.01 * (k % 3)) * (at >= slow_after_s ? 3.0 : 1.0) * 1e-6;
      const lat::RankRecord r[2] = {{0, 0, v, 0}, {0, 0, v, 0}};
      s.add(r, 2, at);
    }
    return s;
  };
  std::vector<lat::PointSeries> steady = {point(1e9), point(1e9)};
  assert_true(near(lat::widest_median_half_pct(steady), 0.0));
  assert_true(lat::series_precise(steady, 0.5));
  // One point three times slower from 2.25 s on (the last 3 chunks, 3.03 us): 12 chunks cut into batches of
  // 1, 2, 1, 2, 1, 2, 1, 2 chunks, the last two batches 3.03 and six 1.01: mean 1.515, squares 6.1206, sd
  // sqrt(6.1206 / 7) = 0.93508; x t(0.975, 7) 2.3646243 x sqrt(9/8) = 2.34523 us of the pooled median 1.015
  // (the 60th and 61st of 120): 231.06 %. The order-statistic interval of all samples said 0.49 % here.
  std::vector<lat::PointSeries> changed = {point(1e9), point(2.25)};
  assert_true(std::fabs(lat::widest_median_half_pct(changed) - 231.0575) < 1e-3);
  assert_true(lat::series_precise(steady, 2.0));
  assert_false(lat::series_precise(changed, 2.0));
  // A point of 5 samples has no 95 % interval: never precise; nor is a run shorter than 8 chunks.
  lat::PointSeries few(LAT_COLL_BCAST, LAT_COLL_MODE_BARRIER, 8, 2);
  for (int k = 0; k < 5; ++k) {
    const lat::RankRecord r[2] = {{0, 0, 1e-6, 0}, {0, 0, 1e-6, 0}};
    few.add(r, 2, 0.5 * k);
  }
  std::vector<lat::PointSeries> with_few = {point(1e9), few};
  assert_true(std::isinf(lat::widest_median_half_pct(with_few)));
  assert_false(lat::series_precise(with_few, 50.0));
  // A launch claims only what it saw: the rounds end on the batch medians within the launch alone, whatever
  // the lines' placement (a diagnostic); a steady run of 12 chunks at 0.5 % ends there.
  assert_true(lat::series_precise(steady, 0.5));
}

void chunks_of_the_run(void **) {
  // 0.25 s chunks: {0, 0.1} ends where the next begins (0.3); the last sample alone would have no rate,
  // so {0.3, 0.6} is one chunk, ending a mean gap (0.3 s) after its last sample.
  const std::vector<double> v = {1, 3, 5, 7}, at = {0.0, 0.1, 0.3, 0.6};
  const std::vector<lat::TrialChunk> c = lat::chunks_of(v, at, 0.25);
  assert_int_equal(c.size(), 2);
  assert_int_equal(c[0].count, 2);
  assert_true(near(c[0].median_us, 2.0) && near(c[0].end_s, 0.3));
  assert_int_equal(c[1].count, 2);
  assert_true(near(c[1].start_s, 0.3) && near(c[1].end_s, 0.9) && near(c[1].min_us, 5.0));
}

void names_and_orders(void **) {
  assert_int_equal(lat::coll_op_from_name("scatter"), LAT_COLL_SCATTER);
  assert_int_equal(lat::coll_op_from_name("Scatter"), 0);
  assert_int_equal(lat::ops_of(LAT_COLL_ALL_OPS).size(), 8);
  assert_int_equal(lat::modes_of(LAT_COLL_MODE_LOOP | LAT_COLL_MODE_SYNC).front(), LAT_COLL_MODE_SYNC);
  lat_collective_options o = lat::collective_defaults();
  o.size_first = 3;
  o.size_last = 100;
  const std::vector<int64_t> s = lat::starting_sizes(o, 0, nullptr);
  assert_true((s == std::vector<int64_t>{3, 4, 8, 16, 32, 64, 100}));
}

/// A result of 2 ranks and 100 reps with one barrier point in mode, no sample kept, late of them late.
lat::CollResult one_barrier_point(int mode, int64_t late) {
  lat::CollResult r;
  r.summary.reps = 100;
  r.summary.nprocs = 2;
  r.summary.modes = mode;
  lat_coll_point p{};
  p.op = LAT_COLL_BARRIER;
  p.mode = mode;
  p.late = late;
  r.points.push_back(p);
  r.ranks.resize(2);
  return r;
}

// A stopped run's files: PARTIAL on the first line of the table; a point with no sample has no figure in
// the table, empty fields in the CSV and null statistics in the JSON, never 0 us.
void stopped_run_marks_missing_figures(void **) {
  lat::CollResult r = one_barrier_point(LAT_COLL_MODE_BARRIER, 0);
  r.summary.partial = 1;
  r.summary.rounds = 3;
  const std::string table = lat::coll_table_text(r);
  assert_int_equal(table.rfind("*** PARTIAL RESULTS: the run was stopped after 3 of 100 rounds", 0), 0);
  const size_t at = table.find("no sample (the run stopped before this point was measured)");
  assert_true(at != std::string::npos);
  const size_t row_start = table.rfind('\n', at) + 1;
  const std::string point_row = table.substr(row_start, table.find('\n', at) - row_start);
  assert_int_equal(point_row.rfind("barrier", 0), 0);
  assert_true(point_row.find("0.000") == std::string::npos);
  const std::string csv = lat::coll_csv_text(r);
  const std::string row = csv.substr(csv.find('\n') + 1);
  assert_int_equal(row.rfind("barrier,0,barrier,largest local time after a barrier,0,0,,,,,,,,,,,,", 0), 0);
  const nlohmann::json j = nlohmann::json::parse(lat::coll_json_text(r, "mpilat-coll"));
  assert_true(j["points"][0]["stats"]["median_us"].is_null());
  assert_true(j["points"][0]["stats"]["min_us"].is_null());
  assert_int_equal(j["points"][0]["stats"]["count"].get<int>(), 0);
}

/// --precision not met because a sync point kept no sample (every start late, 4 ranks on 2 cores): the
/// table's line on how the rounds ended says so, and the point's row says why.
void precision_unmet_names_the_withheld_points(void **) {
  lat::CollResult r = one_barrier_point(LAT_COLL_MODE_SYNC, 100);
  r.summary.rounds = 100;
  r.summary.precision_pct = 5.0;
  r.summary.ended_by = LAT_END_TRIALS;  // the reps done
  r.summary.median_ci_half_pct_max = HUGE_VAL;
  const std::string table = lat::coll_table_text(r);
  assert_true(table.find("the rounds ended at reps before --precision 5 was met (PRECISION NOT MET): the widest median's 95 % "
                         "interval within this launch (from its batch medians) is unbounded") != std::string::npos);
  assert_true(table.find("; 1 point(s) withheld (below), for which no interval exists") != std::string::npos);
  assert_true(table.find("withheld: no sample: every one of 100 started late") != std::string::npos);
  // Ended because it could not be met (LAT_UNREACHABLE_ROUNDS rounds without a kept sample): said so.
  r.summary.ended_by = LAT_END_UNREACHABLE;
  const std::string ended = lat::coll_table_text(r);
  assert_true(ended.find("the rounds ended after 100 rounds: --precision 5 cannot be met (PRECISION NOT MET): 1 point(s) kept no sample "
                         "in 100 rounds or more") != std::string::npos);
  assert_true(nlohmann::json::parse(lat::coll_json_text(r, "mpilat-coll"))["run"]["ended_by"] == "unreachable");
  lat::PointSeries none(LAT_COLL_BARRIER, LAT_COLL_MODE_SYNC, 0, 2);
  none.late = LAT_UNREACHABLE_ROUNDS - 1;
  assert_false(lat::precision_unreachable({none}, LAT_UNREACHABLE_ROUNDS));
  none.late = LAT_UNREACHABLE_ROUNDS;
  assert_true(lat::precision_unreachable({none}, LAT_UNREACHABLE_ROUNDS));
}

}  // namespace

void figures_withheld_when_the_clocks_were_not_kept_or_most_starts_late(void **) {
  lat_coll_point p{};
  p.mode = LAT_COLL_MODE_SYNC;
  p.samples = 50;
  p.late = 50;  // half: kept
  assert_string_equal(lat::withheld_reason(p).c_str(), "");
  p.late = 51;
  assert_string_equal(lat::withheld_reason(p).c_str(), "51 of 101 samples started late");
  p.late = 0;
  p.warnings = LAT_WARN_CLOCKS;
  assert_string_equal(lat::withheld_reason(p).c_str(), "the clocks were not kept");
  p.mode = LAT_COLL_MODE_BARRIER;  // no clock in barrier or loop mode
  assert_string_equal(lat::withheld_reason(p).c_str(), "");
  p.samples = 0;  // a point a stopped run never reached: no figure, in any mode
  assert_string_equal(lat::withheld_reason(p).c_str(), "no sample (the run stopped before this point was measured)");
  p.mode = LAT_COLL_MODE_SYNC;  // measured, every start late (4 ranks on 2 cores: seen 2026 of 2026)
  p.late = 2026;
  assert_string_equal(lat::withheld_reason(p).c_str(),
                      "no sample: every one of 2026 started late (the window is short for this machine's noise)");
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sync_is_last_end_minus_first_start), cmocka_unit_test(barrier_is_the_largest_local_and_loop_the_mean),
      cmocka_unit_test(a_point_from_its_samples), cmocka_unit_test(chunks_of_the_run), cmocka_unit_test(names_and_orders),
      cmocka_unit_test(precision_over_the_points),
      cmocka_unit_test(figures_withheld_when_the_clocks_were_not_kept_or_most_starts_late),
      cmocka_unit_test(stopped_run_marks_missing_figures), cmocka_unit_test(precision_unmet_names_the_withheld_points)};
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
