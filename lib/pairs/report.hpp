// report.hpp: the files of a pair matrix: the mmpi log (lib/pairs/mmpi_log), the JSON, and what mmpi2mat
// made of a log: MATLAB/Octave text matrices, a CSV and a gnuplot heat map.
#pragma once

#include <string>

#include "pairs/measurement.hpp"
#include "pairs/mmpi_log.hpp"

namespace lat {

/// Every statistic, place and the run, as JSON.
std::string pair_json_text(const PairResult &r, const std::string &command_line);

/// One N x N matrix of statistic stat as text rows (what MATLAB/Octave `load` reads).
std::string pair_matrix_text(const PairResult &r, int stat);

/// A row per pair i < j: ranks, hosts, nodes and the statistics known.
std::string pair_csv_text(const PairResult &r);

/// gnuplot script of the heat map of statistic stat (LAT_PAIR_MEDIAN or LAT_PAIR_MEAN) on a logarithmic colour
/// scale (data inline; outfile and format set by the caller).
std::string pair_heatmap_text(const PairResult &r, const std::string &default_outfile, int stat);

/// Every file write_pair_files (kind "pairs": base is the log's name) or write_pair_matrices (kind "matrices")
/// may write in outdir (lat_check_outputs).
std::vector<std::string> pair_output_names(const std::string &outdir, const std::string &log_name);
std::vector<std::string> matrix_output_names(const std::string &outdir, const std::string &base);

/// lat_write_pair_files(): the log and the JSON beside it.
void write_pair_files(const std::string &outdir, const std::string &log_name, const std::string &command_line,
                      const PairResult &r);

/// lat_write_pair_matrices(): _comm.dat, _var.dat, .csv, _heatmap.gp and, when render, .png and .svg; the heat
/// map of the median where r has it and mean is false, else of the mean.
void write_pair_matrices(const std::string &outdir, const std::string &base, const PairResult &r, bool render, bool mean);

/// lat_read_pair_json(): our JSON of a pair matrix read back (DataError naming `name` when it is not one).
PairResult parse_pair_json(const std::string &text, const std::string &name);


}  // namespace lat
