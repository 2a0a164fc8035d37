// walk.hpp: the cache-cold walk of a size sweep (Gropp & Lusk's peril 10; mpptest's -cachesize). Each
// operation uses the next slot of buffers of at least cachesize bytes, and the walk goes on across
// operations, samples and passes, so the data of an operation were last touched a whole buffer ago.
#pragma once

#include <cstdint>

namespace lat {

class SlotWalk {
 public:
  explicit SlotWalk(int64_t slots = 1) : slots_(slots > 0 ? slots : 1) {}
  /// The slot of the next operation: 0, 1, ..., slots - 1, 0, 1, ...
  int64_t next() {
    const int64_t at = next_;
    next_ = next_ + 1 == slots_ ? 0 : next_ + 1;
    return at;
  }
  int64_t slots() const { return slots_; }

 private:
  int64_t slots_ = 1;
  int64_t next_ = 0;
};

}  // namespace lat
