// handles.hpp: the registry of the opaque handles the C ABI hands out (lat_sweep, lat_histogram, ...).
// A caller's pointer is looked up here before it is dereferenced, so a pointer that was never a handle,
// a handle of another kind, or one already freed is an argument error, never a crash or a silent read.
#pragma once

#include <memory>
#include <typeindex>
#include <typeinfo>
#include <utility>

namespace lat {

/// Records h as a live handle of kind `kind` (throws std::bad_alloc when the registry cannot grow).
void adopt_handle(const void *h, std::type_index kind);
/// Whether h is a live handle of kind `kind`.
bool is_live_handle(const void *h, std::type_index kind) noexcept;
/// Forgets h (it is being freed).
void drop_handle(const void *h) noexcept;

/// A new T{args...} on the heap, registered as a live handle.
template <class T, class... Args>
T *new_handle(Args &&...args) {
  std::unique_ptr<T> owned(new T{std::forward<Args>(args)...});
  adopt_handle(owned.get(), typeid(T));
  return owned.release();
}

}  // namespace lat
