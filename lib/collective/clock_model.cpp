#include "collective/clock_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lat {

OffsetPoint offset_point(const std::vector<ClockExchange> &burst) {
  if (burst.empty()) throw std::invalid_argument("offset_point: an empty burst");
  const ClockExchange *best = nullptr;
  for (const ClockExchange &e : burst) {
    const double rtt = e.received - e.sent;
    if (!(rtt >= 0.0)) continue;  // a clock that went back, or NaN: never the least delayed
    if (best == nullptr || rtt < best->received - best->sent) best = &e;
  }
  if (best == nullptr) throw std::invalid_argument("offset_point: no exchange with received >= sent");
  const double mid = 0.5 * (best->sent + best->received);
  return {mid, best->remote - mid, best->received - best->sent};
}

bool least_delayed(const OffsetPoint &p, double best_rtt) { return p.rtt <= 2.0 * best_rtt + kDelaySlackS; }

ClockLine fit_clock_line(const std::vector<OffsetPoint> &all) {
  double best = HUGE_VAL;
  for (const OffsetPoint &p : all)
    if (p.rtt >= 0.0) best = std::min(best, p.rtt);
  if (best == HUGE_VAL) throw std::invalid_argument("fit_clock_line: no point with a round trip >= 0");
  // Each point weighted by 1/rtt^2, its offset known within +-rtt/2: the best weighs 1, a point twice as
  // delayed 1/4, one delayed by milliseconds nothing. A round trip of 0 (a coarse clock) weighs as kDelaySlackS.
  const double floor = std::max(best, kDelaySlackS);
  const auto weight = [floor](const OffsetPoint &p) {
    const double ratio = p.rtt >= 0.0 ? floor / std::max(p.rtt, floor) : 0.0;  // NaN or < 0: never counts
    return ratio * ratio;
  };
  double sw = 0.0, mx = 0.0, my = 0.0;
  for (const OffsetPoint &p : all) sw += weight(p);
  for (const OffsetPoint &p : all) {
    mx += weight(p) / sw * p.local;
    my += weight(p) / sw * p.offset;
  }
  double sxx = 0.0, sxy = 0.0;
  for (const OffsetPoint &p : all) {
    sxx += weight(p) * (p.local - mx) * (p.local - mx);
    sxy += weight(p) * (p.local - mx) * (p.offset - my);
  }
  ClockLine line;
  line.slope = sxx > 0.0 ? sxy / sxx : 0.0;
  line.intercept = my - line.slope * mx;
  return line;
}

bool residual_within_bound(const OffsetPoint &residual, double fit_rtt_s) {
  return std::fabs(residual.offset) <= 0.5 * fit_rtt_s + kResidualSlackS;
}

double error_bound_of(const OffsetPoint &residual) { return std::fabs(residual.offset) + 0.5 * residual.rtt; }

ClockLine compose(const ClockLine &to_reference, const ClockLine &reference_to_root) {
  // root = r + a2 + b2 r with r = l + a1 + b1 l: root = l + (a2 + (1 + b2) a1) + (b1 + b2 + b1 b2) l.
  ClockLine line;
  line.intercept = reference_to_root.intercept + (1.0 + reference_to_root.slope) * to_reference.intercept;
  line.slope = to_reference.slope + reference_to_root.slope + to_reference.slope * reference_to_root.slope;
  return line;
}

bool DriftTracker::add(const OffsetPoint &p) {
  if (!(p.rtt >= 0.0)) return false;
  best_rtt_ = checks_.empty() ? p.rtt : std::min(best_rtt_, p.rtt);
  // The base's time back to local time, exactly: the clocks of two nodes may differ by days, and a drift of
  // 1e-7 over days is milliseconds.
  const double local = (p.local - base_.intercept) / (1.0 + base_.slope);
  checks_.push_back({local, p.offset, p.rtt});
  const ClockLine c = fit_clock_line(checks_);  // weighted against the best round trip known so far
  in_use_ = {base_.intercept + c.intercept, base_.slope + c.slope};
  return least_delayed(p, best_rtt_);
}

std::size_t DriftTracker::checks() const {
  std::size_t n = 0;
  for (const OffsetPoint &c : checks_) n += least_delayed(c, best_rtt_) ? 1 : 0;
  return n;
}

}  // namespace lat
