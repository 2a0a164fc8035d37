// sweep.cpp: the C shims of the size sweep that the spec does not generate: lat_sweep_run, the samples and
// the files (its check and measurement: lib/generated/capi_entries.cpp).
#include <chrono>
#include <cmath>

#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/failure_notes.hpp"
#include "common/waits.hpp"
#include "sweep/measurement.hpp"
#include "common/stop.hpp"
#include "sweep/report.hpp"
#include "guard.hpp"
#include "sweep/options.hpp"

namespace {

lat_sweep_s &handle(lat_sweep sweep) { return lat::deref(sweep, "sweep"); }

int ended_code(const lat::SweepResult &r) {
  return lat::interrupted_code(r.summary.end == LAT_SWEEP_END_STOPPED, "size sweep",
                               "the result holds the points measured");
}

}  // namespace

extern "C" {

int lat_impl_sweep_run(const lat_sweep_options *opts, int64_t nsizes, const int64_t *sizes, lat_measure_fn measure,
                  void *context, lat_sweep *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    *result = nullptr;
    lat::require_nonnull(opts, "opts");
    if (measure == nullptr) throw lat::ArgError("measure must not be NULL");
    lat::require_no_complaint(lat::check_sweep_options(*opts, nsizes, sizes));
    const lat::MeasureSample sample = [&](int64_t size) {
      double t = 0.0;
      const int rc = measure(size, context, &t);
      if (rc != LAT_SUCCESS)
        lat::throw_code(rc, "the measuring function returned " + std::to_string(rc) + " for size " + std::to_string(size));
      if (!std::isfinite(t) || t < 0.0)
        throw lat::ArgError("the measuring function gave time " + std::to_string(t) + " for size " +
                            std::to_string(size) + ": times must be finite and >= 0");
      return t;
    };
    const auto start = std::chrono::steady_clock::now();
    const lat::ElapsedSeconds elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    const lat::StopRequested stop = [] { return lat::stop_requested(); };
    const lat::SweepOutcome out = lat::run_sweep(lat::plan_of(*opts, nsizes, sizes), sample, elapsed, stop);
    auto *h = lat::new_handle<lat_sweep_s>(lat::result_of(out, *opts, {}, 1, 1));
    h->r.summary.pattern = -1;  // no MPI pattern: a caller's function
    h->r.summary.timer = -1;
    h->r.summary.source = h->r.summary.dest = -1;
    *result = h;
    return ended_code(h->r);
  });
}

int lat_sweep_get_samples(lat_sweep sweep, int64_t i, int64_t n, double *values_us) {
  return lat::guard([&] {
    const lat_sweep_s &h = handle(sweep);
    lat::require_index(i, static_cast<int64_t>(h.r.points.size()), "point");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    const std::vector<double> &s = h.r.samples[static_cast<size_t>(i)];
    const int64_t m = std::min<int64_t>(n, static_cast<int64_t>(s.size()));
    if (m > 0) lat::require_nonnull(values_us, "values_us");
    for (int64_t k = 0; k < m; ++k) values_us[k] = s[static_cast<size_t>(k)];
    return LAT_SUCCESS;
  });
}

int lat_write_sweep_files(const char *outdir, const char *base, const char *command_line, lat_sweep sweep,
                          int flags, const char *table_path) {
  return lat::guard([&] {
    const lat_sweep_s &h = handle(sweep);
    lat::require_nonnull(base, "base");
    if (flags < 0 || flags > (LAT_SWEEP_FILES_PNG | LAT_SWEEP_FILES_GNUPLOT | LAT_SWEEP_FILES_GIVEDY | LAT_SWEEP_FILES_RATE))
      throw lat::ArgError(lat::got("flags must be a combination of LAT_SWEEP_FILES_PNG, LAT_SWEEP_FILES_GNUPLOT, "
                                   "LAT_SWEEP_FILES_GIVEDY and LAT_SWEEP_FILES_RATE", flags));
    if ((flags & LAT_SWEEP_FILES_GIVEDY) && !(flags & LAT_SWEEP_FILES_GNUPLOT))
      throw lat::ArgError("LAT_SWEEP_FILES_GIVEDY adds columns to <base>.gpl and needs LAT_SWEEP_FILES_GNUPLOT, got flags " +
                          std::to_string(flags));
    lat::write_sweep_files(outdir ? outdir : "", base, command_line ? command_line : "", h.r, flags,
                           table_path ? table_path : "");
    return LAT_SUCCESS;
  });
}

}  // extern "C"
