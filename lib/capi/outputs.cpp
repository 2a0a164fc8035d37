// outputs.cpp: lat_check_outputs, the up-front check of every file a capability's writer may write. The
// kinds and their lists are generated from each capability's [[output]] tables (generated/output_kinds.hpp);
// the lists are the writers' own (*_output_names in each report.cpp; each writer refuses a file not on them).
#include <string>
#include <vector>

#include "common/staged_files.hpp"
#include "generated/output_kinds.hpp"
#include "guard.hpp"

namespace {

std::vector<std::string> output_names(const std::string &kind, const std::string &outdir, const std::string &base) {
  for (const lat::OutputKind &k : lat::kOutputKinds) {
    if (kind != k.kind) continue;
    if (k.takes_base && base.empty()) throw lat::ArgError(std::string("base must be given for '") + k.kind + "'");
    if (!k.takes_base && !base.empty())
      throw lat::ArgError(std::string("'") + k.kind + "' writes fixed names: base must be NULL or \"\", got '" +
                          lat::printable(base) + "'");
    return k.names(outdir, base);
  }
  throw lat::ArgError("kind must be one of " + std::string(lat::kOutputKindNames) + ", got '" + lat::printable(kind) + "'");
}

}  // namespace

extern "C" {

int lat_check_outputs(const char *kind, const char *outdir, const char *base) {
  return lat::guard([&] {
    lat::require_nonnull(kind, "kind");
    const std::string dir = outdir ? outdir : "";
    lat::require_plain_path("outdir", dir);
    lat::check_output_files(output_names(kind, dir, base ? base : ""));
    return LAT_SUCCESS;
  });
}

int lat_check_output_apart(const char *kind, const char *outdir, const char *base, const char *path) {
  return lat::guard([&] {
    lat::require_nonnull(kind, "kind");
    lat::require_nonnull(path, "path");
    const std::string dir = outdir ? outdir : "";
    lat::require_plain_path("outdir", dir);
    lat::require_plain_path("path", path);
    // The writer's set with path in it: the rule every writer applies to a set (no two files one name).
    std::vector<std::string> names = output_names(kind, dir, base ? base : "");
    names.emplace_back(path);
    lat::check_output_files(names);
    return LAT_SUCCESS;
  });
}

}  // extern "C"
