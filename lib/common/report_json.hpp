// report_json.hpp: the JSON of what several reports hold alike: the document's head and its run header,
// the statistics of a distribution, its percentiles and intervals, its frequency table.
#pragma once

#include <nlohmann/json.hpp>

#include "common/stats.hpp"
#include "mpilat.h"

namespace lat {

/// The head every report's JSON starts with, written here once: {"format": format, "format_version": 1,
/// "run": {date_utc, command_line, mpilat_version, api_version[, mpi_library_version]}}; each report adds its
/// own fields to "run" after. mpi_library_version is left out of a report made without MPI (a fit of a file).
nlohmann::json report_head_json(const char *format, const std::string &command_line, bool with_mpi = true);

/// lat_stats as a JSON object (its spec_result_json: count, min_us, median_us, ...), every figure null when
/// count is 0.
nlohmann::json stats_json(const lat_stats &s);
/// A number, or null for NaN and infinities (JSON has neither).
nlohmann::json number_or_null(double x);
/// The "disturbance" object of a report: the largest run-queue share of a measuring rank, its rank, the
/// threshold and the verdict (null share and rank where the kernel does not say).
nlohmann::json disturbance_json(double runqueue_share_max, int rank, double waited_s);
/// A number, or "n/a" for NaN and "inf" / "-inf" for infinities (a fit's value that does not exist, said).
nlohmann::json number_or_text(double x);
/// lat_quantiles as a JSON object (percentiles_us, the 95 % intervals and how they are made).
nlohmann::json quantiles_json(const lat_quantiles &q, int64_t count);
/// text where it is UTF-8; each byte that is not (a Latin-1 file name, a value cut inside a character)
/// written as the four characters \xNN, so the bytes are kept and the JSON is valid.
std::string utf8_or_escaped(const std::string &text);
/// The text of a JSON document, with a newline: every string and key made UTF-8 by utf8_or_escaped (JSON
/// holds nothing else; nlohmann's dump threw on a Latin-1 byte of --outdir after the whole run was measured).
std::string json_document_text(nlohmann::json j, int indent);
/// A distribution as [[value, count], ...] rows.
nlohmann::json table_json(const Distribution &d);

}  // namespace lat
