// fuzz_compare_json.cpp: libFuzzer target for mpilat-compare's reading of a result file (the JSON of any MPI
// driver; drivers/compare_reader.cpp). The input is the file. A crash, a hang, an assertion of the C++
// library (_GLIBCXX_ASSERTIONS) or any exception other than BadInput (the refusal that names the file) is a
// finding; so is a launch read whose tables do not hold together.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "compare_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  try {
    const compare::Launch l = compare::read_launch_text(text, "input.json");
    // What the comparison takes from a launch: one value per quantity, and a table of as many counts as values,
    // every count >= 1.
    for (const auto &[name, q] : l.quantities) {
      if (q.launches.size() != 1) std::abort();
      const compare::LaunchValue &v = q.launches.front();
      if (v.values().size() != v.counts().size()) std::abort();
      for (int64_t c : v.counts())
        if (c < 1) std::abort();
    }
  } catch (const compare::BadInput &) {
  }
  return 0;
}
