// error.hpp: the exceptions the core throws; lib/capi/guard.hpp maps each to one LAT_ERR_* code.
#pragma once

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace lat {

/// A bad argument (maps to LAT_ERR_ARG). Message names the value: "ntrial must be >= 1, got 0".
struct ArgError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// A failed MPI call (LAT_ERR_MPI); the message names the call and MPI's error string.
struct MpiError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// MPI not initialised or already finalised (LAT_ERR_NOT_INIT).
struct NotInitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A feature this machine lacks, such as an invariant TSC (LAT_ERR_UNSUPPORTED).
struct UnsupportedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A file that could not be written or read (LAT_ERR_IO).
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A peer that did not answer within the caller's timeout (LAT_ERR_TIMEOUT); the message names the
/// ranks waited for and the phase.
struct TimeoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Received data that differ from what was sent (LAT_ERR_DATA); the message names ranks, size and byte.
struct DataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Memory that cannot be had, with what it was for (LAT_ERR_NOMEM); a bare std::bad_alloc maps there too.
struct NoMemError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The kind of a failure, one per exception class above; what a failing rank tells the others (the
/// failure notes and the collective verdicts carry it as an int). Only the C shims turn a kind into a
/// LAT_ERR_* code (lib/capi/guard.hpp).
enum class Fault : int { arg = 1, nomem, mpi, not_init, unsupported, io, timeout, data, internal };

/// The kind of the exception being handled (call it inside a catch block): Fault::internal for any other.
Fault current_fault() noexcept;

/// Throws the exception of kind `fault` with `message`.
[[noreturn]] void throw_fault(Fault fault, const std::string &message);

/// Builds "what must hold, got value" messages without iostreams at every call site.
/// A value as a message shows it: integers whole, numbers in their shortest exact form ("120", "1e+308",
/// "nan"), never std::to_string's six fixed decimals (1e308 printed 309 digits, 1e-7 printed 0.000000).
template <class T>
std::string shown_value(const T &value) {
  if constexpr (std::is_floating_point_v<T>) {
    // Whole numbers whole (600000, not 6e+05); the others in their shortest exact form.
    // The range is tested first: casting NaN or 1e308 to an integer is undefined.
    if (value < T(1e15) && value > T(-1e15) && value == std::trunc(value) && (value != 0 || !std::signbit(value)))
      return std::to_string(static_cast<long long>(value));
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
  } else {
    return std::to_string(value);
  }
}

template <class T>
std::string got(const std::string &rule, const T &value) {
  return rule + ", got " + shown_value(value);
}

}  // namespace lat
