// mmpi_log.hpp: the mmpi log of the 2009 program, written and read back (docs/output-formats.md).
#pragma once

#include <string>

#include "pairs/measurement.hpp"

namespace lat {

/// The mmpi log exactly in the layout of the 2009 program.
std::string mmpi_log_text(const PairResult &r);

/// Parses an mmpi log; `name` labels the errors: DataError("name:line: expected ..., got '...'").
PairResult parse_mmpi_log(const std::string &text, const std::string &name);

/// "sequential", "rounds", or "unknown" (a log).
const char *pair_schedule_name(int schedule);

}  // namespace lat
