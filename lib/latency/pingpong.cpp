#include "latency/pingpong.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

#include "latency/npp_rule.hpp"
#include "latency/options.hpp"
#include "timer/calibration.hpp"
#include "timer/options.hpp"
#include "common/clock.hpp"
#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/frame.hpp"
#include "common/report_text.hpp"
#include "common/failure_notes.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"
#include "common/watchdog.hpp"
#include "common/stop.hpp"
#include "common/placement.hpp"

#include <fmt/format.h>
#include <memory>

namespace lat {

namespace {

enum Tag { kTagPing = 1, kTagHandshake = 2, kTagControl = 3, kTagName = 4, kTagReady = 5 };
constexpr int kSourceInPair = 0, kDestInPair = 1;

// A chunk of trials runs between two control messages from source to dest: the stop check, the
// progress line and npp travel there, never inside a timed loop. Chunks aim at ~0.25 s (longer in long
// runs, see time_trials); each one's count, minimum and median are kept: the run over time.
constexpr double kChunkSeconds = 0.25;
constexpr int64_t kMaxChunk = int64_t{1} << 20;

/// The two measuring ranks and their message.
struct Pair {
  MPI_Comm comm = MPI_COMM_NULL;  // source is 0, dest is 1
  std::vector<double> buffer;     // at least one double, for the hand-shake
  int count = 0;
  MPI_Datatype type = MPI_DOUBLE;
  int my_rank = 0, peer_rank = 0; // in the library's communicator, for messages
  std::string peer;               // "rank 3"
  double timeout_s = 0.0;
  bool have_ready = false;        // source: dest's ready note received and not yet answered
  bool dest_stopped = false;      // source: dest asked to stop (a signal reached it)

  Waiting waiting(const char *phase, double extra_s = 0.0) const {
    return {my_rank, peer.c_str(), phase, timeout_s > 0.0 ? timeout_s + extra_s : 0.0};
  }
};

/// Source: takes dest's "ready" note for the next chunk, which carries dest's stop request.
void await_ready(Pair &p, double extra_s = 0.0) {
  if (p.have_ready) return;
  int dest_stop = 0;
  MPI_Request req;
  check_mpi(MPI_Irecv(&dest_stop, 1, MPI_INT, kDestInPair, kTagReady, p.comm, &req), "MPI_Irecv (ready)");
  wait_spinning(req, p.waiting("phase 'trials': dest's ready note between chunks", extra_s));
  p.have_ready = true;
  p.dest_stopped = p.dest_stopped || dest_stop != 0;
}

/// A chunk as measured, in the clock's ticks (converted to one-way us by the caller).
struct RawChunk {
  int64_t first_trial, count;
  double start_s, end_s;
  int64_t first, least, median;  // the chunk's first trial, its minimum and its (lower) median
};

/// The trials of one npp: a tally of their loop times in ticks, and their chunks when kept. A run has
/// one series (Part 2, Part 3); an npp study one per value, timed in turn chunk by chunk.
struct Series {
  Series(int64_t npp_, int64_t target_, bool keep) : npp(npp_), target(target_), keep_chunks(keep) {}
  int64_t npp, target;
  bool keep_chunks;
  Tally tally;
  std::vector<RawChunk> chunks;
  int64_t done = 0;
  int64_t chunk = 16;           // trials in the next chunk: adapted to ~chunk_s
  std::vector<int64_t> in_chunk;  // this chunk's ticks, for its median
};

/// The watchdog's limit inside a timed loop: the caller's timeout, but never less than kLoopsPerTimeout
/// expected loops (npp x median_ppt), so a healthy long loop is never taken for a stall.
constexpr double kLoopsPerTimeout = 10.0;
double loop_timeout_s(double timeout_s, int64_t npp, double median_ppt_us) {
  if (timeout_s <= 0.0) return 0.0;
  return std::max(timeout_s, kLoopsPerTimeout * static_cast<double>(npp) * median_ppt_us * 1e-6);
}

/// Source: one chunk of s's trials, each after the pair barrier and the hand-shake, their t2 - t1 tallied
/// in the clock's ticks. The caller has taken dest's ready note and checked for a stop. loop_timeout_s
/// travels to dest with the chunk, for its watchdog. On a timeout the TimeoutError leaves s holding the
/// trials done.
template <class Clock>
void time_chunk(const Clock &clock, Pair &p, Series &s, StallWatch &stall, double loop_timeout, int64_t &trial_id,
                std::chrono::steady_clock::time_point run_start, double chunk_s) {
  void *buf = p.buffer.data();
  const double unit = clock.unit();
  const Waiting barrier_wait = p.waiting("phase 'trials': the pair barrier before a trial");
  const Waiting handshake_wait = p.waiting("phase 'trials': the hand-shake before a trial");
  const int64_t next = std::min(s.chunk, s.target - s.done);
  int64_t control[3] = {next, s.npp, static_cast<int64_t>(std::llround(loop_timeout * 1e6))};
  check_mpi(MPI_Send(control, 3, MPI_INT64_T, kDestInPair, kTagControl, p.comm), "MPI_Send (control)");
  p.have_ready = false;
  const int64_t npp = s.npp;
  const auto start = std::chrono::steady_clock::now();
  for (int64_t k = 0; k < next; ++k) {
    MPI_Request req;
    check_mpi(MPI_Ibarrier(p.comm, &req), "MPI_Ibarrier");
    wait_spinning(req, barrier_wait);
    check_mpi(MPI_Irecv(buf, 1, MPI_DOUBLE, kDestInPair, kTagHandshake, p.comm, &req), "MPI_Irecv (hand-shake)");
    wait_spinning(req, handshake_wait);
    // MPI_SUCCESS is 0: OR-ing the codes costs one integer operation in the loop and no branch;
    // they are checked after the clock is read.
    int failed = MPI_SUCCESS;
    stall.enter(trial_id);
    const double t1 = clock.now();
    for (int64_t i = 0; i < npp; ++i) {
      failed |= MPI_Send(buf, p.count, p.type, kDestInPair, kTagPing, p.comm);
      failed |= MPI_Recv(buf, p.count, p.type, kDestInPair, kTagPing, p.comm, MPI_STATUS_IGNORE);
    }
    const double t2 = clock.now();
    stall.leave(trial_id);
    ++trial_id;
    if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Send/MPI_Recv (ping-pong)");
    const int64_t ticks = to_ticks(t2 - t1, unit);
    s.tally.add(ticks);
    if (s.keep_chunks) s.in_chunk.push_back(ticks);
    ++s.done;
  }
  const auto end = std::chrono::steady_clock::now();
  const double took = std::chrono::duration<double>(end - start).count();
  if (s.keep_chunks && !s.in_chunk.empty()) {
    const int64_t first = s.in_chunk.front();
    const int64_t median = lower_median_in_place(s.in_chunk);  // one of the times, as a tally's median
    const int64_t least = *std::min_element(s.in_chunk.begin(), s.in_chunk.end());
    const int64_t count = static_cast<int64_t>(s.in_chunk.size());
    s.chunks.push_back({s.done - count, count, std::chrono::duration<double>(start - run_start).count(),
                        std::chrono::duration<double>(end - run_start).count(), first, least, median});
    s.in_chunk.clear();
  }
  // Chunks of chunk_s, and of a thousandth of the run so far once that is longer: a few thousand chunks
  // even for an hour's run (~2,700), each with its exact median.
  const double target = std::max(chunk_s, std::chrono::duration<double>(end - run_start).count() / 1000.0);
  s.chunk = took > 0.0 ? std::clamp<int64_t>(static_cast<int64_t>(static_cast<double>(next) * target / took), 1, kMaxChunk)
                       : std::min(2 * next, kMaxChunk);
}

/// Source: the series chunk by chunk, in turn (one series: a plain run), until each has its target or a
/// stop is requested here or on dest; true when stopped.
template <class Clock>
bool time_series(const Clock &clock, Pair &p, std::vector<Series *> series, Progress &progress, StallWatch &stall,
                 double loop_timeout) {
  const auto run_start = std::chrono::steady_clock::now();
  int64_t total = 0, trial_id = 0;
  for (const Series *s : series) total += s->target;
  for (;;) {
    bool any = false;
    int64_t done = 0;
    for (Series *s : series) {
      if (s->done < s->target) {
        await_ready(p);
        if (stop_requested() || p.dest_stopped) {
          progress.finish(done, total);
          return true;
        }
        time_chunk(clock, p, *s, stall, loop_timeout, trial_id, run_start, kChunkSeconds);
        any = true;
      }
      done += s->done;
    }
    progress.update(done, total);
    if (!any) {
      progress.finish(done, total);
      return false;
    }
  }
}

/// Dest: answers chunks of trials until source sends a chunk of 0. Before each chunk it sends a ready
/// note with its own stop request, then waits for the control message, spinning: the first trial of a
/// chunk must find dest as awake as the others (docs/method.md, "Between chunks"). first_extra_s allows for
/// source's timer calibration before the first chunk.
void answer_trials(Pair &p, double first_extra_s) {
  void *buf = p.buffer.data();
  std::unique_ptr<StallWatch> stall;
  int64_t stall_limit_us = -1;
  const Waiting barrier_wait = p.waiting("phase 'trials': the pair barrier before a trial");
  double extra_s = first_extra_s;
  for (int64_t trial = 0;;) {
    int stop = stop_requested() ? 1 : 0;
    check_mpi(MPI_Send(&stop, 1, MPI_INT, kSourceInPair, kTagReady, p.comm), "MPI_Send (ready)");
    int64_t control[3] = {0, 0, 0};
    MPI_Request req;
    check_mpi(MPI_Irecv(control, 3, MPI_INT64_T, kSourceInPair, kTagControl, p.comm, &req), "MPI_Irecv (control)");
    // Spinning between chunks: a dest that slept there made the first trial of a chunk 1.4-2.1 times the
    // chunk's median (1.02-1.28 spinning; docs/method.md, "Between chunks"). Only the first wait, which spans
    // source's timer calibration, yields: there is no trial to spoil, and the processor may be shared.
    const Waiting control_wait = p.waiting("phase 'trials': source's control message between chunks", extra_s);
    if (extra_s > 0.0) wait_yielding(req, control_wait);
    else wait_spinning(req, control_wait);
    extra_s = 0.0;
    const int64_t next = control[0], npp = control[1];
    if (next == 0) return;
    if (control[2] != stall_limit_us) {  // the loop's limit changed (Part 2 to Part 3, or a longer npp)
      stall.reset();
      stall_limit_us = control[2];
      stall = std::make_unique<StallWatch>(static_cast<double>(stall_limit_us) * 1e-6, p.my_rank, p.peer_rank,
                                           "phase 'trials' on dest");
    }
    for (int64_t k = 0; k < next; ++k, ++trial) {
      check_mpi(MPI_Ibarrier(p.comm, &req), "MPI_Ibarrier");
      wait_spinning(req, barrier_wait);
      check_mpi(MPI_Send(buf, 1, MPI_DOUBLE, kSourceInPair, kTagHandshake, p.comm), "MPI_Send (hand-shake)");
      int failed = MPI_SUCCESS;
      stall->enter(trial);
      for (int64_t i = 0; i < npp; ++i) {
        failed |= MPI_Recv(buf, p.count, p.type, kSourceInPair, kTagPing, p.comm, MPI_STATUS_IGNORE);
        failed |= MPI_Send(buf, p.count, p.type, kSourceInPair, kTagPing, p.comm);
      }
      stall->leave(trial);
      if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Recv/MPI_Send (ping-pong)");
    }
  }
}

/// Source: the chunk of 0 trials that ends answer_trials on dest.
void end_trials(Pair &p) {
  await_ready(p);
  int64_t control[3] = {0, 0, 0};
  check_mpi(MPI_Send(control, 3, MPI_INT64_T, kDestInPair, kTagControl, p.comm), "MPI_Send (control)");
  p.have_ready = false;
}

/// What source and dest share, as far as the platform tells (bits of lat_place_share).
int shared_bits(const lat_rank_place &a, const lat_rank_place &b) {
  const bool node = a.node == b.node;
  int bits = node ? LAT_SHARE_NODE : LAT_SHARE_KNOWN_SOCKET | LAT_SHARE_KNOWN_CORE;  // other nodes share neither
  if (node && a.socket >= 0 && b.socket >= 0) bits |= LAT_SHARE_KNOWN_SOCKET | (a.socket == b.socket ? LAT_SHARE_SOCKET : 0);
  if (node && a.core >= 0 && b.core >= 0) bits |= LAT_SHARE_KNOWN_CORE | (a.core == b.core ? LAT_SHARE_CORE : 0);
  return bits;
}

/// Part 2 (section 3.3) on source: npptrial loops of npp_init ping-pongs, their median per ping-pong (round
/// trip), the npp rule; and the wall time of one of its trials, for `minutes`. Fills r's Part 2 fields.
struct Part2 {
  NppEstimate e;
  double trial_wall_s = 0.0;  // wall time of one trial of the last estimate (barrier, hand-shake, loop)
};
template <class Clock>
Part2 estimate_npp(const Clock &clock, Pair &p, const lat_pingpong_options &opts, const lat_timer_result &cal) {
  Part2 part;
  const double unit_us = clock.unit() * 1e6;
  part.e = guarded_npp_estimate(opts.npp_init, opts.res_npp, cal.res_timing_us, [&](int64_t loop, bool &stopped) {
    Series s(loop, opts.npptrial, false);
    Progress progress(opts.progress != 0, "npp estimate");
    StallWatch stall(opts.timeout_s, p.my_rank, p.peer_rank, "phase 'npp estimate'");
    const auto start = std::chrono::steady_clock::now();
    stopped = time_series(clock, p, {&s}, progress, stall, opts.timeout_s);
    part.trial_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                        static_cast<double>(std::max<int64_t>(s.done, 1));
    const double per_pp = 1.0 / static_cast<double>(loop);
    return median_of(distribution_of(s.tally, [&](int64_t t) { return (static_cast<double>(t) * unit_us - cal.min_ov_us) * per_pp; }));
  });
  return part;
}

/// ntrial for about `minutes` of trials of npp ping-pongs: Part 2's wall time per trial, less its loop,
/// is what a trial costs besides its loop (barrier, hand-shake, chunk messages).
int64_t trials_for_minutes(double minutes, const Part2 &part, int64_t npp) {
  const auto loop_s = [&](int64_t n) { return static_cast<double>(n) * part.e.median_ppt_us * 1e-6; };
  const double besides = std::max(0.0, part.trial_wall_s - loop_s(part.e.npp_init));
  const double per_trial = std::max(besides + loop_s(npp), 1e-9);
  return std::clamp<int64_t>(static_cast<int64_t>(std::llround(minutes * 60.0 / per_trial)), 1, int64_t{1} << 40);
}

/// The one-way time in us of a loop of `ticks` holding npp ping-pongs.
struct OneWay {
  double unit_us, min_ov_us, per_one_way;
  OneWay(double unit_s, double min_ov, int64_t npp) : unit_us(unit_s * 1e6), min_ov_us(min_ov), per_one_way(1.0 / (2.0 * static_cast<double>(npp))) {}
  double operator()(int64_t ticks) const { return (static_cast<double>(ticks) * unit_us - min_ov_us) * per_one_way; }
};

std::vector<TrialChunk> one_way_chunks(const std::vector<RawChunk> &raw, const OneWay &one_way) {
  std::vector<TrialChunk> chunks;
  chunks.reserve(raw.size());
  for (const RawChunk &c : raw)
    chunks.push_back({c.first_trial, c.count, c.start_s, c.end_s, one_way(c.least), one_way(c.median), one_way(c.first)});
  return chunks;
}

/// Source's side of lat_pingpong_stats after the calibration: Part 2 (when npp is 0, and by default also
/// when it is given), then the trials. A timeout in the trials keeps what was measured (pp.failure says why
/// it ended); one in the estimate throws.
template <class Clock>
void measure_on_source(const Clock &clock, Pair &p, const lat_pingpong_options &opts,
                       const lat_timer_result &cal, PingPong &pp) {
  lat_pingpong_result &r = pp.result;
  Part2 part;
  if (r.estimate) {
    part = estimate_npp(clock, p, opts, cal);
    r.median_ppt_us = part.e.median_ppt_us;
    r.npp_init = part.e.npp_init;
    r.npp_calculated = part.e.npp;
    // Stopped; or npp 0 to calculate and a clock that never saw a loop (every rank throws, see below).
    if (part.e.stopped || (opts.npp == 0 && part.e.npp == 0)) {
      if (part.e.stopped) r.partial = LAT_PARTIAL_STOPPED;
      end_trials(p);
      return;
    }
  }
  r.npp_used = opts.npp != 0 ? opts.npp : r.npp_calculated;
  if (opts.minutes > 0.0) r.ntrial = trials_for_minutes(opts.minutes, part, r.npp_used);
  Series s(r.npp_used, r.ntrial, true);
  const double loop_timeout = loop_timeout_s(opts.timeout_s, r.npp_used, r.median_ppt_us);
  Progress progress(opts.progress != 0, "ping-pong trials");
  StallWatch stall(loop_timeout, p.my_rank, p.peer_rank, "phase 'trials'");
  try {
    if (time_series(clock, p, {&s}, progress, stall, loop_timeout)) r.partial = LAT_PARTIAL_STOPPED;
    end_trials(p);
  } catch (const TimeoutError &) {
    r.partial = LAT_PARTIAL_TIMEOUT;
    pp.failure = std::current_exception();
  }
  r.ntrial_done = s.done;
  const OneWay one_way(clock.unit(), cal.min_ov_us, r.npp_used);
  pp.dist = distribution_of(s.tally, one_way);
  pp.chunks = one_way_chunks(s.chunks, one_way);
}

/// Every rank, on the shared result: a clock that never saw a loop of the estimate ends the measurement
/// with the same error everywhere (never a silent npp of LAT_NPP_MAX).
void throw_if_clock_blind(const lat_pingpong_result &r, const lat_pingpong_options &opts) {
  if (opts.npp != 0 || r.partial != LAT_COMPLETE || r.npp_calculated != 0) return;
  throw UnsupportedError(std::string("the timer ") + timer_name(opts.timer) + " read 0 for the median loop of the npp estimate even at " +
                         std::to_string(r.npp_init) + " ping-pongs per loop (doubled from npp_init " +
                         std::to_string(opts.npp_init) + "): it is too coarse here; choose another timer or give --npp");
}

void fill_statistics(PingPong &pp) {
  lat_pingpong_result &r = pp.result;
  r.all = describe(pp.dist, r.bytes);
  r.all_q = quantiles_of(pp.dist);
  r.cut_off_us = r.cut_coef * r.all.median_us;
  const Distribution kept = at_most(pp.dist, r.cut_off_us);
  r.filtered = describe(kept, r.bytes);
  r.filtered_q = quantiles_of(kept);
  r.n_kept = r.filtered.count;
  r.n_removed = r.all.count - r.n_kept;
  // The run over time: levels of the chunk medians, and the warnings.
  const std::vector<RunLevel> levels = run_levels(pp.chunks);
  r.nchunks = static_cast<int64_t>(pp.chunks.size());
  r.nlevels = static_cast<int>(std::min<size_t>(levels.size(), LAT_MAX_LEVELS));
  for (int g = 0; g < r.nlevels; ++g) r.level_us[g] = levels[static_cast<size_t>(g)].median_us, r.level_share[g] = levels[static_cast<size_t>(g)].share;
  r.warnings = run_warnings(levels, r.n_removed, r.all.count, nullptr);
}

/// The ping-pong's parts of the measurement frame (lib/common/frame.hpp), on every rank: the ranks' places
/// and the result's common fields; then on the two measuring ranks, in the frame's member part, dest
/// answering chunks and source calibrating and calling work(pair, calibration), which times the chunks and
/// ends them. Returns who measures and who only waits (a timeout inside the trials is kept by work, not
/// thrown, so the result keeps what was measured).
struct Frame {
  int source = 0, dest = 0;
  bool measuring = false;
  std::vector<int> idle_ranks;
};
template <class Work>
Frame run_pair(MeasurementFrame &frame, const lat_pingpong_options &opts, const lat_timer_result *calibration,
               lat_pingpong_result &r, Work &&work) {
  const LibComm &comm = frame.comm();
  const int rank = comm.rank(), size = comm.size();
  Frame f;
  f.source = opts.source;
  f.dest = opts.dest == LAT_LAST_RANK ? size - 1 : opts.dest;
  r.bytes = opts.bytes >= 0 ? opts.bytes : 8 * opts.n;
  r.n = opts.bytes >= 0 ? -1 : opts.n;
  r.estimate = opts.npp == 0 || opts.estimate != 0 ? 1 : 0;
  r.npptrial = r.estimate ? opts.npptrial : 0;
  r.npp_init = r.estimate ? opts.npp_init : 0;
  r.res_npp = opts.res_npp;
  r.ntrial = opts.ntrial;
  r.minutes = opts.minutes;
  r.nprocs = size;
  r.cut_coef = opts.cut_coef;
  r.source = f.source;
  r.dest = f.dest;
  r.timer = opts.timer;
  // Every rank: where it runs (collective: node numbering), before anything is timed.
  const LocalPlace here = place_of_this_rank(comm.get(), rank);
  f.measuring = rank == f.source || rank == f.dest;
  if (!f.measuring) return f;
  for (int k = 0; k < size; ++k)
    if (k != f.source && k != f.dest) f.idle_ranks.push_back(k);
  // Dest's first wait spans the source's timer calibration, when it is done here.
  const double calibration_s = follower_first_wait_s(calibration, opts.nr);
  // The two measuring ranks get a communicator of their own for the per-trial barrier (collective over the
  // two only: the others go straight to waiting for the result).
  frame.run_member({f.source, f.dest}, kTagName, [&](MPI_Comm pair_comm) {
    Pair p;
    p.comm = pair_comm;
    p.my_rank = rank;
    p.peer_rank = rank == f.source ? f.dest : f.source;
    p.peer = "rank " + std::to_string(p.peer_rank);
    p.timeout_s = opts.timeout_s;
    const size_t doubles = std::max<size_t>(1, (static_cast<size_t>(r.bytes) + 7) / 8);
    p.buffer.assign(doubles, 0.0);
    p.count = static_cast<int>(opts.bytes >= 0 ? opts.bytes : opts.n);
    p.type = opts.bytes >= 0 ? MPI_BYTE : MPI_DOUBLE;
    if (rank == f.dest) {
      check_mpi(MPI_Send(&here.place, sizeof here.place, MPI_BYTE, kSourceInPair, kTagName, p.comm), "MPI_Send");
      answer_trials(p, calibration_s);
    } else {
      MPI_Request req;
      check_mpi(MPI_Irecv(&r.dest_place, sizeof r.dest_place, MPI_BYTE, kDestInPair, kTagName, p.comm, &req), "MPI_Irecv");
      wait_spinning(req, p.waiting("phase 'start': dest's place"));
      r.source_place = here.place;
      r.shared = shared_bits(r.source_place, r.dest_place);
      copy_c_string(r.source_host, r.source_place.host);
      copy_c_string(r.dest_host, r.dest_place.host);
      const Calibration c = leader_calibration(calibration, opts.timer, opts.nr, rank, opts.progress != 0);
      const lat_timer_result &cal = c.result;
      if (c.interrupted) r.partial = LAT_PARTIAL_STOPPED;
      r.res_timing_us = cal.res_timing_us;
      r.min_ov_us = cal.min_ov_us;
      r.unit_us = cal.unit_us > 0.0 ? cal.unit_us : with_clock(opts.timer, [](const auto &clock) { return clock.unit() * 1e6; });
      if (r.partial != LAT_COMPLETE) {
        end_trials(p);
      } else {
        work(p, cal);
      }
    }
  });
  return f;
}

}  // namespace

PingPong pingpong_stats(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                        bool want_dist) {
  MeasurementFrame frame(user_comm, opts.timeout_s);
  const LibComm &comm = frame.comm();
  const int rank = comm.rank();
  frame.agree(check_pingpong_options(opts, comm.size(), rank, calibration), pingpong_shared_values(opts));
  PingPong pp;
  lat_pingpong_result &r = pp.result;
  const Frame f = run_pair(frame, opts, calibration, r, [&](Pair &p, const lat_timer_result &cal) {
    with_clock(opts.timer, [&](const auto &clock) { measure_on_source(clock, p, opts, cal, pp); });
  });
  if (!f.measuring) {
    // Only the result is waited for, without a time limit (the measurement may take hours); if a
    // measuring rank gives up, its failure note ends the wait.
    std::vector<double> chunks;
    share_from_root(&r, sizeof r, pp.dist, want_dist, f.source, comm.get(), frame.result_wait(false, ""),
                    &frame.listener(), &chunks);
    pp.chunks = unpack_chunks(chunks);
    throw_if_clock_blind(r, opts);
    return pp;
  }
  if (rank == f.source) fill_statistics(pp);
  if (pp.failure) {
    // Source timed out in the trials: the others learn why; the result here keeps what was measured.
    try {
      std::rethrow_exception(pp.failure);
    } catch (const TimeoutError &e) {
      report_failure(comm.get(), f.idle_ranks, Fault::timeout, e.what());
    }
    return pp;
  }
  try {
    std::vector<double> chunks = pack_chunks(pp.chunks);
    share_from_root(&r, sizeof r, pp.dist, want_dist, f.source, comm.get(),
                    frame.result_wait(true, "phase 'result': sharing the result"), nullptr, &chunks);
    pp.chunks = want_dist ? unpack_chunks(chunks) : std::vector<TrialChunk>{};
  } catch (const TimeoutError &) {
    if (rank != f.source) throw;
    // The measurement is done; a rank that stopped listening must not cost the source its result.
    pp.failure = std::current_exception();
  }
  throw_if_clock_blind(r, opts);
  return pp;
}

std::string check_study_values(const int64_t *values, int nvalues, bool by_res_npp, const lat_pingpong_options &opts) {
  const char *name = by_res_npp ? "res_npp study" : "npp study";
  if (nvalues < 1 || nvalues > LAT_STUDY_MAX)
    return fmt::format("the {} must have 1 to {} values, got {}", name, LAT_STUDY_MAX, nvalues);
  if (values == nullptr) return fmt::format("the {} values must not be NULL", name);
  for (int i = 0; i < nvalues; ++i) {
    if (values[i] < 1 || values[i] > LAT_NPP_MAX)
      return fmt::format("the {} values must be in 1..{}, got {}", name, LAT_NPP_MAX, values[i]);
    for (int j = 0; j < i; ++j)
      if (values[j] == values[i]) return fmt::format("the {} has the value {} twice", name, values[i]);
  }
  if (opts.npp != 0) return got("npp must be 0 (not given) in an npp study, which sets it per value", opts.npp);
  if (opts.minutes != 0.0) return got("minutes must be 0 in an npp study (ntrial is per value)", opts.minutes);
  return "";
}

NppStudy npp_study(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                   const int64_t *given, int nvalues, bool by_res_npp) {
  MeasurementFrame frame(user_comm, opts.timeout_s);
  const LibComm &comm = frame.comm();
  const int rank = comm.rank();
  std::string bad = check_pingpong_options(opts, comm.size(), rank, calibration);
  if (bad.empty()) bad = check_study_values(given, nvalues, by_res_npp, opts);
  std::vector<Shared> shared = pingpong_shared_values(opts);
  shared.push_back(Shared::integer("by_res_npp", by_res_npp ? 1 : 0));
  shared.push_back(Shared::integer("nvalues", nvalues));
  const std::vector<int64_t> values = bad.empty() ? std::vector<int64_t>(given, given + nvalues) : std::vector<int64_t>{};
  for (size_t i = 0; i < LAT_STUDY_MAX; ++i)  // a fixed count: the agreement's message has one length everywhere
    shared.push_back(Shared::integer("study value", i < values.size() ? values[i] : 0));
  frame.agree(bad, shared);

  lat_pingpong_options o = opts;
  if (by_res_npp) o.estimate = 1;  // the rule needs Part 2's median
  NppStudy study;
  lat_pingpong_result &r = study.result;
  study.rows.assign(values.size(), lat_npp_study_row{});
  std::exception_ptr failure;
  const Frame f = run_pair(frame, o, calibration, r, [&](Pair &p, const lat_timer_result &cal) {
    with_clock(o.timer, [&](const auto &clock) {
      if (r.estimate) {
        const Part2 part = estimate_npp(clock, p, o, cal);
        r.median_ppt_us = part.e.median_ppt_us;
        r.npp_init = part.e.npp_init;
        r.npp_calculated = part.e.npp;
        if (part.e.stopped || (by_res_npp && part.e.npp == 0)) {
          if (part.e.stopped) r.partial = LAT_PARTIAL_STOPPED;
          end_trials(p);
          return;
        }
      }
      std::vector<Series> series;
      series.reserve(values.size());
      for (int64_t v : values)
        series.emplace_back(by_res_npp ? npp_rule(v, cal.res_timing_us, r.median_ppt_us) : v, o.ntrial, false);
      std::vector<Series *> order;
      int64_t longest = 1;
      for (Series &s : series) order.push_back(&s), longest = std::max(longest, s.npp);
      const double loop_timeout = loop_timeout_s(o.timeout_s, longest, r.median_ppt_us);
      Progress progress(o.progress != 0, "npp study");
      StallWatch stall(loop_timeout, p.my_rank, p.peer_rank, "phase 'npp study'");
      try {
        if (time_series(clock, p, order, progress, stall, loop_timeout)) r.partial = LAT_PARTIAL_STOPPED;
        end_trials(p);
      } catch (const TimeoutError &) {
        r.partial = LAT_PARTIAL_TIMEOUT;
        failure = std::current_exception();
      }
      for (size_t i = 0; i < series.size(); ++i) {
        const Distribution d = distribution_of(series[i].tally, OneWay(clock.unit(), cal.min_ov_us, series[i].npp));
        lat_npp_study_row &row = study.rows[i];
        row.npp = series[i].npp;
        row.res_npp = by_res_npp ? values[i] : 0;
        row.stats = describe(d, r.bytes);
        row.q = quantiles_of(d);
        r.ntrial_done += series[i].done;
      }
    });
  });
  if (rank == f.source && failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const TimeoutError &e) {
      report_failure(comm.get(), f.idle_ranks, Fault::timeout, e.what());
    }
    std::rethrow_exception(failure);
  }
  Distribution none;
  const Waiting w = frame.result_wait(f.measuring, "phase 'result': sharing the study");
  FailureListener *l = f.measuring ? nullptr : &frame.listener();
  share_from_root(&r, sizeof r, none, false, f.source, comm.get(), w, l);
  bcast_yielding(study.rows.data(), static_cast<int>(study.rows.size() * sizeof(lat_npp_study_row)), MPI_BYTE, f.source,
                 comm.get(), w, l);
  if (by_res_npp && r.partial == LAT_COMPLETE && r.npp_calculated == 0)
    throw UnsupportedError(std::string("the timer ") + timer_name(opts.timer) +
                           " read 0 for the median loop of the npp estimate: a res_npp study cannot turn res_npp into npp");
  return study;
}

}  // namespace lat
