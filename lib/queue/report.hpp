// report.hpp: the files of a queue sweep (queuelat.txt, .csv, .json, .gp, .png; docs/output-formats.md).
#pragma once

#include <string>

#include "queue/measurement.hpp"

namespace lat {

std::string queue_table_text(const QueueResult &r);
std::string queue_csv_text(const QueueResult &r);
std::string queue_json_text(const QueueResult &r, const std::string &command_line);
std::string queue_gnuplot_text(const QueueResult &r);

/// The five files (four without render) in outdir, whole or not at all.
/// Every file write_queue_files may write in outdir (lat_check_outputs "queue").
std::vector<std::string> queue_output_names(const std::string &outdir);

void write_queue_files(const std::string &outdir, const std::string &command_line, const QueueResult &r, bool render);

}  // namespace lat
