#include "common/report_json.hpp"

#include "common/disturbance.hpp"
#include "common/report_text.hpp"
#include "generated/spec_json.hpp"
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

nlohmann::json number_or_text(double x) {
  if (std::isnan(x)) return "n/a";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

nlohmann::json stats_json(const lat_stats &s) {
  nlohmann::json j = spec_result_json(s);
  // Statistics of nothing (a point a stopped run never reached) are missing, null, never 0 us.
  if (s.count <= 0)
    for (auto &[name, value] : j.items())
      if (name != "count") value = nullptr;
  return j;
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

nlohmann::json disturbance_json(double runqueue_share_max, int rank, double waited_s) {
  const bool known = runqueue_share_max >= 0.0, disturbed = is_disturbed(runqueue_share_max, waited_s);
  return {{"runqueue_share_max", known ? nlohmann::json(runqueue_share_max) : nlohmann::json()},
          {"rank", known ? nlohmann::json(rank) : nlohmann::json()},
          {"waited_s", known ? nlohmann::json(waited_s) : nlohmann::json()},
          {"threshold", LAT_DISTURBED_SHARE},
          {"min_wait_s", LAT_DISTURBED_MIN_WAIT_S},
          {"disturbed", disturbed},
          {"warning", disturbed ? nlohmann::json(disturbance_warning(runqueue_share_max, rank, waited_s)) : nlohmann::json()}};
}

}  // namespace lat
