// tally.hpp: the exact, compact record of a run's samples. Timer differences are quantised (a clock
// tick, a double's last bit), so a run of 2^25 trials has a few hundred or thousand distinct values:
// a count per distinct value is the whole information in 16 bytes per distinct value, not 8 per trial.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace lat {

/// Counts occurrences of exact double values in an open-addressing hash table.
class Tally {
 public:
  Tally() { rehash(64); }

  void add(double x) { add(x, 1); }

  void add(double x, int64_t times) {
    if (x == 0.0) x = 0.0;  // -0.0 and +0.0 are one value
    uint64_t key;
    std::memcpy(&key, &x, sizeof key);
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

  /// The distinct values in ascending order with their counts.
  void sorted(std::vector<double> &values, std::vector<int64_t> &counts) const;

 private:
  struct Slot {
    uint64_t key;
    int64_t count;  // 0: empty
  };
  size_t slot_of(uint64_t key) const {
    key ^= key >> 33;  // murmur3's finaliser: neighbouring doubles land far apart
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
