// plot.hpp: drawing with gnuplot (Debian gnuplot-nox), the one plotting tool the drivers depend on.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace lat {

/// Runs `gnuplot -e "name='value'; ..." script`, its standard output discarded. Throws UnsupportedError
/// when gnuplot cannot be started, IoError when it fails or output is not a non-empty file afterwards.
void run_gnuplot(const std::string &script, const std::vector<std::pair<std::string, std::string>> &strings,
                 const std::string &output);

/// value quoted as a gnuplot single-quoted string ('it''s').
std::string gnuplot_quoted(const std::string &value);

}  // namespace lat
