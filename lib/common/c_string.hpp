// c_string.hpp: text into a result struct's fixed character arrays (host names), for the measurements,
// which never include the report layer's headers (tests/tools/check_layers.py).
#pragma once

#include <cstddef>
#include <cstring>

namespace lat {

/// src into a result's fixed character array (a host name), cut to fit and always NUL-terminated.
template <size_t N>
void copy_c_string(char (&dst)[N], const char *src) {
  const size_t n = strnlen(src, N - 1);  // a cut intended: no format-truncation warning where src is longer
  std::memcpy(dst, src, n);
  dst[n] = '\0';
}

}  // namespace lat
