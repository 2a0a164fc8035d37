// report.hpp: the files of the nodecomm driver: the nodecomm table (lib/maxrate/nodecomm_table), the
// paper's Tables 1 and 2 as text, CSV, JSON and the gnuplot figures (bandwidth, relative error).
#pragma once

#include <string>
#include <vector>

#include "maxrate/fit.hpp"
#include "maxrate/nodecomm.hpp"
#include "maxrate/nodecomm_table.hpp"

namespace lat {

/// Table 1 (parameters) and Table 2 (relative-error sums) of the paper, for this fit. T is a full ping-pong (ours
/// and the original nodecomm's tables, the paper's Table 1), so each rate is shown per round trip and per
/// direction (twice it).
std::string maxrate_tables_text(const MaxrateFit &fit);

/// Every file write_maxrate_files may write in outdir (lat_check_outputs "nodecomm").
std::vector<std::string> maxrate_output_names(const std::string &outdir);

/// lat_write_maxrate_files(); measured may be null (observations from a table).
void write_maxrate_files(const std::string &outdir, const std::string &command_line, const NodecommResult *measured,
                         const std::vector<lat_maxrate_obs> &obs, const MaxrateFit &fit, bool render);

/// "postal (1 pair)", ..., "max-rate 4-parameter", "modified (5)"; the slug for file names ("maxrate4"); the
/// formula; how the fit is solved and what it guarantees.
const char *rate_model_name(int model);
const char *rate_model_slug(int model);
const char *rate_model_formula(int model);
const char *rate_model_method(int model);

/// "short", "eager", "rendezvous" for three regimes; "all" for one; "lower"/"upper" for two.
std::string regime_name(int regime, int nregimes);

}  // namespace lat
