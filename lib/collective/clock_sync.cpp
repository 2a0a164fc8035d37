#include "collective/clock_sync.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "common/communicator.hpp"
#include "common/error.hpp"
#include "common/waits.hpp"
#include "common/watchdog.hpp"

namespace lat {

namespace {

constexpr int kTagPing = 1, kTagPong = 2, kTagLine = 3, kTagTurn = 4;

/// One blocking exchange under the watchdog of w (if any): a peer that stops answering ends the job.
class Watched {
 public:
  explicit Watched(const SyncWaits &w) : w_(w) {
    if (w_.watch) w_.watch->enter(*w_.watched);
  }
  ~Watched() {
    if (w_.watch) w_.watch->leave((*w_.watched)++);
  }
  Watched(const Watched &) = delete;
  Watched &operator=(const Watched &) = delete;

 private:
  const SyncWaits &w_;
};

/// The client's side of one fit against reference: bursts spaced in time, each reduced to its point. The
/// exchanges are blocking: only this pair is busy (or every rank has a processor).
std::vector<OffsetPoint> measure_points(MPI_Comm comm, int reference, int points, int burst, double spacing_s,
                                        const std::function<double()> &now, const SyncWaits &w) {
  std::vector<OffsetPoint> out;
  std::vector<ClockExchange> exchanges(static_cast<size_t>(burst));
  for (int f = 0; f < points; ++f) {
    if (f > 0) std::this_thread::sleep_for(std::chrono::duration<double>(spacing_s));
    for (ClockExchange &e : exchanges) {
      const Watched watched(w);
      char ping = 0;
      e.sent = now();
      check_mpi(MPI_Send(&ping, 1, MPI_CHAR, reference, kTagPing, comm), "MPI_Send (clock ping)");
      check_mpi(MPI_Recv(&e.remote, 1, MPI_DOUBLE, reference, kTagPong, comm, MPI_STATUS_IGNORE), "MPI_Recv (clock pong)");
      e.received = now();
    }
    out.push_back(offset_point(exchanges));
  }
  return out;
}

/// The reference's side: answer every ping of client with its own time.
void answer_pings(MPI_Comm comm, int client, int count, const std::function<double()> &now, const SyncWaits &w) {
  for (int k = 0; k < count; ++k) {
    const Watched watched(w);
    char ping = 0;
    check_mpi(MPI_Recv(&ping, 1, MPI_CHAR, client, kTagPing, comm, MPI_STATUS_IGNORE), "MPI_Recv (clock ping)");
    const double t = now();
    check_mpi(MPI_Send(&t, 1, MPI_DOUBLE, client, kTagPong, comm), "MPI_Send (clock pong)");
  }
}

/// Receives count doubles from peer, waiting as w says (the wait before a turn or a line is not timed).
void receive_waiting(double *buf, int count, int peer, int tag, MPI_Comm comm, int rank, const SyncWaits &w,
                     const char *phase) {
  MPI_Request req;
  check_mpi(MPI_Irecv(buf, count, MPI_DOUBLE, peer, tag, comm, &req), "MPI_Irecv (clock synchronisation)");
  const std::string who = "rank " + std::to_string(peer);
  wait_as(w.yield, req, {rank, who.c_str(), phase, w.timeout_s}, w.listener);
}

}  // namespace

ClockSync synchronise_clocks(MPI_Comm comm, const ClockSyncOptions &o, const std::function<double()> &now,
                             const SyncWaits &w) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ClockSync sync;
  ClockLine to_reference;
  int my_round = -1;
  for (int r = 0, d = 1; d < size; ++r, d *= 2) {
    // The pairs of round r: (i, i + d) for i = 0, 2d, 4d, ... below size - d; taken at once, or in turn.
    for (int first = 0; first < size - d; first += 2 * d) {
      const int last = w.one_pair_at_a_time ? first : size;  // the references of this turn: first..last
      if (rank % (2 * d) == d && rank - d >= first && rank - d <= last) {
        const std::vector<OffsetPoint> points = measure_points(comm, rank - d, o.fit_points, o.burst, o.spacing_s, now, w);
        to_reference = fit_clock_line(points);
        sync.rtt_min_s = points.front().rtt;
        for (const OffsetPoint &p : points) sync.rtt_min_s = std::min(sync.rtt_min_s, p.rtt);
        my_round = r;
      } else if (rank % (2 * d) == 0 && rank + d < size && rank >= first && rank <= last) {
        answer_pings(comm, rank + d, o.fit_points * o.burst, now, w);
      }
      if (!w.one_pair_at_a_time) break;
      // Awake when it ends: the next pair's first exchanges would otherwise wait for a sleeping reference.
      barrier_before_timing(comm, true, {rank, "every rank", "phase 'clock synchronisation': the turn of the next pair", w.timeout_s});
    }
  }
  // Top down: a reference's line to rank 0 is known once its own round is past.
  int rounds = 0;
  while ((1 << rounds) < size) ++rounds;
  for (int r = rounds - 1; r >= 0; --r) {
    const int d = 1 << r;
    if (r == my_round) {
      double line[2];
      receive_waiting(line, 2, rank - d, kTagLine, comm, rank, w, "phase 'clock synchronisation': the reference's line");
      sync.to_root = compose(to_reference, ClockLine{line[0], line[1]});
    } else if (rank % (2 * d) == 0 && rank + d < size) {
      const double line[2] = {sync.to_root.intercept, sync.to_root.slope};
      check_mpi(MPI_Send(line, 2, MPI_DOUBLE, rank + d, kTagLine, comm), "MPI_Send (clock line)");
    }
  }
  return sync;
}

OffsetPoint residual_offset(MPI_Comm comm, const ClockSync &sync, int burst, const std::function<double()> &now,
                            const SyncWaits &w) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto global = [&] { return sync.to_root.to_reference(now()); };
  if (rank == 0) {
    for (int client = 1; client < size; ++client) {
      const double turn = 0.0;
      {
        const Watched watched(w);  // a rank that does not take its turn
        check_mpi(MPI_Send(&turn, 1, MPI_DOUBLE, client, kTagTurn, comm), "MPI_Send (residual turn)");
      }
      answer_pings(comm, client, burst, global, w);
    }
    return {};
  }
  double turn = 0.0;
  receive_waiting(&turn, 1, 0, kTagTurn, comm, rank, w, "phase 'clock residual': this rank's turn");
  return measure_points(comm, 0, 1, burst, 0.0, global, w).front();
}

}  // namespace lat
