// collective.cpp: the C shims of lat_collective's handle and its files (its check and measurement:
// lib/generated/capi_entries.cpp).
#include "collective/measurement.hpp"
#include "collective/options.hpp"
#include "collective/report.hpp"
#include "common/staged_files.hpp"
#include "guard.hpp"

namespace {

const lat_coll_s &handle(lat_coll coll) { return lat::deref(coll, "coll"); }

/// The point of index, or ArgError naming the range.
int64_t point_index(const lat::CollResult &r, int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(r.points.size()))
    throw lat::ArgError(lat::got("index must be a point in 0.." + std::to_string(static_cast<int64_t>(r.points.size()) - 1), index));
  return index;
}

const lat::CollResult &with_samples(lat_coll coll) {
  const lat::CollResult &r = handle(coll).r;
  if (!r.summary.has_samples)
    throw lat::ArgError("the samples are on the root rank " + std::to_string(r.summary.root) + " only (lat_collective_options.root)");
  return r;
}

}  // namespace

extern "C" {

int lat_coll_op_from_name(const char *name, int *op) {
  return lat::guard([&] {
    lat::require_nonnull(name, "name");
    lat::require_nonnull(op, "op");
    const int found = lat::coll_op_from_name(name);
    if (found == 0)
      throw lat::ArgError("operation '" + lat::printable(name) +
                          "': must be barrier, bcast, reduce, allreduce, gather, scatter, allgather or alltoall");
    *op = found;
    return LAT_SUCCESS;
  });
}

int lat_impl_coll_get_point(lat_coll coll, int64_t index, lat_coll_point *point) {
  return lat::guard([&] {
    lat::require_nonnull(point, "point");
    const lat::CollResult &r = handle(coll).r;
    *point = r.points[static_cast<size_t>(point_index(r, index))];
    return LAT_SUCCESS;
  });
}

int lat_impl_coll_get_rank(lat_coll coll, int64_t index, int rank, lat_coll_rank *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    const lat::CollResult &r = handle(coll).r;
    const int64_t p = point_index(r, index), n = r.summary.nprocs;
    if (rank < 0 || rank >= n) throw lat::ArgError(lat::got("rank must be in 0.." + std::to_string(n - 1), rank));
    *result = r.ranks[static_cast<size_t>(p * n + rank)];
    return LAT_SUCCESS;
  });
}

int lat_coll_get_samples(lat_coll coll, int64_t index, int64_t n, double *values, int64_t *count) {
  return lat::guard([&] {
    const lat::CollResult &r = with_samples(coll);
    const std::vector<double> &v = r.series[static_cast<size_t>(point_index(r, index))].values_us;
    lat::require_nonnull(count, "count");
    if (n < 0) throw lat::ArgError(lat::got("n must be >= 0", n));
    if (n > 0) lat::require_nonnull(values, "values");
    *count = static_cast<int64_t>(v.size());
    std::copy(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min<int64_t>(n, *count)), values);
    return LAT_SUCCESS;
  });
}

int lat_write_coll_files(const char *outdir, const char *base, const char *command_line, lat_coll coll, int render) {
  return lat::guard([&] {
    const lat::CollResult &r = with_samples(coll);
    lat::require_nonnull(base, "base");
    if (render != 0 && render != 1) throw lat::ArgError(lat::got("render must be 0 or 1", render));
    lat::write_coll_files(outdir ? outdir : "", base, command_line ? command_line : "", r, render == 1);
    return LAT_SUCCESS;
  });
}

}  // extern "C"
