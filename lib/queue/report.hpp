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
void write_queue_files(const std::string &outdir, const std::string &command_line, const QueueResult &r, bool render);

}  // namespace lat
