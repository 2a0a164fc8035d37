#include "common/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "common/error.hpp"

namespace lat {

namespace {

/// The first number of a one-line file (memory.max's "max" and a missing file: UINT64_MAX).
uint64_t number_in(const std::string &path) {
  std::ifstream in(path);
  unsigned long long v = 0;
  return in >> v ? static_cast<uint64_t>(v) : UINT64_MAX;
}

/// The value of `key` in a memory.stat, or 0.
uint64_t stat_of(const std::string &path, const std::string &key) {
  std::ifstream in(path);
  std::string k;
  unsigned long long v = 0;
  while (in >> k >> v)
    if (k == key) return static_cast<uint64_t>(v);
  return 0;
}

/// Where this process's memory cgroup is mounted, from /proc/self/cgroup and /proc/self/mountinfo: the
/// cgroup2 hierarchy, or cgroup v1's memory controller. Empty when neither is found.
struct CgroupPlace {
  std::string dir, mount;
  bool v2 = false;
};

CgroupPlace memory_cgroup() {
  std::string v2_path, v1_path;
  {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
      const size_t a = line.find(':'), b = line.find(':', a + 1);
      if (a == std::string::npos || b == std::string::npos) continue;
      const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
      if (line.compare(0, a, "0") == 0 && b == a + 1) v2_path = line.substr(b + 1);
      else if (controllers.find(",memory,") != std::string::npos) v1_path = line.substr(b + 1);
    }
  }
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  CgroupPlace found;
  while (std::getline(in, line)) {
    // id parent major:minor root mount-point options [optional...] - fstype source super-options
    std::istringstream f(line);
    std::string id, parent, dev, root, point, word;
    f >> id >> parent >> dev >> root >> point;
    while (f >> word && word != "-") {}
    std::string fstype, source, super;
    f >> fstype >> source >> super;
    const bool v2 = fstype == "cgroup2", v1 = fstype == "cgroup" && ("," + super + ",").find(",memory,") != std::string::npos;
    const std::string &path = v1 ? v1_path : v2_path;
    if ((!v1 && !v2) || path.empty() || path.compare(0, root.size(), root) != 0) continue;
    const std::string dir = point + (root == "/" ? path : path.substr(root.size()));
    if (v2 && number_in(dir + "/memory.current") == UINT64_MAX) continue;  // a hybrid's unified tree: no memory
    found = CgroupPlace{dir, point, v2};
    if (v1) return found;  // in a hybrid layout the memory controller is v1's
  }
  return found;
}

}  // namespace

CgroupMemory cgroup_memory() {
  CgroupMemory m;
  const CgroupPlace place = memory_cgroup();
  if (place.dir.empty()) return m;
  // Each level's limit holds for every cgroup below it: the tightest room counts. Usage less the page cache
  // (file pages, which the kernel reclaims before it calls the OOM killer): a refusal must not come from
  // files the job has read.
  for (std::string dir = place.dir;;) {
    const uint64_t limit = number_in(dir + (place.v2 ? "/memory.max" : "/memory.limit_in_bytes"));
    const uint64_t usage = number_in(dir + (place.v2 ? "/memory.current" : "/memory.usage_in_bytes"));
    // cgroup v1 writes "no limit" as the largest page-aligned int64.
    if (limit < (uint64_t{1} << 62) && usage != UINT64_MAX) {
      const uint64_t cache = stat_of(dir + "/memory.stat", place.v2 ? "file" : "total_cache");
      const uint64_t used = usage > cache ? usage - cache : 0;
      const uint64_t left = limit > used ? limit - used : 0;
      if (!m.limited || left < m.left) m = CgroupMemory{true, limit, left, dir};
    }
    if (dir.size() <= place.mount.size()) break;
    dir = dir.substr(0, dir.find_last_of('/'));
  }
  return m;
}

int64_t available_memory_bytes() {
  int64_t available = -1;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  long long kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") available = static_cast<int64_t>(kb) * 1024;
  // A batch job's memory (Slurm's --mem, a container) is its cgroup's: past it the OOM killer ends the run,
  // however much the node has.
  const CgroupMemory cg = cgroup_memory();
  if (cg.limited && (available < 0 || cg.left < static_cast<uint64_t>(available))) available = static_cast<int64_t>(cg.left);
  return available;
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
  auto mb = [](uint64_t b) { return std::to_string((b + (1u << 20) - 1) >> 20) + " MB"; };
  const uint64_t need = kJsonParseBytesPerByte * bytes;
  // The cgroup's limit (a batch job's --mem): the OOM killer ends the process, nothing to catch.
  if (const CgroupMemory cg = cgroup_memory(); cg.limited && need > cg.left)
    throw NoMemError(name + ": reading its " + std::to_string(bytes) + " bytes may take up to " + mb(need) +
                     ", more than the memory cgroup leaves (" + mb(cg.left) + " of its " + mb(cg.limit) + ", " +
                     cg.dir + "; a batch job's --mem): ask for more memory, or read a smaller file");
  if (limit == UINT64_MAX) return;
  unsigned long long pages = 0;
  if (FILE *f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const uint64_t used = pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (used + need <= limit) return;
  throw NoMemError(name + ": reading its " + std::to_string(bytes) + " bytes may take up to " + mb(need) +
                   ", more than the memory limit leaves (" + mb(limit) + ", ulimit -v or -d; " + mb(used) +
                   " in use): raise the limit, or read a smaller file");
}

}  // namespace lat
