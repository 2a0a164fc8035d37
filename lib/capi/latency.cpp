// latency.cpp: the C shims of the ISU ping-pong (Luecke et al.): the measurement, the npp rule, the files of
// the latency driver and the file checks, one thin function each (its checks: lib/generated/capi_entries.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "common/distribution_handle.hpp"
#include "common/memory.hpp"
#include "common/staged_files.hpp"
#include "guard.hpp"
#include "latency/npp_rule.hpp"
#include "latency/options.hpp"
#include "latency/pingpong.hpp"
#include "latency/report.hpp"

/// The bytes of lat_read_input.
struct lat_input_s {
  std::string bytes;
};

namespace {

/// A caller's result is read only within its arrays: its counts in range and its host names ended
/// (lat_write_latency_plots on a result whose nlevels was large read past level_us and crashed). nchanges
/// counts every state change, the arrays hold the first LAT_MAX_CHANGES (the readers take the smaller).
void require_readable(const lat_pingpong_result &pp) {
  if (pp.nlevels < 0 || pp.nlevels > LAT_MAX_LEVELS)
    throw lat::ArgError(lat::got("pp->nlevels must be in 0.." + std::to_string(LAT_MAX_LEVELS), pp.nlevels));
  if (pp.nchanges < 0) throw lat::ArgError(lat::got("pp->nchanges must be >= 0", pp.nchanges));
  for (const auto &[host, name] : {std::pair{pp.source_host, "pp->source_host"}, std::pair{pp.dest_host, "pp->dest_host"}})
    if (std::memchr(host, '\0', LAT_HOSTNAME_LEN) == nullptr)
      throw lat::ArgError(std::string(name) + " must end (a NUL) within its " + std::to_string(LAT_HOSTNAME_LEN) + " bytes");
}

}  // namespace

extern "C" {

int lat_impl_pingpong_stats(MPI_Comm comm, const lat_pingpong_options *opts, const lat_timer_result *timer,
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

int lat_impl_write_latency_files(const char *outdir, const char *command_line, double program_seconds,
                            const lat_timer_result *timer, lat_histogram timer_hist,
                            const lat_pingpong_result *pp, lat_histogram pp_hist) {
  return lat::guard([&] {
    lat::require_nonnull(pp, "pp");
    require_readable(*pp);
    if (!std::isfinite(program_seconds) || program_seconds < 0.0)
      throw lat::ArgError(lat::got("program_seconds must be a finite number >= 0", program_seconds));
    lat::LatencyReport r;
    r.command_line = command_line ? command_line : "";
    r.program_seconds = program_seconds;
    r.timer = timer;
    const lat_histogram_s *timer_h = lat::deref_optional(timer_hist, "timer_hist");
    const lat_histogram_s *pp_h = lat::deref_optional(pp_hist, "pp_hist");
    r.timer_dist = timer_h ? &timer_h->dist : nullptr;
    r.pp = pp;
    r.pp_dist = pp_h ? &pp_h->dist : nullptr;
    r.chunks = pp_h ? &pp_h->chunks : nullptr;
    lat::write_latency_files(outdir ? outdir : "", r);
    return LAT_SUCCESS;
  });
}

int lat_impl_write_latency_plots(const char *outdir, const lat_pingpong_result *pp, lat_histogram pp_hist) {
  return lat::guard([&] {
    lat::require_nonnull(pp, "pp");
    require_readable(*pp);
    const lat_histogram_s &h = lat::deref(pp_hist, "pp_hist");
    lat::write_latency_plots(outdir ? outdir : "", *pp, h.dist, h.chunks);
    return LAT_SUCCESS;
  });
}

int lat_impl_npp_study(MPI_Comm comm, const lat_pingpong_options *opts, const lat_timer_result *timer, int nvalues,
                  const int64_t *values, int by_res_npp, lat_pingpong_result *result, lat_npp_study_row *rows) {
  return lat::guard([&] {
    lat::require_nonnull(opts, "opts");
    lat::require_nonnull(result, "result");
    *result = lat_pingpong_result{};
    if (rows == nullptr) throw lat::ArgError("rows must not be NULL");
    lat::NppStudy study = lat::npp_study(comm, *opts, timer, values, nvalues, by_res_npp != 0);
    *result = study.result;
    for (size_t i = 0; i < study.rows.size(); ++i) rows[i] = study.rows[i];
    return lat::interrupted_code(study.result.partial != LAT_COMPLETE, "npp study", "results are partial");
  });
}

int lat_impl_write_npp_study_files(const char *outdir, const char *command_line, const lat_pingpong_result *pp,
                              int nrows, const lat_npp_study_row *rows, int render) {
  return lat::guard([&] {
    lat::require_nonnull(pp, "pp");
    if (nrows < 1 || nrows > LAT_STUDY_MAX)
      throw lat::ArgError(lat::got("nrows must be in 1.." + std::to_string(LAT_STUDY_MAX), nrows));
    lat::require_nonnull(rows, "rows");
    if (render != 0 && render != 1) throw lat::ArgError(lat::got("render must be 0 or 1", render));
    lat::write_npp_study_files(outdir ? outdir : "", command_line ? command_line : "", *pp,
                               std::vector<lat_npp_study_row>(rows, rows + nrows), render == 1);
    return LAT_SUCCESS;
  });
}

int lat_check_output_dir(const char *outdir) {
  return lat::guard([&] {
    lat::check_writable_dir(outdir ? outdir : "");
    return LAT_SUCCESS;
  });
}

int lat_check_output_file(const char *path) {
  return lat::guard([&] {
    lat::require_nonnull(path, "path");
    lat::require_plain_path("path", path);
    if (!*path) throw lat::ArgError("path must not be empty");
    lat::check_output_file(path);
    return LAT_SUCCESS;
  });
}

int lat_check_input_file(const char *path) {
  return lat::guard([&] {
    lat::require_nonnull(path, "path");
    if (!*path) throw lat::ArgError("path must not be empty");
    lat::check_input_file(path);
    return LAT_SUCCESS;
  });
}

int lat_read_input(const char *path, lat_input *input) {
  return lat::guard([&] {
    lat::require_nonnull(input, "input");
    *input = nullptr;
    lat::require_nonnull(path, "path");
    if (!*path) throw lat::ArgError("path must not be empty");
    *input = lat::new_handle<lat_input_s>(lat::read_input_file(path, 0));
    return LAT_SUCCESS;
  });
}

int lat_input_size(lat_input input, int64_t *nbytes) {
  return lat::guard([&] {
    const lat_input_s &in = lat::deref(input, "input");
    lat::require_nonnull(nbytes, "nbytes");
    *nbytes = static_cast<int64_t>(in.bytes.size());
    return LAT_SUCCESS;
  });
}

int lat_input_get(lat_input input, int64_t n, char *bytes) {
  return lat::guard([&] {
    const lat_input_s &in = lat::deref(input, "input");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    const auto m = static_cast<size_t>(std::min<int64_t>(n, static_cast<int64_t>(in.bytes.size())));
    if (m > 0) {
      lat::require_nonnull(bytes, "bytes");
      std::memcpy(bytes, in.bytes.data(), m);
    }
    return LAT_SUCCESS;
  });
}

int lat_check_json_memory(int64_t nbytes, const char *name) {
  return lat::guard([&] {
    lat::require_nonnull(name, "name");
    if (nbytes < 0) throw lat::ArgError(lat::got("nbytes must be >= 0", nbytes));
    lat::check_json_parse_memory(static_cast<uint64_t>(nbytes), name);
    return LAT_SUCCESS;
  });
}

int lat_input_free(lat_input *input) {
  return lat::guard([&] {
    return lat::free_handle(input, "input");
  });
}

}  // extern "C"
