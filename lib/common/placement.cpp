#include "common/placement.hpp"

#include <hwloc.h>

#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/c_string.hpp"
#include "common/error.hpp"

namespace lat {

namespace {

/// The logical index of the object of `type` that contains the whole of set, or -1 (spread over several).
int containing_index(hwloc_topology_t topo, hwloc_const_cpuset_t set, hwloc_obj_type_t type) {
  hwloc_obj_t obj = hwloc_get_obj_covering_cpuset(topo, set);
  while (obj != nullptr && obj->type != type) obj = obj->parent;
  return obj != nullptr ? static_cast<int>(obj->logical_index) : -1;
}

/// socket, core and NUMA node (of the process's binding), its processors, and cpu (where it last ran); -1
/// where hwloc cannot tell.
void hwloc_place(lat_rank_place &place, int &processors) {
  place.socket = place.core = place.cpu = place.numa = -1;
  place.cpus[0] = '\0';
  processors = 0;
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (set != nullptr && hwloc_topology_load(topo) == 0) {
    processors = hwloc_bitmap_weight(hwloc_topology_get_allowed_cpuset(topo));
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 && !hwloc_bitmap_iszero(set)) {
      place.socket = containing_index(topo, set, HWLOC_OBJ_PACKAGE);
      place.core = containing_index(topo, set, HWLOC_OBJ_CORE);
      hwloc_bitmap_list_snprintf(place.cpus, sizeof place.cpus, set);
      // NUMA nodes are memory children in hwloc 2: the binding's nodeset names them.
      hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
      if (nodes != nullptr) {
        hwloc_cpuset_to_nodeset(topo, set, nodes);
        if (hwloc_bitmap_weight(nodes) == 1) {
          hwloc_obj_t numa = hwloc_get_numanode_obj_by_os_index(topo, static_cast<unsigned>(hwloc_bitmap_first(nodes)));
          if (numa != nullptr) place.numa = static_cast<int>(numa->logical_index);
        }
        hwloc_bitmap_free(nodes);
      }
    }
    if (hwloc_get_last_cpu_location(topo, set, HWLOC_CPUBIND_THREAD) == 0 && !hwloc_bitmap_iszero(set))
      place.cpu = hwloc_bitmap_first(set);
  }
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topo);
}

}  // namespace

int64_t last_level_cache_bytes() {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return 0;
  int64_t bytes = 0;
  if (hwloc_topology_load(topo) == 0) {
    for (hwloc_obj_type_t type : {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE}) {
      const hwloc_obj_t cache = hwloc_get_obj_by_type(topo, type, 0);
      if (cache != nullptr && cache->attr != nullptr && cache->attr->cache.size > 0) {
        bytes = static_cast<int64_t>(cache->attr->cache.size);
        break;
      }
    }
  }
  hwloc_topology_destroy(topo);
  return bytes;
}

LocalPlace place_of_this_rank(MPI_Comm comm, int rank) {
  LocalPlace local;
  lat_rank_place &p = local.place;
  p.rank = rank;
  char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
  int len = 0;
  check_mpi(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
  copy_c_string(p.host, name);
  // Nodes are numbered by their lowest rank: the node's rank 0 (the key is the rank) joins the
  // communicator of node leaders, whose rank there is the node's index; it tells the node.
  MPI_Comm node = MPI_COMM_NULL, leaders = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int rc = MPI_Comm_rank(node, &p.node_rank);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_split(comm, p.node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  int index_and_count[2] = {0, 0};
  if (rc == MPI_SUCCESS && leaders != MPI_COMM_NULL) {
    rc = MPI_Comm_rank(leaders, &index_and_count[0]);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_size(leaders, &index_and_count[1]);
    MPI_Comm_free(&leaders);
  }
  if (rc == MPI_SUCCESS) rc = MPI_Bcast(index_and_count, 2, MPI_INT, 0, node);
  MPI_Comm_free(&node);
  check_mpi(rc, "MPI_Comm_split/MPI_Bcast (node numbering)");
  p.node = index_and_count[0];
  local.nnodes = index_and_count[1];
  // The machine, as its kernel (and so its processors): a hash of the boot id (a collision only groups more
  // ranks, which errs towards yielding).
  std::ifstream boot("/proc/sys/kernel/random/boot_id");
  std::string boot_id;
  std::getline(boot, boot_id);
  local.kernel_color = static_cast<int>(std::hash<std::string>{}(boot_id.empty() ? std::string(p.host) : boot_id) & 0x7fffffff);
  hwloc_place(p, local.processors);
  return local;
}

NodeLoad busiest_node(const std::vector<MachineShare> &ranks) {
  std::map<int, int> on_machine;  // ranks per kernel colour
  for (const MachineShare &r : ranks) ++on_machine[r.kernel_color];
  NodeLoad busiest;
  double worst_ratio = -1.0;  // the first of equals: the same machine on every rank
  for (const MachineShare &r : ranks) {
    const int here = on_machine[r.kernel_color];
    const double ratio = r.processors > 0 ? static_cast<double>(here) / r.processors : 0.0;
    if (ratio > worst_ratio) worst_ratio = ratio, busiest = {here, r.processors};
  }
  return busiest;
}

}  // namespace lat
