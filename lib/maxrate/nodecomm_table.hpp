// nodecomm_table.hpp: the nodecomm table (the original's and ours), written and read back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mpilat.h"

namespace lat {

/// Parses a nodecomm table; DataError("name:line: expected ..., got '...'") when malformed.
std::vector<lat_maxrate_obs> parse_nodecomm_table(const std::string &text, const std::string &name, double us_per_unit,
                                                  int64_t *missing = nullptr);

/// The table: a '#' line saying what it is, "len" and k = 1..K, then a row per size (min_us).
std::string nodecomm_table_text(const std::vector<lat_maxrate_obs> &obs, const std::string &what);

}  // namespace lat
