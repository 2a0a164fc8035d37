// memory.hpp: how much memory this machine can still give, for checks made before a large allocation
// (an allocation the kernel overcommits would otherwise end in the OOM killer, not in an error).
#pragma once

#include <cstdint>
#include <string>

namespace lat {

/// The memory this process's cgroup leaves it (cgroup v2 or v1's memory controller, the tightest of its
/// levels): limited is false where no level has a limit or no cgroup is found.
struct CgroupMemory {
  bool limited = false;
  uint64_t limit = 0, left = 0;  ///< bytes: the limit, and what it leaves (limit less usage less page cache)
  std::string dir;               ///< the level whose limit leaves least
};
CgroupMemory cgroup_memory();

/// MemAvailable of /proc/meminfo in bytes, or what the process's memory cgroup leaves where that is less
/// (cgroup_memory: a batch job's --mem); -1 where the system says neither.
int64_t available_memory_bytes();

/// "" when need_bytes fit in available_bytes (or it is unknown, < 0), else "<what> needs <MB> MB of <of>, but
/// only <MB> MB of memory are available": the one wording of every check of memory before a measurement.
std::string memory_complaint(const std::string &what, double need_bytes, const std::string &of,
                             int64_t available_bytes);

/// Bytes of memory the parse of a JSON text may take per byte of text, at worst: "[0,0,...]" holds a value
/// per 2 bytes, 16 bytes each in nlohmann-json's tree, and as many again while the tree is destroyed (it
/// moves the children to a stack of its own).
constexpr uint64_t kJsonParseBytesPerByte = 20;

/// NoMemError naming `name` when parsing `bytes` of JSON could pass what the memory cgroup leaves, or the
/// address-space or data limit (ulimit -v, -d) with what the process already maps: nlohmann-json aborts rather than throws when memory
/// runs out while it unwinds (its destructor allocates), so such a text is refused before it is parsed.
void check_json_parse_memory(uint64_t bytes, const std::string &name);

}  // namespace lat
