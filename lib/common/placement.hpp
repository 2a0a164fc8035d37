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
  int kernel_size = 1;  // ranks on this machine (under this operating system kernel), >= those of the node
  int kernel_color = 0; // this machine's colour (a hash of its boot id): ranks alike share its processors
  int processors = 0;   // processors this rank may run on (hwloc's allowed set), 0 unknown
};

/// Collective over comm (MPI_Comm_split_type, blocking: every rank has just agreed the arguments). hwloc fills socket, core and cpu where it can, -1 elsewhere.
LocalPlace place_of_this_rank(MPI_Comm comm, int rank);

/// Collective over comm: how many of its ranks share this rank's machine (kernel_color of its place).
int ranks_sharing_kernel(MPI_Comm comm, int kernel_color, int rank);

/// The node of comm with the most ranks per processor: its ranks (of comm, sharing its kernel) and processors.
struct NodeLoad {
  int ranks = 0, processors = 0;
  /// More ranks than processors: waiting ranks must yield their processor.
  bool oversubscribed() const { return processors > 0 && ranks > processors; }
};
/// The busiest node of comm, agreed on every rank of comm (collective; `here` this rank's place_of_this_rank).
/// The one place the wait mode is decided from the ranks' places (the run context).
NodeLoad busiest_node(MPI_Comm comm, const LocalPlace &here, const Waiting &w, FailureListener *listener);

/// The size of the largest cache level hwloc finds on this machine (the last-level cache), in bytes; 0 where
/// hwloc reports none. What a cache-cold walk must outgrow (lat_sweep_options.cachesize).
int64_t last_level_cache_bytes();

}  // namespace lat
