#include "latency/run_levels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace lat {

namespace {

/// The cut points (in log time) that separate the levels of the sorted log medians x[lo, hi).
void split_levels(const std::vector<double> &x, size_t lo, size_t hi, std::vector<double> &cuts, size_t max_cuts) {
  constexpr size_t kMinChunks = 2;
  const size_t n = hi - lo;
  if (n < 2 * kMinChunks || cuts.size() >= max_cuts) return;
  auto spread = [&](size_t a, size_t b) {  // p10..p90 of x[a, b)
    const size_t m = b - a;
    return x[a + (9 * (m - 1)) / 10] - x[a + (m - 1) / 10];
  };
  size_t best = 0;
  double best_gap = 0.0;
  for (size_t j = lo + kMinChunks; j + kMinChunks <= hi; ++j) {
    const double gap = x[j] - x[j - 1];
    if (gap >= std::log(1.25) && gap >= 2.0 * std::max(spread(lo, j), spread(j, hi)) && gap > best_gap) best_gap = gap, best = j;
  }
  if (best == 0) return;
  cuts.push_back(0.5 * (x[best - 1] + x[best]));
  split_levels(x, lo, best, cuts, max_cuts);
  split_levels(x, best, hi, cuts, max_cuts);
}

}  // namespace

std::vector<RunLevel> run_levels(const std::vector<TrialChunk> &chunks) {
  std::vector<double> x;
  int64_t total = 0;
  for (const TrialChunk &c : chunks)
    if (c.count > 0) x.push_back(std::log(std::max(c.median_us, 1e-9))), total += c.count;
  if (x.empty()) return {};
  std::sort(x.begin(), x.end());
  std::vector<double> cuts;
  split_levels(x, 0, x.size(), cuts, LAT_MAX_LEVELS - 1);
  std::sort(cuts.begin(), cuts.end());
  std::vector<RunLevel> levels(cuts.size() + 1);
  std::vector<std::vector<std::pair<double, int64_t>>> members(levels.size());  // (median, count)
  int last_level = -1;
  for (const TrialChunk &c : chunks) {
    if (c.count <= 0) continue;
    const double v = std::log(std::max(c.median_us, 1e-9));
    const int g = static_cast<int>(std::upper_bound(cuts.begin(), cuts.end(), v) - cuts.begin());
    RunLevel &l = levels[static_cast<size_t>(g)];
    l.trials += c.count;
    members[static_cast<size_t>(g)].push_back({c.median_us, c.count});
    if (g == last_level && !l.spans.empty()) l.spans.back().second = c.end_s;
    else l.spans.push_back({c.start_s, c.end_s});
    last_level = g;
  }
  for (size_t g = 0; g < levels.size(); ++g) {
    auto &m = members[g];
    std::sort(m.begin(), m.end());
    int64_t seen = 0;
    for (const auto &[median, count] : m) {  // the median chunk median, weighted by trials
      seen += count;
      if (2 * seen >= levels[g].trials) {
        levels[g].median_us = median;
        break;
      }
    }
    levels[g].share = static_cast<double>(levels[g].trials) / static_cast<double>(total);
  }
  return levels;
}

int run_warnings(const std::vector<RunLevel> &levels, int64_t removed, int64_t total, std::vector<std::string> *lines) {
  int w = 0;
  if (levels.size() >= 2) {
    w |= LAT_WARN_LEVELS;
    if (lines != nullptr) {
      std::string o = fmt::format("WARNING: the machine changed state during the run: the chunk medians fall into {} levels:",
                                  levels.size());
      for (const RunLevel &l : levels) {
        o += fmt::format(" {:.4f} us ({:.1f} % of the trials, at", l.median_us, 100.0 * l.share);
        const size_t shown = std::min<size_t>(l.spans.size(), 4);
        for (size_t s = 0; s < shown; ++s) o += fmt::format("{} {:.1f}-{:.1f} s", s ? "," : "", l.spans[s].first, l.spans[s].second);
        if (l.spans.size() > shown) o += fmt::format(" and {} more stretches", l.spans.size() - shown);
        o += ");";
      }
      o.back() = '.';
      o += " The statistics mix the levels; compare runs level by level (latency.json, \"chunks\").";
      lines->push_back(o);
    }
  }
  if (total > 0 && 20 * removed > total) {
    w |= LAT_WARN_FILTERED;
    if (lines != nullptr)
      lines->push_back(fmt::format("WARNING: the filter removed {} of {} trials ({:.1f} %): more than the rare outliers it "
                                   "assumes; the filtered statistics describe the fastest part of the run only.",
                                   removed, total, 100.0 * static_cast<double>(removed) / static_cast<double>(total)));
  }
  return w;
}

std::vector<double> pack_chunks(const std::vector<TrialChunk> &chunks) {
  std::vector<double> p;
  p.reserve(kChunkDoubles * chunks.size());
  for (const TrialChunk &c : chunks)
    p.insert(p.end(), {static_cast<double>(c.first_trial), static_cast<double>(c.count), c.start_s, c.end_s, c.min_us,
                       c.median_us, c.first_us});
  return p;
}

std::vector<TrialChunk> unpack_chunks(const std::vector<double> &p) {
  std::vector<TrialChunk> chunks;
  for (size_t i = 0; i + kChunkDoubles <= p.size(); i += kChunkDoubles)
    chunks.push_back({static_cast<int64_t>(p[i]), static_cast<int64_t>(p[i + 1]), p[i + 2], p[i + 3], p[i + 4], p[i + 5],
                      p[i + 6]});
  return chunks;
}

double first_trial_ratio(const std::vector<TrialChunk> &chunks) {
  std::vector<double> ratios;
  for (const TrialChunk &c : chunks)
    if (c.count >= 2 && c.median_us > 0.0) ratios.push_back(c.first_us / c.median_us);
  return median_in_place(ratios);
}

}  // namespace lat
