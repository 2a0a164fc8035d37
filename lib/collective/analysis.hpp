// analysis.hpp: from the ranks' records of each sample to the statistics of a point, without MPI (so the
// rules are tested on hand-made records): which sample counts, what its value is in each mode, who finished
// last, the run over time and its warnings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/stats.hpp"
#include "mpilat.h"

namespace lat {

/// One rank's record of one sample (seconds). sync: start and end on the synchronised clock, late when the
/// rank reached its scheduled start after it had passed; barrier: local only; loop: local is the average
/// per call of the loop.
struct RankRecord {
  double start = 0.0, end = 0.0, local = 0.0, late = 0.0;  // late: 1 or 0 (a double: records travel as doubles)
};
constexpr int kRecordDoubles = 4;

/// What one sample gives: whether it is kept, its value (s) and the rank that finished last.
struct SampleVerdict {
  bool kept = true;
  double value_s = 0.0, local_max_s = 0.0, first_start_s = 0.0;
  int last_rank = 0;
};

/// The rules of the three modes (lat_coll_mode): sync: discarded if any rank was late, else last end -
/// first start, the last rank the one with the latest end; barrier: the largest local time and its rank;
/// loop: the mean of the local averages, the last rank the one with the largest. n > 0 records.
SampleVerdict judge_sample(int mode, const RankRecord *records, int n);

/// The samples of one point as they arrive, on the gathering rank.
struct PointSeries {
  int op = 0, mode = 0;
  int64_t bytes = 0;
  double window_us = 0.0;
  std::vector<double> values_us, at_s, local_max_us;  // kept samples in time order; at_s: seconds since the start
  std::vector<std::vector<double>> local_us, end_us;  // per rank: local times; ends after the first start (sync)
  std::vector<int64_t> last_count, late_count;        // per rank
  int64_t late = 0;
  PointSeries(int op_, int mode_, int64_t bytes_, int nprocs);
  /// Adds one sample's records (n of them) taken at at_s.
  void add(const RankRecord *records, int n, double at_s);
};

/// The length of a point's chunks in its run over time, as latency's.
constexpr double kCollChunkS = 0.25;

/// The kept samples in ~chunk_s stretches of time, for run_levels and state_changes.
std::vector<TrialChunk> chunks_of(const std::vector<double> &values_us, const std::vector<double> &at_s, double chunk_s);

/// --precision over the points: the widest half of a point's median's 95 % interval from its batch medians
/// (batch_median_half_pct over its 0.25 s chunks), in percent of its median (infinity while a point has fewer
/// than LAT_PRECISION_BATCHES chunks).
double widest_median_half_pct(const std::vector<PointSeries> &series);

/// Whether the rounds may end on --precision: every point's median within +-precision_pct % (its 95 %
/// interval within this launch: its batch medians; the lines' placement is a diagnostic, never a term: a
/// launch claims only what it saw) and every point's run over time quiet (run_is_quiet over its 0.25 s chunks).
bool series_precise(const std::vector<PointSeries> &series, double precision_pct);
/// --precision cannot be met: a point kept no sample in at least rounds rounds (every start late).
bool precision_unreachable(const std::vector<PointSeries> &series, int64_t rounds);

/// A point's statistics, its ranks (one per rank) and its warning lines ("WARNING: ...").
struct PointOutcome {
  lat_coll_point point{};
  std::vector<lat_coll_rank> ranks;
  std::vector<std::string> warnings;
};
PointOutcome finish_point(const PointSeries &s);

/// Why a point's figures are withheld, "" when they are not: a point with no sample (a stopped run never
/// reached it), a sync-mode point whose clocks were not kept (LAT_WARN_CLOCKS), or of whose samples more
/// than half started late (what is left is the scheduler's
/// lucky draws, not the call's time). Its statistics stay in the JSON for the record.
std::string withheld_reason(const lat_coll_point &p);

}  // namespace lat
