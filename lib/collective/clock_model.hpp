// clock_model.hpp: a rank's clock against a reference rank's as a line (offset and drift), fitted from
// timestamped exchanges, and the composition of such lines along a tree of references: the arithmetic of
// the synchronised start of lat_collective (issue 25; the model of Hunold and Carpen-Amarie's HCA: each
// client fits its offset to a reference against its own time, and the fits compose up to the root).
#pragma once

#include <cstddef>
#include <vector>

namespace lat {

/// One exchange of a client with its reference: the client's clock when it sent, the reference's clock when
/// it answered, the client's clock when the answer came back.
struct ClockExchange {
  double sent = 0.0, remote = 0.0, received = 0.0;
};

/// reference time = local + intercept + slope x local: the offset of the reference's clock, drifting
/// linearly with the client's time.
struct ClockLine {
  double intercept = 0.0, slope = 0.0;
  double to_reference(double local) const { return local + intercept + slope * local; }
};

/// One fit point: of a burst of exchanges, the one with the smallest round trip (the least delayed answer),
/// its remote time minus the midpoint of its local send and receive; its error is within +-rtt/2 when the
/// two directions are alike.
struct OffsetPoint {
  double local = 0.0, offset = 0.0, rtt = 0.0;
};

/// The fit point of a burst (not empty; exchanges with received < sent are never the minimum).
OffsetPoint offset_point(const std::vector<ClockExchange> &burst);

/// How much a point's round trip may exceed twice the best one's and still count as least delayed.
constexpr double kDelaySlackS = 50e-9;

/// A point whose round trip is at most 2x the best (+ kDelaySlackS): its offset is known within about the
/// best's uncertainty. A delayed exchange gives its offset only within its own round trip, which may be
/// milliseconds on a loaded node: one such point weighted as the others tilts a line.
bool least_delayed(const OffsetPoint &p, double best_rtt);

/// The least-squares line of offset against local time, each point weighted by (best rtt / its rtt)^2 (local
/// times centred first, so clocks counting from a large origin lose no digits): a delayed point counts as
/// little as its offset is known. Only the least-delayed points counted until 0.10: where the round trips
/// came in two modes (0.4-0.5 and 1.2-1.6 us, 4 ranks on 2 cores), 1 or 2 points of 8 were left and the
/// drift was lost (slope 0). One point, or points at one local time: the offset alone, no drift. Points
/// with a negative round trip never count.
ClockLine fit_clock_line(const std::vector<OffsetPoint> &points);

/// The check of a synchronisation: the residual (a rank's offset to rank 0 measured right after, on the
/// new line) within half the fit's best round trip plus 0.1 us, what the exchanges themselves allow. A worse
/// residual is a line tilted or shifted by delayed exchanges (a loaded node).
constexpr double kResidualSlackS = 0.1e-6;
bool residual_within_bound(const OffsetPoint &residual, double fit_rtt_s);

/// The bound of a time on the synchronised clock against rank 0's: the residual seen, plus half the round
/// trip of the exchange that saw it (rank 0's reading lies somewhere within that exchange, whatever the two
/// directions' delays).
double error_bound_of(const OffsetPoint &residual);

/// local -> reference -> root: a client's line to the root from its line to its reference and the
/// reference's line to the root.
ClockLine compose(const ClockLine &to_reference, const ClockLine &reference_to_root);

/// The line in use during a run: a base line (HCA's) plus the least-squares line through checks of the
/// offset to the root measured against the base as the run goes on, so that the drift's time base grows
/// with the run. Each check weighted as in fit_clock_line, against the best round trip so far (a later
/// better check weighs the earlier ones less).
class DriftTracker {
 public:
  explicit DriftTracker(const ClockLine &base = {}) : base_(base), in_use_(base) {}
  /// A check: the offset to the root against the base, at a time on the base's clock (as residual_offset
  /// gives it); false when it is not (now) among the least delayed.
  bool add(const OffsetPoint &on_base);
  const ClockLine &in_use() const { return in_use_; }
  /// The checks of full weight or nearly (least_delayed: within twice the best round trip so far).
  std::size_t checks() const;

 private:
  ClockLine base_, in_use_;
  std::vector<OffsetPoint> checks_;  // at local times
  double best_rtt_ = 0.0;
};

}  // namespace lat
