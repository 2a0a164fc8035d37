// option_rules.hpp: the rules several capabilities' options share (a timer kind, a 0/1 flag, a pair of
// ranks, a timeout), written once so that every lat_*_check says them in the same words.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lat {

/// "" or "timer must be 0 (mpi_wtime), 1 (monotonic_raw) or 2 (tsc), got 7".
std::string check_timer_kind(int timer);

/// "" or "<name> must be 0 or 1, got 2".
std::string check_flag(const char *name, int value);

/// The longest watchdog timeout: a year, in seconds.
constexpr double kMaxTimeoutSeconds = 365.0 * 24 * 3600;
/// The shortest one (other than 0, none): a millisecond.
constexpr double kMinTimeoutSeconds = 1e-3;

/// "" or the complaint about a watchdog timeout (0 = none, or seconds in kMinTimeoutSeconds..kMaxTimeoutSeconds).
std::string check_timeout(double timeout_s);

/// "" or what is wrong with a source/dest pair on a communicator of nprocs ranks (dest may be
/// LAT_LAST_RANK); `what` names the measurement in "a <what> needs at least 2 processes".
std::string check_pair_of_ranks(const char *what, int source, int dest, int nprocs);

/// dest with LAT_LAST_RANK resolved on a communicator of nprocs ranks.
int resolve_dest(int dest, int nprocs);

/// The first non-empty complaint of a list, or "".
std::string first_complaint(const std::vector<std::string> &complaints);

}  // namespace lat
