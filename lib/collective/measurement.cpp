#include "collective/measurement.hpp"

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>

#include "collective/clock_sync.hpp"
#include "collective/operations.hpp"
#include "collective/options.hpp"
#include "common/run_levels.hpp"
#include "common/agreement.hpp"
#include "common/bytes.hpp"
#include "common/clock.hpp"
#include "common/communicator.hpp"
#include "common/error.hpp"
#include "common/failure_notes.hpp"
#include "common/harness.hpp"
#include "common/line_placement.hpp"
#include "common/memory.hpp"
#include "common/placement.hpp"
#include "common/waits.hpp"
#include "common/run_context.hpp"
#include "sweep/engine.hpp"

namespace lat {

namespace {

constexpr int kPilotCalls = 5;

/// A time in a message, to three digits.
std::string three_digits(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}
constexpr double kLeadStartS = 200e-6, kLeadYieldS = 5e-3, kLeadMaxS = 50e-3;
constexpr double kStartSlackS = 1e-6;  // a spinning rank's start this far past its time is late
// Unrecorded calls of a sync point, each in its own window just before the recorded one: the round's other
// work (the control, the records, the root's statistics) leaves the call's code and data cold, ~0.1 us on a
// 0.4 us allreduce; ReproMPI's windows follow one another, call after call (docs/collective.md).
constexpr int kSyncWarmCalls = 2;

/// A point of the run: what is measured, and its series on the root.
struct PointPlan {
  int op, mode;
  int64_t bytes;
};

/// What every rank needs while it measures: the harness's run context (its communicator, wait mode, waits,
/// watchdog, progress line), seen as the collective uses it.
struct Run {
  RunContext *context = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 0, root = 0;
  bool yield = false;
  FailureListener *listener = nullptr;
  int64_t *watched = nullptr;  // the running count of the blocking calls under the watchdog (its steps)

  Run(RunContext &run, int root_, int64_t &count)
      : context(&run), comm(run.comm()), rank(run.rank()), size(run.size()), root(root_), yield(run.yield()),
        listener(run.listener()), watched(&count) {}
  Waiting waiting(const char *phase) const { return context->waiting(phase); }
  SyncWaits sync_waits(bool one_pair_at_a_time) const {
    return {one_pair_at_a_time, yield, context->timeout_s(), listener, &context->watch(), watched};
  }
  /// f(), blocking MPI calls (and the clock reads around them), as the watchdog's next step.
  template <class F>
  decltype(auto) watched_call(F &&f) const {
    return context->timed((*watched)++, std::forward<F>(f));
  }
  /// The barrier before a timed call: yielding ranks meet again awake (barrier_before_timing), or one
  /// blocking MPI_Barrier under the watchdog.
  void barrier(const char *phase) const {
    if (yield) barrier_before_timing(comm, true, waiting(phase), listener);
    else check_mpi(watched_call([&] { return MPI_Barrier(comm); }), "MPI_Barrier");
  }
  /// The run context's agreement between chunks: a stop asked on any rank, and n words by maximum.
  bool agree_chunk(double *words, int n, const char *phase) const { return context->agree_chunk(words, n, 0.0, phase); }
  /// An allreduce of doubles outside the timed calls.
  void allreduce(double *v, int n, MPI_Op op, const char *phase) const {
    MPI_Request req;
    check_mpi(MPI_Iallreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, op, comm, &req), "MPI_Iallreduce");
    wait_as(yield, req, waiting(phase), listener);
  }
};

/// The synchronised clocks of every rank: HCA's line, the line in use, and the error bound agreed over the
/// ranks. On one host the true drift is 0, and a line fitted over a fraction of a second misses it by
/// ~1e-7 (0.1 us a second: the size of the call measured); so during the run every rank measures its
/// offset to rank 0 again at intervals (a burst of exchanges, one rank at a time), and the line in use is
/// HCA's plus the least-squares line through those checks: its time base grows with the run.
struct SyncState {
  ClockSync base;  // HCA's line
  ClockSync sync;  // in use: base + the line through the checks
  DriftTracker tracker;
  ClockReport report;
  double error_bound_s = 0.0, residual_max_s = 0.0, rtt_max_s = 0.0;
  double at_s = 0.0, checked_s = 0.0;  // when it was made and last checked (this rank's clock)

  /// A check of this rank (not rank 0) against rank 0, its time on base's clock: into the line in use.
  void add_check(const OffsetPoint &p) {
    tracker.add(p);
    sync.to_root = tracker.in_use();
  }
};

constexpr double kCheckEveryS = 0.1;
constexpr double kPrecisionCheckS = kCollChunkS;  // --precision is judged at most this often
constexpr int kCheckBurst = 20;

/// A synchronisation that fails its check (residual_within_bound) is done again, kSyncTries in all, and
/// the best try kept, the run saying so (LAT_WARN_CLOCKS).
constexpr int kSyncTries = 3;

template <class Clock>
SyncState synchronise_once(const Clock &clock, const Run &run, const lat_collective_options &o, bool one_pair_at_a_time,
                           bool &kept) {
  const std::function<double()> now = [&clock] { return clock.now(); };
  const SyncWaits w = run.sync_waits(one_pair_at_a_time);
  SyncState s;
  s.base = synchronise_clocks(run.comm, ClockSyncOptions{o.sync_points, o.sync_burst, o.sync_spacing_s}, now, w);
  s.sync = s.base;
  s.tracker = DriftTracker(s.base.to_root);
  const OffsetPoint residual = residual_offset(run.comm, s.base, std::max(o.sync_burst, 10), now, w);
  if (run.rank != 0) s.add_check(residual);
  s.at_s = s.checked_s = clock.now();
  s.report.offset_us = s.base.to_root.intercept * 1e6 + s.base.to_root.slope * s.at_s * 1e6;  // at this time
  s.report.drift = s.base.to_root.slope;
  s.report.rtt_us = s.base.rtt_min_s * 1e6;
  s.report.residual_us = residual.offset * 1e6;
  s.report.residual_rtt_us = residual.rtt * 1e6;
  const bool mine_kept = run.rank == 0 || residual_within_bound(residual, s.base.rtt_min_s);
  double v[4] = {std::fabs(residual.offset), s.base.rtt_min_s, run.rank == 0 ? 0.0 : error_bound_of(residual),
                 mine_kept ? 0.0 : 1.0};
  run.allreduce(v, 4, MPI_MAX, "phase 'clock synchronisation': the error bound");
  s.residual_max_s = v[0];
  s.rtt_max_s = v[1];
  s.error_bound_s = v[2];
  kept = v[3] == 0.0;
  return s;
}

/// The clocks synchronised and checked: redone while a rank's residual is beyond its bound, kSyncTries in
/// all; kept says whether the last try held (else the try with the smallest error bound is used).
template <class Clock>
SyncState synchronise(const Clock &clock, const Run &run, const lat_collective_options &o, bool one_pair_at_a_time,
                      bool &kept) {
  SyncState best;
  for (int attempt = 1;; ++attempt) {
    SyncState s = synchronise_once(clock, run, o, one_pair_at_a_time, kept);
    if (kept) return s;
    if (attempt == 1 || s.error_bound_s < best.error_bound_s) best = std::move(s);
    if (attempt == kSyncTries) return best;
  }
}

/// Sizes by the size-sweep engine (Gropp & Lusk 3.2): the root runs it on one operation in barrier mode,
/// every rank takes part in each sample the root asks for; the root's sizes are then every rank's. The stop
/// is agreed with each sample's slowest time: a stop asked on any rank ends the sizing on every rank there.
template <class Clock>
std::vector<int64_t> sizes_by_engine(const Clock &clock, const Run &run, const lat_collective_options &o,
                                     const std::vector<int64_t> &start, int op, CollBuffers &bufs) {
  bool stopped = false;
  auto sample = [&](int64_t bytes) {
    run.barrier("phase 'sizes': the barrier before a call");
    double t1 = 0.0, t = 0.0;
    const int rc = run.watched_call([&] {
      t1 = clock.now();
      const int code = bufs.call(op, bytes, o.root, run.comm);
      t = clock.now() - t1;
      return code;
    });
    check_mpi(rc, coll_op_name(op));
    stopped = run.agree_chunk(&t, 1, "phase 'sizes': the largest local time");
    return t * 1e6;
  };
  std::vector<char> bytes;
  if (run.rank == 0) {
    SweepPlan plan;
    plan.sizes = start;
    plan.adaptive = true;
    plan.reps = 30;
    plan.n_stable = 5;
    plan.refine_after = 3;
    plan.autorel = 0.05;
    plan.max_sizes = LAT_COLL_MAX_SIZES;
    plan.budget_s = 60.0;
    const auto begin = std::chrono::steady_clock::now();
    const SweepOutcome out = run_sweep(
        plan,
        [&](int64_t size) {
          double cmd = static_cast<double>(size);
          bcast_yielding(&cmd, 1, MPI_DOUBLE, 0, run.comm, run.waiting("phase 'sizes'"), run.listener);
          return sample(size);
        },
        [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(); },
        [&] { return stopped; });
    // The end said to the others, unless a stop agreed has ended their loop already.
    if (!stopped) {
      double done = -1.0;
      bcast_yielding(&done, 1, MPI_DOUBLE, 0, run.comm, run.waiting("phase 'sizes'"), run.listener);
    }
    for (const SizePoint &p : out.points) put_bytes(bytes, p.size);
  } else {
    while (!stopped) {
      double cmd = 0.0;
      bcast_yielding(&cmd, 1, MPI_DOUBLE, 0, run.comm, run.waiting("phase 'sizes': the root's next size"), run.listener);
      if (cmd < 0.0) break;
      sample(static_cast<int64_t>(cmd));
    }
  }
  share_bytes_from_root(bytes, 0, run.comm, run.waiting("phase 'sizes': the sizes chosen"), run.listener);
  std::vector<int64_t> sizes(bytes.size() / sizeof(int64_t));
  std::memcpy(sizes.data(), bytes.data(), bytes.size());
  return sizes;
}

/// This thread's involuntary context switches so far (preemptions).
long involuntary_switches() {
  rusage u{};
  return getrusage(RUSAGE_THREAD, &u) == 0 ? u.ru_nivcsw : 0;
}

/// Waits on the synchronised clock until start; says whether this rank started late: it was already past the start when it first looked (arrived_late: the lead is
/// too short), or it left the wait more than 1 us after the start (left_late) (preempted while waiting, or, yielding, given its processor back late: a spin
/// reads the clock every ~35 ns). Yielding ranks (more ranks than processors) sleep first when the start
/// is far, then spin with sched_yield; on a loaded machine many of their samples are late, and the run
/// says so (LAT_WARN_LATE) instead of averaging the scheduler in.
template <class Clock>
void wait_until(const Clock &clock, const ClockLine &line, double start, bool yield, bool &arrived_late, bool &left_late) {
  double l = clock.now();
  arrived_late = line.to_reference(l) >= start;
  left_late = false;
  if (arrived_late) return;
  if (yield) {
    for (double left = start - line.to_reference(l); left > 2e-3; left = start - line.to_reference(l)) {
      std::this_thread::sleep_for(std::chrono::duration<double>(left - 1e-3));
      l = clock.now();
    }
  }
  double g = line.to_reference(l);
  while (g < start) {
    if (yield) sched_yield();
    l = clock.now();
    g = line.to_reference(l);
  }
  left_late = g - start > kStartSlackS;
}

/// The rounds: every point once a round, the sync points each at its scheduled start, the others after a
/// barrier, in an order that turns; the records gathered on the root after each round. Between rounds the
/// control agreed on every rank: a stop, --precision's end, a new synchronisation or a check of the clocks.
template <class Clock>
class Rounds {
 public:
  Rounds(const Clock &clock, const Run &run, const lat_collective_options &o, const std::vector<PointPlan> &plan,
         std::vector<double> &window_s, SyncState &sync, CollResult &r, CollBuffers &bufs, bool one_pair_at_a_time,
         double run_start_global)
      : clock_(clock), run_(run), o_(o), plan_(plan), window_s_(window_s), sync_(sync), r_(r), bufs_(bufs),
        one_pair_at_a_time_(one_pair_at_a_time), run_start_global_(run_start_global),
        lead_(run.yield ? kLeadYieldS : kLeadStartS) {
    for (int p = 0; p < static_cast<int>(plan.size()); ++p)
      (plan[static_cast<size_t>(p)].mode == LAT_COLL_MODE_SYNC      ? sync_points_
       : plan[static_cast<size_t>(p)].mode == LAT_COLL_MODE_BARRIER ? barrier_points_
                                                                    : loop_points_)
          .push_back(p);
    mine_.resize(plan.size() * kRecordDoubles);
    if (run.rank == run.root) all_.resize(mine_.size() * static_cast<size_t>(run.size));
  }

  void run() {
    run_.context->begin_progress("collective rounds");  // its estimate of the time left: from the first round
    while (round_ < o_.reps) {
      double ctl[5];
      control(ctl);
      if (ctl[0] != 0.0) {
        r_.summary.partial = 1;
        break;
      }
      if (ctl[4] != 0.0) {
        r_.summary.ended_by = static_cast<int>(ctl[4]);
        break;
      }
      if (ctl[1] != 0.0) {
        resynchronise();
        continue;
      }
      if (ctl[3] != 0.0) {
        check_clocks();
        continue;
      }
      const bool first_late = time_sync_points(ctl[2]);
      time_other_points();
      gather_records(ctl[2] - run_start_global_);
      next_lead(first_late);
      ++round_;
      ++rounds_since_sync_;
      run_.context->progress(round_, o_.reps);
    }
    run_.context->progress_finish(round_, o_.reps);
    r_.summary.rounds = round_;
  }

 private:
  /// The round's control on every rank, agreed between rounds: [a stop anywhere, rank 0's word on a new
  /// synchronisation, rank 0's start, rank 0's word on a check of the clocks, the root's word on --precision].
  void control(double ctl[5]) {
    ctl[1] = 0.0;
    ctl[2] = -HUGE_VAL;
    ctl[3] = 0.0;
    ctl[4] = static_cast<double>(precision_end_);
    if (run_.rank == 0) {
      // At least one round between two synchronisations: a resync_s shorter than a synchronisation itself
      // would otherwise synchronise for ever and measure nothing.
      ctl[1] = o_.resync_s > 0.0 && rounds_since_sync_ > 0 && clock_.now() - sync_.at_s > o_.resync_s ? 1.0 : 0.0;
      ctl[2] = sync_.sync.to_root.to_reference(clock_.now()) + lead_;
      ctl[3] = clock_.now() - sync_.checked_s > kCheckEveryS ? 1.0 : 0.0;
    }
    ctl[0] = run_.agree_chunk(&ctl[1], 4, "phase 'rounds': the round's control") ? 1.0 : 0.0;
  }

  void resynchronise() {
    bool kept = true;
    sync_ = synchronise(clock_, run_, o_, one_pair_at_a_time_, kept);
    rounds_since_sync_ = 0;
    lat_coll_summary &s = r_.summary;
    if (!kept) s.warnings |= LAT_WARN_CLOCKS;
    ++s.syncs;
    s.residual_max_us = std::max(s.residual_max_us, sync_.residual_max_s * 1e6);
    s.rtt_min_us = std::max(s.rtt_min_us, sync_.rtt_max_s * 1e6);
    s.error_bound_us = std::max(s.error_bound_us, sync_.error_bound_s * 1e6);
  }

  /// A check of the clocks between rounds (not timed).
  void check_clocks() {
    const Clock &clock = clock_;
    const std::function<double()> now = [&clock] { return clock.now(); };
    const OffsetPoint p = residual_offset(run_.comm, sync_.base, kCheckBurst, now, run_.sync_waits(one_pair_at_a_time_));
    if (run_.rank != 0) sync_.add_check(p);
    sync_.checked_s = clock_.now();
  }

  /// sync: every call at its own scheduled start, one window after another. True when the first started
  /// late because this rank arrived after its start (the lead was too short).
  bool time_sync_points(double start) {
    bool first_late = false;
    const size_t ns = sync_points_.size();
    for (size_t j = 0; j < ns; ++j) {
      const int p = sync_points_[(j + static_cast<size_t>(round_)) % ns];
      const PointPlan &pp = plan_[static_cast<size_t>(p)];
      bool arrived_late = false, late = false;
      for (int w = 0; w < kSyncWarmCalls; ++w) {
        wait_until(clock_, sync_.sync.to_root, start, run_.yield, arrived_late, late);
        if (j == 0 && w == 0) first_late = arrived_late;  // the round's first window: was the lead long enough?
        check_mpi(run_.watched_call([&] { return bufs_.call(pp.op, pp.bytes, o_.root, run_.comm); }), coll_op_name(pp.op));
        start += window_s_[static_cast<size_t>(p)];
      }
      hold_for_test();
      const long switches = run_.yield ? 0 : involuntary_switches();
      double t1 = 0.0, t2 = 0.0;
      // Under the watchdog from before the wait: nothing but the call between the clock reads.
      const int rc = run_.watched_call([&] {
        wait_until(clock_, sync_.sync.to_root, start, run_.yield, arrived_late, late);
        // The start is read afresh, just before the call (ReproMPI's tstart): the read that ended the wait
        // came up to one read and its conversion earlier, time the call never spent (an MPI_Wtime read is
        // 31 ns here, 8 % of a 0.4 us allreduce).
        t1 = clock_.now();
        const int code = bufs_.call(pp.op, pp.bytes, o_.root, run_.comm);
        t2 = clock_.now();
        return code;
      });
      late = late || arrived_late;
      // Preempted after its start read (late into the call, or inside it): as late. Spinning ranks only: a
      // yielding rank's sched_yield counts as an involuntary switch whenever another task runs.
      if (!run_.yield && involuntary_switches() != switches) late = true;
      check_mpi(rc, coll_op_name(pp.op));
      double *rec = &mine_[static_cast<size_t>(p) * kRecordDoubles];
      rec[0] = sync_.sync.to_root.to_reference(t1);
      rec[1] = sync_.sync.to_root.to_reference(t2);
      rec[2] = t2 - t1;
      rec[3] = late ? 1.0 : 0.0;
      if (j == 0) first_late = first_late || arrived_late;
      start += window_s_[static_cast<size_t>(p)];
    }
    return first_late;
  }

  /// The test hook g_sync_start_hold: its rank sleeps before each scheduled start, which it then misses.
  static void hold_for_test() {
    if (g_sync_start_hold.world_rank < 0) return;
    int world_rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    if (world_rank == g_sync_start_hold.world_rank)
      std::this_thread::sleep_for(std::chrono::duration<double>(g_sync_start_hold.seconds));
  }

  /// barrier, then loop: a barrier before each sample, in a turning order.
  void time_other_points() {
    for (const std::vector<int> *points : {&barrier_points_, &loop_points_}) {
      const size_t n = points->size();
      for (size_t j = 0; j < n; ++j) {
        const int p = (*points)[(j + static_cast<size_t>(round_)) % n];
        const PointPlan &pp = plan_[static_cast<size_t>(p)];
        const int64_t calls = pp.mode == LAT_COLL_MODE_LOOP ? o_.loop_calls : 1;
        run_.barrier("phase 'rounds': the barrier before a sample");
        double t1 = 0.0, t2 = 0.0;
        const int rc = run_.watched_call([&] {
          int code = MPI_SUCCESS;
          t1 = clock_.now();
          for (int64_t c = 0; c < calls && code == MPI_SUCCESS; ++c) code = bufs_.call(pp.op, pp.bytes, o_.root, run_.comm);
          t2 = clock_.now();
          return code;
        });
        check_mpi(rc, coll_op_name(pp.op));
        double *rec = &mine_[static_cast<size_t>(p) * kRecordDoubles];
        rec[0] = rec[1] = rec[3] = 0.0;
        rec[2] = (t2 - t1) / static_cast<double>(calls);
      }
    }
  }

  /// The round's records to the root, which adds them to its series (at: the round's start since the run's)
  /// and judges --precision.
  void gather_records(double at) {
    MPI_Request req;
    check_mpi(MPI_Igather(mine_.data(), static_cast<int>(mine_.size()), MPI_DOUBLE, all_.data(),
                          static_cast<int>(mine_.size()), MPI_DOUBLE, run_.root, run_.comm, &req),
              "MPI_Igather (records)");
    wait_as(run_.yield, req, run_.waiting("phase 'rounds': the records to the root"), run_.listener);
    if (run_.rank != run_.root) return;
    const size_t np = plan_.size();
    std::vector<RankRecord> recs(static_cast<size_t>(run_.size));
    for (size_t p = 0; p < np; ++p) {
      for (int k = 0; k < run_.size; ++k) {
        const double *d = &all_[(static_cast<size_t>(k) * np + p) * kRecordDoubles];
        recs[static_cast<size_t>(k)] = {d[0], d[1], d[2], d[3]};
      }
      r_.series[p].add(recs.data(), run_.size, at);
    }
    // --precision, between rounds and before the lead's allreduce (rank 0 schedules the next start after
    // it), at most every chunk's length: the sort of every point's samples is not free. Its word: 0 go
    // on, LAT_END_PRECISION every point precise enough within this launch, LAT_END_UNREACHABLE a point that can
    // never be (it kept no sample: every start late).
    // Every precision run has a time limit (precision_limit_s, from the first round): LAT_END_TIME.
    if (rounds_start_ < 0.0) rounds_start_ = at;
    if (o_.precision_pct > 0.0 && at - precision_checked_ >= kPrecisionCheckS) {
      precision_checked_ = at;
      precision_end_ = series_precise(r_.series, o_.precision_pct)                       ? LAT_END_PRECISION
                       : precision_unreachable(r_.series, LAT_UNREACHABLE_ROUNDS)          ? LAT_END_UNREACHABLE
                       : at - rounds_start_ >= precision_limit_s(o_.precision_limit_s) ? LAT_END_TIME
                                                                                           : 0;
    }
  }

  /// The first start of a round waits for the control's allreduce to end everywhere: when it was late, the
  /// lead was too short (yielding ranks sleep in ms steps); shrink it again slowly.
  void next_lead(bool first_late) {
    double late_first = first_late ? 1.0 : 0.0;
    if (!sync_points_.empty()) run_.allreduce(&late_first, 1, MPI_MAX, "phase 'rounds': the lead");
    lead_ = late_first != 0.0 ? std::min(2.0 * lead_, kLeadMaxS)
                              : std::max(lead_ * 0.95, run_.yield ? kLeadYieldS : kLeadStartS);
  }

  const Clock &clock_;
  const Run &run_;
  const lat_collective_options &o_;
  const std::vector<PointPlan> &plan_;
  std::vector<double> &window_s_;
  SyncState &sync_;
  CollResult &r_;
  CollBuffers &bufs_;
  const bool one_pair_at_a_time_;
  const double run_start_global_;
  double lead_;
  std::vector<int> sync_points_, barrier_points_, loop_points_;
  std::vector<double> mine_, all_;
  int64_t round_ = 0, rounds_since_sync_ = 0;
  int precision_end_ = 0;
  double precision_checked_ = 0.0, rounds_start_ = -1.0;
};


/// --precision: where the lines land, probed between ranks 0 and 1 where they share a node (line_placement.hpp),
/// before anything is timed; every rank learns rank 0's figures (the others wait in the run's wait mode).
void place_lines(const Run &run, lat_coll_summary &s) {
  MPI_Comm two = MPI_COMM_NULL;
  check_mpi(run.watched_call([&] { return MPI_Comm_split(run.comm, run.rank < 2 ? 0 : MPI_UNDEFINED, run.rank, &two); }),
            "MPI_Comm_split (placement)");
  double figures[2] = {0.0, 0.0};  // lines measured, their sd in percent
  if (two != MPI_COMM_NULL) {
    const LinePlacement lines = measure_line_placement(two, run.rank == 0, kPlacementLimitS);
    MPI_Comm_free(&two);
    if (run.rank == 0) figures[0] = static_cast<double>(lines.level_us.size()), figures[1] = lines.sd_pct();
  }
  run.allreduce(figures, 2, MPI_MAX, "phase 'placement'");
  s.placement_lines = static_cast<int>(figures[0]);
  s.placement_sd_pct = figures[1];
}

/// Where the ranks are and the wait mode, as the run context found them, into the summary. True when a node
/// holds more ranks than processors.
bool note_places(const RunContext &context, const lat_collective_options &o, lat_coll_summary &s) {
  const NodeLoad &busiest = context.busiest_node();
  s.wait = context.yield() ? LAT_WAIT_YIELD : LAT_WAIT_SPIN;
  s.processors = busiest.processors;
  s.ranks_on_node = busiest.ranks;
  s.nprocs = context.size();
  s.nnodes = context.place().nnodes;
  s.reps = o.reps;
  s.precision_pct = o.precision_pct;
  s.precision_limit_s = o.precision_pct > 0.0 ? precision_limit_s(o.precision_limit_s) : 0.0;
  s.ops = o.ops;
  s.modes = o.modes;
  s.root = o.root;
  s.timer = o.timer;
  if (context.oversubscribed()) s.warnings |= LAT_WARN_OVERSUBSCRIBED;
  return context.oversubscribed();
}

/// The clocks: offset and drift of every rank against rank 0's, and the error that remains, into the
/// summary; a sync window the synchronisation cannot honour is refused.
template <class Clock>
SyncState synchronise_clocks(const Clock &clock, const Run &run, const lat_collective_options &o, bool oversubscribed,
                             lat_coll_summary &s) {
  const auto sync_begin = std::chrono::steady_clock::now();
  bool kept = true;
  SyncState sync = synchronise(clock, run, o, oversubscribed, kept);
  if (!kept) s.warnings |= LAT_WARN_CLOCKS;
  s.error_bound_us = sync.error_bound_s * 1e6;
  s.sync_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - sync_begin).count();
  s.syncs = 1;
  s.residual_max_us = sync.residual_max_s * 1e6;
  s.rtt_min_us = sync.rtt_max_s * 1e6;
  double ext[2] = {std::fabs(sync.report.offset_us), std::fabs(sync.report.drift)};
  run.allreduce(ext, 2, MPI_MAX, "phase 'clock synchronisation'");
  s.offset_max_us = ext[0];
  s.drift_max = ext[1];
  if ((o.modes & LAT_COLL_MODE_SYNC) && o.window_us > 0.0 && o.window_us < 10.0 * sync.error_bound_s * 1e6)
    throw ArgError(got("window_us must be at least 10 x the synchronisation error bound (" +
                           three_digits(sync.error_bound_s * 1e6) + " us here): >= " +
                           three_digits(10.0 * sync.error_bound_s * 1e6) + " us, or 0 to choose it",
                       o.window_us));
  return sync;
}

/// The first operation of ops that has a message size (0: barriers only), which the engine refines sizes on.
int first_sized_op(const std::vector<int> &ops) {
  for (int op : ops)
    if (op != LAT_COLL_BARRIER) return op;
  return 0;
}

/// Every point of the run: each mode, each operation, each size (a barrier once).
std::vector<PointPlan> plan_points(const std::vector<int> &modes, const std::vector<int> &ops,
                                   const std::vector<int64_t> &sizes) {
  std::vector<PointPlan> plan;
  for (int mode : modes)
    for (int op : ops)
      for (size_t k = 0; k < (op == LAT_COLL_BARRIER ? 1 : sizes.size()); ++k)
        plan.push_back({op, mode, op == LAT_COLL_BARRIER ? 0 : sizes[k]});
  return plan;
}

/// Pilot calls (and warm-up): the slowest rank's median of a few calls sets each point's sync window.
template <class Clock>
std::vector<double> sync_windows(const Clock &clock, const Run &run, const lat_collective_options &o,
                                 const std::vector<PointPlan> &plan, const SyncState &sync, CollBuffers &bufs) {
  std::vector<double> pilot(plan.size(), 0.0), window_s(plan.size(), 0.0);
  for (size_t p = 0; p < plan.size(); ++p) {
    std::vector<double> t;
    for (int c = 0; c < kPilotCalls; ++c) {
      run.barrier("phase 'pilot': the barrier before a call");
      double t1 = 0.0;
      const int rc = run.watched_call([&] {
        t1 = clock.now();
        const int code = bufs.call(plan[p].op, plan[p].bytes, o.root, run.comm);
        t.push_back(clock.now() - t1);
        return code;
      });
      check_mpi(rc, coll_op_name(plan[p].op));
    }
    pilot[p] = median_in_place(t);
  }
  run.allreduce(pilot.data(), static_cast<int>(pilot.size()), MPI_MAX, "phase 'pilot': the slowest rank's time");
  for (size_t p = 0; p < plan.size(); ++p)
    window_s[p] = o.window_us > 0.0 ? o.window_us * 1e-6 : 4.0 * pilot[p] + 20.0 * sync.error_bound_s + 10e-6;
  return window_s;
}

/// The root's series of samples, one per point, with its sync window.
void start_series(CollResult &r, const std::vector<PointPlan> &plan, const std::vector<double> &window_s, int size) {
  for (const PointPlan &pp : plan) {
    r.series.emplace_back(pp.op, pp.mode, pp.bytes, size);
    r.series.back().window_us = pp.mode == LAT_COLL_MODE_SYNC ? window_s[r.series.size() - 1] * 1e6 : 0.0;
  }
}

/// The clocks again at the end: what the drift left of the synchronisation; every rank's clock report to
/// the root.
template <class Clock>
void clocks_at_end(const Clock &clock, const Run &run, const lat_collective_options &o, const SyncState &sync,
                   const ClockReport &first, bool oversubscribed, CollResult &r) {
  lat_coll_summary &s = r.summary;
  const SyncWaits w = run.sync_waits(oversubscribed);
  const std::function<double()> now = [&clock] { return clock.now(); };
  const OffsetPoint end = residual_offset(run.comm, sync.sync, std::max(o.sync_burst, 10), now, w);  // the line in use
  // rank 0's own residual is 0 by definition: its exchange says nothing.
  double v[3] = {std::fabs(end.offset) * 1e6, run.rank == 0 ? 0.0 : error_bound_of(end) * 1e6,
                 run.rank == 0 || residual_within_bound(end, sync.base.rtt_min_s) ? 0.0 : 1.0};
  run.allreduce(v, 3, MPI_MAX, "phase 'clock residual'");
  s.residual_max_us = std::max(s.residual_max_us, v[0]);
  s.error_bound_us = std::max(s.error_bound_us, v[1]);
  if (v[2] != 0.0) s.warnings |= LAT_WARN_CLOCKS;

  ClockReport mine = first;
  mine.drift = sync.sync.to_root.slope;
  mine.checks = static_cast<double>(sync.tracker.checks());
  mine.residual_us = end.offset * 1e6;
  mine.residual_rtt_us = end.rtt * 1e6;
  std::vector<char> reports(run.rank == o.root ? sizeof mine * static_cast<size_t>(run.size) : 0);
  MPI_Request req;
  check_mpi(MPI_Igather(&mine, static_cast<int>(sizeof mine), MPI_BYTE, reports.data(), static_cast<int>(sizeof mine),
                        MPI_BYTE, o.root, run.comm, &req),
            "MPI_Igather (clocks)");
  wait_as(run.yield, req, run.waiting("phase 'clock residual': the reports to the root"), run.listener);
  if (run.rank == o.root) {
    r.clocks.resize(static_cast<size_t>(run.size));
    std::memcpy(r.clocks.data(), reports.data(), reports.size());
  }
}

/// The root's analysis: where it ran, the run's warnings, then each point's statistics and warnings (named).
void analyse_on_root(CollResult &r, bool oversubscribed) {
  lat_coll_summary &s = r.summary;
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  r.host = name;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  MPI_Get_library_version(lib, &len);
  r.mpi_library = std::string(lib).substr(0, std::string(lib).find('\n'));
  if (oversubscribed)
    r.warnings.push_back("WARNING: " + std::to_string(s.ranks_on_node) + " ranks share " + std::to_string(s.processors) +
                         " processors on a node: the times are the scheduler's (a rank waits for a processor, "
                         "milliseconds), not the network's");
  if (s.warnings & LAT_WARN_CLOCKS) {
    char text[512];
    std::snprintf(text, sizeof text,
                  "WARNING: the clocks could not be kept: a rank's offset to rank 0 was beyond what its exchanges "
                  "allow (residual up to %.3f us, error bound %.3f us) after %d tries or at the end of the run; the "
                  "sync mode's figures are withheld (a loaded node delays the exchanges: rerun on quiet nodes, or "
                  "read the barrier mode)",
                  s.residual_max_us, s.error_bound_us, kSyncTries);
    r.warnings.push_back(text);
  }
  s.median_ci_half_pct_max = widest_median_half_pct(r.series);
  s.between_launches_half_pct_max =
      s.precision_pct > 0.0 ? between_launches_half_pct(s.median_ci_half_pct_max, placement_half_pct(s.placement_sd_pct)) : 0.0;
  for (PointSeries &ps : r.series) {
    PointOutcome out = finish_point(ps);
    if ((s.warnings & LAT_WARN_CLOCKS) && ps.mode == LAT_COLL_MODE_SYNC) out.point.warnings |= LAT_WARN_CLOCKS;
    s.warnings |= out.point.warnings;
    s.late_total += out.point.late;
    for (const std::string &w : out.warnings)
      r.warnings.push_back(std::string("WARNING: ") + coll_op_name(ps.op) + " " + std::to_string(ps.bytes) + " B " +
                           coll_mode_name(ps.mode) + ": " + w.substr(w.rfind("WARNING: ", 0) == 0 ? 9 : 0));
    r.points.push_back(out.point);
    r.ranks.insert(r.ranks.end(), out.ranks.begin(), out.ranks.end());
  }
  s.npoints = static_cast<int64_t>(r.points.size());
  s.nsizes = static_cast<int64_t>(r.sizes.size());
}

}  // namespace

SyncStartHold g_sync_start_hold;

namespace {

/// The collective's parts of the measurement harness (lib/common/harness.hpp): every
/// rank measures, on the library's communicator; the root keeps the samples and analyses them, the others get
/// its result less the samples. One watchdog covers every blocking call (the collective calls, the barriers
/// before them, the clock exchanges), naming no single rank: each involves them all.
class CollectiveRun {
 public:
  using Result = CollResult;
  CollectiveRun(const lat_collective_options &o, int64_t nsizes, const int64_t *sizes)
      : o_(o), nsizes_(nsizes), sizes_(sizes), wall_start_(std::chrono::steady_clock::now()) {}

  /// This rank and the ranks' count.
  struct Plan {
    int rank = 0, size = 0;
  };

  RunSettings settings(const Plan &) const {
    return {o_.timeout_s, o_.timer, o_.progress != 0, "collective rounds",
            "phase 'calls': a collective call or a clock exchange", o_.wait};
  }

  Checked<Plan> check(MeasurementFrame &frame) const {
    const Plan plan{frame.rank(), frame.size()};
    return {check_collective_options(o_, nsizes_, sizes_, plan.size, plan.rank == o_.root), plan};
  }

  std::vector<Shared> shared(const Plan &) const { return collective_shared_values(o_, nsizes_, sizes_); }

  Members members(MeasurementFrame &, const Plan &plan) {
    root_ = plan.rank == o_.root;
    r_.options = o_;
    start_ = starting_sizes(o_, nsizes_, sizes_);
    return Members::every_rank(o_.root);
  }

  std::string allocate(const Plan &plan, bool) {
    try {
      bufs_ = std::make_unique<CollBuffers>(o_.ops, start_.back(), plan.size);
    } catch (const std::exception &) {
      return "cannot allocate the buffers of " + std::to_string(start_.back()) + "-byte messages on " +
             std::to_string(plan.size) + " ranks";
    }
    return "";
  }

  /// The root: the rounds, then the analysis of every sample; the samples and where it ran stay here.
  CollResult lead(RunContext &run, const Plan &) {
    const bool oversubscribed = measure(run);
    analyse_on_root(r_, oversubscribed);
    r_.summary.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
    kept_.series = std::move(r_.series);
    kept_.host = std::move(r_.host);
    kept_.mpi_library = std::move(r_.mpi_library);
    return std::move(r_);
  }

  void follow(RunContext &run, const Plan &) { measure(run); }

  /// The options everywhere; the samples, the host and the MPI library on the root.
  void complete(CollResult &r) {
    r.options = o_;
    if (root_) {
      r.series = std::move(kept_.series);
      r.host = std::move(kept_.host);
      r.mpi_library = std::move(kept_.mpi_library);
    }
    r.summary.has_samples = root_ ? 1 : 0;
  }

 private:
  /// Every rank: the places, the clocks synchronised, the sizes, the rounds, the clocks checked at the end.
  /// True when a node holds more ranks than processors.
  bool measure(RunContext &context) {
    lat_coll_summary &s = r_.summary;
    const bool oversubscribed = note_places(context, o_, s);
    context.watch_peer(-1);  // every blocking call involves every rank
    int64_t watched = 0;
    const Run run(context, o_.root, watched);
    const std::vector<int> ops = ops_of(o_.ops), modes = modes_of(o_.modes);
    if (o_.precision_pct > 0.0) place_lines(run, s);
    context.with_clock([&](const auto &clock) {
      SyncState sync = synchronise_clocks(clock, run, o_, oversubscribed, s);
      const ClockReport first = sync.report;
      // The sizes: the list, or size_first..size_last refined by the size-sweep engine.
      const int sized_op = first_sized_op(ops);
      r_.sizes = o_.adaptive && sized_op != 0 ? sizes_by_engine(clock, run, o_, start_, sized_op, *bufs_) : start_;
      const std::vector<PointPlan> plan = plan_points(modes, ops, r_.sizes);
      std::vector<double> window_s = sync_windows(clock, run, o_, plan, sync, *bufs_);
      if (run.rank == o_.root) start_series(r_, plan, window_s, run.size);
      const double run_start_global = sync.sync.to_root.to_reference(clock.now());
      Rounds<std::decay_t<decltype(clock)>>(clock, run, o_, plan, window_s, sync, r_, *bufs_, oversubscribed,
                                            run_start_global).run();
      clocks_at_end(clock, run, o_, sync, first, oversubscribed, r_);
    });
    return oversubscribed;
  }

  /// What stays on the root: not in the result's bytes.
  struct Kept {
    std::vector<PointSeries> series;
    std::string host, mpi_library;
  };

  const lat_collective_options &o_;
  int64_t nsizes_;
  const int64_t *sizes_;
  std::chrono::steady_clock::time_point wall_start_;
  bool root_ = false;  // this rank is the root (members)
  std::vector<int64_t> start_;
  std::unique_ptr<CollBuffers> bufs_;
  CollResult r_;
  Kept kept_;
};

}  // namespace

CollResult collective(MPI_Comm user_comm, const lat_collective_options &o, int64_t nsizes, const int64_t *sizes_in) {
  CollectiveRun run(o, nsizes, sizes_in);
  return run_measurement(user_comm, o.timeout_s, run);
}

}  // namespace lat
