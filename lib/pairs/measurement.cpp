#include "pairs/measurement.hpp"

#include "pairs/options.hpp"

#include <algorithm>
#include <chrono>
#include <new>

#include "timer/calibration.hpp"
#include "common/clock.hpp"
#include "common/communicator.hpp"
#include "common/harness.hpp"
#include "common/bytes.hpp"
#include "common/c_string.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "common/placement.hpp"
#include "common/stats.hpp"

namespace lat {

namespace {

// Tags on the library's communicator: the hand-shake, the round trip, the rows sent to root.
enum Tag { kTagReady = 41, kTagPing = 42, kTagPong = 43, kTagRow = 44 };

/// What every rank carries through the steps.
struct Walk {
  RunContext *run = nullptr;
  int rank = 0, size = 0;
  int bytes = 0;
  const char *all_ranks = "";  // "ranks 0..N-1", for the watchdog's messages
  std::vector<char> buf;
  char nothing = 0;
  std::vector<std::vector<double>> samples;  // this rank's pairs (rank, j > rank): samples[j - rank - 1]
  std::string peer_name;

  void wait(MPI_Request &req, const char *peers, const char *phase) {
    run->wait(req, {rank, peers, phase, run->timeout_s()});
  }

  /// The synchronisation that starts a step (an allreduce is a barrier), carrying the stop requests:
  /// true on every rank when any rank asked to stop.
  bool synchronise() { return run->stop_agreed(0.0, "phase 'pairs': the synchronisation before a step"); }

  /// The lower rank of a pair: waits for the partner's hand-shake, then times one round trip.
  template <class Clock>
  double originate(const Clock &clock, int partner, int64_t step) {
    MPI_Request ready;
    check_mpi(MPI_Irecv(&nothing, 0, MPI_BYTE, partner, kTagReady, run->comm(), &ready), "MPI_Irecv (hand-shake)");
    peer_name = "rank " + std::to_string(partner);
    wait(ready, peer_name.c_str(), "phase 'pairs': the hand-shake before a round trip");
    int failed = MPI_SUCCESS;
    double t1 = 0.0, t2 = 0.0;
    run->timed(step, partner, [&] {
      if (!run->yield()) {
        t1 = clock.now();
        failed |= MPI_Send(buf.data(), bytes, MPI_BYTE, partner, kTagPing, run->comm());
        failed |= MPI_Recv(buf.data(), bytes, MPI_BYTE, partner, kTagPong, run->comm(), MPI_STATUS_IGNORE);
        t2 = clock.now();
      } else {
        MPI_Request trip[2];
        t1 = clock.now();
        failed |= MPI_Isend(buf.data(), bytes, MPI_BYTE, partner, kTagPing, run->comm(), &trip[0]);
        failed |= MPI_Irecv(buf.data(), bytes, MPI_BYTE, partner, kTagPong, run->comm(), &trip[1]);
        failed |= complete_yielding(trip, 2);
        t2 = clock.now();
      }
    });
    if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Send/MPI_Recv (round trip)");
    return (t2 - t1) * 1e6;
  }

  /// The higher rank: posts the receive, tells the partner it is waiting, answers.
  void respond(int partner, int64_t step) {
    MPI_Request ping;
    check_mpi(MPI_Irecv(buf.data(), bytes, MPI_BYTE, partner, kTagPing, run->comm(), &ping), "MPI_Irecv (round trip)");
    check_mpi(MPI_Send(&nothing, 0, MPI_BYTE, partner, kTagReady, run->comm()), "MPI_Send (hand-shake)");
    int failed = MPI_SUCCESS;
    run->timed(step, partner, [&] {
      if (!run->yield()) {
        failed |= MPI_Wait(&ping, MPI_STATUS_IGNORE);
        failed |= MPI_Send(buf.data(), bytes, MPI_BYTE, partner, kTagPong, run->comm());
      } else {
        failed |= complete_yielding(&ping, 1);
        MPI_Request pong;
        failed |= MPI_Isend(buf.data(), bytes, MPI_BYTE, partner, kTagPong, run->comm(), &pong);
        failed |= complete_yielding(&pong, 1);
      }
    });
    if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Wait/MPI_Send (round trip)");
  }

  /// This rank's part of the pair (a, b), a < b; record: keep the time.
  template <class Clock>
  void visit(const Clock &clock, int a, int b, int64_t step, bool record) {
    if (rank == a) {
      const double us = originate(clock, b, step);
      if (record) samples[static_cast<size_t>(b - a - 1)].push_back(us);
    } else if (rank == b) {
      respond(a, step);
    }
  }
};

/// Every pass over the schedule: one warm-up pass (not recorded), then repeats passes. Returns the
/// steps made after the warm-up; stopped is set when a stop request ended the walk.
template <class Clock>
int64_t walk_schedule(const Clock &clock, Walk &walk, const lat_pair_options &o, bool &stopped) {
  const int64_t n = walk.size;
  const int64_t per_pass = o.schedule == LAT_PAIRS_ROUNDS ? tournament_rounds(n) : n * (n - 1) / 2;
  const int64_t total = per_pass * o.repeats;
  int64_t step = 0, recorded_steps = 0;
  for (int64_t pass = -1; pass < o.repeats; ++pass) {
    const bool record = pass >= 0;
    if (o.schedule == LAT_PAIRS_ROUNDS) {
      for (int64_t k = 0; k < per_pass; ++k, ++step) {
        if (walk.synchronise()) {
          stopped = true;
          return recorded_steps;
        }
        const int64_t partner = tournament_partner(n, k, walk.rank);
        if (partner >= 0)
          walk.visit(clock, static_cast<int>(std::min<int64_t>(walk.rank, partner)),
                     static_cast<int>(std::max<int64_t>(walk.rank, partner)), step, record);
        if (record) walk.run->progress(++recorded_steps, total);
      }
    } else {
      for (int a = 0; a < walk.size - 1; ++a)
        for (int b = a + 1; b < walk.size; ++b, ++step) {
          if (walk.synchronise()) {
            stopped = true;
            return recorded_steps;
          }
          walk.visit(clock, a, b, step, record);
          if (record) walk.run->progress(++recorded_steps, total);
        }
    }
  }
  walk.run->progress_finish(recorded_steps, total);
  return recorded_steps;
}

constexpr int kRowStats = LAT_PAIR_NSTATS;

/// This rank's row of statistics: kRowStats values for each partner j > rank.
std::vector<double> row_of(const Walk &walk) {
  std::vector<double> row;
  row.reserve(walk.samples.size() * kRowStats);
  for (const std::vector<double> &s : walk.samples) {
    const lat_stats st = describe(distribution_of_values(s), 0);
    double v[kRowStats] = {};
    v[LAT_PAIR_MEAN] = st.mean_us;
    v[LAT_PAIR_STDDEV] = st.stddev_us;
    v[LAT_PAIR_STDERR] = st.stderr_us;
    v[LAT_PAIR_MIN] = st.min_us;
    v[LAT_PAIR_MEDIAN] = st.median_us;
    v[LAT_PAIR_MAX] = st.max_us;
    v[LAT_PAIR_COUNT] = static_cast<double>(s.size());
    row.insert(row.end(), v, v + kRowStats);
  }
  return row;
}

/// Rows to root, one message per rank (O(N) values each: no count overflows however many ranks).
void gather_rows(Walk &walk, int root, PairResult &r) {
  const int64_t n = walk.size;
  auto store = [&](int64_t i, const std::vector<double> &row) {
    for (int64_t j = i + 1; j < n; ++j)
      for (int s = 0; s < kRowStats; ++s)
        r.triangle[static_cast<size_t>(s)][static_cast<size_t>(triangle_index(n, i, j))] =
            row[static_cast<size_t>((j - i - 1) * kRowStats + s)];
  };
  std::vector<double> row = row_of(walk);
  if (walk.rank != root) {
    if (row.empty()) return;
    MPI_Request req;
    check_mpi(MPI_Isend(row.data(), static_cast<int>(row.size()), MPI_DOUBLE, root, kTagRow, walk.run->comm(), &req),
              "MPI_Isend (row)");
    walk.wait(req, "the root rank", "phase 'gather': sending this rank's row to root");
    return;
  }
  store(root, row);
  for (int64_t i = 0; i < n - 1; ++i) {
    if (i == root) continue;
    row.assign(static_cast<size_t>((n - 1 - i) * kRowStats), 0.0);
    MPI_Request req;
    check_mpi(MPI_Irecv(row.data(), static_cast<int>(row.size()), MPI_DOUBLE, static_cast<int>(i), kTagRow,
                        walk.run->comm(), &req),
              "MPI_Irecv (row)");
    walk.peer_name = "rank " + std::to_string(i);
    walk.wait(req, walk.peer_name.c_str(), "phase 'gather': receiving a row of the matrices");
    store(i, row);
  }
}

/// Every rank's place, on root (one fixed-size record per rank).
void gather_places(Walk &walk, int root, const lat_rank_place &mine, std::vector<lat_rank_place> &all) {
  if (walk.rank == root) all.resize(static_cast<size_t>(walk.size));
  MPI_Request req;
  check_mpi(MPI_Igather(&mine, static_cast<int>(sizeof mine), MPI_BYTE, all.data(), static_cast<int>(sizeof mine),
                        MPI_BYTE, root, walk.run->comm(), &req),
            "MPI_Igather (places)");
  walk.wait(req, walk.all_ranks, "phase 'places': gathering every rank's place");
}

}  // namespace

double PairResult::at(int stat, int64_t i, int64_t j) const {
  if (i == j) return 0.0;
  const int64_t n = summary.nprocs;
  return triangle[static_cast<size_t>(stat)][static_cast<size_t>(triangle_index(n, std::min(i, j), std::max(i, j)))];
}

int64_t tournament_rounds(int64_t n) { return n % 2 == 0 ? n - 1 : n; }

int64_t tournament_partner(int64_t n, int64_t k, int64_t rank) {
  // The circle method on m = n (even) or n + 1 (odd, the extra place a rest): place m - 1 stays, the
  // others turn; in round k, place i < m - 1 meets (2k - i) mod (m - 1), or m - 1 when that is i.
  const int64_t m = n % 2 == 0 ? n : n + 1;
  int64_t partner;
  if (rank == m - 1) {
    partner = k;
  } else {
    partner = ((2 * k - rank) % (m - 1) + (m - 1)) % (m - 1);
    if (partner == rank) partner = m - 1;
  }
  return partner >= n ? -1 : partner;
}

void allocate_matrices(PairResult &r, int64_t n) {
  // Beyond 2^31.5 ranks n (n - 1) / 2 overflows; far below that the allocation fails anyway.
  if (n < 0 || n > (int64_t{1} << 31)) throw std::bad_alloc();
  const int64_t pairs = n * (n - 1) / 2;
  for (auto &t : r.triangle) t.assign(static_cast<size_t>(pairs), 0.0);
  r.places.resize(static_cast<size_t>(n));
}

namespace {

/// The pair matrix's parts of the measurement harness (lib/common/harness.hpp):
/// every rank measures, on the library's communicator; its rows go to the root, whose summary travels to every
/// rank; the matrices and every rank's place stay on the root (complete).
class PairRun {
 public:
  using Result = PairResult;

  explicit PairRun(const lat_pair_options &o) : o_(o), start_(std::chrono::steady_clock::now()) {}

  /// This rank and the ranks' count.
  struct Plan {
    int rank = 0, size = 0;
  };

  RunSettings settings(const Plan &) const {
    return {o_.timeout_s, o_.timer, o_.progress != 0, "pair matrix", "phase 'pairs': the timed round trip", o_.wait};
  }

  Checked<Plan> check(MeasurementFrame &frame) const {
    const Plan plan{frame.rank(), frame.size()};
    return {check_pair_options(o_, plan.size), plan};  // memory included: lat_pair_check refuses the same
  }

  std::vector<Shared> shared(const Plan &) const { return pair_shared_values(o_); }

  Members members(MeasurementFrame &frame, const Plan &plan) {
    walk_.all_ranks = frame.comm().all_ranks();
    walk_.rank = plan.rank;
    walk_.size = plan.size;
    walk_.bytes = static_cast<int>(o_.msg_bytes);
    return Members::every_rank(o_.root);
  }

  /// Memory before anything is timed: this rank's samples, and on root the matrices.
  std::string allocate(const Plan &plan, bool) {
    const int rank = plan.rank, size = plan.size;
    try {
      walk_.samples.resize(static_cast<size_t>(size - 1 - rank));
      for (auto &s : walk_.samples) s.reserve(static_cast<size_t>(o_.repeats));
      walk_.buf.assign(static_cast<size_t>(std::max<int64_t>(o_.msg_bytes, 1)), 0);
      if (rank == o_.root) allocate_matrices(kept_, size);  // their size checked in check_pair_options
    } catch (const std::exception &) {  // bad_alloc, or length_error for a size beyond the vector's
      return rank == o_.root ? "cannot allocate the " + std::to_string(static_cast<int64_t>(matrix_bytes(size) / 1e6)) +
                                   " MB of the matrices of " + std::to_string(size) + " ranks"
                             : "cannot allocate the samples of " + std::to_string(size - 1 - rank) + " pairs";
    }
    return "";
  }

  /// The root: the walk, then the summary over the matrices.
  PairResult lead(RunContext &run, const Plan &) {
    PairResult r;
    r.summary = walk(run);
    lat_pair_summary &s = r.summary;
    copy_c_string(s.testing_host, run.place().place.host);
    const std::vector<double> &counts = kept_.triangle[LAT_PAIR_COUNT], &means = kept_.triangle[LAT_PAIR_MEAN];
    s.mean_min_us = means.empty() ? 0.0 : *std::min_element(means.begin(), means.end());
    s.mean_max_us = means.empty() ? 0.0 : *std::max_element(means.begin(), means.end());
    for (double c : counts) s.round_trips += static_cast<int64_t>(c);
    s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return r;
  }

  void follow(RunContext &run, const Plan &) { walk(run); }

  /// The options everywhere; the matrices and every rank's place on the root, this rank's place elsewhere.
  void complete(PairResult &r) {
    r.options = o_;
    const bool root = walk_.rank == o_.root;
    if (root) {
      r.triangle = std::move(kept_.triangle);
      r.places = std::move(kept_.places);
    } else {
      r.places = {own_place_};
    }
    r.summary.has_matrices = root ? 1 : 0;
  }

 private:
  /// Every rank: its calibration, the places and the rows gathered on root.
  lat_pair_summary walk(RunContext &run) {
    walk_.run = &run;
    own_place_ = run.place().place;
    const Calibration cal = calibrate_here(o_.timer, o_.nr, walk_.rank, false);
    own_place_.res_timing_us = cal.result.res_timing_us;
    own_place_.min_ov_us = cal.result.min_ov_us;
    lat_pair_summary s{};
    // Waiting ranks spin unless a machine has more ranks than processors (then spinning starves the pair),
    // or as the caller asked (the run context decided it).
    s.wait = run.yield() ? LAT_WAIT_YIELD : LAT_WAIT_SPIN;
    gather_places(walk_, o_.root, own_place_, kept_.places);

    bool stopped = false;
    s.steps = run.with_clock([&](const auto &clock) { return walk_schedule(clock, walk_, o_, stopped); });
    gather_rows(walk_, o_.root, kept_);
    walk_.run = nullptr;

    const int size = walk_.size;
    s.nprocs = size;
    s.nnodes = run.place().nnodes;
    s.msg_bytes = o_.msg_bytes;
    s.repeats = o_.repeats;
    s.npairs = static_cast<int64_t>(size) * (size - 1) / 2;
    s.nrounds = o_.schedule == LAT_PAIRS_ROUNDS ? tournament_rounds(size) : s.npairs;
    s.schedule = o_.schedule;
    s.root = o_.root;
    s.timer = o_.timer;
    s.partial = stopped ? 1 : 0;
    return s;
  }

  const lat_pair_options &o_;
  std::chrono::steady_clock::time_point start_;
  Walk walk_;  // this rank's part of the walk, set by members and allocate
  lat_rank_place own_place_{};
  PairResult kept_;  // the root's matrices and places, filled by the walk
};

}  // namespace

PairResult pair_matrix(MPI_Comm user_comm, const lat_pair_options &o) {
  PairRun run(o);
  return run_measurement(user_comm, o.timeout_s, run);
}

}  // namespace lat
