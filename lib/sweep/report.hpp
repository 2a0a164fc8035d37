// report.hpp: the files of a size sweep: mpptest's gnuplot data and command files, CSV, JSON and
// the rendered PNG (layout in docs/output-formats.md).
#pragma once

#include <string>

#include "sweep/result.hpp"

namespace lat {

std::string sweep_gpl_text(const SweepResult &r);
std::string sweep_gcm_text(const SweepResult &r, const std::string &fname);
std::string sweep_csv_text(const SweepResult &r);
std::string sweep_json_text(const SweepResult &r, const std::string &command_line);

/// <fname>.gpl, .gcm, .csv, .json and (render) .png in outdir, whole or not at all.
void write_sweep_files(const std::string &outdir, const std::string &fname, const std::string &command_line,
                       const SweepResult &r, bool render);

/// Names for lat_sweep_pattern and lat_sweep_end values.
const char *sweep_pattern_name(int pattern);
const char *sweep_end_name(int end);

}  // namespace lat
