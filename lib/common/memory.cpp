#include "common/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "common/error.hpp"

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

void check_json_parse_memory(uint64_t bytes, const std::string &name) {
  uint64_t limit = UINT64_MAX;
  for (int which : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit r{};
    if (getrlimit(which, &r) == 0 && r.rlim_cur != RLIM_INFINITY) limit = std::min<uint64_t>(limit, r.rlim_cur);
  }
  if (limit == UINT64_MAX) return;
  unsigned long long pages = 0;
  if (FILE *f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const uint64_t used = pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t need = kJsonParseBytesPerByte * bytes;
  if (used + need <= limit) return;
  auto mb = [](uint64_t b) { return std::to_string((b + (1u << 20) - 1) >> 20) + " MB"; };
  throw NoMemError(name + ": reading its " + std::to_string(bytes) + " bytes may take up to " + mb(need) +
                   ", more than the memory limit leaves (" + mb(limit) + ", ulimit -v or -d; " + mb(used) +
                   " in use): raise the limit, or read a smaller file");
}

}  // namespace lat
