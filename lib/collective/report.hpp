// report.hpp: the files of a collective measurement: a text table, mpilat-coll.json (which mpilat-compare
// reads), a CSV of the points and one of the samples, and two pictures (the distribution of every point;
// the median against message size).
#pragma once

#include <string>

#include "collective/measurement.hpp"

namespace lat {

std::string coll_table_text(const CollResult &r);
std::string coll_json_text(const CollResult &r, const std::string &command_line);
std::string coll_csv_text(const CollResult &r);
std::string coll_samples_csv_text(const CollResult &r);

/// <outdir>/<base>.txt, .json, .csv, .samples.csv, .dist.gp, .size.gp, .size.dat, and with render the
/// PNG of both scripts; whole or not at all. The root's result (with its samples) only.
/// Every file write_coll_files may write in outdir under base (lat_check_outputs "coll").
std::vector<std::string> coll_output_names(const std::string &outdir, const std::string &base);

void write_coll_files(const std::string &outdir, const std::string &base, const std::string &command_line,
                      const CollResult &r, bool render);

}  // namespace lat
