#include "timer/calibration.hpp"

#include "timer/options.hpp"

#include <algorithm>
#include <cmath>

#include "common/clock.hpp"
#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/failure_notes.hpp"
#include "common/harness.hpp"
#include "common/waits.hpp"
#include "common/progress.hpp"
#include "common/stop.hpp"

namespace lat {

namespace {

// Pairs per chunk between stop checks and progress lines: ~20-50 ms of reads.
constexpr int64_t kPairsPerChunk = int64_t{1} << 20;

template <class Clock>
int64_t read_pairs(const Clock &clock, int64_t nr, Tally &tally, Progress &progress) {
  int64_t done = 0;
  while (done < nr && !stop_requested()) {
    const int64_t chunk = std::min(kPairsPerChunk, nr - done);
    for (int64_t i = 0; i < chunk; ++i) {
      const double t1 = clock.now();
      const double t2 = clock.now();
      tally.add(to_ticks(t2 - t1, clock.unit()));
    }
    done += chunk;
    progress.update(done, nr);
  }
  progress.finish(done, nr);
  return done;
}

/// nr pairs of reads of clock, and what they tell, its progress on `progress`.
template <class Clock>
Calibration calibrate_with(const Clock &clock, int timer, int64_t nr, int rank, Progress &progress) {
  Calibration c;
  Tally tally;
  const int64_t done = read_pairs(clock, nr, tally, progress);
  const double unit_us = clock.unit() * 1e6;
  c.dist = distribution_of(tally, [unit_us](int64_t ticks) { return static_cast<double>(ticks) * unit_us; });
  c.interrupted = done < nr;

  lat_timer_result &r = c.result;
  r.nr_requested = nr;
  r.nr = done;
  r.timer = timer;
  r.rank = rank;
  r.tick_us = clock.tick() * 1e6;
  r.unit_us = unit_us;
  const lat_stats s = describe(c.dist, 0);
  r.min_us = s.min_us;
  r.median_us = s.median_us;
  r.mean_us = s.mean_us;
  r.max_us = s.max_us;
  r.stddev_us = s.stddev_us;
  // res_timing: minimum positive difference; min_ov: minimum non-negative one (values are ascending).
  for (size_t i = 0; i < c.dist.values.size(); ++i) {
    const double v = c.dist.values[i];
    if (v < 0.0) {
      r.n_negative += c.dist.counts[i];
    } else if (v == 0.0) {
      r.n_zero += c.dist.counts[i];
    }
  }
  const auto nonneg = std::lower_bound(c.dist.values.begin(), c.dist.values.end(), 0.0);
  const auto positive = std::upper_bound(c.dist.values.begin(), c.dist.values.end(), 0.0);
  r.min_ov_us = nonneg != c.dist.values.end() ? *nonneg : 0.0;
  r.res_timing_us = positive != c.dist.values.end() ? *positive : 0.0;
  fill_bins(c.dist, r.bin_count);
  return c;
}

}  // namespace

Calibration leader_calibration(const lat_timer_result *given, int timer, int64_t nr, int rank, bool progress) {
  if (given == nullptr) return calibrate_here(timer, nr, rank, progress);
  Calibration c;
  c.result = *given;
  c.interrupted = given->nr < given->nr_requested;  // a calibration stopped before this call
  return c;
}

Calibration calibrate_here(int timer, int64_t nr, int rank, bool progress_on) {
  Progress progress(progress_on, "timer calibration");
  return with_clock(timer, [&](const auto &clock) { return calibrate_with(clock, timer, nr, rank, progress); });
}

namespace {

// The tag of the calibrating rank's own communicator (MeasurementFrame::run_member).
constexpr int kTagCalibration = 51;

/// lat_calibrate_timer's parts of the measurement harness (lib/common/harness.hpp):
/// one rank reads the run's clock and every rank gets its result, or every rank reads its own (LAT_ALL_RANKS)
/// and they return together. The result travels with its distribution (its own share).
class TimerRun {
 public:
  using Result = Calibration;
  TimerRun(const lat_timer_options &o, bool want_dist) : o_(o), want_dist_(want_dist) {}

  /// This rank and the one whose result every rank gets (with LAT_ALL_RANKS rank 0, each keeping its own).
  struct Plan {
    int rank = 0, leader = 0;
  };

  RunSettings settings(const Plan &) const { return {o_.timeout_s, o_.timer, o_.progress != 0, "timer calibration"}; }

  Checked<Plan> check(MeasurementFrame &frame) const {
    return {check_timer_options(o_, frame.size(), frame.rank()), {frame.rank(), o_.rank == LAT_ALL_RANKS ? 0 : o_.rank}};
  }
  std::vector<Shared> shared(const Plan &) const { return timer_shared_values(o_); }

  Members members(MeasurementFrame &frame, const Plan &plan) {
    rank_ = plan.rank;
    leader_ = plan.leader;
    all_ranks_ = frame.comm().all_ranks();
    return o_.rank == LAT_ALL_RANKS ? Members::every_rank(0) : Members::some({o_.rank}, o_.rank, kTagCalibration);
  }
  std::string allocate(const Plan &, bool) const { return ""; }  // the tally grows as it reads: a few KB

  /// The calibrating rank (with LAT_ALL_RANKS rank 0, whose progress line is the run's), then the others.
  Calibration lead(RunContext &run, const Plan &) { return calibrate(run); }
  void follow(RunContext &run, const Plan &) { c_ = calibrate(run); }

  /// The result (the harness's bytes are not used: it travels with its distribution). With LAT_ALL_RANKS each
  /// rank keeps its own and they return together, waiting at most the timeout and the time nr pairs of reads
  /// may take elsewhere; with one rank, the others wait for its result (without a limit, as the harness's
  /// ranks that only wait, until it or a failure note arrives).
  Calibration share(MeasurementFrame &frame, Calibration mine, int, bool measuring) {
    Calibration c = rank_ == leader_ ? std::move(mine) : std::move(c_);
    if (o_.rank == LAT_ALL_RANKS) {
      if (!want_dist_) c.dist = Distribution{};
      const Waiting w{rank_, all_ranks_, "phase 'timer calibration'",
                      o_.timeout_s > 0.0 ? o_.timeout_s + calibration_allowance_s(o_.nr) : 0.0};
      barrier_yielding(frame.comm().get(), w);
      return c;
    }
    share_from_root(&c.result, sizeof c.result, c.dist, want_dist_, o_.rank, frame.comm().get(),
                    frame.result_wait(measuring, "phase 'result': the timer calibration"),
                    measuring ? nullptr : &frame.listener());
    c.interrupted = c.result.nr < c.result.nr_requested;
    return c;
  }

 private:
  /// nr pairs of reads of the run's clock, on the run's progress line.
  Calibration calibrate(RunContext &run) {
    return run.with_clock([&](const auto &clock) { return calibrate_with(clock, o_.timer, o_.nr, rank_, run.progress_line()); });
  }

  const lat_timer_options &o_;
  bool want_dist_;
  int rank_ = 0, leader_ = 0;
  const char *all_ranks_ = "";
  Calibration c_;
};

}  // namespace

Calibration calibrate_timer(MPI_Comm user_comm, const lat_timer_options &opts, bool want_dist) {
  TimerRun run(opts, want_dist);
  return run_measurement(user_comm, opts.timeout_s, run);
}

}  // namespace lat
