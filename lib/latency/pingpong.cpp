#include "latency/pingpong.hpp"

#include <algorithm>
#include <functional>
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
#include "common/harness.hpp"
#include "common/run_context.hpp"
#include "common/c_string.hpp"
#include "common/failure_notes.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "common/line_placement.hpp"
#include "common/placement.hpp"
#include "common/run_levels.hpp"


namespace lat {

namespace {

enum Tag { kTagPing = 1, kTagHandshake = 2, kTagMembers = 4 };  // kTagMembers: the pair's communicator made
constexpr int kSourceInPair = 0, kDestInPair = 1;

// A chunk of trials runs between two agreements of the pair (the run context's agree_chunk): the stop asked
// on either rank, the chunk's count, npp and the watchdog's limit travel there, never inside a timed loop. A
// chunk lasts ~0.25 s of wall clock whatever its count (longer in long runs, see chunk_target_s): source
// reads the clock between trials and tells dest in the pair's per-trial synchronisation whether another trial
// follows. Each chunk's count, minimum, median, p90, p99, mean, maximum and trials per second are kept: the
// run over time.
constexpr double kChunkSeconds = 0.25;
constexpr int64_t kMaxChunk = int64_t{1} << 24;  // trials of one chunk at most (a fast clock's sanity cap)

/// Chunks of kChunkSeconds, and of a thousandth of the run so far once that is longer: a few thousand
/// chunks even for an hour's run (~2,700), each with its exact median.
double chunk_target_s(double run_so_far_s) { return std::max(kChunkSeconds, run_so_far_s / 1000.0); }

/// The two measuring ranks and their message.
struct Pair {
  RunContext *run = nullptr;      // the harness's: clock, watchdog, progress line, the waits' words
  MPI_Comm comm = MPI_COMM_NULL;  // source is 0, dest is 1
  std::vector<double> buffer;     // at least one double, for the hand-shake
  int count = 0;
  MPI_Datatype type = MPI_DOUBLE;
  bool ended = false;             // dest has left answer_trials (a stop agreed, or a chunk of 0)

  Waiting waiting(const char *phase, double extra_s = 0.0) const { return run->waiting(phase, extra_s); }
};

/// What source says of the next chunk: at most `most` trials (0: no more chunks) of npp ping-pongs each,
/// under a watchdog whose limit in a timed loop is limit_us.
struct ChunkControl {
  int64_t most = 0, npp = 0, limit_us = 0;
};

/// Source, and dest with nothing to say: the next chunk's control agreed between the two, and whether a stop
/// was asked on either (the run context's one agreement between chunks; counts and microseconds travel
/// exactly as doubles). first_extra_s: dest's first wait spans source's timer calibration.
bool agree_next_chunk(Pair &p, ChunkControl &c, bool source, double first_extra_s = 0.0) {
  constexpr double kNo = RunContext::kNoWord;
  double words[3] = {kNo, kNo, kNo};
  if (source)
    words[0] = static_cast<double>(c.most), words[1] = static_cast<double>(c.npp), words[2] = static_cast<double>(c.limit_us);
  const bool stop = p.run->agree_chunk(words, 3, first_extra_s,
                                       source ? "phase 'trials': dest's agreement between chunks"
                                              : "phase 'trials': source's control between chunks");
  c = {std::llround(words[0]), std::llround(words[1]), std::llround(words[2])};
  if (stop || c.most == 0) p.ended = true;
  return stop;
}

/// A chunk as measured, in the clock's ticks (converted to one-way us by the caller).
struct RawChunk {
  int64_t first_trial, count;
  double start_s, end_s;
  int64_t first, least, median, p90, p99, most;  // first trial, minimum, (lower) median, p90, p99, maximum
  double mean;                                   // mean, in ticks
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
  bool target_extra = false;      // its target reached, it takes turns on with the others (an npp study)
  double first_start_s = -1.0, last_end_s = 0.0;  // the span of its chunks, seconds since the run began
  std::vector<int64_t> in_chunk;  // this chunk's ticks, for its median and percentiles
};

/// The nearest-rank pct-th percentile of v, which is reordered.
int64_t nearest_rank_in_place(std::vector<int64_t> &v, double pct) {
  const auto k = static_cast<std::ptrdiff_t>(nearest_rank(pct, static_cast<int64_t>(v.size())) - 1);
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[static_cast<size_t>(k)];
}

/// The chunk just timed, from its ticks (s.in_chunk, emptied).
RawChunk raw_chunk(Series &s, double start_s, double end_s) {
  std::vector<int64_t> &t = s.in_chunk;
  RawChunk c{};
  c.count = static_cast<int64_t>(t.size());
  c.first_trial = s.done - c.count;
  c.start_s = start_s;
  c.end_s = end_s;
  c.first = t.front();
  double sum = 0.0;
  c.least = c.most = t.front();
  for (int64_t v : t) sum += static_cast<double>(v), c.least = std::min(c.least, v), c.most = std::max(c.most, v);
  c.mean = sum / static_cast<double>(c.count);
  c.median = lower_median_in_place(t);  // one of the times, as a tally's median
  c.p90 = nearest_rank_in_place(t, 90.0);
  c.p99 = nearest_rank_in_place(t, 99.0);
  t.clear();
  return c;
}

/// The watchdog's limit inside a timed loop: the caller's timeout, but never less than kLoopsPerTimeout
/// expected loops (npp x median_ppt), so a healthy long loop is never taken for a stall.
constexpr double kLoopsPerTimeout = 10.0;
double loop_timeout_s(double timeout_s, int64_t npp, double median_ppt_us) {
  if (timeout_s <= 0.0) return 0.0;
  return std::max(timeout_s, kLoopsPerTimeout * static_cast<double>(npp) * median_ppt_us * 1e-6);
}

/// Source: one chunk of s's trials, each after the pair's synchronisation and the hand-shake, their t2 - t1
/// tallied in the clock's ticks, until target_s of wall clock has passed (read between trials, never between
/// t1 and t2) or `most` trials are done. The caller has agreed the chunk with dest (agree_next_chunk). On a
/// timeout the TimeoutError leaves s holding the trials done.
template <class Clock>
void time_chunk(const Clock &clock, Pair &p, Series &s, int64_t most, int64_t &trial_id,
                std::chrono::steady_clock::time_point run_start, double target_s) {
  void *buf = p.buffer.data();
  const double unit = clock.unit();
  const Waiting sync_wait = p.waiting("phase 'trials': the pair barrier before a trial");
  const Waiting handshake_wait = p.waiting("phase 'trials': the hand-shake before a trial");
  const int64_t npp = s.npp;
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(target_s));
  for (int64_t k = 0;; ++k) {
    // The pair's barrier, which also carries source's word: another trial (1) or the chunk's end (0).
    int go = k < most && (k == 0 || std::chrono::steady_clock::now() < until) ? 1 : 0, both = 0;
    MPI_Request req;
    check_mpi(MPI_Iallreduce(&go, &both, 1, MPI_INT, MPI_MIN, p.comm, &req), "MPI_Iallreduce (barrier)");
    wait_spinning(req, sync_wait);
    if (both == 0) break;
    check_mpi(MPI_Irecv(buf, 1, MPI_DOUBLE, kDestInPair, kTagHandshake, p.comm, &req), "MPI_Irecv (hand-shake)");
    wait_spinning(req, handshake_wait);
    // MPI_SUCCESS is 0: OR-ing the codes costs one integer operation in the loop and no branch;
    // they are checked after the clock is read.
    int failed = MPI_SUCCESS;
    double t1 = 0.0, t2 = 0.0;
    p.run->timed(trial_id, [&] {
      t1 = clock.now();
      for (int64_t i = 0; i < npp; ++i) {
        failed |= MPI_Send(buf, p.count, p.type, kDestInPair, kTagPing, p.comm);
        failed |= MPI_Recv(buf, p.count, p.type, kDestInPair, kTagPing, p.comm, MPI_STATUS_IGNORE);
      }
      t2 = clock.now();
    });
    ++trial_id;
    if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Send/MPI_Recv (ping-pong)");
    const int64_t ticks = to_ticks(t2 - t1, unit);
    s.tally.add(ticks);
    if (s.keep_chunks) s.in_chunk.push_back(ticks);
    ++s.done;
  }
  const auto end = std::chrono::steady_clock::now();
  if (s.first_start_s < 0.0) s.first_start_s = std::chrono::duration<double>(start - run_start).count();
  s.last_end_s = std::chrono::duration<double>(end - run_start).count();
  if (s.keep_chunks && !s.in_chunk.empty())
    s.chunks.push_back(raw_chunk(s, std::chrono::duration<double>(start - run_start).count(),
                                 std::chrono::duration<double>(end - run_start).count()));
}

/// How a series of chunks ended.
enum class SeriesEnd { kDone, kStopped, kDeadline, kPrecise };

/// Source: the series chunk by chunk, in turn (one series: a plain run), until each has its target, a stop
/// is requested here or on dest, or deadline_s (> 0) of wall clock has passed; in the run's phase (its
/// progress line, its watchdog). Every series takes its turn
/// in every round until all have their targets (an npp study's faster values keep taking turns: their extra
/// trials are kept), so no series runs alone at the end. *started_unix_s (may be null): when it began.
/// precise (may be empty): asked after each round, between chunks, whether the trials so far are enough.
template <class Clock>
SeriesEnd time_series(const Clock &clock, Pair &p, std::vector<Series *> series, double loop_timeout,
                      double deadline_s = 0.0, double *started_unix_s = nullptr,
                      const std::function<bool()> &precise = nullptr) {
  const auto run_start = std::chrono::steady_clock::now();
  if (started_unix_s != nullptr)
    *started_unix_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  int64_t total = 0, trial_id = 0;
  for (const Series *s : series) total += s->target;
  const auto done_of = [&] {
    int64_t done = 0;
    for (const Series *s : series) done += std::min(s->done, s->target);
    return done;
  };
  for (;;) {
    bool unfinished = false;
    for (const Series *s : series) unfinished = unfinished || s->done < s->target;
    if (!unfinished) {
      p.run->progress_finish(done_of(), total);
      return SeriesEnd::kDone;
    }
    for (Series *s : series) {
      const double so_far = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
      if (deadline_s > 0.0 && so_far >= deadline_s) {
        p.run->progress_finish(done_of(), total);
        return SeriesEnd::kDeadline;
      }
      if (s->done >= s->target) s->target_extra = true;  // done: its turn goes on, the trials are extra
      ChunkControl c{s->target_extra ? kMaxChunk : std::min(kMaxChunk, s->target - s->done), s->npp,
                     std::llround(loop_timeout * 1e6)};
      if (agree_next_chunk(p, c, true)) {
        p.run->progress_finish(done_of(), total);
        return SeriesEnd::kStopped;
      }
      double target = chunk_target_s(so_far);
      if (deadline_s > 0.0) target = std::min(target, deadline_s - so_far);
      time_chunk(clock, p, *s, c.most, trial_id, run_start, target);
    }
    p.run->progress(done_of(), total);
    if (precise && precise()) {
      p.run->progress_finish(done_of(), total);
      return SeriesEnd::kPrecise;
    }
  }
}

/// Dest: answers chunks of trials until a stop is agreed or source says a chunk of 0; a chunk ends when
/// source's word in the per-trial barrier says so (at most its count). Between chunks it waits in the pair's
/// agreement spinning (the run's wait mode): the first trial of a chunk must find dest as awake as the others
/// (a dest that slept there made it 1.4-2.1 times the chunk's median, 1.02-1.28 spinning; docs/method.md,
/// "Between chunks"). Only the first wait, which spans source's timer calibration (first_extra_s), yields.
void answer_trials(Pair &p, double first_extra_s) {
  void *buf = p.buffer.data();
  int64_t stall_limit_us = -1;
  const Waiting barrier_wait = p.waiting("phase 'trials': the pair barrier before a trial");
  double extra_s = first_extra_s;
  for (int64_t trial = 0;;) {
    ChunkControl c;
    const bool stop = agree_next_chunk(p, c, false, extra_s);
    extra_s = 0.0;
    const int64_t next = c.most, npp = c.npp;
    if (stop || next == 0) return;
    if (c.limit_us != stall_limit_us) {  // the loop's limit changed (Part 2 to Part 3, or a longer npp)
      stall_limit_us = c.limit_us;
      p.run->begin_phase("trials", "phase 'trials' on dest", static_cast<double>(stall_limit_us) * 1e-6);
    }
    MPI_Request req;
    for (int64_t k = 0;; ++k, ++trial) {
      // The pair's barrier, carrying source's word: another trial, or the end of the chunk (its wall clock).
      int go = k < next ? 1 : 0, both = 0;
      check_mpi(MPI_Iallreduce(&go, &both, 1, MPI_INT, MPI_MIN, p.comm, &req), "MPI_Iallreduce (barrier)");
      wait_spinning(req, barrier_wait);
      if (both == 0) break;
      check_mpi(MPI_Send(buf, 1, MPI_DOUBLE, kSourceInPair, kTagHandshake, p.comm), "MPI_Send (hand-shake)");
      int failed = MPI_SUCCESS;
      p.run->timed(trial, [&] {
        for (int64_t i = 0; i < npp; ++i) {
          failed |= MPI_Recv(buf, p.count, p.type, kSourceInPair, kTagPing, p.comm, MPI_STATUS_IGNORE);
          failed |= MPI_Send(buf, p.count, p.type, kSourceInPair, kTagPing, p.comm);
        }
      });
      if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Recv/MPI_Send (ping-pong)");
    }
  }
}

/// Source: the chunk of 0 trials that ends answer_trials on dest, unless dest has left already (a stop).
void end_trials(Pair &p) {
  if (p.ended) return;
  ChunkControl none;
  agree_next_chunk(p, none, true);
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
/// trip), the npp rule. When npp is given the estimate is only reported, so it may cost at most half what the
/// trials are expected to (kReportedShare): a pilot chunk times a trial of each, and Part 2 ends there.
struct Part2 {
  NppEstimate e;
  int64_t trials = 0;  // loops timed in the last estimate (npptrial, or fewer when only reported)
};
constexpr double kReportedShare = 0.5;
template <class Clock>
Part2 estimate_npp(const Clock &clock, Pair &p, const lat_pingpong_options &opts, const lat_timer_result &cal) {
  Part2 part;
  const double unit_us = clock.unit() * 1e6;
  const bool only_reported = opts.npp != 0;
  part.e = guarded_npp_estimate(opts.npp_init, opts.res_npp, cal.res_timing_us, [&](int64_t loop, bool &stopped) {
    Series s(loop, opts.npptrial, false);
    p.run->begin_phase("npp estimate", "phase 'npp estimate'", opts.timeout_s);
    const double per_pp = 1.0 / static_cast<double>(loop);
    const auto median_ppt_us = [&] {
      return median_of(distribution_of(s.tally, [&](int64_t t) { return (static_cast<double>(t) * unit_us - cal.min_ov_us) * per_pp; }));
    };
    SeriesEnd end;
    if (!only_reported) {
      end = time_series(clock, p, {&s}, opts.timeout_s);
    } else {
      const auto start = std::chrono::steady_clock::now();
      end = time_series(clock, p, {&s}, opts.timeout_s, kChunkSeconds);  // the pilot
      if (end == SeriesEnd::kDeadline) {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double trial_s = spent / static_cast<double>(std::max<int64_t>(s.done, 1));
        const double loop_s = std::max(0.0, median_ppt_us()) * 1e-6;
        const double besides = std::max(0.0, trial_s - static_cast<double>(loop) * loop_s);
        const double trials_s = opts.minutes > 0.0 ? 60.0 * opts.minutes
                                                   : static_cast<double>(opts.ntrial) * (besides + static_cast<double>(opts.npp) * loop_s);
        const double budget = kReportedShare * trials_s - spent;
        if (budget > 0.0) end = time_series(clock, p, {&s}, opts.timeout_s, budget);
      }
    }
    stopped = end == SeriesEnd::kStopped;
    part.trials = s.done;
    return median_ppt_us();
  });
  return part;
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
    chunks.push_back({c.first_trial, c.count, c.start_s, c.end_s, one_way(c.least), one_way(c.median), one_way(c.first),
                      one_way(c.p90), one_way(c.p99), (c.mean * one_way.unit_us - one_way.min_ov_us) * one_way.per_one_way,
                      one_way(c.most)});
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
    r.npptrial = part.trials;
    // Stopped; or npp 0 to calculate and a clock that never saw a loop (every rank throws, see below).
    if (part.e.stopped || (opts.npp == 0 && part.e.npp == 0)) {
      if (part.e.stopped) r.partial = LAT_PARTIAL_STOPPED, r.stopped_in = LAT_PHASE_ESTIMATE;
      end_trials(p);
      return;
    }
  }
  // --precision compares a launch with the next: npp must not move between them as the rule's nint may.
  const int64_t held = npp_for_precision(opts.res_npp, cal.res_timing_us, r.median_ppt_us);
  r.npp_held = opts.npp == 0 && opts.precision_pct > 0.0 && held != r.npp_calculated ? 1 : 0;
  r.npp_used = opts.npp != 0 ? opts.npp : opts.precision_pct > 0.0 ? held : r.npp_calculated;
  // --minutes: the trials run for that long by the wall clock (ntrial is then what they reached).
  constexpr int64_t kTrialsForMinutes = int64_t{1} << 40;
  Series s(r.npp_used, opts.minutes > 0.0 ? kTrialsForMinutes : r.ntrial, true);
  const double loop_timeout = loop_timeout_s(opts.timeout_s, r.npp_used, r.median_ppt_us);
  p.run->begin_phase("ping-pong trials", "phase 'trials'", loop_timeout);
  const OneWay one_way(clock.unit(), cal.min_ov_us, r.npp_used);
  // --precision: between chunks, the median's interval within this launch (its batch medians so far) and the
  // run over time so far (both from the chunks; the median of all trials is the interval's centre). A launch
  // claims only what it saw: the lines' placement, which a launch draws once, is a diagnostic in the files,
  // never a term P is held to (a statement over launches is mpilat-campaign's, docs/campaign.md).
  const std::function<bool()> precise = [&] {
    const std::vector<TrialChunk> chunks = one_way_chunks(s.chunks, one_way);
    const double batch = batch_median_half_pct(chunks, median_of(distribution_of(s.tally, one_way)));
    return batch <= opts.precision_pct && run_is_quiet(chunks);
  };
  // Every precision run has a time limit; with minutes as well, the earlier of the two.
  r.precision_limit_s = opts.precision_pct > 0.0 ? precision_limit_s(opts.precision_limit_s) : 0.0;
  double deadline_s = 60.0 * opts.minutes;
  if (r.precision_limit_s > 0.0) deadline_s = deadline_s > 0.0 ? std::min(deadline_s, r.precision_limit_s) : r.precision_limit_s;
  try {
    const SeriesEnd end = time_series(clock, p, {&s}, loop_timeout, deadline_s,
                                      &r.trials_start_unix_s, opts.precision_pct > 0.0 ? precise : nullptr);
    if (end == SeriesEnd::kStopped) r.partial = LAT_PARTIAL_STOPPED, r.stopped_in = LAT_PHASE_TRIALS;
    r.ended_by = end == SeriesEnd::kPrecise    ? LAT_END_PRECISION
                 : end == SeriesEnd::kDeadline ? LAT_END_TIME
                                               : LAT_END_TRIALS;
    if (opts.minutes > 0.0) r.ntrial = s.done;
    end_trials(p);
  } catch (const TimeoutError &) {
    r.partial = LAT_PARTIAL_TIMEOUT, r.stopped_in = LAT_PHASE_TRIALS;
    pp.failure = std::current_exception();
  }
  r.ntrial_done = s.done;
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
  r.median_ci_half_pct = r.precision_pct > 0.0 ? batch_median_half_pct(pp.chunks, r.all.median_us) : 0.0;
  r.between_launches_half_pct =
      r.precision_pct > 0.0 ? between_launches_half_pct(r.median_ci_half_pct, placement_half_pct(r.placement_sd_pct)) : 0.0;
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
  const std::vector<StateChange> changes = state_changes(pp.chunks);
  r.nchanges = static_cast<int>(changes.size());
  for (size_t k = 0; k < changes.size() && k < LAT_MAX_CHANGES; ++k) {
    r.change_quantity[k] = changes[k].quantity;
    r.change_start_s[k] = changes[k].start_s;
    r.change_end_s[k] = changes[k].end_s;
    r.change_before[k] = changes[k].before;
    r.change_after[k] = changes[k].after;
  }
  r.chunk_target_s = chunk_target_s(pp.chunks.empty() ? 0.0 : pp.chunks.back().end_s);
  r.warnings = run_warnings(levels, changes, r.n_removed, r.all.count, nullptr);
}

/// The ping-pong's parts of the measurement harness (lib/common/harness.hpp) that a
/// run and an npp study share: the result's common fields and every rank's place (numbered among all the
/// ranks, as the result reports it); source leads and dest follows on a communicator of their own (for the
/// per-trial barrier), always spinning (a waking rank would be timed); dest answers chunks; source learns
/// dest's place, calibrates and calls its work (which times the chunks and ends them, a timeout inside the
/// trials kept, not thrown, so the result keeps what was measured). The run's phases (npp estimate, trials,
/// study) each set the context's watchdog and progress line.
class PairTrials {
 public:
  PairTrials(const lat_pingpong_options &opts, const lat_timer_result *calibration, lat_pingpong_result &r)
      : opts_(opts), calibration_(calibration), r_(r) {}

  /// This rank, the pair (dest the last rank where asked) and, for a study, its values.
  struct Plan {
    int rank = 0, source = 0, dest = 0;
    std::vector<int64_t> values;
  };

  RunSettings settings(const Plan &) const {
    return {opts_.timeout_s, opts_.timer, opts_.progress != 0, "ping-pong trials", "phase 'trials'", LAT_WAIT_SPIN};
  }

  Members members(MeasurementFrame &frame, const Plan &plan) {
    const LibComm &comm = frame.comm();
    rank_ = plan.rank;
    const int size = comm.size();
    source_ = plan.source;
    dest_ = plan.dest;
    r_.bytes = opts_.bytes >= 0 ? opts_.bytes : 8 * opts_.n;
    r_.n = opts_.bytes >= 0 ? -1 : opts_.n;
    r_.estimate = opts_.npp == 0 || opts_.estimate != 0 ? 1 : 0;
    r_.npptrial = r_.estimate ? opts_.npptrial : 0;
    r_.npp_init = r_.estimate ? opts_.npp_init : 0;
    r_.res_npp = opts_.res_npp;
    r_.ntrial = opts_.ntrial;
    r_.minutes = opts_.minutes;
    r_.precision_pct = opts_.precision_pct;
    r_.nprocs = size;
    r_.cut_coef = opts_.cut_coef;
    r_.source = source_;
    r_.dest = dest_;
    r_.timer = opts_.timer;
    // Every rank: where it runs (collective: nodes numbered among all the ranks, as the result reports them),
    // before anything is timed; the run context takes it, and exchanges the pair's places.
    frame.place();
    for (int k = 0; k < size; ++k)
      if (k != source_ && k != dest_) idle_ranks_.push_back(k);
    return Members::some({source_, dest_}, source_, kTagMembers);
  }

  /// The message buffer: at least one double, for the hand-shake.
  std::string allocate(const Plan &, bool measuring) {
    if (!measuring) return "";
    try {
      p_.buffer.assign(std::max<size_t>(1, (static_cast<size_t>(r_.bytes) + 7) / 8), 0.0);
    } catch (const std::bad_alloc &) {
      return "cannot allocate the " + std::to_string(r_.bytes) + "-byte message";
    }
    return "";
  }

  /// Dest: the trials answered.
  void follow(RunContext &run, const Plan &) {
    join(run);
    if (opts_.precision_pct > 0.0) measure_line_placement(p_.comm, false, kPlacementLimitS);
    // Dest's first wait spans the source's timer calibration, when it is done here.
    answer_trials(p_, follower_first_wait_s(calibration_, opts_.nr));
  }

 protected:
  /// The pair of the options on frame's ranks.
  Plan pair_plan(const MeasurementFrame &frame) const {
    return {frame.rank(), opts_.source, opts_.dest == LAT_LAST_RANK ? frame.size() - 1 : opts_.dest, {}};
  }

  /// Source: the pair's places (the run context's), the calibration, then work(p, calibration), unless the
  /// calibration was stopped.
  template <class Work>
  void lead_trials(RunContext &run, Work &&work) {
    join(run);
    r_.source_place = run.places()[kSourceInPair];
    r_.dest_place = run.places()[kDestInPair];
    r_.shared = shared_bits(r_.source_place, r_.dest_place);
    copy_c_string(r_.source_host, r_.source_place.host);
    copy_c_string(r_.dest_host, r_.dest_place.host);
    // --precision: where the lines land, before anything else is timed (dest answers in follow).
    if (opts_.precision_pct > 0.0) {
      const LinePlacement lines = measure_line_placement(p_.comm, true, kPlacementLimitS);
      r_.placement_lines = static_cast<int>(lines.level_us.size());
      r_.placement_sd_pct = lines.sd_pct();
    }
    const Calibration c = leader_calibration(calibration_, opts_.timer, opts_.nr, rank_, opts_.progress != 0);
    const lat_timer_result &cal = c.result;
    if (c.interrupted) r_.partial = LAT_PARTIAL_STOPPED, r_.stopped_in = LAT_PHASE_CALIBRATION;
    r_.res_timing_us = cal.res_timing_us;
    r_.min_ov_us = cal.min_ov_us;
    r_.unit_us = cal.unit_us > 0.0 ? cal.unit_us : run.with_clock([](const auto &clock) { return clock.unit() * 1e6; });
    if (r_.partial != LAT_COMPLETE)
      end_trials(p_);
    else
      work(p_, cal);
  }

  /// Source, after a timeout in the trials: the ranks that only wait learn why (dest knows already).
  void tell_idle_ranks(MPI_Comm comm, const std::exception_ptr &failure) const {
    try {
      std::rethrow_exception(failure);
    } catch (const TimeoutError &e) {
      report_failure(comm, idle_ranks_, Fault::timeout, e.what());
    }
  }

  const lat_pingpong_options &opts_;
  const lat_timer_result *calibration_;
  lat_pingpong_result &r_;
  int rank_ = 0, source_ = 0, dest_ = 0;

 private:
  void join(RunContext &run) {
    p_.run = &run;
    p_.comm = run.comm();
    p_.count = static_cast<int>(opts_.bytes >= 0 ? opts_.bytes : opts_.n);
    p_.type = opts_.bytes >= 0 ? MPI_BYTE : MPI_DOUBLE;
  }

  std::vector<int> idle_ranks_;
  Pair p_;
};

/// lat_pingpong_stats's parts: source times the chunks and shares the result with its distribution.
class PingPongRun : public PairTrials {
 public:
  using Result = PingPong;
  PingPongRun(const lat_pingpong_options &opts, const lat_timer_result *calibration, bool want_dist)
      : PairTrials(opts, calibration, pp_.result), want_dist_(want_dist) {}

  Checked<Plan> check(MeasurementFrame &frame) const {
    return {check_pingpong_options(opts_, frame.size(), frame.rank(), calibration_), pair_plan(frame)};
  }
  std::vector<Shared> shared(const Plan &) const { return pingpong_shared_values(opts_); }

  PingPong lead(RunContext &run, const Plan &) {
    lead_trials(run, [&](Pair &p, const lat_timer_result &cal) {
      run.with_clock([&](const auto &clock) { measure_on_source(clock, p, opts_, cal, pp_); });
    });
    fill_statistics(pp_);
    return std::move(pp_);
  }

  /// The result with its distribution and chunks (the harness's bytes are not used): waited for without a
  /// time limit where only waiting (a measurement may take hours), a measuring rank's failure note ending
  /// the wait. Source, timed out in the trials: the others learn why, the result here keeps what was
  /// measured; a rank that stopped listening afterwards must not cost it its result either.
  PingPong share(MeasurementFrame &frame, PingPong mine, int, bool measuring) {
    PingPong pp = rank_ == source_ ? std::move(mine) : std::move(pp_);  // elsewhere: the common fields
    const MPI_Comm comm = frame.comm().get();
    lat_pingpong_result &r = pp.result;
    if (!measuring) {
      std::vector<double> chunks;
      share_from_root(&r, sizeof r, pp.dist, want_dist_, source_, comm, frame.result_wait(false, ""),
                      &frame.listener(), &chunks);
      pp.chunks = unpack_chunks(chunks);
      return pp;
    }
    if (pp.failure) {
      tell_idle_ranks(comm, pp.failure);
      shared_ = false;
      return pp;
    }
    try {
      std::vector<double> chunks = pack_chunks(pp.chunks);
      share_from_root(&r, sizeof r, pp.dist, want_dist_, source_, comm,
                      frame.result_wait(true, "phase 'result': sharing the result"), nullptr, &chunks);
      pp.chunks = want_dist_ ? unpack_chunks(chunks) : std::vector<TrialChunk>{};
    } catch (const TimeoutError &) {
      if (rank_ != source_) throw;
      pp.failure = std::current_exception();
    }
    return pp;
  }

  /// Every rank: a clock blind to the estimate's loops is the same error everywhere.
  void complete(PingPong &pp) const {
    if (shared_) throw_if_clock_blind(pp.result, opts_);
  }

 private:
  PingPong pp_;
  bool want_dist_;
  bool shared_ = true;  // false: source timed out in the trials; its partial result is returned as it is
};

/// lat_npp_study's parts: the values take turns until each has ntrial trials; the rows shared.
class StudyRun : public PairTrials {
 public:
  using Result = NppStudy;
  StudyRun(const lat_pingpong_options &opts, const lat_timer_result *calibration, const int64_t *given, int nvalues,
           bool by_res_npp)
      // The base keeps references to o_ and study_, constructed after it and read only once they are.
      : PairTrials(o_, calibration, study_.result), o_(opts), given_(given), nvalues_(nvalues), by_res_npp_(by_res_npp) {
    if (by_res_npp) o_.estimate = 1;  // the rule needs Part 2's median
  }

  Checked<Plan> check(MeasurementFrame &frame) const {
    Checked<Plan> c{check_pingpong_options(o_, frame.size(), frame.rank(), calibration_), pair_plan(frame)};
    if (c.complaint.empty()) c.complaint = check_study_values(given_, nvalues_, by_res_npp_, o_);
    if (c.complaint.empty()) c.plan.values.assign(given_, given_ + nvalues_);
    return c;
  }

  std::vector<Shared> shared(const Plan &plan) const {
    std::vector<Shared> shared = pingpong_shared_values(o_);
    shared.push_back(Shared::integer("by_res_npp", by_res_npp_ ? 1 : 0));
    shared.push_back(Shared::integer("nvalues", nvalues_));
    for (size_t i = 0; i < LAT_STUDY_MAX; ++i)  // a fixed count: the agreement's message has one length everywhere
      shared.push_back(Shared::integer("study value", i < plan.values.size() ? plan.values[i] : 0));
    return shared;
  }

  /// The pair's part, and the values (which the rows, here and where they are shared, follow).
  Members members(MeasurementFrame &frame, const Plan &plan) {
    values_ = plan.values;
    return PairTrials::members(frame, plan);
  }

  NppStudy lead(RunContext &run, const Plan &) {
    study_.rows.assign(values_.size(), lat_npp_study_row{});
    lead_trials(run, [&](Pair &p, const lat_timer_result &cal) {
      run.with_clock([&](const auto &clock) { study(clock, p, cal); });
    });
    return std::move(study_);
  }

  /// The result and its rows from source; source, timed out in the trials, tells the ranks that only wait
  /// and throws.
  NppStudy share(MeasurementFrame &frame, NppStudy mine, int, bool measuring) {
    if (failure_) {
      tell_idle_ranks(frame.comm().get(), failure_);
      std::rethrow_exception(failure_);
    }
    NppStudy study = rank_ == source_ ? std::move(mine) : std::move(study_);  // elsewhere: the common fields
    study.rows.resize(values_.size());
    Distribution none;
    const Waiting w = frame.result_wait(measuring, "phase 'result': sharing the study");
    FailureListener *l = measuring ? nullptr : &frame.listener();
    share_from_root(&study.result, sizeof study.result, none, false, source_, frame.comm().get(), w, l);
    bcast_yielding(study.rows.data(), static_cast<int>(study.rows.size() * sizeof(lat_npp_study_row)), MPI_BYTE,
                   source_, frame.comm().get(), w, l);
    return study;
  }

  /// Every rank: a clock blind to the estimate's loops cannot turn res_npp into npp, the same error everywhere.
  void complete(NppStudy &study) const {
    const lat_pingpong_result &r = study.result;
    if (by_res_npp_ && r.partial == LAT_COMPLETE && r.npp_calculated == 0)
      throw UnsupportedError(std::string("the timer ") + timer_name(o_.timer) +
                             " read 0 for the median loop of the npp estimate: a res_npp study cannot turn res_npp into npp");
  }


 private:
  /// Source: Part 2's estimate where asked, then the values' series in turns, then a row each.
  template <class Clock>
  void study(const Clock &clock, Pair &p, const lat_timer_result &cal) {
    lat_pingpong_result &r = study_.result;
    if (r.estimate) {
      const Part2 part = estimate_npp(clock, p, o_, cal);
      r.median_ppt_us = part.e.median_ppt_us;
      r.npp_init = part.e.npp_init;
      r.npp_calculated = part.e.npp;
      r.npptrial = part.trials;
      if (part.e.stopped || (by_res_npp_ && part.e.npp == 0)) {
        if (part.e.stopped) r.partial = LAT_PARTIAL_STOPPED, r.stopped_in = LAT_PHASE_ESTIMATE;
        end_trials(p);
        return;
      }
    }
    std::vector<Series> series;
    series.reserve(values_.size());
    for (int64_t v : values_)
      series.emplace_back(by_res_npp_ ? npp_rule(v, cal.res_timing_us, r.median_ppt_us) : v, o_.ntrial, false);
    std::vector<Series *> order;
    int64_t longest = 1;
    for (Series &s : series) order.push_back(&s), longest = std::max(longest, s.npp);
    const double loop_timeout = loop_timeout_s(o_.timeout_s, longest, r.median_ppt_us);
    p.run->begin_phase("npp study", "phase 'npp study'", loop_timeout);
    try {
      if (time_series(clock, p, order, loop_timeout) == SeriesEnd::kStopped)
        r.partial = LAT_PARTIAL_STOPPED, r.stopped_in = LAT_PHASE_TRIALS;
      end_trials(p);
    } catch (const TimeoutError &) {
      r.partial = LAT_PARTIAL_TIMEOUT, r.stopped_in = LAT_PHASE_TRIALS;
      failure_ = std::current_exception();
    }
    for (size_t i = 0; i < series.size(); ++i) {
      const Distribution d = distribution_of(series[i].tally, OneWay(clock.unit(), cal.min_ov_us, series[i].npp));
      lat_npp_study_row &row = study_.rows[i];
      row.npp = series[i].npp;
      row.res_npp = by_res_npp_ ? values_[i] : 0;
      row.stats = describe(d, r.bytes);
      row.q = quantiles_of(d);
      row.extra = std::max<int64_t>(0, series[i].done - o_.ntrial);
      row.start_s = std::max(0.0, series[i].first_start_s);
      row.end_s = series[i].last_end_s;
      r.ntrial_done += series[i].done;
    }
  }

  lat_pingpong_options o_;
  const int64_t *given_;
  int nvalues_;
  bool by_res_npp_;
  std::vector<int64_t> values_;
  NppStudy study_;
  std::exception_ptr failure_;
};

}  // namespace

PingPong pingpong_stats(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                        bool want_dist) {
  PingPongRun run(opts, calibration, want_dist);
  return run_measurement(user_comm, opts.timeout_s, run);
}

NppStudy npp_study(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                   const int64_t *given, int nvalues, bool by_res_npp) {
  StudyRun run(opts, calibration, given, nvalues, by_res_npp);
  return run_measurement(user_comm, opts.timeout_s, run);
}

}  // namespace lat
