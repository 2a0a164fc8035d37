// plot.hpp: drawing with gnuplot (Debian gnuplot-nox), the one plotting tool the drivers depend on.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/staged_files.hpp"

namespace lat {

/// Runs `gnuplot -e "name='value'; ..." script`, its standard output discarded. Throws UnsupportedError
/// when gnuplot cannot be started, IoError when it fails, drew without its fonts, or output is not a whole
/// picture afterwards; the messages name the picture as `shown` (its final name; output may be a temporary).
void run_gnuplot(const std::string &script, const std::vector<std::pair<std::string, std::string>> &strings,
                 const std::string &output, const std::string &shown);

/// A plot to draw: its path, and the staged file number of the gnuplot script that draws it.
struct Plot {
  std::string path;
  size_t script;
};

/// For write_files_whole: draws each plot by running its staged script with gnuplot, the variable outfile
/// set to a temporary file, format to the path's extension ("png", "svg") and each (variable, staged file
/// number) of `data` to that staged file's path; the plots are renamed with the set.
MakeFromStaged render_plots(const std::vector<Plot> &plots, const std::vector<std::pair<std::string, size_t>> &data);

/// The head of a figure's script: output file and format (png or svg) from -e (render_plots sets them),
/// else file.png; the terminal at width x height.
std::string gnuplot_figure_head(const std::string &file, int width, int height, const std::string &script_ext = ".gp");

/// value quoted as a gnuplot single-quoted string ('it''s').
std::string gnuplot_quoted(const std::string &value);

}  // namespace lat
