#include "sweep/result.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/bytes.hpp"
#include "common/error.hpp"
#include "common/stats.hpp"
#include "sweep/options.hpp"  // is_overlap

namespace lat {

namespace {

/// The least-squares line through (bytes, min_us) of the points in [first, last] that no mark questions (a
/// minimum from a phase, a peak: engine.cpp's finish); npoints 0 where fewer than two are left.
lat_sweep_line line_through(const std::vector<lat_sweep_point> &points, size_t first, size_t last) {
  std::vector<const lat_sweep_point *> kept;
  for (size_t k = first; k <= last; ++k)
    if (!points[k].low && !points[k].anomalous) kept.push_back(&points[k]);
  lat_sweep_line l{};
  l.first_bytes = points[first].bytes;
  l.last_bytes = points[last].bytes;
  if (kept.size() < 2) return l;
  l.npoints = static_cast<int64_t>(kept.size());
  const Line line = least_squares_line(
      kept.size(), [&](size_t k) { return static_cast<double>(kept[k]->bytes); }, [&](size_t k) { return kept[k]->min_us; });
  l.per_byte_us = line.slope;
  l.startup_us = line.intercept;
  l.rate_mbs = l.per_byte_us > 0.0 ? 1.0 / l.per_byte_us : 0.0;
  for (const lat_sweep_point *q : kept) {
    const double t = q->min_us;
    const double fit = l.startup_us + l.per_byte_us * static_cast<double>(q->bytes);
    if (t > 0.0) l.max_rel_err = std::max(l.max_rel_err, std::fabs(fit - t) / t);
  }
  return l;
}

}  // namespace

std::vector<lat_sweep_line> regime_lines(const std::vector<lat_sweep_point> &points,
                                         const std::vector<lat_sweep_threshold> &steps) {
  std::vector<lat_sweep_line> lines;
  size_t first = 0;
  for (size_t s = 0; s <= steps.size() && first < points.size(); ++s) {
    // The regime ends at the last point below step s (the threshold lies in (below, above]).
    size_t last = points.size() - 1;
    if (s < steps.size()) {
      last = first;
      while (last + 1 < points.size() && points[last + 1].bytes <= steps[s].below_bytes) ++last;
    }
    if (last > first) {  // a line needs two sizes
      const lat_sweep_line l = line_through(points, first, last);
      if (l.npoints >= 2) lines.push_back(l);
    }
    first = last + 1;
  }
  return lines;
}

SweepResult result_of(const SweepOutcome &out, const lat_sweep_options &opts,
                      const std::map<int64_t, SizeExtras> &extras, int64_t npairs, int64_t halo_partners) {
  SweepResult r;
  r.options = opts;
  lat_sweep_summary &s = r.summary;
  s.nsizes = static_cast<int64_t>(out.points.size());
  s.nthresholds = static_cast<int64_t>(out.steps.size());
  s.passes = out.passes;
  s.measurements = out.measurements;
  s.npairs = npairs;
  s.halo_partners = opts.pattern == LAT_SWEEP_HALO ? halo_partners : 0;
  s.vector_stride = opts.vector_stride;
  s.vector_type = opts.vector_type;
  // The aggregate rate: a halo rank's partners each get the size, every pair of a bisection; a collective
  // call's rate is its size over its time, as the original's (RateScale 1).
  const int64_t rate_scale = opts.pattern == LAT_SWEEP_HALO ? halo_partners : opts.pattern == LAT_SWEEP_GOP ? 1 : npairs;
  s.cachesize = opts.cachesize;
  s.overlap_bytes = is_overlap(opts.pattern) ? opts.overlap_bytes : 0;
  s.wall_s = out.wall_s;
  s.end = static_cast<int>(out.end);
  s.capped = out.capped ? 1 : 0;
  s.refining = out.refining && out.end == SweepEnd::kReps ? 1 : 0;
  s.pattern = opts.pattern;
  s.bisect = opts.bisect;
  s.adaptive = opts.adaptive;
  s.verify = opts.verify;
  s.timer = opts.timer;
  for (const SizePoint &p : out.points) {
    lat_sweep_point q{};
    q.bytes = p.size;
    q.rerun_samples = p.rerun_samples;
    q.samples = static_cast<int64_t>(p.samples.size()) - p.rerun_samples;
    const auto e = extras.find(p.size);
    q.n_avg = e == extras.end() ? 1 : e->second.n_avg;
    q.compute_us = e == extras.end() ? 0.0 : e->second.compute_us;
    q.compute_window_us = e == extras.end() ? 0.0 : e->second.compute_window_us;
    const Distribution d = distribution_of_values(p.samples);
    const int64_t rate_bytes = is_overlap(opts.pattern) ? opts.overlap_bytes : p.size;
    const lat_stats st = describe(d, rate_bytes * rate_scale);
    q.min_us = st.min_us;
    q.median_us = st.median_us;
    q.mean_us = st.mean_us;
    q.max_us = st.max_us;
    q.stddev_us = st.stddev_us;
    q.rate_mbs = st.rate_min_mbs;
    q.refined = p.refined ? 1 : 0;
    q.rerun = p.rerun ? 1 : 0;
    q.anomalous = p.anomalous ? 1 : 0;
    q.low = p.low ? 1 : 0;
    r.points.push_back(q);
    r.samples.push_back(p.samples);
  }
  for (const Step &st : out.steps)
    r.thresholds.push_back({st.below, st.above, st.time_below, st.time_above, st.excess});
  // Startup and rate per regime; the overlap test's sizes are computations, not bytes: no line there.
  if (!is_overlap(opts.pattern)) r.lines = regime_lines(r.points, r.thresholds);
  s.nlines = static_cast<int64_t>(r.lines.size());
  return r;
}

}  // namespace lat
