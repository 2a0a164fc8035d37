// abi_sized.hpp: how the C ABI grows (docs/api.md, "How the ABI grows"), the scheme of Linux's extensible
// structs (clone3, openat2: copy_struct_from_user): the caller passes each struct with the size its header
// gave it. A shorter struct (an older header) is read as far as it goes and completed with the defaults (an
// options struct) or zeros; a longer one (a newer header) is accepted when the bytes this library does not
// know are all zero, and refused when one is set (a field it cannot honour). An output struct is written as
// far as the caller's size goes, the bytes beyond this library's struct zeroed. The generated entry points
// (lib/generated/sized_entries.cpp) hold one of these per struct argument; lib/capi/sized_refusal.hpp turns
// their checks into the C API's code. An older struct is read only to the end of its last field
// (plain_fields_end): its tail padding is unspecified, and a later field may sit where it was.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <string>

#include "mpilat.h"

namespace lat {

/// What a sized argument found wrong: a code and its message, or LAT_SUCCESS.
struct SizedCheck {
  int code = LAT_SUCCESS;
  std::string message;
};

/// The caller's size against this library's: a size below the first extensible ABI's struct is no struct
/// of any mpilat header; a longer struct's extra bytes must be zero.
inline SizedCheck check_size(const void *p, size_t size, const char *what, size_t plain_size, size_t ours,
                             bool check_tail) {
  SizedCheck c;
  if (p == nullptr) return c;
  if (size < plain_size) {
    c.code = LAT_ERR_ARG;
    c.message = std::string(what) + ": a struct of " + std::to_string(size) + " bytes, smaller than its " +
                std::to_string(plain_size) + " bytes in 0.9, the smallest any header gave it: not a struct of any "
                "mpilat.h (call the function through the header's macro, or give sizeof of the struct)";
    return c;
  }
  if (check_tail && size > ours) {
    const auto *bytes = static_cast<const unsigned char *>(p);
    for (size_t i = ours; i < size; ++i)
      if (bytes[i] != 0) {
        c.code = LAT_ERR_UNSUPPORTED;
        c.message = std::string(what) + ": byte " + std::to_string(i) + " of the caller's " + std::to_string(size) +
                    "-byte struct is set, beyond the " + std::to_string(ours) + " bytes this library knows: a field "
                    "of a newer mpilat.h that this library (API " + std::to_string(LAT_API_VERSION) +
                    ") cannot honour; leave it 0 or link a newer library";
        return c;
      }
  }
  return c;
}

/// An input struct at the caller's size, as this library's T.
template <class T>
class SizedIn {
 public:
  SizedIn(const T *p, size_t size, const char *what, size_t plain_size, size_t plain_fields_end, const T &base = T{})
      : given_(p), value_(base), check_(check_size(p, size, what, plain_size, sizeof(T), true)) {
    // A struct of this release or a newer one: this library's bytes; an older one: its fields, not its padding.
    if (p != nullptr && check_.code == LAT_SUCCESS)
      std::memcpy(&value_, p, size >= sizeof(T) ? sizeof(T) : std::min(size, plain_fields_end));
  }
  const T *get() const { return given_ == nullptr ? nullptr : &value_; }
  const SizedCheck &check() const { return check_; }

 private:
  const T *given_;
  T value_;
  SizedCheck check_;
};

/// An output struct at the caller's size: the function writes this library's T, give_back() copies it out.
template <class T>
class SizedOut {
 public:
  SizedOut(T *p, size_t size, const char *what, size_t plain_size)
      : given_(p), size_(size), value_{}, check_(check_size(p, size, what, plain_size, sizeof(T), false)) {
    // What the function leaves unwritten stays as the caller had it.
    if (p != nullptr && check_.code == LAT_SUCCESS) std::memcpy(&value_, p, std::min(size, sizeof(T)));
  }
  T *get() { return given_ == nullptr ? nullptr : &value_; }
  const SizedCheck &check() const { return check_; }
  void give_back() {
    if (given_ == nullptr || check_.code != LAT_SUCCESS) return;
    std::memcpy(given_, &value_, std::min(size_, sizeof(T)));
    if (size_ > sizeof(T)) std::memset(reinterpret_cast<unsigned char *>(given_) + sizeof(T), 0, size_ - sizeof(T));
  }

 private:
  T *given_;
  size_t size_;
  T value_;
  SizedCheck check_;
};

}  // namespace lat
