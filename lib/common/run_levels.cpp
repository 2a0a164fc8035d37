#include "common/run_levels.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

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

namespace {

/// The smallest relative change of each quantity that counts as a state change (p99, the tail, is noisier).
constexpr double kStateChangeRel[3] = {0.25, 1.0, 0.25};
constexpr double kStateChangeZ = 4.0;
constexpr double kSingleChunkFactor = 4.0;

double median_copy(std::vector<double> v) { return median_in_place(v); }

/// The optimal partition of y (least squares plus a penalty per segment, by dynamic programming over the
/// chunks): the starts of its segments after the first.
std::vector<size_t> optimal_cuts(const std::vector<double> &y, double penalty) {
  const size_t n = y.size();
  std::vector<double> prefix(n + 1, 0.0), prefix2(n + 1, 0.0), best(n + 1, 0.0);
  std::vector<size_t> from(n + 1, 0);
  for (size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + y[i], prefix2[i + 1] = prefix2[i] + y[i] * y[i];
  const auto sse = [&](size_t i, size_t j) {
    const double m = static_cast<double>(j - i), sum = prefix[j] - prefix[i];
    return std::max(0.0, (prefix2[j] - prefix2[i]) - sum * sum / m);
  };
  for (size_t j = 1; j <= n; ++j) {
    best[j] = sse(0, j) + penalty;
    from[j] = 0;
    for (size_t i = 1; i < j; ++i) {
      const double f = best[i] + sse(i, j) + penalty;
      if (f < best[j]) best[j] = f, from[j] = i;
    }
  }
  std::vector<size_t> cuts;
  for (size_t j = n; from[j] > 0; j = from[j]) cuts.push_back(from[j]);
  std::reverse(cuts.begin(), cuts.end());
  return cuts;
}

}  // namespace

const char *change_quantity_name(int quantity) {
  switch (quantity) {
    case LAT_CHANGE_MEDIAN: return "median";
    case LAT_CHANGE_P99: return "p99";
    case LAT_CHANGE_RATE: return "trials per second";
    default: return "unknown";
  }
}

std::vector<StateChange> state_changes(const std::vector<TrialChunk> &chunks) {
  std::vector<StateChange> changes;
  for (int q = LAT_CHANGE_MEDIAN; q <= LAT_CHANGE_RATE; ++q) {
    std::vector<const TrialChunk *> used;
    std::vector<double> y, value;
    for (const TrialChunk &c : chunks) {
      const double v = q == LAT_CHANGE_MEDIAN ? c.median_us : q == LAT_CHANGE_P99 ? c.p99_us : c.rate();
      if (c.count < 1 || !(v > 0.0)) continue;
      used.push_back(&c);
      y.push_back(std::log(v));
      value.push_back(v);
    }
    const size_t n = y.size();
    if (n < 2) continue;
    // The noise of one chunk, robust to the changes themselves: the scaled median absolute difference of
    // neighbours over sqrt 2 (at least 1 %, for medians the clock's ticks make equal).
    std::vector<double> diffs;
    for (size_t i = 1; i < n; ++i) diffs.push_back(std::fabs(y[i] - y[i - 1]));
    const double sigma = std::max(0.01, 1.4826 * median_in_place(diffs) / std::sqrt(2.0));
    std::vector<size_t> starts = optimal_cuts(y, 2.0 * kStateChangeZ * sigma * sigma * std::log(static_cast<double>(n)));
    starts.insert(starts.begin(), 0);
    starts.push_back(n);
    // Neighbouring segments that do not differ enough merge, the closest pair first, until all differ.
    const auto level = [&](size_t k) {
      return median_copy(std::vector<double>(value.begin() + static_cast<std::ptrdiff_t>(starts[k]),
                                             value.begin() + static_cast<std::ptrdiff_t>(starts[k + 1])));
    };
    for (;;) {
      size_t merge = 0;
      double closest = std::numeric_limits<double>::infinity();
      for (size_t k = 1; k + 1 < starts.size(); ++k) {
        const double n1 = static_cast<double>(starts[k] - starts[k - 1]), n2 = static_cast<double>(starts[k + 1] - starts[k]);
        const double shift = std::fabs(std::log(level(k) / level(k - 1)));
        // A segment of one chunk stands only for a factor kSingleChunkFactor, and never for the tail: one
        // chunk's p99 is a handful of trials.
        const double single = q == LAT_CHANGE_P99 ? std::numeric_limits<double>::infinity() : std::log(kSingleChunkFactor);
        const double needed = std::max(std::min(n1, n2) == 1.0 ? single : std::log1p(kStateChangeRel[q]),
                                       kStateChangeZ * sigma * std::sqrt(1.0 / n1 + 1.0 / n2));
        if (shift < needed && shift < closest) closest = shift, merge = k;
      }
      if (merge == 0) break;
      starts.erase(starts.begin() + static_cast<std::ptrdiff_t>(merge));
    }
    for (size_t k = 1; k + 1 < starts.size(); ++k)
      changes.push_back({q, used[starts[k]]->start_s, used[starts[k + 1] - 1]->end_s, level(k - 1), level(k)});
  }
  std::stable_sort(changes.begin(), changes.end(), [](const StateChange &a, const StateChange &b) { return a.start_s < b.start_s; });
  return changes;
}

int run_warnings(const std::vector<RunLevel> &levels, const std::vector<StateChange> &changes, int64_t removed,
                 int64_t total, std::vector<std::string> *lines) {
  int w = 0;
  if (!changes.empty()) {
    w |= LAT_WARN_STATE;
    // One line per moment: the quantities that changed at the same chunk together.
    for (size_t k = 0; lines != nullptr && k < changes.size();) {
      std::string o = fmt::format("WARNING: the run changed state at {:.2f} s:", changes[k].start_s);
      const double at = changes[k].start_s;
      for (const char *sep = " "; k < changes.size() && changes[k].start_s == at; ++k, sep = "; ") {
        const StateChange &c = changes[k];
        const bool rate = c.quantity == LAT_CHANGE_RATE;
        o += fmt::format("{}the chunks' {} {} from {:.{}f} to {:.{}f}{} ({:.2f}x) until {:.2f} s", sep, change_quantity_name(c.quantity),
                         c.after > c.before ? "rose" : "fell", c.before, rate ? 0 : 4, c.after, rate ? 0 : 4, rate ? "" : " us",
                         c.after / c.before, c.end_s);
      }
      lines->push_back(o + ". The statistics mix the states (latency.json, \"state_changes\").");
    }
  }
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
                       c.median_us, c.first_us, c.p90_us, c.p99_us, c.mean_us, c.max_us});
  return p;
}

std::vector<TrialChunk> unpack_chunks(const std::vector<double> &p) {
  std::vector<TrialChunk> chunks;
  for (size_t i = 0; i + kChunkDoubles <= p.size(); i += kChunkDoubles)
    chunks.push_back({static_cast<int64_t>(p[i]), static_cast<int64_t>(p[i + 1]), p[i + 2], p[i + 3], p[i + 4], p[i + 5],
                      p[i + 6], p[i + 7], p[i + 8], p[i + 9], p[i + 10]});
  return chunks;
}

double first_trial_ratio(const std::vector<TrialChunk> &chunks) {
  std::vector<double> ratios;
  for (const TrialChunk &c : chunks)
    if (c.count >= 2 && c.median_us > 0.0) ratios.push_back(c.first_us / c.median_us);
  return median_in_place(ratios);
}

bool run_is_quiet(const std::vector<TrialChunk> &chunks) {
  return chunks.size() >= LAT_PRECISION_MIN_CHUNKS && run_levels(chunks).size() <= 1 && state_changes(chunks).empty();
}

double batch_median_half_pct(const std::vector<TrialChunk> &chunks, double median_us) {
  constexpr size_t kBatches = LAT_PRECISION_BATCHES;
  const size_t n = chunks.size();
  if (n < kBatches || !(median_us > 0.0)) return std::numeric_limits<double>::infinity();
  std::vector<double> batch(kBatches);
  for (size_t b = 0; b < kBatches; ++b) {
    std::vector<double> medians;
    for (size_t k = b * n / kBatches; k < (b + 1) * n / kBatches; ++k) medians.push_back(chunks[k].median_us);
    batch[b] = median_in_place(medians);
  }
  const double sd = mean_and_sd(batch).sd;
  const double t = boost::math::quantile(boost::math::students_t_distribution<double>(static_cast<double>(kBatches - 1)), 0.975);
  return t * sd * std::sqrt(1.0 + 1.0 / static_cast<double>(kBatches)) / median_us * 100.0;
}

}  // namespace lat
