#include "timer/calibration.hpp"

#include "timer/options.hpp"

#include <algorithm>
#include <cmath>

#include "common/clock.hpp"
#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/failure_notes.hpp"
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

}  // namespace

Calibration leader_calibration(const lat_timer_result *given, int timer, int64_t nr, int rank, bool progress) {
  if (given == nullptr) return calibrate_here(timer, nr, rank, progress);
  Calibration c;
  c.result = *given;
  c.interrupted = given->nr < given->nr_requested;  // a calibration stopped before this call
  return c;
}

Calibration calibrate_here(int timer, int64_t nr, int rank, bool progress_on) {
  Calibration c;
  Tally tally;
  Progress progress(progress_on, "timer calibration");
  double tick_s = 0.0, unit_s = 0.0;
  const int64_t done = with_clock(timer, [&](const auto &clock) {
    tick_s = clock.tick();
    unit_s = clock.unit();
    return read_pairs(clock, nr, tally, progress);
  });
  const double unit_us = unit_s * 1e6;
  c.dist = distribution_of(tally, [unit_us](int64_t ticks) { return static_cast<double>(ticks) * unit_us; });
  c.interrupted = done < nr;

  lat_timer_result &r = c.result;
  r.nr_requested = nr;
  r.nr = done;
  r.timer = timer;
  r.rank = rank;
  r.tick_us = tick_s * 1e6;
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

Calibration calibrate_timer(MPI_Comm user_comm, const lat_timer_options &opts, bool want_dist) {
  LibComm comm(user_comm, opts.timeout_s);
  agree_arguments(comm, check_timer_options(opts, comm.size(), comm.rank()), timer_shared_values(opts));
  // The others wait while one rank reads its clock nr times.
  const Waiting w{comm.rank(), comm.all_ranks(), "phase 'timer calibration'",
                  opts.timeout_s > 0.0 ? opts.timeout_s + calibration_allowance_s(opts.nr) : 0.0};

  if (opts.rank == LAT_ALL_RANKS) {
    Calibration c = calibrate_here(opts.timer, opts.nr, comm.rank(), opts.progress != 0 && comm.rank() == 0);
    if (!want_dist) c.dist = Distribution{};
    barrier_yielding(comm.get(), w);  // returns together, like every other collective call
    return c;
  }
  Calibration c;
  if (comm.rank() == opts.rank) c = calibrate_here(opts.timer, opts.nr, comm.rank(), opts.progress != 0);
  share_from_root(&c.result, sizeof c.result, c.dist, want_dist, opts.rank, comm.get(), w);
  c.interrupted = c.result.nr < c.result.nr_requested;
  return c;
}

}  // namespace lat
