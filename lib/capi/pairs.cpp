// pairs.cpp: the C shims of the all-pairs latency matrix's handle, the mmpi log and the matrices' files (its
// check and measurement: lib/generated/capi_entries.cpp).
#include "pairs/measurement.hpp"
#include "pairs/report.hpp"
#include "common/staged_files.hpp"
#include "guard.hpp"
#include "pairs/options.hpp"

namespace {

const lat_pairs_s &handle(lat_pairs pairs) { return lat::deref(pairs, "pairs"); }

/// The handle's matrices, or ArgError on a rank that does not hold them.
const lat::PairResult &with_matrices(lat_pairs pairs) {
  const lat::PairResult &r = handle(pairs).r;
  if (!r.summary.has_matrices)
    throw lat::ArgError("the matrices are on the root rank " + std::to_string(r.summary.root) +
                        " only (lat_pair_options.root)");
  return r;
}

}  // namespace

extern "C" {

int lat_pairs_get_matrix(lat_pairs pairs, int stat, int64_t n, double *matrix) {
  return lat::guard([&] {
    const lat::PairResult &r = with_matrices(pairs);
    if (stat < 0 || stat >= LAT_PAIR_NSTATS)
      throw lat::ArgError(lat::got("stat must be a lat_pair_stat in 0.." + std::to_string(LAT_PAIR_NSTATS - 1), stat));
    if (r.triangle[static_cast<size_t>(stat)].empty() && r.summary.nprocs > 1)
      throw lat::ArgError(lat::got("an mmpi log holds only the mean (0) and the standard deviation (1), asked for stat", stat));
    const int64_t N = r.summary.nprocs;
    if (n < N * N) throw lat::ArgError("n must be at least N*N = " + std::to_string(N * N) + ", got " + std::to_string(n));
    lat::require_nonnull(matrix, "matrix");
    for (int64_t i = 0; i < N; ++i)
      for (int64_t j = 0; j < N; ++j) matrix[i * N + j] = r.at(stat, i, j);
    return LAT_SUCCESS;
  });
}

int lat_pairs_get_place(lat_pairs pairs, int rank, lat_rank_place *place) {
  return lat::guard([&] {
    lat::require_nonnull(place, "place");
    const lat::PairResult &r = handle(pairs).r;
    for (const lat_rank_place &p : r.places)
      if (p.rank == rank) {
        *place = p;
        return LAT_SUCCESS;
      }
    if (!r.summary.has_matrices)
      throw lat::ArgError("only this rank's own place (rank " + std::to_string(r.places.front().rank) +
                          ") is known here; every rank's is on the root rank " + std::to_string(r.summary.root));
    throw lat::ArgError(lat::got("rank must be in 0.." + std::to_string(r.summary.nprocs - 1), rank));
  });
}

int lat_write_pair_files(const char *outdir, const char *log_name, const char *command_line, lat_pairs pairs) {
  return lat::guard([&] {
    const lat::PairResult &r = with_matrices(pairs);
    lat::require_nonnull(log_name, "log_name");
    lat::write_pair_files(outdir ? outdir : "", log_name, command_line ? command_line : "", r);
    return LAT_SUCCESS;
  });
}

int lat_read_mmpi_log(const char *path, lat_pairs *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    *result = nullptr;
    lat::require_nonnull(path, "path");
    *result = lat::new_handle<lat_pairs_s>(lat::parse_mmpi_log(lat::read_input_file(path, lat::kMaxInputLineBytes), path));
    return LAT_SUCCESS;
  });
}

int lat_read_pair_json(const char *path, lat_pairs *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    *result = nullptr;
    lat::require_nonnull(path, "path");
    *result = lat::new_handle<lat_pairs_s>(lat::parse_pair_json(lat::read_input_file(path, 0), path));
    return LAT_SUCCESS;
  });
}

int lat_write_pair_matrices(const char *outdir, const char *base, lat_pairs pairs, int render) {
  return lat::guard([&] {
    const lat::PairResult &r = with_matrices(pairs);
    lat::require_nonnull(base, "base");
    if (render < 0 || render > (LAT_PAIR_FILES_PNG | LAT_PAIR_FILES_MEAN))
      throw lat::ArgError(lat::got("render must be bits of LAT_PAIR_FILES_PNG (1) and LAT_PAIR_FILES_MEAN (2)", render));
    lat::write_pair_matrices(outdir ? outdir : "", base, r, (render & LAT_PAIR_FILES_PNG) != 0, (render & LAT_PAIR_FILES_MEAN) != 0);
    return LAT_SUCCESS;
  });
}

}  // extern "C"
