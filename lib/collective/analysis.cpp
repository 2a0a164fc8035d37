#include "collective/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "common/line_placement.hpp"
#include "common/run_levels.hpp"

namespace lat {

SampleVerdict judge_sample(int mode, const RankRecord *r, int n) {
  SampleVerdict v;
  v.local_max_s = r[0].local;
  for (int k = 1; k < n; ++k) v.local_max_s = std::max(v.local_max_s, r[k].local);
  if (mode == LAT_COLL_MODE_SYNC) {
    double first = r[0].start, last = r[0].end;
    for (int k = 0; k < n; ++k) {
      if (r[k].late != 0.0) v.kept = false;
      first = std::min(first, r[k].start);
      if (r[k].end > last) last = r[k].end, v.last_rank = k;
    }
    v.first_start_s = first;
    v.value_s = last - first;
    return v;
  }
  double sum = 0.0;
  for (int k = 0; k < n; ++k) {
    sum += r[k].local;
    if (r[k].local > r[v.last_rank].local) v.last_rank = k;
  }
  v.value_s = mode == LAT_COLL_MODE_LOOP ? sum / n : v.local_max_s;
  return v;
}

PointSeries::PointSeries(int op_, int mode_, int64_t bytes_, int nprocs)
    : op(op_), mode(mode_), bytes(bytes_), local_us(static_cast<size_t>(nprocs)), end_us(static_cast<size_t>(nprocs)),
      last_count(static_cast<size_t>(nprocs), 0), late_count(static_cast<size_t>(nprocs), 0) {}

void PointSeries::add(const RankRecord *r, int n, double at) {
  const SampleVerdict v = judge_sample(mode, r, n);
  for (int k = 0; k < n; ++k)
    if (r[k].late != 0.0) ++late_count[static_cast<size_t>(k)];
  if (!v.kept) {
    ++late;
    return;
  }
  values_us.push_back(v.value_s * 1e6);
  at_s.push_back(at);
  local_max_us.push_back(v.local_max_s * 1e6);
  ++last_count[static_cast<size_t>(v.last_rank)];
  for (int k = 0; k < n; ++k) {
    local_us[static_cast<size_t>(k)].push_back(r[k].local * 1e6);
    if (mode == LAT_COLL_MODE_SYNC) end_us[static_cast<size_t>(k)].push_back((r[k].end - v.first_start_s) * 1e6);
  }
}

std::vector<TrialChunk> chunks_of(const std::vector<double> &values, const std::vector<double> &at, double chunk_s) {
  std::vector<TrialChunk> chunks;
  size_t begin = 0;
  while (begin < values.size()) {
    size_t end = begin + 1;
    while (end < values.size() && at[end] - at[begin] < chunk_s) ++end;
    // A last stretch of one sample has no rate: it joins the chunk before.
    if (end == values.size() - 1 && begin > 0) end = values.size();
    std::vector<double> v(values.begin() + static_cast<std::ptrdiff_t>(begin), values.begin() + static_cast<std::ptrdiff_t>(end));
    TrialChunk c;
    c.first_trial = static_cast<int64_t>(begin);
    c.count = static_cast<int64_t>(v.size());
    c.start_s = at[begin];
    // A chunk ends where the next begins; the last one a mean gap after its last sample.
    const double gap = end - begin > 1 ? (at[end - 1] - at[begin]) / static_cast<double>(end - begin - 1) : chunk_s;
    c.end_s = end < values.size() ? at[end] : at[end - 1] + gap;
    c.first_us = v.front();
    double sum = 0.0;
    for (double x : v) sum += x;
    c.mean_us = sum / static_cast<double>(v.size());
    std::sort(v.begin(), v.end());
    const auto pct = [&](double p) { return v[static_cast<size_t>(nearest_rank(p, static_cast<int64_t>(v.size())) - 1)]; };
    c.min_us = v.front();
    c.max_us = v.back();
    c.median_us = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
    c.p90_us = pct(90.0);
    c.p99_us = pct(99.0);
    chunks.push_back(c);
    begin = end;
  }
  return chunks;
}

namespace {
double point_half_pct(const PointSeries &s, const std::vector<TrialChunk> &chunks) {
  std::vector<double> v = s.values_us;
  return v.empty() ? HUGE_VAL : batch_median_half_pct(chunks, median_in_place(v));
}
}  // namespace

double widest_median_half_pct(const std::vector<PointSeries> &series) {
  double widest = series.empty() ? HUGE_VAL : 0.0;
  for (const PointSeries &s : series) widest = std::max(widest, point_half_pct(s, chunks_of(s.values_us, s.at_s, kCollChunkS)));
  return widest;
}

bool series_precise(const std::vector<PointSeries> &series, double precision_pct) {
  for (const PointSeries &s : series) {
    const std::vector<TrialChunk> chunks = chunks_of(s.values_us, s.at_s, kCollChunkS);
    if (!(point_half_pct(s, chunks) <= precision_pct) || !run_is_quiet(chunks)) return false;
  }
  return !series.empty();
}

bool precision_unreachable(const std::vector<PointSeries> &series, int64_t rounds) {
  for (const PointSeries &s : series)
    if (s.values_us.empty() && s.late >= rounds) return true;
  return false;
}

PointOutcome finish_point(const PointSeries &s) {
  PointOutcome out;
  lat_coll_point &p = out.point;
  p.op = s.op;
  p.mode = s.mode;
  p.msg_bytes = s.bytes;
  p.window_us = s.window_us;
  p.samples = static_cast<int64_t>(s.values_us.size());
  p.late = s.late;
  const Distribution d = distribution_of_values(s.values_us);
  p.stats = describe(d, s.bytes);
  p.q = quantiles_of(d);
  std::vector<double> lm = s.local_max_us;
  p.local_max_median_us = median_in_place(lm);
  const int n = static_cast<int>(s.last_count.size());
  for (int k = 0; k < n; ++k) {
    lat_coll_rank r{};
    r.rank = k;
    r.last_count = s.last_count[static_cast<size_t>(k)];
    r.late_count = s.late_count[static_cast<size_t>(k)];
    std::vector<double> local = s.local_us[static_cast<size_t>(k)], end = s.end_us[static_cast<size_t>(k)];
    r.local_median_us = median_in_place(local);
    r.end_median_us = median_in_place(end);
    if (r.last_count > p.last_rank_count) p.last_rank = k, p.last_rank_count = r.last_count;
    out.ranks.push_back(r);
  }
  // The run over time, as latency's (0.25 s chunks): a second level is a changed machine, not an outlier.
  const std::vector<TrialChunk> chunks = chunks_of(s.values_us, s.at_s, kCollChunkS);
  const std::vector<RunLevel> levels = run_levels(chunks);
  const std::vector<StateChange> changes = state_changes(chunks);
  p.nlevels = static_cast<int>(levels.size());
  p.nchanges = static_cast<int>(changes.size());
  p.warnings = run_warnings(levels, changes, 0, p.samples, &out.warnings);
  for (std::string &w : out.warnings) {  // the lines are latency's: point at this measurement's files
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"(latency.json, \"state_changes\")", "(mpilat-coll.json: the point's \"state_changes\")"},
                                   {"(latency.json, \"chunks\")", "(mpilat-coll.samples.csv: value_us against at_s)"}})
      if (const size_t at = w.find(from); at != std::string::npos) w.replace(at, from.size(), to);
  }
  const int64_t taken = p.samples + p.late;
  if (taken > 0 && p.late * 20 > taken) {
    p.warnings |= LAT_WARN_LATE;
    char text[256];
    std::snprintf(text, sizeof text,
                  "WARNING: %lld of %lld synchronised samples had a rank start late and were discarded (more than 5 %%): "
                  "the window (%.3g us) is short for this machine's noise",
                  static_cast<long long>(p.late), static_cast<long long>(taken), p.window_us);
    out.warnings.push_back(text);
  }
  return out;
}

std::string withheld_reason(const lat_coll_point &p) {
  if (p.samples == 0 && p.late > 0)  // measured, but no sample kept: "stopped before" would mislead
    return "no sample: every one of " + std::to_string(p.late) + " started late (the window is short for this machine's noise)";
  if (p.samples == 0) return "no sample (the run stopped before this point was measured)";
  if (p.mode != LAT_COLL_MODE_SYNC) return "";
  if (p.warnings & LAT_WARN_CLOCKS) return "the clocks were not kept";
  if (p.late * 2 > p.samples + p.late)
    return std::to_string(p.late) + " of " + std::to_string(p.samples + p.late) + " samples started late";
  return "";
}

}  // namespace lat
