#include "collective/clock_sync.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace lat {

namespace {

constexpr int kTagPing = 1, kTagPong = 2, kTagLine = 3;

/// The client's side of one fit against reference: bursts spaced in time, each reduced to its point.
std::vector<OffsetPoint> measure_points(MPI_Comm comm, int reference, int points, int burst, double spacing_s,
                                        const std::function<double()> &now) {
  std::vector<OffsetPoint> out;
  std::vector<ClockExchange> exchanges(static_cast<size_t>(burst));
  for (int f = 0; f < points; ++f) {
    if (f > 0) std::this_thread::sleep_for(std::chrono::duration<double>(spacing_s));
    for (ClockExchange &e : exchanges) {
      char ping = 0;
      e.sent = now();
      MPI_Send(&ping, 1, MPI_CHAR, reference, kTagPing, comm);
      MPI_Recv(&e.remote, 1, MPI_DOUBLE, reference, kTagPong, comm, MPI_STATUS_IGNORE);
      e.received = now();
    }
    out.push_back(offset_point(exchanges));
  }
  return out;
}

/// The reference's side: answer every ping of client with its own time.
void answer_pings(MPI_Comm comm, int client, int count, const std::function<double()> &now) {
  for (int k = 0; k < count; ++k) {
    char ping = 0;
    MPI_Recv(&ping, 1, MPI_CHAR, client, kTagPing, comm, MPI_STATUS_IGNORE);
    const double t = now();
    MPI_Send(&t, 1, MPI_DOUBLE, client, kTagPong, comm);
  }
}

}  // namespace

ClockSync synchronise_clocks(MPI_Comm comm, const ClockSyncOptions &o, const std::function<double()> &now) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ClockSync sync;
  ClockLine to_reference;
  int my_round = -1;
  for (int r = 0, d = 1; d < size; ++r, d *= 2) {
    if (rank % (2 * d) == d) {  // a client of rank - d
      const std::vector<OffsetPoint> points = measure_points(comm, rank - d, o.fit_points, o.burst, o.spacing_s, now);
      to_reference = fit_clock_line(points);
      sync.rtt_min_s = points.front().rtt;
      for (const OffsetPoint &p : points) sync.rtt_min_s = std::min(sync.rtt_min_s, p.rtt);
      my_round = r;
    } else if (rank % (2 * d) == 0 && rank + d < size) {  // the reference of rank + d
      answer_pings(comm, rank + d, o.fit_points * o.burst, now);
    }
  }
  // Top down: a reference's line to rank 0 is known once its own round is past.
  int rounds = 0;
  while ((1 << rounds) < size) ++rounds;
  for (int r = rounds - 1; r >= 0; --r) {
    const int d = 1 << r;
    if (r == my_round) {
      double line[2];
      MPI_Recv(line, 2, MPI_DOUBLE, rank - d, kTagLine, comm, MPI_STATUS_IGNORE);
      sync.to_root = compose(to_reference, ClockLine{line[0], line[1]});
    } else if (rank % (2 * d) == 0 && rank + d < size) {
      const double line[2] = {sync.to_root.intercept, sync.to_root.slope};
      MPI_Send(line, 2, MPI_DOUBLE, rank + d, kTagLine, comm);
    }
  }
  return sync;
}

double residual_offset_s(MPI_Comm comm, const ClockSync &sync, int burst, const std::function<double()> &now) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto global = [&] { return sync.to_root.to_reference(now()); };
  if (rank == 0) {
    for (int client = 1; client < size; ++client) answer_pings(comm, client, burst, global);
    return 0.0;
  }
  return measure_points(comm, 0, 1, burst, 0.0, global).front().offset;
}

}  // namespace lat
