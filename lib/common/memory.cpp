#include "common/memory.hpp"

#include <fstream>
#include <string>

namespace lat {

int64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  long long kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") return static_cast<int64_t>(kb) * 1024;
  return -1;
}

}  // namespace lat
