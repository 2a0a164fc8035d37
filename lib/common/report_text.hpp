// report_text.hpp: what every report writer needs: printf into a string, the date, the MPI library.
#pragma once

#include <string>

namespace lat {

/// printf-style append to out.
void appendf(std::string &out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/// The current time as 2026-11-22T10:00:00Z.
std::string utc_now();

/// MPI_Get_library_version(), trailing blanks removed; "unknown" if it fails.
std::string mpi_library_version();

}  // namespace lat
