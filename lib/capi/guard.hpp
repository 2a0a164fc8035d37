// guard.hpp: the firewall. Every extern "C" function runs its body through lat_guard(), so that no C++
// exception crosses the C ABI and every failure leaves a message for lat_last_error_message().
#pragma once

#include <new>
#include <string>

#include "../error.hpp"
#include "mpilat.h"

namespace lat {

void set_last_error(const std::string &message) noexcept;
void clear_last_error() noexcept;

template <class Body>
int guard(Body &&body) noexcept {
  try {
    clear_last_error();
    return body();
  } catch (const ArgError &e) {
    set_last_error(e.what());
    return LAT_ERR_ARG;
  } catch (const MpiError &e) {
    set_last_error(e.what());
    return LAT_ERR_MPI;
  } catch (const NotInitError &e) {
    set_last_error(e.what());
    return LAT_ERR_NOT_INIT;
  } catch (const UnsupportedError &e) {
    set_last_error(e.what());
    return LAT_ERR_UNSUPPORTED;
  } catch (const IoError &e) {
    set_last_error(e.what());
    return LAT_ERR_IO;
  } catch (const TimeoutError &e) {
    set_last_error(e.what());
    return LAT_ERR_TIMEOUT;
  } catch (const DataError &e) {
    set_last_error(e.what());
    return LAT_ERR_DATA;
  } catch (const NoMemError &e) {
    set_last_error(e.what());
    return LAT_ERR_NOMEM;
  } catch (const std::bad_alloc &) {
    set_last_error("out of memory");
    return LAT_ERR_NOMEM;
  } catch (const std::exception &e) {
    set_last_error(std::string("internal error: ") + e.what());
    return LAT_ERR_INTERNAL;
  } catch (...) {
    set_last_error("internal error: unknown exception");
    return LAT_ERR_INTERNAL;
  }
}

/// LAT_SUCCESS, or LAT_ERR_INTERRUPTED with "<what> stopped early by lat_request_stop(); <kept>".
inline int interrupted_code(bool interrupted, const std::string &what, const std::string &kept) {
  if (!interrupted) return LAT_SUCCESS;
  set_last_error(what + " stopped early by lat_request_stop(); " + kept);
  return LAT_ERR_INTERRUPTED;
}

/// Throws ArgError when a pointer argument is NULL.
inline void require_nonnull(const void *p, const char *name) {
  if (p == nullptr) throw ArgError(std::string(name) + " must not be NULL");
}

}  // namespace lat
