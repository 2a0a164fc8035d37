#include "sweep/options.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "timer/options.hpp"

namespace lat {

lat_sweep_options sweep_defaults() {
  const SweepPlan plan;  // the schedule's defaults live with the engine
  lat_sweep_options o{};
  o.size_first = 0;
  o.size_last = 1024;
  o.size_stride = 32;
  o.reps = plan.reps;
  o.n_stable = plan.n_stable;
  o.n_avg = 0;
  o.n_avg_min = 50;  // mpptest's default -n_avg: the barrier and clock reads of a sample are averaged away
  o.res_factor = 100;
  o.refine_after = plan.refine_after;
  o.autodx = plan.autodx;
  o.max_sizes = plan.max_sizes;
  o.rerun_reps = plan.rerun_reps;
  o.cachesize = 0;
  o.overlap_bytes = 1024;
  o.nr = int64_t{1} << 20;
  o.autorel = plan.autorel;
  o.anomaly_rel = plan.anomaly_rel;
  o.step_rel = plan.step_rel;
  o.budget_s = 900.0;  // mpptest's -max_run_time: a sweep ends with what it has after 15 minutes
  o.tgoal_s = 0.0;
  o.timeout_s = 0.0;
  o.adaptive = 0;
  o.pattern = LAT_SWEEP_PINGPONG;
  o.bisect = 0;
  o.source = 0;
  o.dest = LAT_LAST_RANK;
  o.timer = LAT_TIMER_MPI_WTIME;
  o.verify = 0;
  o.progress = 0;
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
    if ((o.size_last - o.size_first) / o.size_stride >= kMaxSweepGrid)
      return "the grid size_first..size_last by size_stride has more than " + std::to_string(kMaxSweepGrid) + " sizes";
  }
  if (nsizes > kMaxSweepGrid) return got("nsizes must be <= " + std::to_string(kMaxSweepGrid), nsizes);
  if (o.n_avg < 0) return got("n_avg must be >= 0 (0: from the timer's resolution)", o.n_avg);
  if (o.n_avg > LAT_NPP_MAX) return got("n_avg must be <= " + std::to_string(LAT_NPP_MAX), o.n_avg);
  if (o.n_avg_min < 1 || o.n_avg_min > LAT_NPP_MAX)
    return got("n_avg_min must be in 1.." + std::to_string(LAT_NPP_MAX), o.n_avg_min);
  if (o.res_factor < 1) return got("res_factor must be >= 1", o.res_factor);
  if (!(o.tgoal_s >= 0.0) || !std::isfinite(o.tgoal_s))
    return got("tgoal_s must be a finite number of seconds >= 0 (0: the n_avg_min rule)", o.tgoal_s);
  if (std::string bad = first_complaint({check_flag("adaptive", o.adaptive), check_flag("progress", o.progress)});
      !bad.empty())
    return bad;
  if (nsizes > 0) {
    for (int64_t k = 0; k < nsizes; ++k)
      if (sizes[k] < 0) return "sizes[" + std::to_string(k) + "] must be >= 0, got " + std::to_string(sizes[k]);
  }
  return check_sweep_plan(plan_of(o, nsizes, sizes));
}

std::string check_size_sweep_options(const lat_sweep_options &o, int64_t nsizes, const int64_t *sizes, int size,
                                     int rank, const lat_timer_result *cal) {
  if (const std::string bad = check_sweep_options(o, nsizes, sizes); !bad.empty()) return bad;
  if (o.pattern < 0 || o.pattern > LAT_SWEEP_OVERLAP)
    return got("pattern must be 0 (ping-pong), 1 (non-blocking), 2 (head-to-head) or 3 (overlap)", o.pattern);
  if (std::string bad = first_complaint({check_flag("bisect", o.bisect), check_flag("verify", o.verify)}); !bad.empty())
    return bad;
  if (size < 2) return "a sweep needs at least 2 processes, the communicator has " + std::to_string(size);
  if (!o.bisect)
    if (std::string bad = check_pair_of_ranks("sweep", o.source, o.dest, size); !bad.empty()) return bad;
  if (o.cachesize < 0 || o.cachesize > kMaxCacheSize)
    return got("cachesize must be in 0.." + std::to_string(kMaxCacheSize) + " bytes", o.cachesize);
  if (o.overlap_bytes < 0 || o.overlap_bytes > INT_MAX)
    return got("overlap_bytes must be in 0.." + std::to_string(INT_MAX), o.overlap_bytes);
  const SweepPlan plan = plan_of(o, nsizes, sizes);
  const int64_t slot = slot_bytes_for(largest_message(o, plan.sizes));
  if (o.cachesize > 0 && o.cachesize < 2 * slot)
    return "cachesize must hold at least two slots of the largest message (2 x " + std::to_string(slot) +
           " bytes), got " + std::to_string(o.cachesize);
  const int64_t largest = plan.sizes.back();
  if (o.pattern == LAT_SWEEP_OVERLAP) {
    if (largest > kMaxOverlapWork) return got("overlap computations must be <= " + std::to_string(kMaxOverlapWork), largest);
  } else if (largest > INT_MAX) {
    return got("message sizes must be <= " + std::to_string(INT_MAX) + " bytes", largest);
  }
  if (const std::string bad_timeout = check_timeout(o.timeout_s); !bad_timeout.empty()) return bad_timeout;
  if (rank == sweep_leader(o)) return check_calibration(cal, o.timer, o.nr);
  return check_timer_kind(o.timer);
}

int sweep_leader(const lat_sweep_options &o) { return o.bisect ? 0 : o.source; }

int64_t largest_message(const lat_sweep_options &o, const std::vector<int64_t> &sizes) {
  if (o.pattern == LAT_SWEEP_OVERLAP) return o.overlap_bytes;
  return sizes.empty() ? 0 : sizes.back();
}

int64_t slot_bytes_for(int64_t largest) {
  return std::max<int64_t>(kSlotAlign, (largest + kSlotAlign - 1) / kSlotAlign * kSlotAlign);
}

int64_t slots_for(int64_t cachesize, int64_t slot_bytes) {
  return cachesize > 0 ? std::max<int64_t>(1, (cachesize + slot_bytes - 1) / slot_bytes) : 1;
}

std::vector<Shared> sweep_shared_values(const lat_sweep_options &o, int64_t nsizes) {
  return {Shared::integer("nsizes", nsizes),           Shared::integer("size_first", o.size_first),
          Shared::integer("size_last", o.size_last),   Shared::integer("size_stride", o.size_stride),
          Shared::integer("reps", o.reps),             Shared::integer("n_stable", o.n_stable),
          Shared::integer("n_avg", o.n_avg),           Shared::integer("n_avg_min", o.n_avg_min),
          Shared::integer("res_factor", o.res_factor), Shared::real("tgoal_s", o.tgoal_s),
          Shared::integer("refine_after", o.refine_after), Shared::integer("autodx", o.autodx),
          Shared::integer("max_sizes", o.max_sizes),   Shared::integer("rerun_reps", o.rerun_reps),
          Shared::integer("cachesize", o.cachesize),   Shared::integer("overlap_bytes", o.overlap_bytes),
          Shared::integer("nr", o.nr),                 Shared::real("autorel", o.autorel),
          Shared::real("anomaly_rel", o.anomaly_rel),  Shared::real("step_rel", o.step_rel),
          Shared::real("budget_s", o.budget_s),        Shared::real("timeout_s", o.timeout_s),
          Shared::integer("adaptive", o.adaptive),     Shared::integer("pattern", o.pattern),
          Shared::integer("bisect", o.bisect),         Shared::integer("source", o.source),
          Shared::integer("dest", o.dest),             Shared::integer("timer", o.timer),
          Shared::integer("verify", o.verify)};
}

SweepPlan plan_of(const lat_sweep_options &o, int64_t nsizes, const int64_t *sizes) {
  SweepPlan p;
  if (nsizes > 0) {
    p.sizes.assign(sizes, sizes + nsizes);
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
