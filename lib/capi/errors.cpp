// errors.cpp: error codes, messages, versions and the stop request of the C ABI.
#include <string>

#include "common/stop.hpp"
#include "guard.hpp"

namespace lat {
namespace {
thread_local std::string t_last_error;
}
void set_last_error(const std::string &message) noexcept {
  try {
    t_last_error = message;
  } catch (...) {
    t_last_error.clear();  // keeping no message is better than throwing across the ABI
  }
}
void clear_last_error() noexcept { t_last_error.clear(); }
}  // namespace lat

extern "C" {

const char *lat_strerror(int code) {
  switch (code) {
    case LAT_SUCCESS: return "success";
    case LAT_ERR_ARG: return "invalid argument";
    case LAT_ERR_NOMEM: return "out of memory";
    case LAT_ERR_MPI: return "MPI call failed";
    case LAT_ERR_NOT_INIT: return "MPI is not initialised or already finalised";
    case LAT_ERR_UNSUPPORTED: return "not supported on this machine";
    case LAT_ERR_IO: return "file input/output failed";
    case LAT_ERR_INTERNAL: return "internal error in mpilat";
    case LAT_ERR_INTERRUPTED: return "stopped early on request; results are partial";
    case LAT_ERR_TIMEOUT: return "a peer did not answer within the timeout";
    case LAT_ERR_DATA: return "received data differ from what was sent";
    default: return "unknown mpilat error code";
  }
}

const char *lat_last_error_message(void) { return lat::t_last_error.c_str(); }

int lat_get_api_version(void) {
  lat::clear_last_error();
  return LAT_API_VERSION;
}

int lat_get_version(int *major, int *minor, int *patch) {
  lat::clear_last_error();
  if (major) *major = MPILAT_VERSION_MAJOR;
  if (minor) *minor = MPILAT_VERSION_MINOR;
  if (patch) *patch = MPILAT_VERSION_PATCH;
  return LAT_SUCCESS;
}

int lat_request_stop(void) {
  lat::request_stop();  // async-signal-safe: no guard, and the message is left as it is
  return LAT_SUCCESS;
}

int lat_clear_stop(void) {
  lat::clear_last_error();
  lat::clear_stop();
  return LAT_SUCCESS;
}

}  // extern "C"
