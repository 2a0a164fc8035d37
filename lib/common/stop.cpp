#include "common/stop.hpp"

#include <atomic>

namespace lat {
namespace {
// Lock-free atomics are async-signal-safe; checked once per chunk of trials, never inside a timed loop.
std::atomic<int> g_stop{0};
static_assert(std::atomic<int>::is_always_lock_free, "lat_request_stop must be async-signal-safe");
}  // namespace

bool stop_requested() noexcept { return g_stop.load(std::memory_order_relaxed) != 0; }
void request_stop() noexcept { g_stop.store(1, std::memory_order_relaxed); }
void clear_stop() noexcept { g_stop.store(0, std::memory_order_relaxed); }
}  // namespace lat
