#include "collective/clock_model.hpp"

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

ClockLine fit_clock_line(const std::vector<OffsetPoint> &points) {
  if (points.empty()) throw std::invalid_argument("fit_clock_line: no point");
  const double n = static_cast<double>(points.size());
  double mx = 0.0, my = 0.0;
  for (const OffsetPoint &p : points) {
    mx += p.local / n;
    my += p.offset / n;
  }
  double sxx = 0.0, sxy = 0.0;
  for (const OffsetPoint &p : points) {
    sxx += (p.local - mx) * (p.local - mx);
    sxy += (p.local - mx) * (p.offset - my);
  }
  ClockLine line;
  line.slope = sxx > 0.0 ? sxy / sxx : 0.0;
  line.intercept = my - line.slope * mx;
  return line;
}

ClockLine compose(const ClockLine &to_reference, const ClockLine &reference_to_root) {
  // root = r + a2 + b2 r with r = l + a1 + b1 l: root = l + (a2 + (1 + b2) a1) + (b1 + b2 + b1 b2) l.
  ClockLine line;
  line.intercept = reference_to_root.intercept + (1.0 + reference_to_root.slope) * to_reference.intercept;
  line.slope = to_reference.slope + reference_to_root.slope + to_reference.slope * reference_to_root.slope;
  return line;
}

}  // namespace lat
