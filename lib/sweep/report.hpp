// report.hpp: the files of a size sweep: mpptest's gnuplot data and command files, CSV, JSON and
// the rendered PNG (layout in docs/output-formats.md).
#pragma once

#include <string>

#include "sweep/result.hpp"

namespace lat {

/// The results as a table: the mpptest driver's output (stdout, or the -fname file), with the steps and
/// the startup and rate of each regime.
std::string sweep_table_text(const SweepResult &r);
/// "" or why a regime line must not be read as the regime's figures (a negative startup, a rate above any
/// memory's bandwidth): the table and the JSON mark it.
std::string sweep_line_questioned(const lat_sweep_line &l);
/// mpptest's gnuplot data (its layout: proc1 proc2 distance len time rate, tab-separated; givedy: the mean and
/// the max after them) and commands (time against length, log-log with logscale).
std::string sweep_gpl_text(const SweepResult &r, bool givedy);
/// rate: the .gcm plots the rate (column 6) instead of the time (mpptest's -rate).
std::string sweep_gcm_text(const SweepResult &r, const std::string &fname, bool givedy, bool rate);
/// The picture's script: min, median and max against size from <fname>.csv; rate: the rate instead.
std::string sweep_plot_script(const SweepResult &r, const std::string &fname, bool rate);
std::string sweep_csv_text(const SweepResult &r);
std::string sweep_json_text(const SweepResult &r, const std::string &command_line);

/// <base>.csv and .json in outdir, with LAT_SWEEP_FILES_GNUPLOT <base>.gpl and .gcm (LAT_SWEEP_FILES_GIVEDY:
/// eight columns), with LAT_SWEEP_FILES_PNG <base>.gp and <base>.png, and the table at table_path ("": none; "-": printed on stdout once the
/// files are in place), whole or not at all.
/// Every file write_sweep_files may write in outdir under base (lat_check_outputs "sweep"; the table's own path
/// is the caller's to check).
std::vector<std::string> sweep_output_names(const std::string &outdir, const std::string &base);

void write_sweep_files(const std::string &outdir, const std::string &base, const std::string &command_line,
                       const SweepResult &r, int flags, const std::string &table_path);

/// Names for lat_sweep_pattern and lat_sweep_end values.
const char *sweep_pattern_name(int pattern);
const char *sweep_end_name(int end);

}  // namespace lat
