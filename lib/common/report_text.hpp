// report_text.hpp: what every report writer needs: formatted text appended to a string (fmt), the date,
// the MPI library.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <iterator>
#include <string>
#include <utility>

#include "common/c_string.hpp"

namespace lat {

/// Appends fmt's formatting of args to out: append(o, "time = {:.3f} with frequency = {}\n", t, n).
template <class... Args>
void append(std::string &out, fmt::format_string<Args...> format, Args &&...args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

/// A line of a file read, as a message may quote it: 'the line' when it is printable text of at most 120
/// characters (longer lines cut there, with "..."), or a description when it holds bytes that are not text,
/// so that a file of binary garbage never writes its raw bytes to the user's terminal.
std::string quoted_line(const std::string &line);

/// "" for a file whose text may be read, or why not, naming the file: one that starts with a UTF-16 or
/// UTF-32 byte-order mark (an editor's "Unicode" save), whose every other byte is a NUL.
std::string encoding_complaint(const std::string &text, const std::string &name);

/// The current time as 2026-11-22T10:00:00Z.
std::string utc_now();

/// The WARNING line of a disturbed run (is_disturbed: runqueue_share_max at LAT_DISTURBED_SHARE or more, and
/// LAT_DISTURBED_MIN_WAIT_S waited; "" where not): what the table of every driver but latency opens with.
std::string disturbance_warning(double runqueue_share_max, int rank, double waited_s);

/// MPI_Get_library_version(), trailing blanks removed; "unknown" if it fails.
std::string mpi_library_version();

/// --precision's half-width in percent as the files print it: "+-1.234 %", or "unbounded" above 100 % or for
/// none (infinity: fewer chunks than batches).
std::string half_width_text(double half_pct);

}  // namespace lat
