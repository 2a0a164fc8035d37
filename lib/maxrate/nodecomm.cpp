#include "maxrate/nodecomm.hpp"

#include "maxrate/options.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "common/communicator.hpp"
#include "common/harness.hpp"
#include "common/c_string.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "common/placement.hpp"
#include "sweep/measurement.hpp"
#include "common/stats.hpp"

namespace lat {

namespace {

enum Tag { kTagPing = 51, kTagPong = 52, kTagPairs = 53 };

/// The pairs on the run's communicator: ranks 0..K-1 are side A (they time), K..2K-1 side B.
struct Pairs {
  RunContext *run = nullptr;
  int k_total = 0;
  std::vector<char> buf;

  /// Completes reqs: blocking where each rank has a processor, else complete_yielding (common/waits.hpp).
  int complete(MPI_Request *reqs, int n) const {
    return run->yield() ? complete_yielding(reqs, n) : MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  }

  /// One measurement of k pairs at once: every pair rank meets the others, the active pairs ping-pong n_avg
  /// times; the slowest pair's mean full ping-pong time in us comes back on every pair rank, with the stop
  /// verdict (one reduction carries both).
  template <class Clock>
  double measure(const Clock &clock, int k, int bytes, int64_t n_avg, int64_t step, bool &stop) {
    run->meet("phase 'nodecomm': the barrier of the pairs");
    const int me = run->rank();
    const int pair = me < k_total ? me : me - k_total;
    const bool a_side = me < k_total;
    MPI_Comm comm = run->comm();
    double t = 0.0;
    if (pair < k) {
      const int peer = a_side ? me + k_total : me - k_total;
      int failed = MPI_SUCCESS;
      double t1 = 0.0, t2 = 0.0;
      run->timed(step, run->lib_ranks()[static_cast<size_t>(peer)], [&] {
        t1 = clock.now();
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
        t2 = clock.now();
      });
      if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Isend/MPI_Irecv (nodecomm ping-pong)");
      if (a_side) t = (t2 - t1) * 1e6 / static_cast<double>(n_avg);
    }
    stop = run->agree_chunk(&t, 1, 0.0, "phase 'nodecomm': the slowest pair's time");
    return t;
  }
};

/// The two sides of the measurement, from where every rank is (its node and package, gathered on every
/// rank: O(N) ints), and how many pairs they make.
struct Sides {
  std::vector<int> a, b;
  bool halves = false;  // one node (or package): its first half against its second half
  int sides = LAT_SIDES_NODE;
  int64_t kmax = 0;
};

Sides sides_of(const LibComm &comm, int rank, const lat_nodecomm_options &o, const LocalPlace &here) {
  const int mine[2] = {here.place.node, here.place.socket};
  const size_t size = static_cast<size_t>(comm.size());
  std::vector<int> places(2 * size), node_of_rank(size), socket_of_rank(size);
  MPI_Request req;
  check_mpi(MPI_Iallgather(mine, 2, MPI_INT, places.data(), 2, MPI_INT, comm.get(), &req), "MPI_Iallgather (places)");
  wait_yielding(req, {rank, comm.all_ranks(), "phase 'nodes'", o.timeout_s});
  for (size_t r = 0; r < size; ++r) node_of_rank[r] = places[2 * r], socket_of_rank[r] = places[2 * r + 1];
  Sides s;
  // The sides follow the options only once every rank agrees on them; an invalid value measures nodes.
  s.sides = o.sides == LAT_SIDES_SOCKET ? LAT_SIDES_SOCKET : LAT_SIDES_NODE;
  nodecomm_sides(side_groups(s.sides, node_of_rank, socket_of_rank), s.a, s.b, s.halves);
  s.kmax = static_cast<int64_t>(std::min(s.a.size(), s.b.size()));
  if (o.max_pairs > 0) s.kmax = std::min(s.kmax, o.max_pairs);
  return s;
}

/// "" or why these sides make no pair.
std::string sides_complaint(const Sides &s) {
  if (s.kmax >= 1) return "";
  const bool socket = s.sides == LAT_SIDES_SOCKET;
  return s.halves ? "nodecomm needs two processes on a node to measure its two halves; rank 0's " +
                        std::string(socket ? "socket" : "node") + " has " + std::to_string(s.a.size() + s.b.size())
                  : "nodecomm needs a process on each of two " + std::string(socket ? "sockets" : "nodes");
}

/// The size sweep that chooses the sizes, on the first pair.
lat_sweep_options sizing_options(const lat_nodecomm_options &o, const Sides &sides, int64_t nsizes, bool leader) {
  lat_sweep_options so;
  lat_sweep_defaults(&so);
  so.source = sides.a.front();
  so.dest = sides.b.front();
  so.adaptive = nsizes > 0 ? 0 : o.adaptive;
  so.reps = 12;
  so.n_stable = 4;
  so.max_sizes = std::max(kNodecommMaxSizes, nsizes);  // the sizes given are all measured
  so.autodx = 8;
  // A measurement of each size lasts about kNodecommSampleS (one ping-pong at least), whatever the size: a
  // fixed count for every size (mpptest's n_avg_min of 50) made each point at least 50 round trips, and a
  // default grid through a 60 MB/s link took over 8 minutes.
  so.tgoal_s = kNodecommSampleS;
  so.nr = o.nr;
  so.timer = o.timer;
  so.timeout_s = o.timeout_s;
  so.progress = o.progress && leader ? 1 : 0;
  return so;
}

void summarise_sides(lat_nodecomm_summary &s, const Sides &sides, const lat_nodecomm_options &o, const SweepResult &sweep) {
  s.kmax = sides.kmax;
  s.nsizes = static_cast<int64_t>(sweep.points.size());
  s.ranks_a = static_cast<int64_t>(sides.a.size());
  s.ranks_b = static_cast<int64_t>(sides.b.size());
  s.intra_node = sides.sides == LAT_SIDES_SOCKET || sides.halves ? 1 : 0;
  s.sides = sides.halves ? LAT_SIDES_HALVES : sides.sides;
  s.timer = o.timer;
  s.res_timing_us = sweep.summary.res_timing_us;
  s.min_ov_us = sweep.summary.min_ov_us;
  copy_c_string(s.host_a, sweep.summary.source_host);
  copy_c_string(s.host_b, sweep.summary.dest_host);
}

/// The slowest pair's time of each measurement: [size index][k - 1], and whether a stop cut the run short.
struct Samples {
  std::vector<std::vector<std::vector<double>>> t;
  bool stopped = false;
};

/// On a member of the pairs: one untimed round of every k, then reps rounds of every size and every k
/// (1..kmax pairs at once).
Samples measure_pairs(RunContext &run, const lat_nodecomm_options &o, int64_t kmax, const SweepResult &sweep) {
  Pairs pairs;
  pairs.run = &run;
  pairs.k_total = static_cast<int>(kmax);
  int64_t largest = 1;
  for (const lat_sweep_point &p : sweep.points) largest = std::max(largest, p.bytes);
  pairs.buf.assign(static_cast<size_t>(largest), 0);
  Samples samples;
  samples.t.assign(sweep.points.size(), std::vector<std::vector<double>>(static_cast<size_t>(kmax)));
  const int64_t total = o.reps * kmax * static_cast<int64_t>(sweep.points.size());
  int64_t step = 0;
  bool &stop = samples.stopped;
  run.with_clock([&](const auto &clock) {
    // One untimed round of every k at the first size: connections of every pair, first-touch.
    for (int k = 1; k <= kmax; ++k) pairs.measure(clock, k, 0, 1, step++, stop);
    // A stop is taken at the end of a pass over the grid, the first pass always finished: a fit needs every
    // size once (a stop after two of three sizes left no fit and no file).
    for (int64_t rep = 0; rep < o.reps && !(stop && rep > 0); ++rep)
      for (size_t i = 0; i < sweep.points.size() && !(stop && rep > 0); ++i)
        for (int k = 1; k <= kmax && !(stop && rep > 0); ++k) {
          const double t = pairs.measure(clock, k, static_cast<int>(sweep.points[i].bytes),
                                         std::max<int64_t>(1, sweep.points[i].n_avg), step++, stop);
          if (!stop || rep == 0) samples.t[i][static_cast<size_t>(k - 1)].push_back(t);
          run.progress(step, total);
        }
  });
  run.progress_finish(step, total);
  return samples;
}

/// The leader's points: each size and k, the statistics of its samples.
void add_points(NodecommResult &r, const Samples &samples, const SweepResult &sweep, int64_t kmax) {
  for (size_t i = 0; i < sweep.points.size(); ++i)
    for (int64_t k = 1; k <= kmax; ++k) {
      const std::vector<double> &v = samples.t[i][static_cast<size_t>(k - 1)];
      const lat_stats st = describe(distribution_of_values(v), 0);
      r.points.push_back({k, sweep.points[i].bytes, static_cast<int64_t>(v.size()),
                          std::max<int64_t>(1, sweep.points[i].n_avg), st.min_us, st.median_us, st.mean_us, st.max_us});
    }
  r.summary.npoints = static_cast<int64_t>(r.points.size());
}

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

namespace {

/// nodecomm's parts of the measurement harness (lib/common/harness.hpp): the sides are found in the check
/// (collective), the sizes by a size sweep on the first pair after the verdict, then k = 1..kmax pairs.
class NodecommRun {
 public:
  using Result = NodecommResult;

  NodecommRun(const lat_nodecomm_options &o, int64_t nsizes, const int64_t *sizes)
      : o_(o), nsizes_(nsizes), sizes_(sizes), start_(std::chrono::steady_clock::now()) {}

  /// This rank and the sides the pairs run between (found on every rank: collective).
  struct Plan {
    int rank = 0;
    Sides sides;
  };

  RunSettings settings(const Plan &) const {
    return {o_.timeout_s, o_.timer, o_.progress != 0, "nodecomm", "phase 'nodecomm': the timed ping-pongs"};
  }

  Checked<Plan> check(MeasurementFrame &frame) const {
    Checked<Plan> c;
    c.plan.rank = frame.rank();
    c.complaint = check_nodecomm_options(o_, nsizes_, sizes_);
    c.plan.sides = sides_of(frame.comm(), c.plan.rank, o_, frame.place());
    if (c.complaint.empty()) c.complaint = sides_complaint(c.plan.sides);
    // The fit that follows takes so many observations at most: refused now, not after the run (the sizes the
    // sweep may choose: at most kNodecommMaxSizes).
    const int64_t most_sizes = nsizes_ > 0 ? nsizes_ : kNodecommMaxSizes;
    if (c.complaint.empty())
      if (std::string bad = fit_bounds_complaint(most_sizes * c.plan.sides.kmax, most_sizes, c.plan.sides.kmax); !bad.empty())
        c.complaint = bad + " (K = " + std::to_string(c.plan.sides.kmax) + ": fewer pairs with max_pairs, or fewer sizes)";
    return c;
  }

  std::vector<Shared> shared(const Plan &) const { return nodecomm_shared_values(o_, nsizes_, sizes_); }

  Members members(MeasurementFrame &frame, const Plan &plan) {
    const LibComm &comm = frame.comm();
    const Sides &sides = plan.sides;
    const int leader = sides.a.front();

    // Sizes: the size-sweep engine on the first pair (collective over every rank), or the caller's list.
    const std::vector<int64_t> grid =
        nsizes_ > 0 ? std::vector<int64_t>(sizes_, sizes_ + nsizes_) : nodecomm_grid(o_.size_last);
    const lat_sweep_options so = sizing_options(o_, sides, nsizes_, plan.rank == leader);
    sweep_ = size_sweep(comm.get(), so, static_cast<int64_t>(grid.size()), grid.data(), nullptr);

    r_.options = o_;
    summarise_sides(r_.summary, sides, o_, sweep_);
    if (sweep_.summary.end == LAT_SWEEP_END_STOPPED) {  // stopped while the sizes were chosen: nothing timed
      r_.summary.partial = 1;
      r_.summary.wall_s = seconds_since(start_);
      return Members::nobody();
    }
    for (int64_t p = 0; p < sides.kmax; ++p) members_.push_back(sides.a[static_cast<size_t>(p)]);
    for (int64_t p = 0; p < sides.kmax; ++p) members_.push_back(sides.b[static_cast<size_t>(p)]);
    return Members::some(members_, leader, kTagPairs);
  }

  std::string allocate(const Plan &, bool) { return ""; }

  /// The first pair's A rank: the samples of every k, then the points.
  NodecommResult lead(RunContext &run, const Plan &plan) {
    const Samples samples = measure_pairs(run, o_, plan.sides.kmax, sweep_);
    r_.summary.partial = samples.stopped ? 1 : 0;
    add_points(r_, samples, sweep_, plan.sides.kmax);
    r_.summary.wall_s = seconds_since(start_);
    return r_;
  }

  void follow(RunContext &run, const Plan &plan) { measure_pairs(run, o_, plan.sides.kmax, sweep_); }

  /// Stopped while the sizes were chosen (nobody measured): the sides and the sizing's summary, as found here.
  void complete(NodecommResult &r) {
    if (!members_.empty()) return;
    set_disturbance(r_.summary, Disturbance{});
    r = std::move(r_);
  }

 private:
  static double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }

  const lat_nodecomm_options &o_;
  int64_t nsizes_;
  const int64_t *sizes_;
  std::chrono::steady_clock::time_point start_;
  SweepResult sweep_;
  std::vector<int> members_;
  NodecommResult r_;
};

}  // namespace

NodecommResult nodecomm(MPI_Comm user_comm, const lat_nodecomm_options &o, int64_t nsizes, const int64_t *sizes) {
  NodecommRun run(o, nsizes, sizes);
  return run_measurement(user_comm, o.timeout_s, run);
}

}  // namespace lat
