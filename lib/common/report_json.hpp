// report_json.hpp: the JSON of what several reports hold alike: the statistics of a distribution, its
// percentiles and intervals, its frequency table.
#pragma once

#include <nlohmann/json.hpp>

#include "common/stats.hpp"
#include "mpilat.h"

namespace lat {

/// lat_stats as a JSON object (count, min_us, median_us, ...).
nlohmann::json stats_json(const lat_stats &s);
/// A number, or null for NaN and infinities (JSON has neither).
nlohmann::json number_or_null(double x);
/// lat_quantiles as a JSON object (percentiles_us, the 95 % intervals and how they are made).
nlohmann::json quantiles_json(const lat_quantiles &q, int64_t count);
/// A distribution as [[value, count], ...] rows.
nlohmann::json table_json(const Distribution &d);

}  // namespace lat
