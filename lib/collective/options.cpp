#include "collective/options.hpp"

#include <climits>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/error.hpp"
#include "common/memory.hpp"
#include "generated/spec_options.hpp"

namespace lat {

namespace {

struct OpName {
  int op;
  const char *name;
};
constexpr OpName kOps[] = {{LAT_COLL_BARRIER, "barrier"},     {LAT_COLL_BCAST, "bcast"},
                           {LAT_COLL_REDUCE, "reduce"},       {LAT_COLL_ALLREDUCE, "allreduce"},
                           {LAT_COLL_GATHER, "gather"},       {LAT_COLL_SCATTER, "scatter"},
                           {LAT_COLL_ALLGATHER, "allgather"}, {LAT_COLL_ALLTOALL, "alltoall"}};

}  // namespace

lat_collective_options collective_defaults() {
  lat_collective_options o;
  spec_defaults(o);
  return o;
}

std::vector<int64_t> starting_sizes(const lat_collective_options &o, int64_t nsizes, const int64_t *sizes) {
  if (nsizes > 0) return std::vector<int64_t>(sizes, sizes + nsizes);
  std::vector<int64_t> out{o.size_first};
  int64_t s = 1;
  while (s <= o.size_first) s *= 2;
  for (; s < o.size_last; s *= 2) out.push_back(s);
  if (o.size_last > o.size_first) out.push_back(o.size_last);
  return out;
}

std::string check_collective_options(const lat_collective_options &o, int64_t nsizes, const int64_t *sizes, int size,
                                     bool as_root) {
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  if (size < 2) return "a collective measurement needs at least 2 processes, the communicator has " + std::to_string(size);
  if (o.root < 0 || o.root >= size) return got("root must be a rank in 0.." + std::to_string(size - 1), o.root);
  // A synchronisation takes 0.05-1 s: below 10 ms a run would do little else (and at least one round always
  // comes between two, so even a short resync_s ends).
  if (o.resync_s > 0.0 && o.resync_s < 0.01)
    return got("resync_s must be 0 (never) or at least 0.01 s (a synchronisation itself takes 0.05-1 s)", o.resync_s);
  if (!std::isfinite(o.window_us) || o.window_us < 0.0 || o.window_us > 1e6)
    return got("window_us must be in 0..1000000 (0: chosen from the pilot calls and the synchronisation error)", o.window_us);
  if (nsizes < 0 || nsizes > LAT_COLL_MAX_SIZES)
    return got("nsizes must be in 0.." + std::to_string(LAT_COLL_MAX_SIZES), nsizes);
  if (nsizes > 0 && sizes == nullptr) return "sizes must not be NULL when nsizes is " + std::to_string(nsizes);
  for (int64_t k = 0; k < nsizes; ++k) {
    if (sizes[k] < 0 || sizes[k] > INT_MAX)
      return got("sizes[" + std::to_string(k) + "] must be in 0.." + std::to_string(INT_MAX) + " bytes", sizes[k]);
    if (k > 0 && sizes[k] <= sizes[k - 1])
      return got("sizes must be distinct and ascending: sizes[" + std::to_string(k) + "] must be > " +
                     std::to_string(sizes[k - 1]),
                 sizes[k]);
  }
  if (nsizes == 0 && o.size_last < o.size_first)
    return got("size_last must be >= size_first (" + std::to_string(o.size_first) + ")", o.size_last);
  if (nsizes > 0 && o.adaptive) return "adaptive refines size_first..size_last: give no size list with it";
  const std::vector<int64_t> start = starting_sizes(o, nsizes, sizes);
  if (static_cast<int64_t>(start.size()) > LAT_COLL_MAX_SIZES)
    return "size_first..size_last gives " + std::to_string(start.size()) + " sizes, more than " +
           std::to_string(LAT_COLL_MAX_SIZES);
  // The buffers of the largest size, before anything is sent: beyond memory is bad input, not a crash.
  double need = 0.0;
  for (int op : ops_of(o.ops)) need = std::max(need, coll_buffer_bytes(op, start.back(), size));
  const int64_t available = available_memory_bytes();
  if (std::string bad = memory_complaint("message size " + std::to_string(start.back()), need,
                                         "buffers on each rank of " + std::to_string(size), available);
      !bad.empty())
    return bad;
  if (as_root) {
    // The root keeps every sample of every point: a count beyond memory is bad input, found before anything.
    const double points = static_cast<double>(modes_of(o.modes).size() * ops_of(o.ops).size()) *
                          static_cast<double>(o.adaptive ? LAT_COLL_MAX_SIZES : start.size());
    const double samples = points * static_cast<double>(o.reps) * (2.0 * size + 3.0) * sizeof(double);
    if (std::string bad = memory_complaint("reps " + std::to_string(o.reps), samples, "samples on the root rank", available);
        !bad.empty())
      return bad;
  }
  return "";
}

std::vector<Shared> collective_shared_values(const lat_collective_options &o, int64_t nsizes, const int64_t *sizes) {
  std::vector<Shared> shared = spec_shared_values(o);
  shared.push_back(Shared::integer("nsizes", nsizes));
  if (nsizes > 0 && sizes != nullptr) shared.push_back(Shared::weighted_sum("sizes", sizes, static_cast<size_t>(nsizes)));
  return shared;
}

std::vector<int> ops_of(int bits) {
  std::vector<int> out;
  for (const OpName &o : kOps)
    if (bits & o.op) out.push_back(o.op);
  return out;
}

std::vector<int> modes_of(int bits) {
  std::vector<int> out;
  for (int m : {LAT_COLL_MODE_SYNC, LAT_COLL_MODE_BARRIER, LAT_COLL_MODE_LOOP})
    if (bits & m) out.push_back(m);
  return out;
}

const char *coll_op_name(int op) {
  for (const OpName &o : kOps)
    if (o.op == op) return o.name;
  return "";
}

int coll_op_from_name(const std::string &name) {
  for (const OpName &o : kOps)
    if (name == o.name) return o.op;
  return 0;
}

const char *coll_mode_name(int mode) {
  switch (mode) {
    case LAT_COLL_MODE_SYNC: return "sync";
    case LAT_COLL_MODE_BARRIER: return "barrier";
    case LAT_COLL_MODE_LOOP: return "loop";
    default: return "";
  }
}

const char *coll_mode_quantity(int mode) {
  switch (mode) {
    case LAT_COLL_MODE_SYNC: return "last end - first start on the synchronised clock, one call from a scheduled start";
    case LAT_COLL_MODE_BARRIER: return "largest local time over the ranks, one call after MPI_Barrier";
    case LAT_COLL_MODE_LOOP: return "mean over the ranks of each rank's average per call, calls back to back (OSU, IMB)";
    default: return "";
  }
}

const char *coll_mode_short_quantity(int mode) {
  switch (mode) {
    case LAT_COLL_MODE_SYNC: return "last end - first start (global clock)";
    case LAT_COLL_MODE_BARRIER: return "largest local time after a barrier";
    case LAT_COLL_MODE_LOOP: return "mean of the ranks' loop averages";
    default: return "";
  }
}

bool coll_op_rooted(int op) {
  return op == LAT_COLL_BCAST || op == LAT_COLL_REDUCE || op == LAT_COLL_GATHER || op == LAT_COLL_SCATTER;
}

double coll_buffer_bytes(int op, int64_t msg_bytes, int size) {
  const double b = static_cast<double>(std::max<int64_t>(msg_bytes, 1)), n = size;
  switch (op) {
    case LAT_COLL_GATHER:  // the root's side is size x msg_bytes; every rank gets buffers of that size
    case LAT_COLL_SCATTER:
    case LAT_COLL_ALLGATHER:
    case LAT_COLL_ALLTOALL: return 2.0 * b * n;
    case LAT_COLL_BARRIER: return 0.0;
    default: return 2.0 * b;
  }
}

}  // namespace lat
