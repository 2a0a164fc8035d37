#include "sweep_result.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "bytes.hpp"
#include "error.hpp"
#include "stats.hpp"

namespace lat {

namespace {

constexpr int64_t kMaxGrid = int64_t{1} << 20;  // a grid larger than this is a mistake, not a sweep

}  // namespace

std::string check_sweep_options(const lat_sweep_options &o, int64_t nsizes, const int64_t *sizes) {
  if (nsizes < 0) return got("nsizes must be >= 0 (0: the grid of the options)", nsizes);
  if (nsizes > 0 && sizes == nullptr) return "sizes must not be NULL when nsizes > 0";
  if (nsizes == 0) {
    if (o.size_first < 0) return got("size_first must be >= 0", o.size_first);
    if (o.size_last < o.size_first)
      return "size_last must be >= size_first (" + std::to_string(o.size_first) + "), got " +
             std::to_string(o.size_last);
    if (o.size_stride < 1) return got("size_stride must be >= 1", o.size_stride);
    if ((o.size_last - o.size_first) / o.size_stride >= kMaxGrid)
      return "the grid size_first..size_last by size_stride has more than " + std::to_string(kMaxGrid) + " sizes";
  }
  if (nsizes > kMaxGrid) return got("nsizes must be <= " + std::to_string(kMaxGrid), nsizes);
  if (o.n_avg < 0) return got("n_avg must be >= 0 (0: from the timer's resolution)", o.n_avg);
  if (o.n_avg > LAT_NPP_MAX) return got("n_avg must be <= " + std::to_string(LAT_NPP_MAX), o.n_avg);
  if (o.res_factor < 1) return got("res_factor must be >= 1", o.res_factor);
  if (o.adaptive != 0 && o.adaptive != 1) return got("adaptive must be 0 or 1", o.adaptive);
  if (o.progress != 0 && o.progress != 1) return got("progress must be 0 or 1", o.progress);
  if (nsizes > 0) {
    for (int64_t k = 0; k < nsizes; ++k)
      if (sizes[k] < 0) return "sizes[" + std::to_string(k) + "] must be >= 0, got " + std::to_string(sizes[k]);
  }
  return check_sweep_plan(plan_of(o, nsizes, sizes));
}

SweepPlan plan_of(const lat_sweep_options &o, int64_t nsizes, const int64_t *sizes) {
  SweepPlan p;
  if (nsizes > 0) {
    p.sizes.assign(sizes, sizes + nsizes);
  } else if (o.size_stride >= 1 && o.size_last >= o.size_first &&
             (o.size_last - o.size_first) / o.size_stride < kMaxGrid) {
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

SweepResult result_of(const SweepOutcome &out, const lat_sweep_options &opts,
                      const std::map<int64_t, SizeExtras> &extras, int64_t npairs) {
  SweepResult r;
  r.options = opts;
  lat_sweep_summary &s = r.summary;
  s.nsizes = static_cast<int64_t>(out.points.size());
  s.nthresholds = static_cast<int64_t>(out.steps.size());
  s.passes = out.passes;
  s.measurements = out.measurements;
  s.npairs = npairs;
  s.cachesize = opts.cachesize;
  s.overlap_bytes = opts.pattern == LAT_SWEEP_OVERLAP ? opts.overlap_bytes : 0;
  s.wall_s = out.wall_s;
  s.end = static_cast<int>(out.end);
  s.capped = out.capped ? 1 : 0;
  s.pattern = opts.pattern;
  s.bisect = opts.bisect;
  s.adaptive = opts.adaptive;
  s.verify = opts.verify;
  s.timer = opts.timer;
  for (const SizePoint &p : out.points) {
    lat_sweep_point q{};
    q.bytes = p.size;
    q.samples = static_cast<int64_t>(p.samples.size());
    const auto e = extras.find(p.size);
    q.n_avg = e == extras.end() ? 1 : e->second.n_avg;
    q.compute_us = e == extras.end() ? 0.0 : e->second.compute_us;
    const Distribution d = distribution_of_values(p.samples);
    const int64_t rate_bytes = opts.pattern == LAT_SWEEP_OVERLAP ? opts.overlap_bytes : p.size;
    const lat_stats st = describe(d, rate_bytes * npairs);
    q.min_us = st.min_us;
    q.median_us = st.median_us;
    q.mean_us = st.mean_us;
    q.max_us = st.max_us;
    q.stddev_us = st.stddev_us;
    q.rate_mbs = st.rate_min_mbs;
    q.refined = p.refined ? 1 : 0;
    q.rerun = p.rerun ? 1 : 0;
    q.anomalous = p.anomalous ? 1 : 0;
    r.points.push_back(q);
    r.samples.push_back(p.samples);
  }
  for (const Step &st : out.steps)
    r.thresholds.push_back({st.below, st.above, st.time_below, st.time_above, st.excess});
  return r;
}

std::vector<char> serialize(const SweepResult &r) {
  std::vector<char> out;
  put_bytes(out, r.options);
  put_bytes(out, r.summary);
  for (const auto &p : r.points) put_bytes(out, p);
  for (const auto &t : r.thresholds) put_bytes(out, t);
  for (const auto &s : r.samples)
    for (double v : s) put_bytes(out, v);
  return out;
}

SweepResult deserialize(const std::vector<char> &in) {
  SweepResult r;
  size_t at = 0;
  take_bytes(in, at, r.options);
  take_bytes(in, at, r.summary);
  r.points.resize(static_cast<size_t>(r.summary.nsizes));
  for (auto &p : r.points) take_bytes(in, at, p);
  r.thresholds.resize(static_cast<size_t>(r.summary.nthresholds));
  for (auto &t : r.thresholds) take_bytes(in, at, t);
  for (const auto &p : r.points) {
    std::vector<double> s(static_cast<size_t>(p.samples));
    for (double &v : s) take_bytes(in, at, v);
    r.samples.push_back(std::move(s));
  }
  return r;
}

}  // namespace lat
