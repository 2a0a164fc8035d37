// memory.hpp: how much memory this machine can still give, for checks made before a large allocation
// (an allocation the kernel overcommits would otherwise end in the OOM killer, not in an error).
#pragma once

#include <cstdint>
#include <string>

namespace lat {

/// MemAvailable of /proc/meminfo in bytes, or -1 where the system does not say.
int64_t available_memory_bytes();

/// "" when need_bytes fit in available_bytes (or it is unknown, < 0), else "<what> needs <MB> MB of <of>, but
/// only <MB> MB of memory are available": the one wording of every check of memory before a measurement.
std::string memory_complaint(const std::string &what, double need_bytes, const std::string &of,
                             int64_t available_bytes);

}  // namespace lat
