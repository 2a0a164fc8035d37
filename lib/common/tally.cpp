#include "common/tally.hpp"

#include <algorithm>
#include <numeric>

namespace lat {

void Tally::rehash(size_t capacity) {
  std::vector<Slot> old(capacity, Slot{0, 0});
  old.swap(slots_);
  mask_ = capacity - 1;
  for (const Slot &s : old) {
    if (s.count == 0) continue;
    size_t i = slot_of(s.key);
    while (slots_[i].count != 0) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

void Tally::sorted(std::vector<int64_t> &values, std::vector<int64_t> &counts) const {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  pairs.reserve(distinct_);
  for (const Slot &s : slots_)
    if (s.count != 0) pairs.emplace_back(static_cast<int64_t>(s.key), s.count);
  std::sort(pairs.begin(), pairs.end());
  values.resize(pairs.size());
  counts.resize(pairs.size());
  for (size_t k = 0; k < pairs.size(); ++k) {
    values[k] = pairs[k].first;
    counts[k] = pairs[k].second;
  }
}

}  // namespace lat
