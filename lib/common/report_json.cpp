#include "common/report_json.hpp"

#include "common/report_text.hpp"
#include "mpilat_version.h"

#include <fmt/format.h>

#include <cmath>

namespace lat {

nlohmann::json report_head_json(const char *format, const std::string &command_line, bool with_mpi) {
  nlohmann::json j;
  j["format"] = format;
  j["format_version"] = 1;
  j["run"] = {{"date_utc", utc_now()},
              {"command_line", command_line},
              {"mpilat_version", MPILAT_VERSION_STRING},
              {"api_version", LAT_API_VERSION}};
  if (with_mpi) j["run"]["mpi_library_version"] = mpi_library_version();
  return j;
}

nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); }

nlohmann::json stats_json(const lat_stats &s) {
  // Statistics of nothing (a point a stopped run never reached) are missing, null, never 0 us.
  auto figure = [&](double x) { return s.count > 0 ? number_or_null(x) : nlohmann::json(); };
  return {{"count", s.count},
          {"min_us", figure(s.min_us)},
          {"median_us", figure(s.median_us)},
          {"mean_us", figure(s.mean_us)},
          {"max_us", figure(s.max_us)},
          {"variance_us2", figure(s.variance_us2)},
          {"stddev_us", figure(s.stddev_us)},
          {"cv_percent", figure(s.cv_percent)},
          {"stderr_us", figure(s.stderr_us)},
          {"rse", figure(s.rse)},
          {"rate_min_mbs", figure(s.rate_min_mbs)},
          {"rate_median_mbs", figure(s.rate_median_mbs)},
          {"rate_mean_mbs", figure(s.rate_mean_mbs)},
          {"rate_max_mbs", figure(s.rate_max_mbs)}};
}


nlohmann::json quantiles_json(const lat_quantiles &q, int64_t count) {
  nlohmann::json pct = nlohmann::json::object();
  if (count > 0)
    for (int i = 0; i < LAT_NPERCENTILES; ++i) pct[fmt::format("p{}", q.level[i])] = q.p_us[i];
  return {{"rule", "nearest rank: the ceil(p n / 100)-th smallest time"},
          {"percentiles_us", pct},
          {"median_ci95_us", {number_or_null(q.median_ci_us[0]), number_or_null(q.median_ci_us[1])}},
          {"p99_ci95_us", {number_or_null(q.p99_ci_us[0]), number_or_null(q.p99_ci_us[1])}},
          {"ci_method", "distribution-free, order statistics with binomial coverage >= 95 %; null: unbounded (too few trials)"}};
}

nlohmann::json table_json(const Distribution &d) {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < d.values.size(); ++i) rows.push_back({d.values[i], d.counts[i]});
  return rows;
}

}  // namespace lat
