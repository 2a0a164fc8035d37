#include "common/memory.hpp"

#include <cstdio>
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

std::string memory_complaint(const std::string &what, double need_bytes, const std::string &of,
                             int64_t available_bytes) {
  if (available_bytes < 0 || need_bytes <= static_cast<double>(available_bytes)) return "";
  char mb[96];
  std::snprintf(mb, sizeof mb, " needs %.4g MB of ", need_bytes / 1e6);
  char avail[96];
  std::snprintf(avail, sizeof avail, ", but only %.1f MB of memory are available", static_cast<double>(available_bytes) / 1e6);
  return what + mb + of + avail;
}

}  // namespace lat
