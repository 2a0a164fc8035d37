// outputs.cpp: lat_check_outputs, the up-front check of every file a capability's writer may write. The
// lists are the writers' own (*_output_names in each report.cpp; each writer refuses a file not on its list).
#include <string>
#include <vector>

#include "collective/report.hpp"
#include "common/staged_files.hpp"
#include "guard.hpp"
#include "latency/report.hpp"
#include "maxrate/report.hpp"
#include "pairs/report.hpp"
#include "queue/report.hpp"
#include "sweep/report.hpp"

namespace {

constexpr const char *kKinds = "latency, npp_study, sweep, queue, pairs, matrices, nodecomm, coll";

std::vector<std::string> output_names(const std::string &kind, const std::string &outdir, const std::string &base) {
  const auto needs_base = [&](const char *of) {
    if (base.empty()) throw lat::ArgError(std::string("base must be given for '") + of + "'");
  };
  const auto takes_no_base = [&](const char *of) {
    if (!base.empty()) throw lat::ArgError(std::string("'") + of + "' writes fixed names: base must be NULL or \"\", got '" + lat::printable(base) + "'");
  };
  if (kind == "latency") return takes_no_base("latency"), lat::latency_output_names(outdir);
  if (kind == "npp_study") return takes_no_base("npp_study"), lat::npp_study_output_names(outdir);
  if (kind == "queue") return takes_no_base("queue"), lat::queue_output_names(outdir);
  if (kind == "nodecomm") return takes_no_base("nodecomm"), lat::maxrate_output_names(outdir);
  if (kind == "sweep") return needs_base("sweep"), lat::sweep_output_names(outdir, base);
  if (kind == "pairs") return needs_base("pairs"), lat::pair_output_names(outdir, base);
  if (kind == "matrices") return needs_base("matrices"), lat::matrix_output_names(outdir, base);
  if (kind == "coll") return needs_base("coll"), lat::coll_output_names(outdir, base);
  throw lat::ArgError("kind must be one of " + std::string(kKinds) + ", got '" + lat::printable(kind) + "'");
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
