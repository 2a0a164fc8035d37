#include "queue/measurement.hpp"

#include "queue/options.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <new>

#include "common/bytes.hpp"
#include "timer/calibration.hpp"
#include "common/clock.hpp"
#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/harness.hpp"
#include "common/c_string.hpp"
#include "common/failure_notes.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "common/stats.hpp"
#include "common/stop.hpp"

namespace lat {

namespace {

// Tags on the pair's own communicator. Filler receives and messages never match the latency tag.
enum Tag { kTagLatency = 31, kTagFiller = 32, kTagUnexpected = 33, kTagBarrier = 34, kTagControl = 35, kTagName = 36 };
constexpr int kSource = 0, kDest = 1;                 // ranks in the pair communicator
constexpr int kWarmupIterations = 3;

/// The two ranks of the measurement and what they need in every iteration.
struct QueuePair {
  MPI_Comm comm = MPI_COMM_NULL;
  int me = kSource, peer = kDest;  // in comm
  int lib_rank = 0, lib_peer = 0;
  bool any_source = false;
  bool unexpected = false;
  std::vector<MPI_Request> queue, sends;  // the loaded queue's receives (or receives that clear it), sends
  std::vector<char> latency_in, latency_out;
  char nothing = 0;                        // buffer of the 0-byte filler and unexpected messages
  double timeout_s = 0.0;
  std::string peer_name;

  Waiting waiting(const char *phase) const {
    return {lib_rank, peer_name.c_str(), phase, timeout_s};
  }
  /// Waits for every request with the watchdog's deadline (outside the timed section).
  void wait_all(std::vector<MPI_Request> &reqs, const char *phase) {
    for (MPI_Request &r : reqs) wait_spinning(r, waiting(phase));
  }
};

/// The special barrier of section 2: dest leaves first. Source releases dest and leaves only when dest
/// says it has left, so dest is waiting for the latency message before source sends it.
void dest_leaves_first(QueuePair &p) {
  MPI_Request req;
  if (p.me == kSource) {
    check_mpi(MPI_Send(&p.nothing, 0, MPI_BYTE, kDest, kTagBarrier, p.comm), "MPI_Send (barrier)");
    check_mpi(MPI_Irecv(&p.nothing, 0, MPI_BYTE, kDest, kTagBarrier, p.comm, &req), "MPI_Irecv (barrier)");
    wait_spinning(req, p.waiting("phase 'queues': the barrier before a timed ping-pong"));
  } else {
    check_mpi(MPI_Irecv(&p.nothing, 0, MPI_BYTE, kSource, kTagBarrier, p.comm, &req), "MPI_Irecv (barrier)");
    wait_spinning(req, p.waiting("phase 'queues': the barrier before a timed ping-pong"));
    check_mpi(MPI_Send(&p.nothing, 0, MPI_BYTE, kSource, kTagBarrier, p.comm), "MPI_Send (barrier)");
  }
}

/// Figure 1: one iteration with `length` receives pre-posted, `traversed` of them before the latency
/// receive. Returns t2 - t1 in seconds on source, 0 on dest.
template <class Clock>
double posted_iteration(const Clock &clock, RunContext &run, QueuePair &p, int64_t length, int64_t traversed, int bytes,
                        int64_t iteration) {
  const int matching_source = p.any_source ? MPI_ANY_SOURCE : p.peer;
  p.queue.resize(static_cast<size_t>(length));
  for (int64_t k = 0; k < traversed; ++k)
    check_mpi(MPI_Irecv(&p.nothing, 0, MPI_BYTE, matching_source, kTagFiller, p.comm, &p.queue[k]), "MPI_Irecv (queue)");
  MPI_Request latency;
  check_mpi(MPI_Irecv(p.latency_in.data(), bytes, MPI_BYTE, matching_source, kTagLatency, p.comm, &latency),
            "MPI_Irecv (latency)");
  for (int64_t k = traversed; k < length; ++k)
    check_mpi(MPI_Irecv(&p.nothing, 0, MPI_BYTE, p.peer, kTagFiller, p.comm, &p.queue[k]), "MPI_Irecv (queue)");
  dest_leaves_first(p);
  double took = 0.0;
  int failed = MPI_SUCCESS;
  run.timed(iteration, [&] {
    if (p.me == kSource) {
      const double t1 = clock.now();
      failed |= MPI_Send(p.latency_out.data(), bytes, MPI_BYTE, kDest, kTagLatency, p.comm);
      failed |= MPI_Wait(&latency, MPI_STATUS_IGNORE);
      const double t2 = clock.now();
      took = t2 - t1;
    } else {
      failed |= MPI_Wait(&latency, MPI_STATUS_IGNORE);
      failed |= MPI_Send(p.latency_out.data(), bytes, MPI_BYTE, kSource, kTagLatency, p.comm);
    }
  });
  if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Send/MPI_Wait (latency message)");
  // Clear: a matching stream of messages empties the other side's queue; then ours is empty too.
  p.sends.resize(static_cast<size_t>(length));
  for (int64_t k = 0; k < length; ++k)
    check_mpi(MPI_Isend(&p.nothing, 0, MPI_BYTE, p.peer, kTagFiller, p.comm, &p.sends[k]), "MPI_Isend (clearing)");
  p.wait_all(p.queue, "phase 'queues': clearing the posted receives");
  p.wait_all(p.sends, "phase 'queues': clearing the posted receives");
  return took;
}

/// Figure 2: one iteration with `length` unexpected messages queued on each side; on source the
/// latency receive is posted inside the timed region, after the non-blocking send.
template <class Clock>
double unexpected_iteration(const Clock &clock, RunContext &run, QueuePair &p, int64_t length, int bytes,
                            int64_t iteration) {
  const int matching_source = p.any_source ? MPI_ANY_SOURCE : p.peer;
  p.sends.resize(static_cast<size_t>(length));
  for (int64_t k = 0; k < length; ++k)
    check_mpi(MPI_Isend(&p.nothing, 0, MPI_BYTE, p.peer, kTagUnexpected, p.comm, &p.sends[k]), "MPI_Isend (unexpected)");
  // The barrier's messages follow the unexpected ones on the same communicator: when they arrive, the
  // unexpected messages are in the queue (MPI's non-overtaking rule).
  dest_leaves_first(p);
  double took = 0.0;
  int failed = MPI_SUCCESS;
  run.timed(iteration, [&] {
    if (p.me == kSource) {
      MPI_Request req[2];
      const double t1 = clock.now();
      failed |= MPI_Isend(p.latency_out.data(), bytes, MPI_BYTE, kDest, kTagLatency, p.comm, &req[0]);
      failed |= MPI_Irecv(p.latency_in.data(), bytes, MPI_BYTE, matching_source, kTagLatency, p.comm, &req[1]);
      failed |= MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      const double t2 = clock.now();
      took = t2 - t1;
    } else {
      failed |= MPI_Recv(p.latency_in.data(), bytes, MPI_BYTE, matching_source, kTagLatency, p.comm, MPI_STATUS_IGNORE);
      failed |= MPI_Send(p.latency_out.data(), bytes, MPI_BYTE, kSource, kTagLatency, p.comm);
    }
  });
  if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Isend/MPI_Irecv/MPI_Wait (latency message)");
  p.queue.resize(static_cast<size_t>(length));
  for (int64_t k = 0; k < length; ++k)
    check_mpi(MPI_Irecv(&p.nothing, 0, MPI_BYTE, p.peer, kTagUnexpected, p.comm, &p.queue[k]), "MPI_Irecv (clearing)");
  p.wait_all(p.queue, "phase 'queues': clearing the unexpected messages");
  p.wait_all(p.sends, "phase 'queues': clearing the unexpected messages");
  return took;
}

/// Messages of ours still waiting to be matched on comm (should be none).
int64_t leftover_on(MPI_Comm comm) {
  int64_t n = 0;
  for (;;) {
    int flag = 0;
    MPI_Status st;
    check_mpi(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st), "MPI_Iprobe");
    if (!flag) return n;
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    std::vector<char> drop(static_cast<size_t>(std::max(count, 1)));
    check_mpi(MPI_Recv(drop.data(), count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm, MPI_STATUS_IGNORE), "MPI_Recv");
    ++n;
  }
}

struct Cell {
  int64_t length, traversed, bytes;
  double fraction;
  std::vector<double> values;  // one mean per measurement, one-way us
  double sum_us = 0.0;         // over all iterations
  int64_t iterations = 0;
};

std::vector<Cell> cells_of(const QueueGrid &g, bool unexpected) {
  std::vector<Cell> cells;
  for (int64_t b : g.sizes)
    for (double f : g.fractions)
      for (int64_t l : g.lengths)
        cells.push_back({l, unexpected ? l : traversed_of(l, f), b, f, {}, 0.0, 0});
  return cells;
}

/// Both ranks walk the same grid, the stop agreed before each measurement (so a signal on either rank ends
/// the sweep at the same point on both). True when stopped.
template <class Clock>
bool run_cells(const Clock &clock, RunContext &run, QueuePair &p, const lat_queue_options &o, std::vector<Cell> &cells,
               double first_extra_s) {
  const int64_t total = o.reps * static_cast<int64_t>(cells.size());
  int64_t done = 0, iteration = 0;
  double extra_s = first_extra_s;
  // Warm-up (peril 1 of Gropp & Lusk): the first messages, and the first long queue, pay for
  // connections and request pools; a few untimed iterations of the first and of the largest cell.
  const Cell *largest = &cells.front();
  for (const Cell &c : cells)
    if (c.length * (c.bytes + 1) > largest->length * (largest->bytes + 1)) largest = &c;
  for (const Cell *c : {static_cast<const Cell *>(&cells.front()), largest})
    for (int k = 0; k < kWarmupIterations; ++k, ++iteration) {
      if (o.mode == LAT_QUEUE_POSTED) posted_iteration(clock, run, p, c->length, c->traversed, static_cast<int>(c->bytes), iteration);
      else unexpected_iteration(clock, run, p, c->length, static_cast<int>(c->bytes), iteration);
    }
  for (int64_t rep = 0; rep < o.reps; ++rep)
    for (Cell &c : cells) {
      if (run.stop_agreed(extra_s)) {
        run.progress_finish(done, total);
        return true;
      }
      extra_s = 0.0;
      double sum_s = 0.0;
      for (int64_t i = 0; i < o.iters; ++i, ++iteration) {
        sum_s += o.mode == LAT_QUEUE_POSTED
                     ? posted_iteration(clock, run, p, c.length, c.traversed, static_cast<int>(c.bytes), iteration)
                     : unexpected_iteration(clock, run, p, c.length, static_cast<int>(c.bytes), iteration);
      }
      // One-way: (t2 - t1) / 2 per iteration, as Underwood & Brightwell report it: the clock's overhead is
      // not subtracted (Gropp & Lusk's peril 9: an average overhead subtracted inflates performance).
      const double sum_us = 0.5 * sum_s * 1e6;
      c.values.push_back(sum_us / static_cast<double>(o.iters));
      c.sum_us += sum_us;
      c.iterations += o.iters;
      run.progress(++done, total);
    }
  run.progress_finish(done, total);
  return false;
}

QueueResult result_of(const std::vector<Cell> &cells, const QueueGrid &g, const lat_queue_options &o) {
  QueueResult r;
  r.options = o;
  lat_queue_summary &s = r.summary;
  s.npoints = static_cast<int64_t>(cells.size());
  s.nlengths = static_cast<int64_t>(g.lengths.size());
  s.nfractions = static_cast<int64_t>(g.fractions.size());
  s.nsizes = static_cast<int64_t>(g.sizes.size());
  s.iters = o.iters;
  s.reps = o.reps;
  s.mode = o.mode;
  s.any_source = o.any_source;
  s.timer = o.timer;
  for (const Cell &c : cells) {
    lat_queue_point q{};
    q.length = c.length;
    q.traversed = c.traversed;
    q.bytes = c.bytes;
    q.fraction_percent = c.fraction;
    q.measurements = static_cast<int64_t>(c.values.size());
    q.paper_us = c.iterations > 0 ? c.sum_us / static_cast<double>(c.iterations) : 0.0;
    const lat_stats st = describe(distribution_of_values(c.values), c.bytes);
    q.min_us = st.min_us;
    q.median_us = st.median_us;
    q.mean_us = st.mean_us;
    q.max_us = st.max_us;
    q.stddev_us = st.stddev_us;
    r.points.push_back(q);
  }
  fit_minima(r);
  return r;
}


}  // namespace

std::vector<const lat_queue_point *> fitted_points(const QueueResult &r) {
  std::vector<const lat_queue_point *> fitted;
  if (r.points.empty()) return fitted;
  double top_fraction = r.points.front().fraction_percent;
  for (const lat_queue_point &q : r.points) top_fraction = std::max(top_fraction, q.fraction_percent);
  for (const lat_queue_point &q : r.points)
    if (q.fraction_percent == top_fraction && q.bytes == r.points.front().bytes && q.measurements > 0)
      fitted.push_back(&q);
  return fitted;
}

void fit_minima(QueueResult &r) {
  lat_queue_summary &s = r.summary;
  std::vector<double> x, y;
  for (const lat_queue_point *q : fitted_points(r)) {
    x.push_back(static_cast<double>(q->traversed));
    y.push_back(q->min_us);
  }
  const LineFit fit = fit_line(x, y);
  s.slope_us_per_entry = fit.line.slope;
  s.intercept_us = fit.line.intercept;
  s.fit_points = fit.n >= 2 ? static_cast<int64_t>(fit.n) : 0;
  s.fit_r2 = fit.r2;
  s.fit_residual_max_us = fit.residual_max;
  s.warnings = 0;
  if (fit.n < 3 || fit.line.slope < 0.0 || fit.r2 < LAT_QUEUE_FIT_R2_MIN) s.warnings |= LAT_WARN_FIT;
  // The negative control (posted mode): the 0 %-traversed curve's minima must not rise with the queue; where
  // they rise as a share of the fitted curve does, the machine moved the times (a loaded run's control rose
  // from 0.5 to 236 us while its 100 % curve gave R^2 0.84 and 15-56 times the slope). The yardstick is the
  // control's own lowest minimum, the run's quiet reference, which load does not inflate: the reps' spread did
  // (curves that rose 100-1,300x were called flat beside it, issue 59).
  std::vector<double> cx, cy, spreads;
  constexpr double kControlRiseOverBase = 1.0;  // a flat control may not rise by its own lowest level
  if (s.mode == LAT_QUEUE_POSTED && !r.points.empty())
    for (const lat_queue_point &q : r.points)
      if (q.fraction_percent == 0.0 && q.bytes == r.points.front().bytes && q.measurements > 0) {
        cx.push_back(static_cast<double>(q.length));
        cy.push_back(q.min_us);
        spreads.push_back(q.stddev_us);
      }
  s.control_points = static_cast<int64_t>(cx.size());
  s.control_rise_us = s.control_spread_us = 0.0;
  if (cx.size() >= 2) {
    const auto [lo, hi] = std::minmax_element(cx.begin(), cx.end());
    const LineFit control = fit_line(cx, cy);
    s.control_rise_us = control.line.slope * (*hi - *lo);
    std::nth_element(spreads.begin(), spreads.begin() + static_cast<long>(spreads.size() / 2), spreads.end());
    s.control_spread_us = spreads[spreads.size() / 2];
    double fitted_rise = 0.0;
    if (!x.empty()) {
      const auto [flo, fhi] = std::minmax_element(x.begin(), x.end());
      fitted_rise = fit.line.slope * (*fhi - *flo);
    }
    const double base = *std::min_element(cy.begin(), cy.end());
    if (s.control_rise_us > kControlRiseOverBase * base && s.control_rise_us > LAT_QUEUE_CONTROL_SHARE * fitted_rise)
      s.warnings |= LAT_WARN_CONTROL;
  }
}

int64_t traversed_of(int64_t length, double fraction_percent) {
  return std::llround(static_cast<double>(length) * fraction_percent / 100.0);
}

namespace {

/// The queue benchmark's parts of the measurement harness (lib/common/harness.hpp):
/// source leads, dest follows; every cell of the grid in turn.
class QueueRun {
 public:
  using Result = QueueResult;
  QueueRun(const lat_queue_options &o, int64_t nl, const int64_t *lengths, int64_t nf, const double *fractions,
           int64_t ns, const int64_t *sizes, const lat_timer_result *calibration)
      : o_(o), nl_(nl), nf_(nf), ns_(ns), lengths_(lengths), fractions_(fractions), sizes_(sizes),
        calibration_(calibration) {}

  /// This rank, dest (the last rank where asked) and the grid of cells.
  struct Plan {
    int rank = 0, dest = 0;
    QueueGrid grid;
  };

  RunSettings settings(const Plan &) const {
    return {o_.timeout_s, o_.timer, o_.progress != 0, "queue sweep", "phase 'queues': the timed ping-pong"};
  }

  Checked<Plan> check(MeasurementFrame &frame) const {
    Checked<Plan> c;
    c.plan.rank = frame.rank();
    c.complaint =
        check_queue_options(o_, nl_, lengths_, nf_, fractions_, ns_, sizes_, frame.size(), c.plan.rank, calibration_);
    if (c.complaint.empty()) c.plan.grid = grid_of(o_, nl_, lengths_, nf_, fractions_, ns_, sizes_);
    c.plan.dest = o_.dest == LAT_LAST_RANK ? frame.size() - 1 : o_.dest;
    return c;
  }

  std::vector<Shared> shared(const Plan &plan) const { return queue_shared_values(o_, nl_, nf_, ns_, plan.grid); }

  Members members(MeasurementFrame &, const Plan &plan) { return Members::some({o_.source, plan.dest}, o_.source, kTagName); }

  /// The requests and buffers of the largest queue, on the two measuring ranks.
  std::string allocate(const Plan &plan, bool measuring) {
    if (!measuring) return "";
    try {
      const int64_t largest_length = *std::max_element(plan.grid.lengths.begin(), plan.grid.lengths.end());
      const int64_t largest_size = *std::max_element(plan.grid.sizes.begin(), plan.grid.sizes.end());
      p_.queue.reserve(static_cast<size_t>(largest_length));
      p_.sends.reserve(static_cast<size_t>(largest_length));
      p_.latency_in.assign(static_cast<size_t>(std::max<int64_t>(largest_size, 1)), 0);
      p_.latency_out.assign(static_cast<size_t>(std::max<int64_t>(largest_size, 1)), 0);
    } catch (const std::bad_alloc &) {
      return "cannot allocate the requests and buffers of the largest queue";
    }
    return "";
  }

  /// Source: the calibration, every cell, the messages left over, the result.
  QueueResult lead(RunContext &run, const Plan &plan) {
    join(run, plan);
    const auto start = std::chrono::steady_clock::now();
    const lat_timer_result cal = leader_calibration(calibration_, o_.timer, o_.nr, plan.rank, o_.progress != 0).result;
    const bool stopped = run.with_clock([&](const auto &clock) { return run_cells(clock, run, p_, o_, cells_, 0.0); });
    int64_t theirs = 0;
    MPI_Request req;
    check_mpi(MPI_Irecv(&theirs, 1, MPI_INT64_T, kDest, kTagControl, p_.comm, &req), "MPI_Irecv");
    wait_spinning(req, p_.waiting("phase 'end': dest's count of messages left over"));
    QueueResult r = result_of(cells_, plan.grid, o_);
    r.summary.leftover_messages = leftover_on(p_.comm) + theirs;
    r.summary.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.summary.res_timing_us = cal.res_timing_us;
    r.summary.min_ov_us = cal.min_ov_us;
    r.summary.source = o_.source;
    r.summary.dest = plan.dest;
    r.summary.partial = stopped ? 1 : 0;
    copy_c_string(r.summary.source_host, run.hosts()[kSource].c_str());
    copy_c_string(r.summary.dest_host, run.hosts()[kDest].c_str());
    return r;
  }

  /// Dest: every cell, its messages left over.
  void follow(RunContext &run, const Plan &plan) {
    join(run, plan);
    const double first_extra_s = follower_first_wait_s(calibration_, o_.nr);
    run.with_clock([&](const auto &clock) { run_cells(clock, run, p_, o_, cells_, first_extra_s); });
    const int64_t mine = leftover_on(p_.comm);
    check_mpi(MPI_Send(&mine, 1, MPI_INT64_T, kSource, kTagControl, p_.comm), "MPI_Send");
  }

 private:
  void join(const RunContext &run, const Plan &plan) {
    p_.comm = run.comm();
    p_.me = run.rank();
    p_.peer = p_.me == kSource ? kDest : kSource;
    p_.lib_rank = plan.rank;
    p_.lib_peer = p_.me == kSource ? plan.dest : o_.source;
    p_.peer_name = "rank " + std::to_string(p_.lib_peer);
    p_.any_source = o_.any_source != 0;
    p_.unexpected = o_.mode == LAT_QUEUE_UNEXPECTED;
    p_.timeout_s = o_.timeout_s;
    cells_ = cells_of(plan.grid, p_.unexpected);
  }

  const lat_queue_options &o_;
  int64_t nl_, nf_, ns_;
  const int64_t *lengths_;
  const double *fractions_;
  const int64_t *sizes_;
  const lat_timer_result *calibration_;
  QueuePair p_;
  std::vector<Cell> cells_;
};

}  // namespace

QueueResult queue_sweep(MPI_Comm user_comm, const lat_queue_options &o, int64_t nl, const int64_t *lengths,
                        int64_t nf, const double *fractions, int64_t ns, const int64_t *sizes,
                        const lat_timer_result *calibration) {
  QueueRun run(o, nl, lengths, nf, fractions, ns, sizes, calibration);
  return run_measurement(user_comm, o.timeout_s, run);
}

}  // namespace lat
