// latency.cpp: the C shims of the ISU ping-pong (Luecke et al.): its options, the measurement, the npp rule
// and the files of the latency driver, one thin function each.
#include <cmath>

#include "common/distribution_handle.hpp"
#include "common/staged_files.hpp"
#include "guard.hpp"
#include "latency/npp_rule.hpp"
#include "latency/options.hpp"
#include "latency/pingpong.hpp"
#include "latency/report.hpp"

extern "C" {

int lat_pingpong_defaults(lat_pingpong_options *opts) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    *opts = lat::pingpong_defaults();
    return LAT_SUCCESS;
  });
}

int lat_pingpong_check(const lat_pingpong_options *opts, int nprocs, const lat_timer_result *timer) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    lat::require_no_complaint(lat::check_pingpong_options(*opts, nprocs, opts->source, timer));
    return LAT_SUCCESS;
  });
}

int lat_pingpong_stats(MPI_Comm comm, const lat_pingpong_options *opts, const lat_timer_result *timer,
                       lat_pingpong_result *result, lat_histogram *hist) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    lat::require_nonnull(result, "result");
    *result = lat_pingpong_result{};  // a failure leaves zeros, never stale values
    if (hist != nullptr) *hist = nullptr;
    lat::PingPong pp = lat::pingpong_stats(comm, *opts, timer, hist != nullptr);
    *result = pp.result;
    lat::hand_out(std::move(pp.dist), hist, std::move(pp.chunks));
    if (pp.failure) std::rethrow_exception(pp.failure);  // a timeout in the trials: what was measured is out
    return lat::interrupted_code(pp.result.partial != LAT_COMPLETE, "ping-pong", "results are partial");
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
    r.chunks = pp_hist ? &pp_hist->chunks : nullptr;
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
