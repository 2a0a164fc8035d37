// compare.cpp: the C shims of the comparisons (lib/compare) and of the report writer tools share (its check:
// lib/generated/capi_entries.cpp).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "common/plot.hpp"
#include "common/staged_files.hpp"
#include "compare/compare.hpp"
#include "guard.hpp"

namespace {

/// n values with counts (NULL: once each) as a table; values finite, counts >= 0.
lat::Distribution table_of(const char *name, int64_t n, const double *values, const int64_t *counts) {
  if (n < 1) throw lat::ArgError(lat::got(std::string(name) + ": n must be >= 1", n));
  lat::require_nonnull(values, name);
  std::vector<std::pair<double, int64_t>> rows;
  rows.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = counts ? counts[i] : 1;
    if (!std::isfinite(values[i]))
      throw lat::ArgError(std::string(name) + "[" + std::to_string(i) + "] must be finite, got " + std::to_string(values[i]));
    if (c < 0) throw lat::ArgError(lat::got(std::string(name) + " counts must be >= 0", c));
    if (c > 0) rows.emplace_back(values[i], c);
  }
  std::sort(rows.begin(), rows.end());
  lat::Distribution d;
  for (const auto &[v, c] : rows) {
    if (!d.values.empty() && d.values.back() == v) {
      d.counts.back() += c;
    } else {
      d.values.push_back(v);
      d.counts.push_back(c);
    }
  }
  return d;
}

/// The caller's options, checked: NULL is refused as in every other function taking options.
const lat_compare_options &checked_options(const lat_compare_options *opts) {
  lat::require_nonnull(opts, "opts");
  lat::require_no_complaint(lat::check_compare_options(*opts));
  return *opts;
}

}  // namespace

extern "C" {

int lat_impl_compare_distributions(int64_t na, const double *a_values, const int64_t *a_counts, int64_t nb,
                              const double *b_values, const int64_t *b_counts, double q,
                              const lat_compare_options *opts, lat_compare_result *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    *result = lat::compare_tables(table_of("a_values", na, a_values, a_counts), table_of("b_values", nb, b_values, b_counts),
                                  q, checked_options(opts));
    return LAT_SUCCESS;
  });
}

int lat_impl_compare_launches(int64_t na, const double *a, int64_t nb, const double *b, const lat_compare_options *opts,
                         lat_compare_result *result) {
  return lat::guard([&] {
    lat::require_nonnull(result, "result");
    if (na < 0 || nb < 0) throw lat::ArgError(lat::got("na and nb must be >= 0", na < 0 ? na : nb));
    if (na > 0) lat::require_nonnull(a, "a");
    if (nb > 0) lat::require_nonnull(b, "b");
    *result = lat::compare_launches(std::vector<double>(a, a + na), std::vector<double>(b, b + nb), checked_options(opts));
    return LAT_SUCCESS;
  });
}

int lat_write_report_files(const char *outdir, int nfiles, const char *const *names, const char *const *contents,
                           int render) {
  return lat::guard([&] {
    if (nfiles < 1) throw lat::ArgError(lat::got("nfiles must be >= 1", nfiles));
    lat::require_nonnull(names, "names");
    lat::require_nonnull(contents, "contents");
    if (render != 0 && render != 1) throw lat::ArgError(lat::got("render must be 0 or 1", render));
    const std::string dir = outdir ? outdir : "";
    std::vector<std::pair<std::string, std::string>> files;
    std::vector<lat::Plot> plots;
    for (int i = 0; i < nfiles; ++i) {
      lat::require_nonnull(names[i], "names[i]");
      lat::require_nonnull(contents[i], "contents[i]");
      lat::require_file_name("names[i]", names[i]);
      const std::string path = lat::join_path(dir, names[i]);
      const size_t len = path.size();
      if (render && len > 3 && path.compare(len - 3, 3, ".gp") == 0)
        for (const char *ext : {".png", ".svg"}) plots.push_back({path.substr(0, len - 3) + ext, static_cast<size_t>(i)});
      files.emplace_back(path, contents[i]);
    }
    if (plots.empty())
      lat::write_files_whole(files);
    else
      lat::write_files_whole(files, lat::render_plots(plots, {}));
    return LAT_SUCCESS;
  });
}

}  // extern "C"
