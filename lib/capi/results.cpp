// results.cpp: the C shims for frequency tables, statistics on given samples and the report files.
#include <cmath>

#include "../histogram.hpp"
#include "../report.hpp"
#include "../staged_files.hpp"
#include "../stats.hpp"
#include "guard.hpp"

extern "C" {

int lat_histogram_size(lat_histogram hist, int64_t *nvalues) {
  return lat::guard([&] {
    lat::require_nonnull(hist, "hist");
    lat::require_nonnull(nvalues, "nvalues");
    *nvalues = static_cast<int64_t>(hist->dist.values.size());
    return LAT_SUCCESS;
  });
}

int lat_histogram_get(lat_histogram hist, int64_t n, double *values_us, int64_t *counts) {
  return lat::guard([&] {
    lat::require_nonnull(hist, "hist");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    const int64_t size = static_cast<int64_t>(hist->dist.values.size());
    const int64_t m = n < size ? n : size;
    if (m > 0) {
      lat::require_nonnull(values_us, "values_us");
      lat::require_nonnull(counts, "counts");
    }
    for (int64_t i = 0; i < m; ++i) {
      values_us[i] = hist->dist.values[static_cast<size_t>(i)];
      counts[i] = hist->dist.counts[static_cast<size_t>(i)];
    }
    return LAT_SUCCESS;
  });
}

int lat_histogram_free(lat_histogram *hist) {
  return lat::guard([&] {
    return lat::free_handle(hist, "hist");
  });
}

int lat_stats_compute(int64_t n, const double *values_us, int64_t bytes, lat_stats *stats) {
  return lat::guard([&] {
    lat::require_nonnull(stats, "stats");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    if (bytes < 0) throw lat::ArgError(lat::got("bytes must be >= 0", bytes));
    if (n > 0) lat::require_nonnull(values_us, "values_us");
    lat::Tally tally;
    for (int64_t i = 0; i < n; ++i) {
      if (!std::isfinite(values_us[i]))
        throw lat::ArgError("values_us[" + std::to_string(i) + "] must be finite, got " + std::to_string(values_us[i]));
      tally.add(values_us[i]);
    }
    *stats = lat::describe(lat::distribution_of(tally, [](double v) { return v; }), bytes);
    return LAT_SUCCESS;
  });
}

int lat_npp_rule(int64_t res_npp, double res_timing_us, double median_ppt_us, int64_t *npp) {
  return lat::guard([&] {
    lat::require_nonnull(npp, "npp");
    if (res_npp < 1) throw lat::ArgError(lat::got("res_npp must be >= 1", res_npp));
    if (!(res_timing_us >= 0.0) || !std::isfinite(res_timing_us))
      throw lat::ArgError(lat::got("res_timing_us must be a finite number >= 0", res_timing_us));
    if (!(median_ppt_us >= 0.0) || !std::isfinite(median_ppt_us))
      throw lat::ArgError(lat::got("median_ppt_us must be a finite number >= 0", median_ppt_us));
    *npp = lat::npp_rule(res_npp, res_timing_us, median_ppt_us);
    return LAT_SUCCESS;
  });
}

int lat_write_latency_files(const char *outdir, const char *command_line, double program_seconds,
                            const lat_timer_result *timer, lat_histogram timer_hist,
                            const lat_pingpong_result *pp, lat_histogram pp_hist) {
  return lat::guard([&] {
    lat::require_nonnull(pp, "pp");
    if (!std::isfinite(program_seconds) || program_seconds < 0.0)
      throw lat::ArgError(lat::got("program_seconds must be a finite number >= 0", program_seconds));
    lat::LatencyReport r;
    r.command_line = command_line ? command_line : "";
    r.program_seconds = program_seconds;
    r.timer = timer;
    r.timer_dist = timer_hist ? &timer_hist->dist : nullptr;
    r.pp = pp;
    r.pp_dist = pp_hist ? &pp_hist->dist : nullptr;
    lat::write_latency_files(outdir ? outdir : "", r);
    return LAT_SUCCESS;
  });
}

int lat_check_output_dir(const char *outdir) {
  return lat::guard([&] {
    lat::check_writable_dir(outdir ? outdir : "");
    return LAT_SUCCESS;
  });
}

}  // extern "C"
