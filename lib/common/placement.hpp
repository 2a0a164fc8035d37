// placement.hpp: where a rank runs, as far as the platform tells: its processor name, its node (a
// shared-memory domain of MPI_Comm_split_type) and, from hwloc, the package and core of its binding.
#pragma once

#include <mpi.h>

#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/failure_notes.hpp"
#include "common/waits.hpp"
#include "mpilat.h"

namespace lat {

/// This rank's place, and what it knows of the job's nodes.
struct LocalPlace {
  lat_rank_place place{};
  int nnodes = 1;       // nodes of the job
  int kernel_color = 0; // this machine's colour (a hash of its boot id): ranks alike share its processors (a
                        // shared-memory domain can be smaller: containers or namespaces on one machine)
  int processors = 0;   // processors this rank may run on (hwloc's allowed set), 0 unknown
};

/// Collective over comm (MPI_Comm_split_type, blocking: every rank has just agreed the arguments). hwloc fills socket, core and cpu where it can, -1 elsewhere.
LocalPlace place_of_this_rank(MPI_Comm comm, int rank);

/// The machine with the most ranks per processor: its ranks (sharing its kernel) and processors.
struct NodeLoad {
  int ranks = 0, processors = 0;
  /// More ranks than processors: waiting ranks must yield their processor.
  bool oversubscribed() const { return processors > 0 && ranks > processors; }
};
/// What one rank tells of its machine: its kernel_color and its processors (LocalPlace's).
struct MachineShare {
  int kernel_color = 0, processors = 0;
};
/// The busiest machine of the ranks (every rank's MachineShare, in the same order everywhere, so every rank
/// finds the same): the ranks of each colour against the processors each of them may run on. The one place
/// the wait mode is decided from the ranks' places (the run context).
NodeLoad busiest_node(const std::vector<MachineShare> &ranks);

/// The size of the largest cache level hwloc finds on this machine (the last-level cache), in bytes; 0 where
/// hwloc reports none. What a cache-cold walk must outgrow (lat_sweep_options.cachesize).
int64_t last_level_cache_bytes();

}  // namespace lat
