// report.hpp: the files of a toy barrier run (toy.txt, toy.json).
#pragma once

#include <string>
#include <vector>

#include "toy/measurement.hpp"

namespace lat {

std::string toy_table_text(const ToyResult &r);
std::string toy_json_text(const ToyResult &r, const std::string &command_line);

/// Every file write_toy_files may write in outdir (lat_check_outputs "toy").
std::vector<std::string> toy_output_names(const std::string &outdir);

/// The two files in outdir, whole or not at all.
void write_toy_files(const std::string &outdir, const std::string &command_line, const ToyResult &r);

}  // namespace lat
