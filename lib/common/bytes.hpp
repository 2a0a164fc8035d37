// bytes.hpp: a result's fields flattened into bytes and back, written once for every capability: results
// travel from the measuring rank to all others in one broadcast (lib/common/harness.hpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace lat {

template <class T>
void put_bytes(std::vector<char> &out, const T &v) {
  static_assert(std::is_trivially_copyable_v<T>, "only plain data travel as bytes");
  const size_t at = out.size();
  out.resize(at + sizeof v);  // not insert: GCC 12 warns of an overflow that is not there (a known false alarm)
  std::memcpy(out.data() + at, &v, sizeof v);
}

template <class T>
void take_bytes(const std::vector<char> &in, size_t &at, T &v) {
  static_assert(std::is_trivially_copyable_v<T>, "only plain data travel as bytes");
  if (at + sizeof v > in.size()) throw std::runtime_error("result bytes: truncated");
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
}

namespace bytes_detail {
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
}  // namespace bytes_detail

/// One field: plain data as its bytes; a string as its length and characters; a vector (of anything here,
/// vectors included) as its length and its elements.
template <class T>
void put_field(std::vector<char> &out, const T &v) {
  if constexpr (bytes_detail::is_vector<T>::value) {
    put_bytes(out, static_cast<int64_t>(v.size()));
    for (const auto &x : v) put_field(out, x);
  } else if constexpr (std::is_same_v<T, std::string>) {
    put_bytes(out, static_cast<int64_t>(v.size()));
    out.insert(out.end(), v.begin(), v.end());
  } else {
    put_bytes(out, v);
  }
}

template <class T>
void take_field(const std::vector<char> &in, size_t &at, T &v) {
  if constexpr (bytes_detail::is_vector<T>::value || std::is_same_v<T, std::string>) {
    int64_t n = 0;
    take_bytes(in, at, n);
    // Every element takes a byte at least: a length beyond the bytes left is a truncated message.
    if (n < 0 || static_cast<size_t>(n) > in.size() - at) throw std::runtime_error("result bytes: truncated");
    if constexpr (std::is_same_v<T, std::string>) {
      v.assign(in.data() + at, static_cast<size_t>(n));
      at += static_cast<size_t>(n);
    } else {
      v.clear();
      v.resize(static_cast<size_t>(n));
      for (auto &x : v) take_field(in, at, x);
    }
  } else {
    take_bytes(in, at, v);
  }
}

/// What travels of a result between ranks, written and read by these two alone: the fields in order
/// (`std::tie(r.options, r.summary, r.points)`; each result type says which, in its `fields()`).
template <class... F>
std::vector<char> to_bytes(const std::tuple<F &...> &fields) {
  std::vector<char> out;
  std::apply([&](const auto &...f) { (put_field(out, f), ...); }, fields);
  return out;
}

/// The fields back from to_bytes's bytes; throws on bytes missing or left over.
template <class... F>
void from_bytes(const std::vector<char> &in, const std::tuple<F &...> &fields) {
  size_t at = 0;
  std::apply([&](auto &...f) { (take_field(in, at, f), ...); }, fields);
  if (at != in.size()) throw std::runtime_error("result bytes: " + std::to_string(in.size() - at) + " left over");
}

}  // namespace lat
