#include "pingpong.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

#include "calibrate.hpp"
#include "clock.hpp"
#include "comm.hpp"
#include "progress.hpp"
#include "stop.hpp"

namespace lat {

namespace {

enum Tag { kTagPing = 1, kTagHandshake = 2, kTagControl = 3, kTagName = 4 };
constexpr int kSourceInPair = 0, kDestInPair = 1;

// A chunk of trials runs between two control messages from source to dest: the stop check, the
// progress line and npp travel there, never inside a timed loop. Chunks aim at ~0.25 s.
constexpr double kChunkSeconds = 0.25;
constexpr int64_t kMaxChunk = int64_t{1} << 20;

/// The two measuring ranks and their message.
struct Pair {
  MPI_Comm comm = MPI_COMM_NULL;  // source is 0, dest is 1
  std::vector<double> buffer;     // at least one double, for the hand-shake
  int count = 0;
  MPI_Datatype type = MPI_DOUBLE;
};

/// Source: ntotal trials of npp ping-pongs, each after the pair barrier and the hand-shake; returns the
/// trials done (fewer after a stop request). Adds t2 - t1 of every trial to tally, in seconds.
template <class Clock>
int64_t time_trials(const Clock &clock, Pair &p, int64_t npp, int64_t ntotal, Tally &tally, Progress &progress) {
  void *buf = p.buffer.data();
  int64_t done = 0, chunk = std::min<int64_t>(16, ntotal);
  while (done < ntotal && !stop_requested()) {
    const int64_t next = std::min(chunk, ntotal - done);
    int64_t control[2] = {next, npp};
    check_mpi(MPI_Send(control, 2, MPI_INT64_T, kDestInPair, kTagControl, p.comm), "MPI_Send (control)");
    const auto start = std::chrono::steady_clock::now();
    for (int64_t k = 0; k < next; ++k) {
      check_mpi(MPI_Barrier(p.comm), "MPI_Barrier");
      check_mpi(MPI_Recv(buf, 1, MPI_DOUBLE, kDestInPair, kTagHandshake, p.comm, MPI_STATUS_IGNORE),
                "MPI_Recv (hand-shake)");
      // MPI_SUCCESS is 0: OR-ing the codes costs one integer operation in the loop and no branch;
      // they are checked after the clock is read.
      int failed = MPI_SUCCESS;
      const double t1 = clock.now();
      for (int64_t i = 0; i < npp; ++i) {
        failed |= MPI_Send(buf, p.count, p.type, kDestInPair, kTagPing, p.comm);
        failed |= MPI_Recv(buf, p.count, p.type, kDestInPair, kTagPing, p.comm, MPI_STATUS_IGNORE);
      }
      const double t2 = clock.now();
      if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Send/MPI_Recv (ping-pong)");
      tally.add(t2 - t1);
    }
    done += next;
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    chunk = took > 0.0 ? std::clamp<int64_t>(static_cast<int64_t>(static_cast<double>(next) * kChunkSeconds / took),
                                             1, kMaxChunk)
                       : std::min(2 * next, kMaxChunk);
    progress.update(done, ntotal);
  }
  progress.finish(done, ntotal);
  return done;
}

/// Dest: answers chunks of trials until source sends a chunk of 0. Waits for each control message
/// yielding the processor (source may be calibrating its timer meanwhile).
void answer_trials(Pair &p) {
  void *buf = p.buffer.data();
  for (;;) {
    int64_t control[2] = {0, 0};
    MPI_Request req;
    check_mpi(MPI_Irecv(control, 2, MPI_INT64_T, kSourceInPair, kTagControl, p.comm, &req), "MPI_Irecv (control)");
    wait_yielding(req, "MPI_Test (control)");
    const int64_t next = control[0], npp = control[1];
    if (next == 0) return;
    for (int64_t k = 0; k < next; ++k) {
      check_mpi(MPI_Barrier(p.comm), "MPI_Barrier");
      check_mpi(MPI_Send(buf, 1, MPI_DOUBLE, kSourceInPair, kTagHandshake, p.comm), "MPI_Send (hand-shake)");
      int failed = MPI_SUCCESS;
      for (int64_t i = 0; i < npp; ++i) {
        failed |= MPI_Recv(buf, p.count, p.type, kSourceInPair, kTagPing, p.comm, MPI_STATUS_IGNORE);
        failed |= MPI_Send(buf, p.count, p.type, kSourceInPair, kTagPing, p.comm);
      }
      if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "MPI_Recv/MPI_Send (ping-pong)");
    }
  }
}

void end_trials(Pair &p) {
  int64_t control[2] = {0, 0};
  check_mpi(MPI_Send(control, 2, MPI_INT64_T, kDestInPair, kTagControl, p.comm), "MPI_Send (control)");
}

void copy_name(char *dst, const char *src) {
  std::snprintf(dst, LAT_HOSTNAME_LEN, "%s", src);
}

/// Source's side of the whole measurement: calibration, npp estimate, trials, statistics.
template <class Clock>
void measure_on_source(const Clock &clock, Pair &p, const lat_pingpong_options &opts,
                       const lat_timer_result &cal, PingPong &pp) {
  lat_pingpong_result &r = pp.result;
  const double min_ov = cal.min_ov_us;
  // npp estimate (section 3.3): median of the npptrial loop times per ping-pong, round trip.
  if (opts.npp == 0) {
    Tally tally;
    Progress progress(opts.progress != 0, "npp estimate");
    const int64_t done = time_trials(clock, p, opts.npp_init, opts.npptrial, tally, progress);
    const double per_pp = 1.0 / static_cast<double>(opts.npp_init);
    const Distribution ppt = distribution_of(tally, [&](double s) { return (s * 1e6 - min_ov) * per_pp; });
    r.median_ppt_us = median_of(ppt);
    r.npp_calculated = npp_rule(opts.res_npp, cal.res_timing_us, r.median_ppt_us);
    r.npp_used = r.npp_calculated;
    if (done < opts.npptrial) {
      pp.interrupted = true;
      end_trials(p);
      return;
    }
  } else {
    r.npp_used = opts.npp;
  }
  Tally tally;
  Progress progress(opts.progress != 0, "ping-pong trials");
  r.ntrial_done = time_trials(clock, p, r.npp_used, opts.ntrial, tally, progress);
  end_trials(p);
  pp.interrupted = r.ntrial_done < opts.ntrial;
  const double per_one_way = 1.0 / (2.0 * static_cast<double>(r.npp_used));
  pp.dist = distribution_of(tally, [&](double s) { return (s * 1e6 - min_ov) * per_one_way; });
}

void fill_statistics(PingPong &pp) {
  lat_pingpong_result &r = pp.result;
  r.all = describe(pp.dist, r.bytes);
  r.cut_off_us = r.cut_coef * r.all.median_us;
  const Distribution kept = at_most(pp.dist, r.cut_off_us);
  r.filtered = describe(kept, r.bytes);
  r.n_kept = r.filtered.count;
  r.n_removed = r.all.count - r.n_kept;
}

}  // namespace

std::string check_pingpong_options(const lat_pingpong_options &o, const lat_timer_result *cal, int rank,
                                   int size) {
  if (size < 2) return got("a ping-pong needs at least 2 processes, the communicator has", size);
  const int dest = o.dest == LAT_LAST_RANK ? size - 1 : o.dest;
  const std::string ranks = "0.." + std::to_string(size - 1);
  if (o.source < 0 || o.source >= size) return got("source must be a rank in " + ranks, o.source);
  if (dest < 0 || dest >= size) return got("dest must be a rank in " + ranks + " (or -1: the last)", o.dest);
  if (o.source == dest) return got("source and dest must differ, both are", dest);
  if (o.bytes < -1) return got("bytes must be >= 0 (or -1: use n)", o.bytes);
  if (o.bytes > INT_MAX) return got("bytes must be <= " + std::to_string(INT_MAX), o.bytes);
  if (o.bytes == -1 && o.n < 0) return got("n must be >= 0", o.n);
  if (o.bytes == -1 && o.n > INT_MAX) return got("n must be <= " + std::to_string(INT_MAX), o.n);
  if (o.npp < 0) return got("npp must be >= 0 (0: calculate)", o.npp);
  if (o.npp > LAT_NPP_MAX) return got("npp must be <= " + std::to_string(LAT_NPP_MAX), o.npp);
  if (o.npp == 0 && o.npptrial < 1) return got("npptrial must be >= 1", o.npptrial);
  if (o.npp == 0 && o.npp_init < 1) return got("npp_init must be >= 1", o.npp_init);
  if (o.npp == 0 && o.npp_init > LAT_NPP_MAX) return got("npp_init must be <= " + std::to_string(LAT_NPP_MAX), o.npp_init);
  if (o.npp == 0 && o.res_npp < 1) return got("res_npp must be >= 1", o.res_npp);
  if (o.ntrial < 1) return got("ntrial must be >= 1", o.ntrial);
  if (!(o.cut_coef > 0.0) || !std::isfinite(o.cut_coef)) return got("cut_coef must be a finite number > 0", o.cut_coef);
  if (o.timer < 0 || o.timer > 2) return got("timer must be 0 (mpi_wtime), 1 (monotonic_raw) or 2 (tsc)", o.timer);
  if (o.progress != 0 && o.progress != 1) return got("progress must be 0 or 1", o.progress);
  if (rank != o.source) return "";
  if (cal == nullptr) {
    if (o.nr < 1) return got("nr must be >= 1", o.nr);
    if (!timer_available(o.timer)) return std::string("timer ") + timer_name(o.timer) + " is not available here";
  } else {
    if (!(cal->res_timing_us >= 0.0) || !std::isfinite(cal->res_timing_us))
      return got("calibration res_timing_us must be a finite number >= 0", cal->res_timing_us);
    if (!(cal->min_ov_us >= 0.0) || !std::isfinite(cal->min_ov_us))
      return got("calibration min_ov_us must be a finite number >= 0", cal->min_ov_us);
    if (cal->timer != o.timer)
      return std::string("the calibration is of timer ") + timer_name(cal->timer) + " but opts.timer is " +
             timer_name(o.timer);
  }
  return "";
}

PingPong pingpong_stats(MPI_Comm user_comm, const lat_pingpong_options &opts, const lat_timer_result *calibration,
                        bool want_dist) {
  LibComm comm(user_comm);
  const int rank = comm.rank(), size = comm.size();
  agree_arguments(comm.get(), check_pingpong_options(opts, calibration, rank, size),
                  {Shared::integer("source", opts.source), Shared::integer("dest", opts.dest),
                   Shared::integer("n", opts.n), Shared::integer("bytes", opts.bytes),
                   Shared::integer("npp", opts.npp), Shared::integer("npptrial", opts.npptrial),
                   Shared::integer("npp_init", opts.npp_init), Shared::integer("res_npp", opts.res_npp),
                   Shared::integer("ntrial", opts.ntrial), Shared::integer("timer", opts.timer),
                   Shared::real("cut_coef", opts.cut_coef)});
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

  // The two measuring ranks get a communicator of their own for the per-trial barrier; the others
  // go straight to the yielding broadcast of the result.
  const bool measuring = rank == source || rank == dest;
  Pair p;
  check_mpi(MPI_Comm_split(comm.get(), measuring ? 0 : MPI_UNDEFINED, rank == source ? 0 : 1, &p.comm),
            "MPI_Comm_split");
  if (measuring) {
    const size_t doubles = std::max<size_t>(1, (static_cast<size_t>(r.bytes) + 7) / 8);
    p.buffer.assign(doubles, 0.0);
    p.count = static_cast<int>(opts.bytes >= 0 ? opts.bytes : opts.n);
    p.type = opts.bytes >= 0 ? MPI_BYTE : MPI_DOUBLE;
    char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int len = 0;
    check_mpi(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
    if (rank == dest) {
      check_mpi(MPI_Send(name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, kSourceInPair, kTagName, p.comm), "MPI_Send");
      answer_trials(p);
    } else {
      char dest_name[MPI_MAX_PROCESSOR_NAME + 1] = {};
      check_mpi(MPI_Recv(dest_name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, kDestInPair, kTagName, p.comm,
                         MPI_STATUS_IGNORE), "MPI_Recv");
      copy_name(r.source_host, name);
      copy_name(r.dest_host, dest_name);
      lat_timer_result cal{};
      if (calibration != nullptr) {
        cal = *calibration;
      } else {
        Calibration c = calibrate_here(opts.timer, opts.nr, rank, opts.progress != 0);
        cal = c.result;
        if (c.interrupted) pp.interrupted = true;
      }
      r.res_timing_us = cal.res_timing_us;
      r.min_ov_us = cal.min_ov_us;
      if (pp.interrupted) {
        end_trials(p);
      } else {
        with_clock(opts.timer, [&](const auto &clock) { measure_on_source(clock, p, opts, cal, pp); });
      }
      fill_statistics(pp);
      r.partial = pp.interrupted ? 1 : 0;
    }
    MPI_Comm_free(&p.comm);
  }

  share_from_root(&r, sizeof r, pp.dist, want_dist, source, comm.get());
  pp.interrupted = r.partial != 0;
  return pp;
}

}  // namespace lat
