// tally.hpp: the exact, compact record of a run's samples. A timer difference is a whole number of the
// clock's counting unit (a nanosecond for mpi_wtime and monotonic_raw, a cycle for tsc): the tally keys on
// that integer, so equal times share one key (keying on the double difference of two absolute readings
// split one time into several keys by rounding noise). A run of 2^25 trials has at most tens of thousands of
// distinct values (32,622 in bench_mpilat's; docs/method.md, "Memory"): a count per distinct value is the whole
// information in 16 bytes, not 8 per trial.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace lat {

/// A difference of two clock readings (seconds) as a whole number of the clock's unit (seconds).
inline int64_t to_ticks(double seconds, double unit_s) { return std::llround(seconds / unit_s); }

/// Counts occurrences of integer tick values in an open-addressing hash table.
class Tally {
 public:
  Tally() { rehash(64); }

  // A time in seconds is turned into ticks first (to_ticks), never truncated here.
  template <class T, class = std::enable_if_t<std::is_floating_point_v<T>>>
  void add(T, int64_t = 1) = delete;
  void add(int64_t ticks, int64_t times = 1) {
    const uint64_t key = static_cast<uint64_t>(ticks);
    size_t i = slot_of(key);
    while (slots_[i].count != 0 && slots_[i].key != key) i = (i + 1) & mask_;
    if (slots_[i].count == 0) {
      slots_[i].key = key;
      if (++distinct_ * 2 > slots_.size()) {
        slots_[i].count = times;
        total_ += times;
        rehash(slots_.size() * 2);
        return;
      }
    }
    slots_[i].count += times;
    total_ += times;
  }

  int64_t total() const { return total_; }
  size_t distinct() const { return distinct_; }
  size_t bytes_used() const { return slots_.size() * sizeof(Slot); }

  /// The distinct tick values in ascending order with their counts.
  void sorted(std::vector<int64_t> &ticks, std::vector<int64_t> &counts) const;

 private:
  struct Slot {
    uint64_t key;
    int64_t count;  // 0: empty
  };
  size_t slot_of(uint64_t key) const {
    key ^= key >> 33;  // murmur3's finaliser: neighbouring ticks land far apart
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<size_t>(key) & mask_;
  }
  void rehash(size_t capacity);

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t distinct_ = 0;
  int64_t total_ = 0;
};

}  // namespace lat
