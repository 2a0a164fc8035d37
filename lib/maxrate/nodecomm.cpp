#include "maxrate/nodecomm.hpp"

#include "maxrate/options.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>

#include "common/bytes.hpp"
#include "timer/calibration.hpp"
#include "common/clock.hpp"
#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/frame.hpp"
#include "common/report_text.hpp"
#include "common/failure_notes.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "common/placement.hpp"
#include "common/progress.hpp"
#include "sweep/measurement.hpp"
#include "common/watchdog.hpp"
#include "common/stats.hpp"
#include "common/stop.hpp"

namespace lat {

namespace {

enum Tag { kTagPing = 51, kTagPong = 52, kTagPairs = 53 };

/// The pairs' own communicator: ranks 0..K-1 are side A (they time), K..2K-1 side B.
struct Pairs {
  MPI_Comm comm = MPI_COMM_NULL;
  int me = 0, k_total = 0, lib_rank = 0;
  bool yield = false;
  double timeout_s = 0.0;
  std::vector<char> buf;

  std::string peers = "the other pairs' ranks";  // named: "rank 1", "ranks 1, 2, 3"

  Waiting waiting(const char *phase) const { return {lib_rank, peers.c_str(), phase, timeout_s}; }

  /// Completes reqs: blocking where each rank has a processor, else complete_yielding (common/waits.hpp).
  int complete(MPI_Request *reqs, int n) const {
    return yield ? complete_yielding(reqs, n) : MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  }

  /// One measurement of k pairs at once: every pair rank enters, the active pairs ping-pong n_avg times;
  /// the slowest pair's mean full ping-pong time in us comes back on every pair rank, with the stop verdict.
  template <class Clock>
  double measure(const Clock &clock, int k, int bytes, int64_t n_avg, StallWatch &stall, int64_t step, bool &stop) {
    barrier_before_timing(comm, yield, waiting("phase 'nodecomm': the barrier of the pairs"));
    const int pair = me < k_total ? me : me - k_total;
    const bool a_side = me < k_total;
    double t = 0.0;
    if (pair < k) {
      const int peer = a_side ? me + k_total : me - k_total;
      int failed = MPI_SUCCESS;
      stall.set_peer(peer);
      stall.enter(step);
      const double t1 = clock.now();
      for (int64_t i = 0; i < n_avg; ++i) {
        MPI_Request r[2];
        if (a_side) {
          failed |= MPI_Isend(buf.data(), bytes, MPI_BYTE, peer, kTagPing, comm, &r[0]);
          failed |= MPI_Irecv(buf.data(), bytes, MPI_BYTE, peer, kTagPong, comm, &r[1]);
          failed |= complete(r, 2);
        } else {
          failed |= MPI_Irecv(buf.data(), bytes, MPI_BYTE, peer, kTagPing, comm, &r[0]);
          failed |= complete(r, 1);
          failed |= MPI_Isend(buf.data(), bytes, MPI_BYTE, peer, kTagPong, comm, &r[1]);
          failed |= complete(&r[1], 1);
        }
      }
      const double t2 = clock.now();
      stall.leave(step);
      if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Isend/MPI_Irecv (nodecomm ping-pong)");
      if (a_side) t = (t2 - t1) * 1e6 / static_cast<double>(n_avg);
    }
    double both[2] = {t, stop_requested() ? 1.0 : 0.0};
    MPI_Request req;
    check_mpi(MPI_Iallreduce(MPI_IN_PLACE, both, 2, MPI_DOUBLE, MPI_MAX, comm, &req), "MPI_Iallreduce (slowest pair)");
    wait_yielding(req, waiting("phase 'nodecomm': the slowest pair's time"));
    stop = both[1] != 0.0;
    return both[0];
  }
};

}  // namespace

std::vector<int64_t> nodecomm_grid(int64_t size_last) {
  std::vector<int64_t> g = {0};
  for (int e = 0; (int64_t{1} << e) <= size_last; ++e)
    for (int q = 0; q < 4; ++q) {
      const int64_t n = std::llround(std::ldexp(1.0, e) * std::pow(2.0, q / 4.0));
      if (n <= size_last && n > g.back()) g.push_back(n);
    }
  if (g.back() != size_last) g.push_back(size_last);
  return g;
}

void nodecomm_sides(const std::vector<int> &group_of_rank, std::vector<int> &a, std::vector<int> &b, bool &halves) {
  a.clear();
  b.clear();
  const int home = group_of_rank.front();
  int other = kNotASide;
  for (size_t r = 0; r < group_of_rank.size(); ++r) {
    const int g = group_of_rank[r];
    if (g == kNotASide) continue;
    if (g == home) a.push_back(static_cast<int>(r));
    else if (other == kNotASide || g == other) other = g, b.push_back(static_cast<int>(r));
  }
  halves = other == kNotASide;
  if (halves) {  // one group: its first half against its second half
    const size_t half = a.size() / 2;
    b.assign(a.begin() + static_cast<std::ptrdiff_t>(half), a.end());
    a.resize(half);
  }
}

std::vector<int> side_groups(int sides, const std::vector<int> &node_of_rank, const std::vector<int> &socket_of_rank) {
  if (sides != LAT_SIDES_SOCKET) return node_of_rank;
  std::vector<int> g(node_of_rank.size(), kNotASide);
  bool known = true;
  for (size_t r = 0; r < g.size(); ++r)
    if (node_of_rank[r] == node_of_rank.front()) {
      g[r] = socket_of_rank[r];
      known = known && socket_of_rank[r] >= 0;
    }
  if (!known)  // a package hwloc cannot tell: rank 0's node as one group, measured as its halves
    for (size_t r = 0; r < g.size(); ++r) g[r] = node_of_rank[r] == node_of_rank.front() ? 0 : kNotASide;
  return g;
}

NodecommResult nodecomm(MPI_Comm user_comm, const lat_nodecomm_options &o, int64_t nsizes, const int64_t *sizes) {
  const auto start = std::chrono::steady_clock::now();
  MeasurementFrame frame(user_comm, o.timeout_s);
  const LibComm &comm = frame.comm();
  const int rank = frame.rank(), size = frame.size();
  std::string complaint = check_nodecomm_options(o, nsizes, sizes);
  // Where every rank is: the node of each, on every rank (O(N) ints).
  LocalPlace here = place_of_this_rank(comm.get(), rank);
  // Where every rank is: the node and package of each, on every rank (O(N) ints).
  const int mine[2] = {here.place.node, here.place.socket};
  std::vector<int> places(2 * static_cast<size_t>(size)), node_of_rank(static_cast<size_t>(size)), socket_of_rank(node_of_rank.size());
  MPI_Request req;
  check_mpi(MPI_Iallgather(mine, 2, MPI_INT, places.data(), 2, MPI_INT, comm.get(), &req), "MPI_Iallgather (places)");
  wait_yielding(req, {rank, comm.all_ranks(), "phase 'nodes'", o.timeout_s});
  for (size_t r = 0; r < node_of_rank.size(); ++r) node_of_rank[r] = places[2 * r], socket_of_rank[r] = places[2 * r + 1];
  // The sides follow the options only once every rank agrees on them (below); an invalid value measures nodes.
  const int sides = o.sides == LAT_SIDES_SOCKET ? LAT_SIDES_SOCKET : LAT_SIDES_NODE;
  std::vector<int> a, b;
  bool halves = false;
  nodecomm_sides(side_groups(sides, node_of_rank, socket_of_rank), a, b, halves);
  const bool intra = sides == LAT_SIDES_SOCKET || halves;
  int64_t kmax = static_cast<int64_t>(std::min(a.size(), b.size()));
  if (o.max_pairs > 0) kmax = std::min(kmax, o.max_pairs);
  if (complaint.empty() && kmax < 1)
    complaint = halves ? "nodecomm needs two processes on a node to measure its two halves; rank 0's " +
                             std::string(sides == LAT_SIDES_SOCKET ? "socket" : "node") + " has " + std::to_string(a.size() + b.size())
                       : "nodecomm needs a process on each of two " + std::string(sides == LAT_SIDES_SOCKET ? "sockets" : "nodes");
  frame.agree(complaint, nodecomm_shared_values(o, nsizes, sizes));
  const int leader = a.front();
  int oversubscribed = here.processors > 0 && here.kernel_size > here.processors ? 1 : 0;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &oversubscribed, 1, MPI_INT, MPI_MAX, comm.get(), &req), "MPI_Iallreduce");
  wait_yielding(req, {rank, comm.all_ranks(), "phase 'nodes'", o.timeout_s});

  // Sizes: the size-sweep engine on the first pair (collective over every rank), or the caller's list.
  std::vector<int64_t> grid = nsizes > 0 ? std::vector<int64_t>(sizes, sizes + nsizes) : nodecomm_grid(o.size_last);
  lat_sweep_options so;
  lat_sweep_defaults(&so);
  so.source = a.front();
  so.dest = b.front();
  so.adaptive = nsizes > 0 ? 0 : o.adaptive;
  so.reps = 12;
  so.n_stable = 4;
  so.max_sizes = 256;
  so.autodx = 8;
  so.nr = o.nr;
  so.timer = o.timer;
  so.timeout_s = o.timeout_s;
  so.progress = o.progress && rank == leader ? 1 : 0;
  const SweepResult sweep = size_sweep(comm.get(), so, static_cast<int64_t>(grid.size()), grid.data(), nullptr);

  NodecommResult r;
  r.options = o;
  lat_nodecomm_summary &s = r.summary;
  s.kmax = kmax;
  s.nsizes = static_cast<int64_t>(sweep.points.size());
  s.ranks_a = static_cast<int64_t>(a.size());
  s.ranks_b = static_cast<int64_t>(b.size());
  s.intra_node = intra ? 1 : 0;
  s.sides = halves ? LAT_SIDES_HALVES : sides;
  s.timer = o.timer;
  s.res_timing_us = sweep.summary.res_timing_us;
  s.min_ov_us = sweep.summary.min_ov_us;
  copy_c_string(s.host_a, sweep.summary.source_host);
  copy_c_string(s.host_b, sweep.summary.dest_host);
  if (sweep.summary.end == LAT_SWEEP_END_STOPPED) {  // stopped while the sizes were chosen: nothing timed
    s.partial = 1;
    s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

  std::vector<int> members;
  for (int64_t p = 0; p < kmax; ++p) members.push_back(a[static_cast<size_t>(p)]);
  for (int64_t p = 0; p < kmax; ++p) members.push_back(b[static_cast<size_t>(p)]);
  const bool member = std::find(members.begin(), members.end(), rank) != members.end();
  std::vector<char> bytes;
  if (member) {
    frame.run_member(members, kTagPairs, [&](MPI_Comm pairs_comm) {
      Pairs pairs;
      pairs.comm = pairs_comm;
      MPI_Comm_rank(pairs.comm, &pairs.me);
      pairs.k_total = static_cast<int>(kmax);
      pairs.lib_rank = rank;
      // A barrier cannot tell which rank is missing: the message names every other rank it waits for.
      std::string others;
      for (int m : members)
        if (m != rank) others += (others.empty() ? "" : ", ") + std::to_string(m);
      pairs.peers = (members.size() > 2 ? "ranks " : "rank ") + others;
      pairs.yield = oversubscribed != 0;
      pairs.timeout_s = o.timeout_s;
      int64_t largest = 1;
      for (const lat_sweep_point &p : sweep.points) largest = std::max(largest, p.bytes);
      pairs.buf.assign(static_cast<size_t>(largest), 0);
      // samples[size index][k - 1]: the slowest pair's time of each measurement
      std::vector<std::vector<std::vector<double>>> samples(
          sweep.points.size(), std::vector<std::vector<double>>(static_cast<size_t>(kmax)));
      StallWatch stall(o.timeout_s, rank, 0, "phase 'nodecomm': the timed ping-pongs");
      Progress progress(o.progress != 0 && rank == leader, "nodecomm");
      const int64_t total = o.reps * kmax * static_cast<int64_t>(sweep.points.size());
      int64_t step = 0;
      bool stop = false;
      with_clock(o.timer, [&](const auto &clock) {
        // One untimed round of every k at the first size: connections of every pair, first-touch.
        for (int k = 1; k <= kmax && !stop; ++k) pairs.measure(clock, k, 0, 1, stall, step++, stop);
        for (int64_t rep = 0; rep < o.reps && !stop; ++rep)
          for (size_t i = 0; i < sweep.points.size() && !stop; ++i)
            for (int k = 1; k <= kmax && !stop; ++k) {
              const double t = pairs.measure(clock, k, static_cast<int>(sweep.points[i].bytes),
                                             std::max<int64_t>(1, sweep.points[i].n_avg), stall, step++, stop);
              if (!stop) samples[i][static_cast<size_t>(k - 1)].push_back(t);
              progress.update(step, total);
            }
      });
      progress.finish(step, total);
      if (rank == leader) {
        s.partial = stop ? 1 : 0;
        for (size_t i = 0; i < sweep.points.size(); ++i)
          for (int64_t k = 1; k <= kmax; ++k) {
            const std::vector<double> &v = samples[i][static_cast<size_t>(k - 1)];
            const lat_stats st = describe(distribution_of_values(v), 0);
            r.points.push_back({k, sweep.points[i].bytes, static_cast<int64_t>(v.size()),
                                std::max<int64_t>(1, sweep.points[i].n_avg), st.min_us, st.median_us, st.mean_us,
                                st.max_us});
          }
        s.npoints = static_cast<int64_t>(r.points.size());
        s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        bytes = serialize(r);
      }
    });
  }
  return deserialize_nodecomm(frame.share_result(std::move(bytes), leader, member));
}

std::vector<char> serialize(const NodecommResult &r) {
  std::vector<char> out;
  put_bytes(out, r.options);
  put_bytes(out, r.summary);
  for (const auto &p : r.points) put_bytes(out, p);
  return out;
}

NodecommResult deserialize_nodecomm(const std::vector<char> &in) {
  NodecommResult r;
  size_t at = 0;
  take_bytes(in, at, r.options);
  take_bytes(in, at, r.summary);
  r.points.resize(static_cast<size_t>(r.summary.npoints));
  for (auto &p : r.points) take_bytes(in, at, p);
  return r;
}

}  // namespace lat
