// memory.hpp: how much memory this machine can still give, for checks made before a large allocation
// (an allocation the kernel overcommits would otherwise end in the OOM killer, not in an error).
#pragma once

#include <cstdint>

namespace lat {

/// MemAvailable of /proc/meminfo in bytes, or -1 where the system does not say.
int64_t available_memory_bytes();

}  // namespace lat
