#include "sweep/options.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "common/error.hpp"
#include "common/memory.hpp"
#include "common/option_rules.hpp"
#include "generated/spec_options.hpp"
#include "timer/options.hpp"

namespace lat {

lat_sweep_options sweep_defaults() {
  lat_sweep_options o;
  spec_defaults(o);
  return o;
}

std::string check_sweep_options(const lat_sweep_options &o, int64_t nsizes, const int64_t *sizes) {
  if (nsizes < 0) return got("nsizes must be >= 0 (0: the grid of the options)", nsizes);
  if (nsizes > 0 && sizes == nullptr) return "sizes must not be NULL when nsizes > 0";
  if (nsizes == 0) {
    if (o.size_first < 0) return got("size_first must be >= 0", o.size_first);
    if (o.size_last < o.size_first)
      return "size_last must be >= size_first (" + std::to_string(o.size_first) + "), got " +
             std::to_string(o.size_last);
    if (o.size_stride < 1) return got("size_stride must be >= 1", o.size_stride);
    if (!o.logscale && (o.size_last - o.size_first) / o.size_stride >= kMaxSweepGrid)
      return "the grid size_first..size_last by size_stride has more than " + std::to_string(kMaxSweepGrid) + " sizes";
  }
  if (nsizes > kMaxSweepGrid) return got("nsizes must be <= " + std::to_string(kMaxSweepGrid), nsizes);
  if (nsizes > 0 && o.logscale)
    return "logscale places sizes between size_first and size_last; it cannot be set with a list of sizes";
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  if (nsizes > 0) {
    for (int64_t k = 0; k < nsizes; ++k)
      if (sizes[k] < 0) return "sizes[" + std::to_string(k) + "] must be >= 0, got " + std::to_string(sizes[k]);
  }
  return check_sweep_plan(plan_of(o, nsizes, sizes));
}

namespace {

/// The halo exchange's rules: every rank takes part, and each offset has its opposite, so that every message
/// has a receive posted for it (the original's 6 partners pair s + 1 and s - 1 with no -s - 1 and -s + 1,
/// and its 1 partner with -periodic on an odd P sends from the last rank to rank 0, which never receives it:
/// both would wait for ever).
std::string check_halo(const lat_sweep_options &o, int size) {
  if (o.bisect) return "the halo pattern involves every rank: it cannot be a bisection (bisect = 1)";
  if (size < 2) return "a halo exchange needs at least 2 processes, the communicator has " + std::to_string(size);
  const int n = o.halo_partners;
  if (n != 1 && n != 2 && n != 4 && n != 8)
    return got("halo_partners must be 1, 2, 4 or 8 (with 6, the offsets +-(s + 1) and +-(s - 1) would lose their "
               "opposites)",
               n);
  if (n == 8 && size < 4)
    return "halo_partners 8 needs at least 4 processes (offsets from s = floor(sqrt(P)) >= 2), the communicator has " +
           std::to_string(size);
  if (n == 1 && o.halo_periodic && size % 2 != 0)
    return "halo_partners 1 with halo_periodic needs an even number of processes (the last rank's partner, rank 0, "
           "is rank 1's), the communicator has " + std::to_string(size);
  return "";
}

}  // namespace

std::string check_size_sweep_options(const lat_sweep_options &o, int64_t nsizes, const int64_t *sizes, int size,
                                     int rank, const lat_timer_result *cal) {
  if (const std::string bad = check_sweep_options(o, nsizes, sizes); !bad.empty()) return bad;
  if (o.pattern == LAT_SWEEP_MEMCPY) {
    // One rank's copy: no partner, so one process is enough and dest is not used.
    if (o.bisect) return "the memcpy pattern is one rank's copy: it cannot be a bisection (bisect = 1)";
    if (o.source < 0 || o.source >= size)
      return got("source must be a rank in 0.." + std::to_string(size - 1), o.source);
  } else if (o.pattern == LAT_SWEEP_HALO) {
    if (std::string bad = check_halo(o, size); !bad.empty()) return bad;
  } else if (o.pattern == LAT_SWEEP_GOP) {
    if (o.bisect) return "the gop pattern involves every rank: it cannot be a bisection (bisect = 1)";
    if (size < 2) return "a collective operation needs at least 2 processes, the communicator has " + std::to_string(size);
  } else {
    if (size < 2) return "a sweep needs at least 2 processes, the communicator has " + std::to_string(size);
    if (!o.bisect)
      if (std::string bad = check_pair_of_ranks("sweep", o.source, o.dest, size); !bad.empty()) return bad;
  }
  if (o.vector_stride > 0) {
    if (o.pattern != LAT_SWEEP_PINGPONG)
      return "vector_stride is the blocking ping-pong's (pattern 0, the original's -vector), got pattern " +
             std::to_string(o.pattern);
    if (o.cachesize > 0)
      return got("vector_stride needs cachesize 0 (the strided messages walk no cache-cold buffer; the original "
                 "refuses the two together too)", o.cachesize);
    if (o.verify) return "vector_stride with verify is not offered (the checks read contiguous messages)";
  } else if (o.vector_type != 0) {
    return got("vector_type needs vector_stride > 0 (the original's -vectortype is a strided message)", o.vector_type);
  }
  if (o.pattern != LAT_SWEEP_HALO && (o.halo_partners != 2 || o.halo_periodic != 0))
    return "halo_partners and halo_periodic are the halo pattern's (pattern = 7), got " +
           std::to_string(o.halo_partners) + " and " + std::to_string(o.halo_periodic);
  if (o.pattern != LAT_SWEEP_GOP && o.gop != LAT_SWEEP_GOP_SYNC)
    return got("gop is the gop pattern's (pattern = 8)", o.gop);
  if (o.bisect_distance != 0 && !o.bisect)
    return got("bisect_distance is a bisection's (bisect = 1)", o.bisect_distance);
  if (o.bisect_distance < 0 || o.bisect_distance >= size)
    return got("bisect_distance must be 0 (rank i with i + P/2) or in 1.." + std::to_string(size - 1) +
                   " (the communicator's size less one)",
               o.bisect_distance);
  if (o.cachesize < 0 || o.cachesize > kMaxCacheSize)
    return got("cachesize must be in 0.." + std::to_string(kMaxCacheSize) + " bytes", o.cachesize);
  if (o.pattern == LAT_SWEEP_PERSISTENT && o.cachesize > 0)
    return got("cachesize must be 0 with the persistent pattern (its requests are bound to one pair of buffers)",
               o.cachesize);
  const SweepPlan plan = plan_of(o, nsizes, sizes);
  const int64_t slot = slot_bytes_of(o, plan.sizes);
  if (o.cachesize > 0 && o.cachesize < 2 * slot)
    return "cachesize must hold at least two slots of the largest message (2 x " + std::to_string(slot) +
           " bytes), got " + std::to_string(o.cachesize);
  const int64_t largest = plan.sizes.back();
  if (is_overlap(o.pattern)) {
    if (largest > kMaxOverlapWork) return got("overlap computations must be <= " + std::to_string(kMaxOverlapWork), largest);
  } else if (largest > INT_MAX) {
    return got("message sizes must be <= " + std::to_string(INT_MAX) + " bytes", largest);
  }
  // The kernel may promise more than it has (overcommit), and zeroing the buffers would then end in the OOM
  // killer: a measuring rank's two buffers are checked against MemAvailable here, so lat_sweep_check refuses
  // what lat_size_sweep refuses.
  const int64_t buffer_bytes = slots_for(o.cachesize, slot) * slot;
  const int64_t available = available_memory_bytes();
  if (available >= 0 && 2 * buffer_bytes > available)
    return "cachesize " + std::to_string(o.cachesize) + " needs 2 x " + std::to_string(buffer_bytes) +
           " bytes of buffers on each rank, but only " + std::to_string(available) + " bytes of memory are available";
  return rank == sweep_leader(o) ? check_calibration(cal, o.timer, o.nr) : "";
}

const char *pattern_label(int pattern) {
  switch (pattern) {
    case LAT_SWEEP_PINGPONG: return "ping-pong";
    case LAT_SWEEP_NONBLOCKING: return "non-blocking ping-pong";
    case LAT_SWEEP_HEAD_TO_HEAD: return "head-to-head";
    case LAT_SWEEP_OVERLAP: return "overlap (exchange)";
    case LAT_SWEEP_OVERLAP_ROUNDTRIP: return "overlap (round trip)";
    case LAT_SWEEP_PERSISTENT: return "persistent ping-pong";
    case LAT_SWEEP_MEMCPY: return "memcpy (no communication)";
    case LAT_SWEEP_HALO: return "halo exchange";
    case LAT_SWEEP_GOP: return "collective operation (gop)";
    default: return "unknown";
  }
}

int sweep_leader(const lat_sweep_options &o) { return o.bisect || every_rank_pattern(o.pattern) ? 0 : o.source; }

const char *gop_name(int gop) {
  switch (gop) {
    case LAT_SWEEP_GOP_SYNC: return "sync";
    case LAT_SWEEP_GOP_DSUM: return "dsum";
    case LAT_SWEEP_GOP_ISUM: return "isum";
    case LAT_SWEEP_GOP_BCAST: return "bcast";
    default: return "unknown";
  }
}

int64_t largest_message(const lat_sweep_options &o, const std::vector<int64_t> &sizes) {
  if (is_overlap(o.pattern)) return o.overlap_bytes;
  return sizes.empty() ? 0 : sizes.back();
}

int64_t slot_bytes_for(int64_t largest) {
  return std::max<int64_t>(kSlotAlign, (largest + kSlotAlign - 1) / kSlotAlign * kSlotAlign);
}

int64_t slot_bytes_of(const lat_sweep_options &o, const std::vector<int64_t> &sizes) {
  // The halo exchange's partners' messages side by side; a strided message spans stride x its bytes.
  const int64_t span = o.pattern == LAT_SWEEP_HALO ? std::max(1, o.halo_partners) : std::max(1, o.vector_stride);
  return slot_bytes_for(largest_message(o, sizes) * span);
}

int64_t slots_for(int64_t cachesize, int64_t slot_bytes) {
  return cachesize > 0 ? std::max<int64_t>(1, (cachesize + slot_bytes - 1) / slot_bytes) : 1;
}

std::vector<Shared> sweep_shared_values(const lat_sweep_options &o, int64_t nsizes) {
  std::vector<Shared> shared = spec_shared_values(o);
  shared.push_back(Shared::integer("nsizes", nsizes));
  return shared;
}

SweepPlan plan_of(const lat_sweep_options &o, int64_t nsizes, const int64_t *sizes) {
  SweepPlan p;
  if (nsizes > 0) {
    p.sizes.assign(sizes, sizes + nsizes);
  } else if (o.logscale && o.size_first >= 0 && o.size_last >= o.size_first) {
    // mpptest's -logscale: first (0 by default), the powers of two from 4 above it, last.
    p.sizes.push_back(o.size_first);
    int64_t s = 4;
    while (s <= o.size_first) s *= 2;
    for (; s < o.size_last; s *= 2) p.sizes.push_back(s);
    if (o.size_last > o.size_first) p.sizes.push_back(o.size_last);
  } else if (o.size_stride >= 1 && o.size_last >= o.size_first &&
             (o.size_last - o.size_first) / o.size_stride < kMaxSweepGrid) {
    for (int64_t s = o.size_first; s < o.size_last; s += o.size_stride) p.sizes.push_back(s);
    p.sizes.push_back(o.size_last);
  }
  p.reps = o.reps;
  p.n_stable = o.n_stable;
  p.refine_after = o.refine_after;
  p.adaptive = o.adaptive != 0;
  p.autorel = o.autorel;
  p.autodx = o.autodx;
  p.max_sizes = o.max_sizes;
  p.anomaly_rel = o.anomaly_rel;
  p.rerun_reps = o.rerun_reps;
  p.step_rel = o.step_rel;
  p.budget_s = o.budget_s;
  return p;
}

}  // namespace lat
