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
#include "common/failure_notes.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"
#include "common/watchdog.hpp"
#include "common/stop.hpp"

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

/// Source: ntotal trials of npp ping-pongs, each after the pair barrier and the hand-shake; returns the
/// trials done (fewer after a stop request, here or on dest). Adds t2 - t1 of every trial to tally, in
/// seconds. On a timeout the TimeoutError leaves tally holding the trials done.
/// A chunk as measured: loop times in seconds (converted to one-way us by the caller).
struct RawChunk {
  int64_t first_trial, count;
  double start_s, end_s, min_s, median_s;
};

template <class Clock>
void time_trials(const Clock &clock, Pair &p, int64_t npp, int64_t ntotal, Tally &tally, Progress &progress,
                    StallWatch &stall, int64_t &done, std::vector<RawChunk> *chunks = nullptr) {
  void *buf = p.buffer.data();
  done = 0;
  std::vector<double> in_chunk;  // this chunk's loop times, for its median (only when chunks are kept)
  const auto run_start = std::chrono::steady_clock::now();
  int64_t chunk = std::min<int64_t>(16, ntotal);
  const Waiting barrier_wait = p.waiting("phase 'trials': the pair barrier before a trial");
  const Waiting handshake_wait = p.waiting("phase 'trials': the hand-shake before a trial");
  while (done < ntotal) {
    await_ready(p);
    if (stop_requested() || p.dest_stopped) break;
    const int64_t next = std::min(chunk, ntotal - done);
    int64_t control[2] = {next, npp};
    check_mpi(MPI_Send(control, 2, MPI_INT64_T, kDestInPair, kTagControl, p.comm), "MPI_Send (control)");
    p.have_ready = false;
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
      stall.enter(done);
      const double t1 = clock.now();
      for (int64_t i = 0; i < npp; ++i) {
        failed |= MPI_Send(buf, p.count, p.type, kDestInPair, kTagPing, p.comm);
        failed |= MPI_Recv(buf, p.count, p.type, kDestInPair, kTagPing, p.comm, MPI_STATUS_IGNORE);
      }
      const double t2 = clock.now();
      stall.leave(done);
      if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Send/MPI_Recv (ping-pong)");
      tally.add(t2 - t1);
      if (chunks != nullptr) in_chunk.push_back(t2 - t1);
      ++done;
    }
    const auto end = std::chrono::steady_clock::now();
    const double took = std::chrono::duration<double>(end - start).count();
    if (chunks != nullptr && !in_chunk.empty()) {
      const size_t mid = (in_chunk.size() - 1) / 2;  // the lower median: one of the times, as a tally's
      std::nth_element(in_chunk.begin(), in_chunk.begin() + static_cast<std::ptrdiff_t>(mid), in_chunk.end());
      const double median = in_chunk[mid];
      const double least = *std::min_element(in_chunk.begin(), in_chunk.end());
      chunks->push_back({done - static_cast<int64_t>(in_chunk.size()), static_cast<int64_t>(in_chunk.size()),
                         std::chrono::duration<double>(start - run_start).count(),
                         std::chrono::duration<double>(end - run_start).count(), least, median});
      in_chunk.clear();
    }
    // Chunks of 0.25 s, and of a thousandth of the run so far once that is longer: a few thousand chunks
    // even for an hour's run (~2,700), each with its exact median.
    const double target = std::max(kChunkSeconds, std::chrono::duration<double>(end - run_start).count() / 1000.0);
    chunk = took > 0.0 ? std::clamp<int64_t>(static_cast<int64_t>(static_cast<double>(next) * target / took),
                                             1, kMaxChunk)
                       : std::min(2 * next, kMaxChunk);
    progress.update(done, ntotal);
  }
  progress.finish(done, ntotal);
}

/// Dest: answers chunks of trials until source sends a chunk of 0. Before each chunk it sends a ready
/// note with its own stop request, then waits for the control message yielding the processor (source
/// may be calibrating its timer meanwhile: first_extra_s allows for that).
void answer_trials(Pair &p, double first_extra_s) {
  void *buf = p.buffer.data();
  StallWatch stall(p.timeout_s, p.my_rank, p.peer_rank, "phase 'trials' on dest");
  const Waiting barrier_wait = p.waiting("phase 'trials': the pair barrier before a trial");
  double extra_s = first_extra_s;
  for (int64_t trial = 0;;) {
    int stop = stop_requested() ? 1 : 0;
    check_mpi(MPI_Send(&stop, 1, MPI_INT, kSourceInPair, kTagReady, p.comm), "MPI_Send (ready)");
    int64_t control[2] = {0, 0};
    MPI_Request req;
    check_mpi(MPI_Irecv(control, 2, MPI_INT64_T, kSourceInPair, kTagControl, p.comm, &req), "MPI_Irecv (control)");
    wait_yielding(req, p.waiting("phase 'trials': source's control message between chunks", extra_s));
    extra_s = 0.0;
    const int64_t next = control[0], npp = control[1];
    if (next == 0) return;
    for (int64_t k = 0; k < next; ++k, ++trial) {
      check_mpi(MPI_Ibarrier(p.comm, &req), "MPI_Ibarrier");
      wait_spinning(req, barrier_wait);
      check_mpi(MPI_Send(buf, 1, MPI_DOUBLE, kSourceInPair, kTagHandshake, p.comm), "MPI_Send (hand-shake)");
      int failed = MPI_SUCCESS;
      stall.enter(trial);
      for (int64_t i = 0; i < npp; ++i) {
        failed |= MPI_Recv(buf, p.count, p.type, kSourceInPair, kTagPing, p.comm, MPI_STATUS_IGNORE);
        failed |= MPI_Send(buf, p.count, p.type, kSourceInPair, kTagPing, p.comm);
      }
      stall.leave(trial);
      if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Recv/MPI_Send (ping-pong)");
    }
  }
}

/// Source: the chunk of 0 trials that ends answer_trials on dest.
void end_trials(Pair &p) {
  await_ready(p);
  int64_t control[2] = {0, 0};
  check_mpi(MPI_Send(control, 2, MPI_INT64_T, kDestInPair, kTagControl, p.comm), "MPI_Send (control)");
  p.have_ready = false;
}

void copy_name(char *dst, const char *src) {
  std::snprintf(dst, LAT_HOSTNAME_LEN, "%s", src);
}

/// Source's side of the whole measurement: calibration, npp estimate, trials, statistics. A timeout in
/// the trials keeps what was measured (pp.failure says why it ended); one in the estimate throws.
template <class Clock>
void measure_on_source(const Clock &clock, Pair &p, const lat_pingpong_options &opts,
                       const lat_timer_result &cal, PingPong &pp) {
  lat_pingpong_result &r = pp.result;
  const double min_ov = cal.min_ov_us;
  // npp estimate (section 3.3): median of the npptrial loop times per ping-pong, round trip.
  if (opts.npp == 0) {
    const NppEstimate e = guarded_npp_estimate(opts.npp_init, opts.res_npp, cal.res_timing_us, [&](int64_t loop, bool &stopped) {
      Tally tally;
      Progress progress(opts.progress != 0, "npp estimate");
      StallWatch stall(opts.timeout_s, p.my_rank, p.peer_rank, "phase 'npp estimate'");
      int64_t done = 0;
      time_trials(clock, p, loop, opts.npptrial, tally, progress, stall, done);
      stopped = done < opts.npptrial;
      const double per_pp = 1.0 / static_cast<double>(loop);
      return median_of(distribution_of(tally, [&](double s) { return (s * 1e6 - min_ov) * per_pp; }));
    });
    r.median_ppt_us = e.median_ppt_us;
    r.npp_init = e.npp_init;
    r.npp_calculated = e.npp;
    r.npp_used = r.npp_calculated;
    if (e.stopped || e.npp == 0) {  // npp 0: the clock never saw a loop (every rank throws, see below)
      if (e.stopped) r.partial = LAT_PARTIAL_STOPPED;
      end_trials(p);
      return;
    }
  } else {
    r.npp_used = opts.npp;
  }
  Tally tally;
  Progress progress(opts.progress != 0, "ping-pong trials");
  StallWatch stall(opts.timeout_s, p.my_rank, p.peer_rank, "phase 'trials'");
  int64_t done = 0;
  std::vector<RawChunk> raw;
  try {
    time_trials(clock, p, r.npp_used, opts.ntrial, tally, progress, stall, done, &raw);
    end_trials(p);
    if (done < opts.ntrial) r.partial = LAT_PARTIAL_STOPPED;
  } catch (const TimeoutError &) {
    r.partial = LAT_PARTIAL_TIMEOUT;
    pp.failure = std::current_exception();
  }
  r.ntrial_done = done;
  const double per_one_way = 1.0 / (2.0 * static_cast<double>(r.npp_used));
  auto one_way_us = [&](double s) { return (s * 1e6 - min_ov) * per_one_way; };
  pp.dist = distribution_of(tally, one_way_us);
  for (const RawChunk &c : raw)
    pp.chunks.push_back({c.first_trial, c.count, c.start_s, c.end_s, one_way_us(c.min_s), one_way_us(c.median_s)});
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
  r.cut_off_us = r.cut_coef * r.all.median_us;
  const Distribution kept = at_most(pp.dist, r.cut_off_us);
  r.filtered = describe(kept, r.bytes);
  r.n_kept = r.filtered.count;
  r.n_removed = r.all.count - r.n_kept;
  // The run over time: levels of the chunk medians, and the warnings.
  const std::vector<RunLevel> levels = run_levels(pp.chunks);
  r.nchunks = static_cast<int64_t>(pp.chunks.size());
  r.nlevels = static_cast<int>(std::min<size_t>(levels.size(), LAT_MAX_LEVELS));
  for (int g = 0; g < r.nlevels; ++g) r.level_us[g] = levels[static_cast<size_t>(g)].median_us, r.level_share[g] = levels[static_cast<size_t>(g)].share;
  r.warnings = run_warnings(levels, r.n_removed, r.all.count, nullptr);
}

}  // namespace

PingPong pingpong_stats(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                        bool want_dist) {
  LibComm comm(user_comm, opts.timeout_s);
  const int rank = comm.rank(), size = comm.size();
  agree_arguments(comm, check_pingpong_options(opts, size, rank, calibration), pingpong_shared_values(opts));
  const int source = opts.source;
  const int dest = opts.dest == LAT_LAST_RANK ? size - 1 : opts.dest;

  PingPong pp;
  lat_pingpong_result &r = pp.result;
  r.bytes = opts.bytes >= 0 ? opts.bytes : 8 * opts.n;
  r.n = opts.bytes >= 0 ? -1 : opts.n;
  r.npptrial = opts.npp == 0 ? opts.npptrial : 0;
  r.npp_init = opts.npp == 0 ? opts.npp_init : 0;
  r.res_npp = opts.res_npp;
  r.ntrial = opts.ntrial;
  r.nprocs = size;
  r.cut_coef = opts.cut_coef;
  r.source = source;
  r.dest = dest;
  r.timer = opts.timer;

  // Dest's first wait spans the source's timer calibration, when it is done here.
  const double calibration_s = calibration == nullptr ? calibration_allowance_s(opts.nr) : 0.0;
  const bool measuring = rank == source || rank == dest;
  if (!measuring) {
    // Only the result is waited for, without a time limit (the measurement may take hours); if a
    // measuring rank gives up, its failure note ends the wait.
    FailureListener listener(comm.get());
    std::vector<double> chunks;
    share_from_root(&r, sizeof r, pp.dist, want_dist, source, comm.get(), {rank, "", "", 0.0}, &listener, &chunks);
    pp.chunks = unpack_chunks(chunks);
    throw_if_clock_blind(r, opts);
    return pp;
  }
  std::vector<int> idle_ranks;
  for (int k = 0; k < size; ++k)
    if (k != source && k != dest) idle_ranks.push_back(k);
  try {
    // The two measuring ranks get a communicator of their own for the per-trial barrier (collective
    // over the two only: the others go straight to waiting for the result).
    Pair p;
    p.comm = create_member_comm(comm.get(), {source, dest}, kTagName);
    p.my_rank = rank;
    p.peer_rank = rank == source ? dest : source;
    p.peer = "rank " + std::to_string(p.peer_rank);
    p.timeout_s = opts.timeout_s;
    const size_t doubles = std::max<size_t>(1, (static_cast<size_t>(r.bytes) + 7) / 8);
    p.buffer.assign(doubles, 0.0);
    p.count = static_cast<int>(opts.bytes >= 0 ? opts.bytes : opts.n);
    p.type = opts.bytes >= 0 ? MPI_BYTE : MPI_DOUBLE;
    char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int len = 0;
    check_mpi(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
    if (rank == dest) {
      check_mpi(MPI_Send(name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, kSourceInPair, kTagName, p.comm), "MPI_Send");
      answer_trials(p, calibration_s);
    } else {
      char dest_name[MPI_MAX_PROCESSOR_NAME + 1] = {};
      MPI_Request req;
      check_mpi(MPI_Irecv(dest_name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, kDestInPair, kTagName, p.comm, &req),
                "MPI_Irecv");
      wait_spinning(req, p.waiting("phase 'start': dest's processor name"));
      copy_name(r.source_host, name);
      copy_name(r.dest_host, dest_name);
      lat_timer_result cal{};
      if (calibration != nullptr) {
        cal = *calibration;
      } else {
        Calibration c = calibrate_here(opts.timer, opts.nr, rank, opts.progress != 0);
        cal = c.result;
        if (c.interrupted) r.partial = LAT_PARTIAL_STOPPED;
      }
      r.res_timing_us = cal.res_timing_us;
      r.min_ov_us = cal.min_ov_us;
      if (r.partial != LAT_COMPLETE) {
        end_trials(p);
      } else {
        with_clock(opts.timer, [&](const auto &clock) { measure_on_source(clock, p, opts, cal, pp); });
      }
      fill_statistics(pp);
    }
    MPI_Comm_free(&p.comm);
  } catch (...) {
    report_current_failure(comm.get(), idle_ranks);
  }
  if (pp.failure) {
    // Source timed out in the trials: the others learn why; the result here keeps what was measured.
    try {
      std::rethrow_exception(pp.failure);
    } catch (const TimeoutError &e) {
      report_failure(comm.get(), idle_ranks, Fault::timeout, e.what());
    }
    return pp;
  }
  try {
    std::vector<double> chunks = pack_chunks(pp.chunks);
    share_from_root(&r, sizeof r, pp.dist, want_dist, source, comm.get(),
                    {rank, comm.all_ranks(), "phase 'result': sharing the result", opts.timeout_s}, nullptr, &chunks);
    pp.chunks = want_dist ? unpack_chunks(chunks) : std::vector<TrialChunk>{};
  } catch (const TimeoutError &) {
    if (rank != source) throw;
    // The measurement is done; a rank that stopped listening must not cost the source its result.
    pp.failure = std::current_exception();
  }
  throw_if_clock_blind(r, opts);
  return pp;
}

}  // namespace lat
