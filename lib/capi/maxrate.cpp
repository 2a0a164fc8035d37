// maxrate.cpp: the C shims of the max-rate fit and its handle (its check: lib/generated/capi_entries.cpp).
#include "maxrate/fit.hpp"
#include "maxrate/report.hpp"
#include "common/staged_files.hpp"
#include "guard.hpp"
#include "maxrate/options.hpp"

namespace {

const lat_maxrate_fit_s &handle(lat_maxrate_fit fit) { return lat::deref(fit, "fit"); }

}  // namespace

extern "C" {

int lat_impl_fit_maxrate(const lat_fit_options *opts, int64_t nobs, const lat_maxrate_obs *obs, lat_maxrate_fit *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    *result = nullptr;
    lat::require_nonnull(opts, "opts");
    if (nobs < 1) throw lat::ArgError(lat::got("nobs must be >= 1", nobs));
    lat::require_nonnull(obs, "obs");
    *result = lat::new_handle<lat_maxrate_fit_s>(lat::fit_maxrate(*opts, std::vector<lat_maxrate_obs>(obs, obs + nobs)));
    return LAT_SUCCESS;
  });
}

int lat_impl_maxrate_get_model(lat_maxrate_fit fit, int regime, int model, lat_model_fit *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    const lat::MaxrateFit &r = handle(fit).r;
    if (regime < 0 || regime >= r.summary.nregimes)
      throw lat::ArgError(lat::got("regime must be in 0.." + std::to_string(r.summary.nregimes - 1), regime));
    if (model < 0 || model >= LAT_NMODELS)
      throw lat::ArgError(lat::got("model must be a lat_rate_model in 0.." + std::to_string(LAT_NMODELS - 1), model));
    *result = r.models[static_cast<size_t>(regime * LAT_NMODELS + model)];
    return LAT_SUCCESS;
  });
}

int lat_maxrate_get_errors(lat_maxrate_fit fit, int model, int64_t n, double *rel_err) {
  return lat::guard([&] {
    const lat::MaxrateFit &r = handle(fit).r;
    if (model < 0 || model >= LAT_NMODELS)
      throw lat::ArgError(lat::got("model must be a lat_rate_model in 0.." + std::to_string(LAT_NMODELS - 1), model));
    if (n < r.summary.nobs) throw lat::ArgError("n must be at least nobs = " + std::to_string(r.summary.nobs) + ", got " + std::to_string(n));
    lat::require_nonnull(rel_err, "rel_err");
    const std::vector<double> &e = r.rel_err[static_cast<size_t>(model)];
    std::copy(e.begin(), e.end(), rel_err);
    return LAT_SUCCESS;
  });
}

int lat_read_nodecomm_table(const char *path, double us_per_unit, int64_t n, lat_maxrate_obs *obs, int64_t *nobs,
                            int64_t *nmissing) {
  return lat::guard([&] {
    lat::require_nonnull(path, "path");
    lat::require_nonnull(nobs, "nobs");
    const std::vector<lat_maxrate_obs> got =
        lat::parse_nodecomm_table(lat::read_input_file(path, lat::kMaxInputLineBytes), path, us_per_unit, nmissing);
    *nobs = static_cast<int64_t>(got.size());
    if (n == 0 && obs == nullptr) return LAT_SUCCESS;
    if (n < *nobs) throw lat::ArgError("n must be at least " + std::to_string(*nobs) + ", got " + std::to_string(n));
    lat::require_nonnull(obs, "obs");
    std::copy(got.begin(), got.end(), obs);
    return LAT_SUCCESS;
  });
}

int lat_write_maxrate_files(const char *outdir, const char *command_line, lat_nodecomm nodecomm, int64_t nobs,
                            const lat_maxrate_obs *obs, lat_maxrate_fit fit, int render) {
  return lat::guard([&] {
    const lat::MaxrateFit &f = handle(fit).r;
    if (nobs != f.summary.nobs)
      throw lat::ArgError("nobs must be the fit's " + std::to_string(f.summary.nobs) + ", got " + std::to_string(nobs));
    lat::require_nonnull(obs, "obs");
    if (render != 0 && render != 1) throw lat::ArgError(lat::got("render must be 0 or 1", render));
    lat::write_maxrate_files(outdir ? outdir : "", command_line ? command_line : "", nodecomm ? &lat::deref(nodecomm, "nodecomm").r : nullptr,
                             std::vector<lat_maxrate_obs>(obs, obs + nobs), f, render == 1);
    return LAT_SUCCESS;
  });
}

}  // extern "C"
