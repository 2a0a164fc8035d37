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

/// Whether the run over time is quiet enough to end on a precision (--precision): at least
/// LAT_PRECISION_MIN_CHUNKS chunks, one level and no state change. The median's interval assumes one
/// distribution; a run of two levels has two, and more trials do not make it one.
bool run_is_quiet(const std::vector<TrialChunk> &chunks);

/// --precision's interval of a run's median (docs/method.md, "Precision"): the chunks, in time order, are cut
/// into LAT_PRECISION_BATCHES batches of consecutive chunks (as equal in count as they divide), each batch's
/// value the median of its chunk medians; the half-width is t(0.975, B - 1) x s x sqrt(1 + 1/B), s the batch
/// values' standard deviation: a 95 % prediction interval of one more batch, which is how the next launch is
/// taken (trials within a run are not independent, and a launch differs from another as a stretch of the run
/// differs from the rest). In percent of median_us; infinity with fewer than LAT_PRECISION_BATCHES chunks or a
/// median not above 0.
double batch_median_half_pct(const std::vector<TrialChunk> &chunks, double median_us);

/// The time limit of a precision run: the options' precision_limit_s, or LAT_PRECISION_LIMIT_S for 0.
inline double precision_limit_s(double asked_s) { return asked_s > 0.0 ? asked_s : LAT_PRECISION_LIMIT_S; }

/// A state change of a run: from start_s to end_s (seconds since the trials began) the chunks' quantity (a
/// lat_change_quantity) held at `after`, where before it held at `before` (us, or trials per second).
struct StateChange {
  int quantity = LAT_CHANGE_MEDIAN;
  double start_s = 0.0, end_s = 0.0, before = 0.0, after = 0.0;
};

/// The state changes of a run, in time order (docs/method.md, "The run over time"): change points of each
/// quantity over the chunks (the median, the p99, the trials per second). The logarithm of the quantity is
/// partitioned optimally (least squares plus a penalty per segment of 2 z^2 sigma^2 ln n, sigma the noise
/// of one chunk from the median difference of neighbours, z = kStateChangeZ); then neighbouring segments
/// whose medians differ by less than kStateChangeRel (a factor 4 where a segment is one chunk) or less than
/// z sigma sqrt(1/n1 + 1/n2) merge. Each remaining boundary is a change.
std::vector<StateChange> state_changes(const std::vector<TrialChunk> &chunks);

/// "median", "p99" or "trials per second".
const char *change_quantity_name(int quantity);

/// The warnings of a run (bits of lat_run_warning) and their lines, "WARNING: ..." each; levels and
/// changes as above, removed/total the filter's counts. LAT_WARN_FILTERED: more than 5 % removed.
int run_warnings(const std::vector<RunLevel> &levels, const std::vector<StateChange> &changes, int64_t removed,
                 int64_t total, std::vector<std::string> *lines);

/// The median over chunks (of two trials or more) of the first trial's time over the chunk's median: how
/// the first trial after a pause between chunks compares with the rest; 0 without such chunks.
double first_trial_ratio(const std::vector<TrialChunk> &chunks);

/// Chunks as doubles (kChunkDoubles a chunk) and back, to share them with the result.
constexpr size_t kChunkDoubles = 11;
std::vector<double> pack_chunks(const std::vector<TrialChunk> &chunks);
std::vector<TrialChunk> unpack_chunks(const std::vector<double> &packed);

}  // namespace lat
