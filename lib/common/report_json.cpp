#include "common/report_json.hpp"

#include "common/disturbance.hpp"
#include "common/report_text.hpp"
#include "generated/spec_json.hpp"
#include "mpilat_version.h"

#include <fmt/format.h>

#include <cmath>

namespace lat {

namespace {

/// The length of the well-formed UTF-8 sequence at s[i] (1 to 4), or 0 where the byte there starts none
/// (a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF, or cut short).
size_t utf8_sequence_at(const std::string &s, size_t i) {
  const auto byte = [&](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  const unsigned b0 = byte(i);
  const auto continuation = [&](size_t k, unsigned lo, unsigned hi) { return byte(k) >= lo && byte(k) <= hi; };
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return continuation(i + 1, 0x80, 0xbf) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const unsigned lo = b0 == 0xe0 ? 0xa0 : 0x80, hi = b0 == 0xed ? 0x9f : 0xbf;
    return continuation(i + 1, lo, hi) && continuation(i + 2, 0x80, 0xbf) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const unsigned lo = b0 == 0xf0 ? 0x90 : 0x80, hi = b0 == 0xf4 ? 0x8f : 0xbf;
    return continuation(i + 1, lo, hi) && continuation(i + 2, 0x80, 0xbf) && continuation(i + 3, 0x80, 0xbf) ? 4 : 0;
  }
  return 0;
}

void escape_strings(nlohmann::json &j) {
  if (j.is_string()) {
    j = utf8_or_escaped(j.get_ref<const std::string &>());
  } else if (j.is_array()) {
    for (nlohmann::json &x : j) escape_strings(x);
  } else if (j.is_object()) {
    nlohmann::json fixed = nlohmann::json::object();
    for (auto &[key, value] : j.items()) {
      escape_strings(value);
      fixed[utf8_or_escaped(key)] = std::move(value);
    }
    j = std::move(fixed);
  }
}

}  // namespace

std::string utf8_or_escaped(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = utf8_sequence_at(text, i);
    if (n == 0) {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

std::string json_document_text(nlohmann::json j, int indent) {
  escape_strings(j);
  return j.dump(indent) + "\n";
}

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
