// driver_options.hpp: command-line options the C++ drivers share (CLI11).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

/// --progress sets progress to 1, --noprogress to 0; otherwise it keeps its value (the default). Two flag
/// callbacks: CLI11 turns a "{0}" flag into -1 ("negated"), not 0.
inline void add_progress_flags(CLI::App &app, int &progress, const std::string &default_text) {
  app.add_flag_callback("--progress", [&progress] { progress = 1; }, "progress on stderr (default: " + default_text + ")");
  app.add_flag_callback("--noprogress", [&progress] { progress = 0; }, "no progress lines");
}

/// The command line as typed (arguments joined by spaces), for the files' provenance.
inline std::string command_line_of(int argc, char **argv) {
  std::string s;
  for (int k = 0; k < argc; ++k) s += (k ? " " : "") + std::string(argv[k]);
  return s;
}
