// run_levels.hpp: the run over time. The trials are timed in chunks of ~0.25 s; each chunk keeps its count,
// minimum and median, and the chunk medians tell whether the machine changed state during the run (a
// virtual machine whose processors the host moves between one core and two measures the same ping-pong
// at two or three times the time, for seconds to minutes at a time). The paper's filter assumes rare
// outliers; a second level is not an outlier, so the files say so (docs/method.md, "The run over time").
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/stats.hpp"
#include "mpilat.h"

namespace lat {

/// A level of the chunk medians: its median (weighted by trials), its trials, and when it held.
struct RunLevel {
  double median_us = 0.0;
  int64_t trials = 0;
  double share = 0.0;                             // of all the chunks' trials
  std::vector<std::pair<double, double>> spans;   // (start_s, end_s) of each stretch of chunks at this level
};

/// The levels of the chunk medians, ascending. Two levels are told apart where the sorted log medians have
/// a gap of at least ln 1.25 that is also at least twice the spread (p10..p90) of the chunks on either
/// side, each side holding at least two chunks; applied again to each side, up to LAT_MAX_LEVELS. A slow
/// drift has no such gap and stays one level. Empty for no chunks.
std::vector<RunLevel> run_levels(const std::vector<TrialChunk> &chunks);

/// The warnings of a run (bits of lat_run_warning) and their lines, "WARNING: ..." each; levels as above,
/// removed/total the filter's counts. LAT_WARN_FILTERED: more than 5 % removed.
int run_warnings(const std::vector<RunLevel> &levels, int64_t removed, int64_t total, std::vector<std::string> *lines);

/// The median over chunks (of two trials or more) of the first trial's time over the chunk's median: how
/// the first trial after a pause between chunks compares with the rest; 0 without such chunks.
double first_trial_ratio(const std::vector<TrialChunk> &chunks);

/// Chunks as doubles (kChunkDoubles a chunk) and back, to share them with the result.
constexpr size_t kChunkDoubles = 7;
std::vector<double> pack_chunks(const std::vector<TrialChunk> &chunks);
std::vector<TrialChunk> unpack_chunks(const std::vector<double> &packed);

}  // namespace lat
