// driver_options.hpp: command-line options the C++ drivers share (CLI11).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
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

/// Runs parse (app.parse of argv, or of CLI11's reversed vector); -1 to go on, or the exit status: 0 after
/// --help (printed), 2 for a bad option ("<program>: <why> (try <help>)"). Only rank 0 prints.
template <class Parse>
int parse_options(CLI::App &app, Parse &&parse, int rank, const char *program, const char *help = "--help") {
  try {
    parse();
  } catch (const CLI::CallForHelp &) {
    if (rank == 0) std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError &e) {
    if (rank == 0) std::fprintf(stderr, "%s: %s (try %s)\n", program, e.what(), help);
    return 2;
  }
  return -1;
}
