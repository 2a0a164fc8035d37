// measurement.hpp: lat_collective: collective latency one call at a time, in three modes (sync from a start
// scheduled on the synchronised clock, barrier, loop), the operations, sizes and modes interleaved round by
// round over the whole run (Gropp & Lusk). docs/collective.md.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "collective/analysis.hpp"
#include "mpilat.h"

namespace lat {

/// One rank's clock against the reference rank's: the offset HCA's first synchronisation found (us), the
/// drift of the line in use at the end (s/s), the smallest round trip of the fit, the residual at the end
/// with its round trip (us), and the checks of the run that the line went through.
struct ClockReport {
  double offset_us = 0.0, drift = 0.0, rtt_us = 0.0, residual_us = 0.0, residual_rtt_us = 0.0, checks = 0.0;
};

/// Test hook of the sync mode (tests/core/test_collective_late_mpi.cpp): the rank of MPI_COMM_WORLD that
/// sleeps this long before waiting for each scheduled start, so that it starts late for real; -1: none.
/// Never set outside the tests.
struct SyncStartHold {
  int world_rank = -1;
  double seconds = 0.0;
};
extern SyncStartHold g_sync_start_hold;

struct CollResult {
  lat_collective_options options{};
  lat_coll_summary summary{};
  std::vector<int64_t> sizes;
  std::vector<lat_coll_point> points;
  std::vector<lat_coll_rank> ranks;     // npoints x nprocs, point after point
  std::vector<ClockReport> clocks;      // every rank's
  std::vector<std::string> warnings;    // "WARNING: ..." lines: the run's, then each point's (named)
  std::string host, mpi_library;        // the root's processor name, MPI_Get_library_version's first line
  std::vector<PointSeries> series;      // the root only: every kept sample of every point
  /// What travels from the root to every rank (lib/common/bytes.hpp): not the samples, nor where the root ran.
  auto fields() { return std::tie(summary, sizes, points, ranks, clocks, warnings); }
};

/// lat_collective(): collective over user_comm.
CollResult collective(MPI_Comm user_comm, const lat_collective_options &opts, int64_t nsizes, const int64_t *sizes);

}  // namespace lat

struct lat_coll_s {
  lat::CollResult r;
};
