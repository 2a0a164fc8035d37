// options.hpp: the size sweep's options (lat_sweep_options): defaults, checks, the values every rank must
// share, and the engine's plan made from them; the one place each is written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/agreement.hpp"
#include "mpilat.h"
#include "sweep/engine.hpp"

namespace lat {

constexpr int64_t kMaxSweepGrid = int64_t{1} << 20;    // a grid larger than this is a mistake, not a sweep
constexpr int64_t kMaxCacheSize = int64_t{1} << 36;    // cachesize: 64 GiB per buffer at most
constexpr int64_t kMaxOverlapWork = int64_t{1} << 40;  // multiply-adds of one overlap computation

constexpr int64_t kSlotAlign = 64;  // cache lines: no two slots of the cache-cold walk share one

/// lat_sweep_defaults(): mpptest's grid and the engine's schedule (SweepPlan's own defaults), mpptest's
/// 50 operations per sample at least and its 15-minute limit.
lat_sweep_options sweep_defaults();

/// The overlap patterns: the swept size is a computation, the message is overlap_bytes.
inline bool is_overlap(int pattern) { return pattern == LAT_SWEEP_OVERLAP || pattern == LAT_SWEEP_OVERLAP_ROUNDTRIP; }
/// The patterns every rank of the communicator takes part in, each timing its own loop (the slowest kept).
inline bool every_rank_pattern(int pattern) { return pattern == LAT_SWEEP_HALO || pattern == LAT_SWEEP_GOP; }

/// A pattern in words, for tables and messages: "ping-pong", ..., "overlap (round trip)".
const char *pattern_label(int pattern);
/// "sync", "dsum", "isum", "bcast": LAT_SWEEP_GOP's operation as the original's option names it.
const char *gop_name(int gop);

/// The largest message one operation sends (for the overlap patterns the overlap message, else the largest size).
int64_t largest_message(const lat_sweep_options &opts, const std::vector<int64_t> &sizes);

/// The bytes of one slot of the buffers: the largest message, rounded up to whole cache lines.
int64_t slot_bytes_for(int64_t largest_message);

/// The bytes of one slot for these options: one operation's messages (the halo exchange's one per partner,
/// side by side; a strided message's span) in whole cache lines.
int64_t slot_bytes_of(const lat_sweep_options &opts, const std::vector<int64_t> &sizes);

/// The slots of each buffer: 1 without cachesize, else enough that the buffer holds cachesize bytes.
int64_t slots_for(int64_t cachesize, int64_t slot_bytes);

/// "" or what is wrong with the options and sizes that do not concern MPI (lat_sweep_run).
std::string check_sweep_options(const lat_sweep_options &opts, int64_t nsizes, const int64_t *sizes);

/// "" or what is wrong with a lat_size_sweep call on a communicator of size ranks, as rank `rank` sees it:
/// the leading rank also checks the calibration it will use (cal, or with NULL its own nr and timer).
std::string check_size_sweep_options(const lat_sweep_options &opts, int64_t nsizes, const int64_t *sizes, int size,
                                     int rank, const lat_timer_result *cal);

/// The rank that runs the engine and times the first pair: 0 with bisect and the halo exchange, else source.
int sweep_leader(const lat_sweep_options &opts);

/// The values that must be equal on every rank (all but progress), and the length of the size list.
std::vector<Shared> sweep_shared_values(const lat_sweep_options &opts, int64_t nsizes);

/// The engine's plan from the options and an optional size list (nsizes == 0: the grid of opts).
SweepPlan plan_of(const lat_sweep_options &opts, int64_t nsizes, const int64_t *sizes);

}  // namespace lat
