#include "common/handles.hpp"

#include <mutex>
#include <unordered_map>

namespace lat {
namespace {
// Handles cross threads (created on one, freed on another), so the registry is one, behind a mutex; it is
// touched once per handle call, never inside a timed region.
std::mutex g_handles_mutex;
std::unordered_map<const void *, std::type_index> &handles() {
  static auto *live = new std::unordered_map<const void *, std::type_index>();  // outlives static destructors
  return *live;
}
}  // namespace

void adopt_handle(const void *h, std::type_index kind) {
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  handles().insert_or_assign(h, kind);
}

bool is_live_handle(const void *h, std::type_index kind) noexcept {
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  const auto it = handles().find(h);
  return it != handles().end() && it->second == kind;
}

void drop_handle(const void *h) noexcept {
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  handles().erase(h);
}

}  // namespace lat
