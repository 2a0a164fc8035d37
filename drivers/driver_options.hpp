// driver_options.hpp: command-line options the C++ drivers share (CLI11).
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "driver_support.h"
#include "mpilat.h"
#include "options_show.h"
#include "spec_cli.hpp"

/// Options of which at most one may be given: two are refused naming both ("--async excludes --head"), where
/// CLI11 would run their callbacks in the order they were declared and the later one would win silently.
inline void exclude_each_other(const std::vector<CLI::Option *> &options) {
  for (CLI::Option *a : options)
    for (CLI::Option *b : options)
      if (a != b) a->excludes(b);
}

/// --progress sets progress to 1, --noprogress to 0; otherwise it keeps its value (the default). Two flag
/// callbacks: CLI11 turns a "{0}" flag into -1 ("negated"), not 0. Their help is the spec's cli_help of
/// Member, the driver's progress field.
template <auto Member>
void add_progress_flags(CLI::App &app, int &progress, const char *driver) {
  exclude_each_other({app.add_flag_callback("--progress", [&progress] { progress = 1; },
                                            spec_help<Member>(driver, "--progress")),
                      app.add_flag_callback("--noprogress", [&progress] { progress = 0; },
                                            spec_help<Member>(driver, "--noprogress"))});
}

/// Every option's help shows its default as the library (lat_*_defaults) or the driver set it before the
/// options were declared, never a copy typed into the help text. Call it before adding the options.
inline void show_defaults(CLI::App &app) { app.option_defaults()->always_capture_default(); }

/// The timers' names as the library lists them: "mpi_wtime, monotonic_raw or tsc".
inline std::string timer_names() { return lat_timer_names(); }

/// The timer named `value` into *timer; or false, with `bad` set to "<option_and_value>: must be
/// <timer_names()>".
inline bool timer_option(const std::string &option_and_value, const std::string &value, int *timer,
                         std::string &bad) {
  if (lat_timer_from_name(value.c_str(), timer) == LAT_SUCCESS) return true;
  bad = option_and_value + ": must be " + timer_names();
  return false;
}

/// The verdict of a lat_*_check() call: "" when rc is LAT_SUCCESS, else the library's message, which
/// names the option and its value ("reps must be >= 1, got 0").
/// MPILAT_SHOW_OPTIONS (driver_show_options_asked): rank 0 prints each options struct the run would measure
/// with, every rank ends (exit 0) and nothing is measured, and a directory made for the outputs' check is
/// removed again; false otherwise. Called after every check.
template <class... Options>
bool show_options_instead(int rank, const Options &...options) {
  if (!driver_show_options_asked()) return false;
  if (rank == 0) (driver_show(options), ...);
  driver_outdir_unmake();  // a check, not a run: the --outdir it made for the check goes again
  driver_finalize(DRIVER_DONE);
  return true;
}

inline std::string check_complaint(int rc) { return rc == LAT_SUCCESS ? "" : lat_last_error_message(); }

/// CLI11's check that an option's value is a number > 0, with a message that names the value
/// ("--tgoal: must be a number > 0, got 0"); CLI::PositiveNumber's names the whole range of a double.
inline CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string &text) -> std::string {
        try {
          size_t used = 0;
          const double v = std::stod(text, &used);
          if (used == text.size() && v > 0.0) return "";
        } catch (const std::exception &) {
        }
        return "must be a number > 0, got " + text;
      },
      "> 0");
}

/// Text as a terminal may be shown it: control characters as \xNN, so that an escape sequence in a file or a
/// name never acts on the terminal; *control (when given) says whether there was one.
inline std::string shown_text(const std::string &text, bool *control = nullptr) {
  std::vector<char> shown(4 * text.size() + 1);
  if (driver_shown_text(text.data(), text.size(), shown.data()) && control != nullptr) *control = true;
  return shown.data();
}

/// "" when name may name a file (file_name: a name in the output directory, no '/', not "." or ".."; else a
/// path) that other files quote; else the complaint, naming option and the value (control characters as
/// \xNN: a newline would split the lines of a log or a gnuplot script).
inline std::string name_complaint(const std::string &option, const std::string &name, bool file_name) {
  bool control = false;
  const std::string shown = shown_text(name, &control);
  if (control) return option + " '" + shown + "': must not hold control characters (a newline, a tab, ...)";
  if (file_name && (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos))
    return option + " '" + shown + "': must be a file name without '/' (use --outdir for the directory)";
  return "";
}

/// The command line as typed (arguments joined by spaces), for the files' provenance.
inline std::string command_line_of(int argc, char **argv) {
  std::string s;
  for (int k = 0; k < argc; ++k) s += (k ? " " : "") + std::string(argv[k]);
  return s;
}

/// This rank's complaint about its options, "" while there is none: kept for driver_agree_options, which has
/// a rank whose options alone were refused say so (a launch that gives ranks different options).
inline std::string &options_complaint() {
  static std::string complaint;
  return complaint;
}

/// A refusal of this rank's options: "<program>: <why>" on stderr from rank 0, kept on every rank.
inline void refuse_options(int rank, const char *program, const std::string &why) {
  options_complaint() = std::string(program) + ": " + why;
  if (rank == 0) std::fprintf(stderr, "%s\n", options_complaint().c_str());
}

/// Runs parse (app.parse of argv, or of CLI11's reversed vector); -1 to go on, or the exit status: 0 after
/// --help (printed), 2 for a bad option ("<program>: <why> (try <help>)"). Only rank 0 prints (refuse_options).
/// An empty value is refused for every option: CLI11 would read "" as 0 for a number, or as "absent" for a
/// list, and run with what the user did not ask for.
template <class Parse>
int parse_options(CLI::App &app, Parse &&parse, int rank, const char *program, const char *help = "--help") {
  try {
    parse();
    for (const CLI::Option *opt : app.get_options())
      if (opt->get_type_size_max() > 0)
        for (const std::string &value : opt->results()) {
          if (value.empty()) throw CLI::ValidationError(opt->get_name() + " ''", "an empty value; give one or leave the option out");
          // One rule for integers in every driver (latency's namelist and options too): decimal digits with
          // an optional sign. CLI11 alone would take 0x10, 0b101, 1e3 or 1'000 in some drivers.
          if (opt->get_type_name().find("INT") != std::string::npos) {
            const size_t digits = value.find_first_not_of("+-") == std::string::npos ? 0 : value.find_first_not_of("+-");
            if (digits > 1 || value.size() == digits || value.find_first_not_of("0123456789", digits) != std::string::npos)
              throw CLI::ValidationError(opt->get_name() + " '" + value + "'", "an integer is written in decimal digits");
          }
          // CLI11 reads an integer beyond 64 bits as the largest one: the value typed is refused instead.
          if (opt->get_type_name().find("INT") != std::string::npos &&
              value.find_first_not_of("+-0123456789") == std::string::npos) {
            errno = 0;
            (void)std::strtoll(value.c_str(), nullptr, 10);
            if (errno == ERANGE)
              throw CLI::ValidationError(opt->get_name() + " '" + value + "'", "beyond the range of a 64-bit integer");
          }
        }
  } catch (const CLI::CallForHelp &) {
    if (rank == 0) std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError &e) {
    refuse_options(rank, program, std::string(e.what()) + " (try " + help + ")");
    return 2;
  }
  return -1;
}

/// "0,100,250" (each value once) or "first:last:step" (last included) into values; "" or the complaint.
template <class T>
std::string parse_list(const std::string &option, const std::string &text, std::vector<T> &values) {
  values.clear();
  auto number = [&](const std::string &s, T &v) {
    try {
      size_t used = 0;
      if constexpr (std::is_floating_point_v<T>) v = std::stod(s, &used);
      else v = std::stoll(s, &used);
      return used == s.size() && !s.empty();
    } catch (const std::exception &) {
      return false;
    }
  };
  const size_t colon = text.find(':');
  if (colon != std::string::npos) {
    const size_t second = text.find(':', colon + 1);
    T first{}, last{}, step{};
    if (second == std::string::npos || !number(text.substr(0, colon), first) ||
        !number(text.substr(colon + 1, second - colon - 1), last) || !number(text.substr(second + 1), step))
      return option + " '" + text + "': expected first:last:step";
    if (step <= 0) return option + " '" + text + "': step must be > 0";
    if (last < first) return option + " '" + text + "': last must be >= first";
    if ((last - first) / step > 100000) return option + " '" + text + "': more than 100000 values";
    for (T v = first; v <= last; v += step) values.push_back(v);
    return "";
  }
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    T v{};
    const std::string item = text.substr(at, comma - at);
    if (!number(item, v)) return option + " '" + text + "': '" + item + "' is not a number";
    if (std::find(values.begin(), values.end(), v) != values.end())
      return option + " '" + text + "': '" + item + "' is given twice: give each value once";
    values.push_back(v);
    at = comma + 1;
  }
  return "";
}
