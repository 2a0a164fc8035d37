// guard.hpp: the firewall. Every extern "C" function runs its body through lat::guard(), so that no C++
// exception crosses the C ABI and every failure leaves a message for lat_last_error_message(). This is the
// one place where exceptions become LAT_ERR_* codes (and, in throw_code, codes exceptions).
#pragma once

#include <cstdint>
#include <new>
#include <string>

#include "common/error.hpp"
#include "common/handles.hpp"
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

/// Throws the exception whose code is `code` (the inverse of guard()), for a code that a caller's function
/// returned into the library; an unknown code becomes LAT_ERR_INTERNAL.
[[noreturn]] inline void throw_code(int code, const std::string &message) {
  switch (code) {
    case LAT_ERR_ARG: throw ArgError(message);
    case LAT_ERR_MPI: throw MpiError(message);
    case LAT_ERR_NOT_INIT: throw NotInitError(message);
    case LAT_ERR_UNSUPPORTED: throw UnsupportedError(message);
    case LAT_ERR_IO: throw IoError(message);
    case LAT_ERR_TIMEOUT: throw TimeoutError(message);
    case LAT_ERR_DATA: throw DataError(message);
    case LAT_ERR_NOMEM: throw NoMemError(message);
    default: throw std::runtime_error(message);
  }
}

/// LAT_SUCCESS, or LAT_ERR_INTERRUPTED with "<what> stopped early by lat_request_stop(); <kept>".
inline int interrupted_code(bool interrupted, const std::string &what, const std::string &kept) {
  if (!interrupted) return LAT_SUCCESS;
  set_last_error(what + " stopped early by lat_request_stop(); " + kept);
  return LAT_ERR_INTERRUPTED;
}

/// lat_*_check(): throws ArgError with the complaint, if there is one.
inline void require_no_complaint(const std::string &complaint) {
  if (!complaint.empty()) throw ArgError(complaint);
}

/// Throws ArgError when a pointer argument is NULL.
inline void require_nonnull(const void *p, const char *name) {
  if (p == nullptr) throw ArgError(std::string(name) + " must not be NULL");
}

/// ArgError unless handle is a live handle of its type: NULL, a pointer the library never returned, one of
/// another kind and one already freed are all refused, naming the argument.
template <class T>
void require_live(const T *handle, const char *name) {
  require_nonnull(handle, name);
  if (!is_live_handle(handle, typeid(T)))
    throw ArgError(std::string(name) + " is not a handle this library returned, or it was freed already");
}

/// The object behind a result handle; ArgError unless it is live (require_live).
template <class T>
T &deref(T *handle, const char *name) {
  require_live(handle, name);
  return *handle;
}

/// The object behind an optional handle (NULL allowed), or nullptr.
template <class T>
T *deref_optional(T *handle, const char *name) {
  return handle == nullptr ? nullptr : &deref(handle, name);
}

/// lat_*_free(): deletes *handle and sets it to NULL; a NULL *handle is accepted, a NULL handle and a
/// *handle that is not live (freed twice, never returned) are not.
template <class T>
int free_handle(T **handle, const char *name) {
  require_nonnull(handle, name);
  if (*handle == nullptr) return LAT_SUCCESS;
  require_live(*handle, name);
  drop_handle(*handle);
  delete *handle;
  *handle = nullptr;
  return LAT_SUCCESS;
}

/// ArgError unless 0 <= i < n: "<what> index must be in 0..n-1, got i".
inline void require_index(int64_t i, int64_t n, const char *what) {
  if (i < 0 || i >= n)
    throw ArgError(std::string(what) + " index must be in 0.." + std::to_string(n - 1) + ", got " + std::to_string(i));
}

}  // namespace lat
