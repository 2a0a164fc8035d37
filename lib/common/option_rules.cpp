#include "common/option_rules.hpp"

#include <cmath>

#include "common/error.hpp"
#include "mpilat.h"

namespace lat {

std::string check_timer_kind(int timer) {
  if (timer >= LAT_TIMER_MPI_WTIME && timer <= LAT_TIMER_TSC) return "";
  return got("timer must be 0 (mpi_wtime), 1 (monotonic_raw) or 2 (tsc)", timer);
}

std::string check_flag(const char *name, int value) {
  if (value == 0 || value == 1) return "";
  return got(std::string(name) + " must be 0 or 1", value);
}

std::string check_timeout(double timeout_s) {
  // At most a year: beyond it the watchdog's deadline would not fit a clock's 64-bit nanoseconds.
  // At least a millisecond: a shorter deadline cannot be told from the scheduler's noise (and 1e-9 is below
  // the clocks' resolution): it would end every run with a timeout.
  if (timeout_s == 0.0 || (timeout_s >= kMinTimeoutSeconds && timeout_s <= kMaxTimeoutSeconds)) return "";
  return got("timeout_s must be a number of seconds in 0.." + std::to_string(static_cast<int64_t>(kMaxTimeoutSeconds)) +
                 " (a year; 0: no limit), at least 0.001 when not 0",
             timeout_s);
}

int resolve_dest(int dest, int nprocs) { return dest == LAT_LAST_RANK ? nprocs - 1 : dest; }

std::string check_pair_of_ranks(const char *what, int source, int dest, int nprocs) {
  if (nprocs < 2) return std::string("a ") + what + " needs at least 2 processes, the communicator has " + std::to_string(nprocs);
  const int d = resolve_dest(dest, nprocs);
  const std::string ranks = "0.." + std::to_string(nprocs - 1);
  if (source < 0 || source >= nprocs) return got("source must be a rank in " + ranks, source);
  if (d < 0 || d >= nprocs) return got("dest must be a rank in " + ranks + " (or -1: the last)", dest);
  if (source == d) return "source and dest must differ, both are " + std::to_string(d);
  return "";
}

std::string first_complaint(const std::vector<std::string> &complaints) {
  for (const std::string &c : complaints)
    if (!c.empty()) return c;
  return "";
}

}  // namespace lat
