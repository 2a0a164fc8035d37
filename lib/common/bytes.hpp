// bytes.hpp: plain structs and arrays flattened into bytes, for results that travel from the measuring
// rank to all others in one broadcast.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
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

/// A vector of plain data: its length, then its elements.
template <class T>
void put_vector(std::vector<char> &out, const std::vector<T> &v) {
  put_bytes(out, static_cast<int64_t>(v.size()));
  for (const T &x : v) put_bytes(out, x);
}

template <class T>
void take_vector(const std::vector<char> &in, size_t &at, std::vector<T> &v) {
  int64_t n = 0;
  take_bytes(in, at, n);
  if (n < 0 || static_cast<size_t>(n) > (in.size() - at) / sizeof(T)) throw std::runtime_error("result bytes: truncated");
  v.resize(static_cast<size_t>(n));
  for (T &x : v) take_bytes(in, at, x);
}

/// Strings: their count, then each one's length and characters.
inline void put_strings(std::vector<char> &out, const std::vector<std::string> &v) {
  put_bytes(out, static_cast<int64_t>(v.size()));
  for (const std::string &s : v) {
    put_bytes(out, static_cast<int64_t>(s.size()));
    out.insert(out.end(), s.begin(), s.end());
  }
}

inline void take_strings(const std::vector<char> &in, size_t &at, std::vector<std::string> &v) {
  int64_t n = 0;
  take_bytes(in, at, n);
  for (int64_t k = 0; k < n; ++k) {
    int64_t len = 0;
    take_bytes(in, at, len);
    if (len < 0 || static_cast<size_t>(len) > in.size() - at) throw std::runtime_error("result bytes: truncated");
    v.emplace_back(in.data() + at, static_cast<size_t>(len));
    at += static_cast<size_t>(len);
  }
}

}  // namespace lat
