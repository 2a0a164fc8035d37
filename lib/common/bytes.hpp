// bytes.hpp: plain structs and arrays flattened into bytes, for results that travel from the measuring
// rank to all others in one broadcast.
#pragma once

#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace lat {

template <class T>
void put_bytes(std::vector<char> &out, const T &v) {
  static_assert(std::is_trivially_copyable_v<T>, "only plain data travel as bytes");
  const char *p = reinterpret_cast<const char *>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

template <class T>
void take_bytes(const std::vector<char> &in, size_t &at, T &v) {
  static_assert(std::is_trivially_copyable_v<T>, "only plain data travel as bytes");
  if (at + sizeof v > in.size()) throw std::runtime_error("result bytes: truncated");
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
}

}  // namespace lat
