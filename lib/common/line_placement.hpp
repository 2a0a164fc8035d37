// line_placement.hpp: how much where a cache line lands moves a round trip between two ranks of one node (the
// launch-to-launch term of --precision's interval, docs/method.md, "Precision").
#pragma once

#include <mpi.h>

#include "mpilat.h"

#include <cstddef>
#include <string>
#include <vector>

namespace lat {

/// A round trip between two cores goes through cache lines whose home (on a mesh processor, the slice of the
/// last-level cache that owns the line) follows from the line's physical address, which a launch draws once:
/// the MPI's queues are mapped at MPI_Init. Ping-ponging a flag through kPlacementLines lines, each on a page
/// of its own at an offset of its own, shows how far that draw moves a one-way time here.
constexpr int kPlacementLines = LAT_PLACEMENT_LINES;

/// The probe's time limit in seconds: a pair on one processor passes it (each round trip a time slice).
constexpr double kPlacementLimitS = 1.0;

/// The probe's figures: the one-way level (median over its samples) of each line, leader's side only.
struct LinePlacement {
  std::vector<double> level_us;  ///< one per line measured; empty where not measured
  bool one_node = false;         ///< the two ranks share a node (else nothing is measured)
  bool ended_in_time = false;    ///< leader: every line measured before limit_s

  /// The lines' standard deviation in percent of their mean; 0 with fewer than 2 lines.
  double sd_pct() const;
};

/// Collective over comm (two ranks; `leader` on exactly one): where both share a node (MPI_COMM_TYPE_SHARED),
/// a window of shared memory, and in it kPlacementLines flags ping-ponged in turn, the leader timing 16 round
/// trips a sample, the level of a line its median sample over 2 (one way). Both ranks spin (as the ping-pong
/// does) and both give up after limit_s (the leader says so to the other through the window), so a pair on
/// one processor costs limit_s and no more. Nothing is measured on two nodes. MPI errors throw MpiError.
LinePlacement measure_line_placement(MPI_Comm comm, bool leader, double limit_s);

/// The half-width, in percent, that the placement adds to a median's 95 % interval between launches: 1.96
/// times the lines' sd in percent of their mean. A one-way time T = S + the sum of m line transfers each
/// placed anew has sd(T)/T <= m sd / (S + m mean) <= sd / mean whatever m and the lines' correlation, so the
/// single line's relative spread bounds the launch's.
double placement_half_pct(double sd_pct);

/// The placement's term in words, for the reports: "+-H % (1.96 x the sd of a one-way time through N lines of
/// shared memory, S % of their mean)".
std::string placement_term_text(int lines, double sd_pct);


/// The median's 95 % half-width between launches: the batch medians' (within the launch) and the
/// placement's, as independent terms, sqrt(a^2 + b^2); infinite where the batch medians' is.
double between_launches_half_pct(double batch_half_pct, double placement_half_pct);

}  // namespace lat
