#include "toy/measurement.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <vector>

#include "common/c_string.hpp"
#include "common/error.hpp"
#include "common/harness.hpp"

namespace lat {

namespace {

/// The toy's parts of the measurement harness (lib/common/harness.hpp): the harness
/// gives every rank's body its RunContext (the wait mode, the hosts, the watchdog, the progress line, the stop,
/// the clock) and makes the result on every rank from the leader's; rank 0 leads and keeps the samples.
class ToyRun {
 public:
  using Result = ToyResult;
  explicit ToyRun(const lat_toy_options &o) : o_(o) {}

  /// What check plans: the loops every rank times.
  struct Plan {
    int64_t reps = 0;
  };

  RunSettings settings(const Plan &) const { return {o_.timeout_s, LAT_TIMER_MPI_WTIME, o_.progress != 0, "toy barriers"}; }
  Checked<Plan> check(MeasurementFrame &frame) const { return {check_toy_options(o_, frame.size()), {o_.reps}}; }
  std::vector<Shared> shared(const Plan &) const { return toy_shared_values(o_); }
  Members members(MeasurementFrame &, const Plan &) { return Members::every_rank(0); }
  std::string allocate(const Plan &plan, bool) {
    try {
      samples_us_.reserve(static_cast<size_t>(std::min<int64_t>(plan.reps, int64_t{1} << 20)));
    } catch (const std::bad_alloc &) {
      return "cannot allocate the samples of " + std::to_string(plan.reps) + " loops";
    }
    return "";
  }

  ToyResult lead(RunContext &run, const Plan &plan) {
    const auto start = std::chrono::steady_clock::now();
    ToyResult r;
    r.options = o_;
    lat_toy_summary &s = r.summary;
    s.partial = loops(run, plan) ? 1 : 0;
    s.reps = static_cast<int64_t>(samples_us_.size());
    s.iters = o_.iters;
    s.nprocs = run.size();
    if (!samples_us_.empty()) {
      std::vector<double> v = samples_us_;
      std::sort(v.begin(), v.end());
      s.min_us = v.front();
      s.max_us = v.back();
      s.median_us = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
      s.mean_us = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    }
    copy_c_string(s.host, run.hosts()[static_cast<size_t>(run.leader())].c_str());
    s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
  void follow(RunContext &run, const Plan &plan) { loops(run, plan); }

 private:
  /// Every rank, for each planned loop: the stop agreed, the ranks met, the loop timed. True when stopped.
  bool loops(RunContext &run, const Plan &plan) {
    return run.with_clock([&](const auto &clock) {
      for (int64_t rep = 0; rep < plan.reps; ++rep) {
        if (run.stop_agreed()) {
          run.progress_finish(rep, plan.reps);
          return true;
        }
        run.meet();
        const double seconds = run.timed(rep, [&] {
          const double t0 = clock.now();
          for (int64_t i = 0; i < o_.iters; ++i) check_mpi(MPI_Barrier(run.comm()), "MPI_Barrier");
          return clock.now() - t0;
        });
        if (run.leads()) samples_us_.push_back(seconds * 1e6 / static_cast<double>(o_.iters));
        run.progress(rep + 1, plan.reps);
      }
      run.progress_finish(plan.reps, plan.reps);
      return false;
    });
  }

  const lat_toy_options &o_;
  std::vector<double> samples_us_;
};

}  // namespace

ToyResult toy_measure(MPI_Comm user_comm, const lat_toy_options &o) {
  ToyRun run(o);
  return run_measurement(user_comm, o.timeout_s, run);
}

}  // namespace lat
