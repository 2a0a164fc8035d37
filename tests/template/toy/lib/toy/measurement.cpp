#include "toy/measurement.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <vector>

#include "common/bytes.hpp"
#include "common/c_string.hpp"
#include "common/error.hpp"
#include "common/harness.hpp"
#include "common/progress.hpp"
#include "common/stop.hpp"
#include "common/waits.hpp"
#include "common/watchdog.hpp"

namespace lat {

namespace {

/// The toy's parts of the measurement harness (lib/common/harness.hpp): every rank times its loops, rank 0
/// leads and keeps the samples.
class ToyRun {
 public:
  explicit ToyRun(const lat_toy_options &o) : o_(o) {}

  std::string check(MeasurementFrame &frame) {
    rank_ = frame.rank();
    return check_toy_options(o_, frame.size());
  }
  std::vector<Shared> shared() const { return toy_shared_values(o_); }
  Members members(MeasurementFrame &) { return Members::every_rank(0); }
  std::string allocate(bool) {
    try {
      samples_us_.reserve(static_cast<size_t>(std::min<int64_t>(o_.reps, int64_t{1} << 20)));
    } catch (const std::bad_alloc &) {
      return "cannot allocate the samples of " + std::to_string(o_.reps) + " loops";
    }
    return "";
  }

  std::vector<char> lead(MPI_Comm comm) {
    const auto start = std::chrono::steady_clock::now();
    const bool stopped = loops(comm);
    ToyResult r;
    r.options = o_;
    lat_toy_summary &s = r.summary;
    s.reps = static_cast<int64_t>(samples_us_.size());
    s.iters = o_.iters;
    check_mpi(MPI_Comm_size(comm, &s.nprocs), "MPI_Comm_size");
    s.partial = stopped ? 1 : 0;
    if (!samples_us_.empty()) {
      std::vector<double> v = samples_us_;
      std::sort(v.begin(), v.end());
      s.min_us = v.front();
      s.max_us = v.back();
      s.median_us = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
      s.mean_us = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    }
    char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int len = 0;
    check_mpi(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
    copy_c_string(s.host, name);
    s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return to_bytes(r.fields());
  }
  void follow(MPI_Comm comm) { loops(comm); }

  void note_disturbance(const Disturbance &d) { disturbance_ = d; }
  ToyResult result(std::vector<char> bytes) const {
    ToyResult r;
    from_bytes(bytes, r.fields());
    set_disturbance(r.summary, disturbance_);
    if (disturbance_.disturbed()) r.summary.warnings |= LAT_WARN_DISTURBED;
    return r;
  }

 private:
  /// Every rank: reps timed loops of iters barriers, a stop agreed before each. True when stopped.
  bool loops(MPI_Comm comm) {
    StallWatch stall(o_.timeout_s, rank_, -1, "phase 'barriers': a timed barrier loop");
    Progress progress(o_.progress != 0 && rank_ == 0, "toy barriers");
    const Waiting between{rank_, "the other ranks", "phase 'barriers': the stop agreed between loops", o_.timeout_s};
    for (int64_t rep = 0; rep < o_.reps; ++rep) {
      int stop = stop_requested() ? 1 : 0;
      MPI_Request req;
      check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, comm, &req), "MPI_Iallreduce");
      wait_spinning(req, between);
      if (stop) {
        progress.finish(rep, o_.reps);
        return true;
      }
      barrier_before_timing(comm, false, between);
      stall.enter(rep);
      const double t0 = MPI_Wtime();
      for (int64_t i = 0; i < o_.iters; ++i) check_mpi(MPI_Barrier(comm), "MPI_Barrier");
      const double t1 = MPI_Wtime();
      stall.leave(rep);
      if (rank_ == 0) samples_us_.push_back((t1 - t0) * 1e6 / static_cast<double>(o_.iters));
      progress.update(rep + 1, o_.reps);
    }
    progress.finish(o_.reps, o_.reps);
    return false;
  }

  const lat_toy_options &o_;
  int rank_ = 0;
  std::vector<double> samples_us_;
  Disturbance disturbance_;
};

}  // namespace

ToyResult toy_measure(MPI_Comm user_comm, const lat_toy_options &o) {
  ToyRun run(o);
  return run_measurement(user_comm, o.timeout_s, run);
}

}  // namespace lat
