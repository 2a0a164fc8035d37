#include "toy/report.hpp"

#include <nlohmann/json.hpp>

#include "common/report_json.hpp"
#include "common/report_text.hpp"
#include "common/staged_files.hpp"
#include "generated/spec_json.hpp"
#include "generated/spec_options.hpp"

namespace lat {

std::string toy_table_text(const ToyResult &r) {
  const lat_toy_summary &s = r.summary;
  std::string o;
  const std::string disturbed = disturbance_warning(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s);
  if (!disturbed.empty()) append(o, "{}\n", disturbed);  // first: every figure below is in question
  append(o, "mpilat-toy (mpilat {}): MPI_Barrier on {} ranks (rank 0 on {})\n", MPILAT_VERSION_STRING, s.nprocs, s.host);
  if (s.partial) append(o, "*** PARTIAL RESULTS: stopped by a stop request; the figures are of the loops made ***\n");
  append(o, "one barrier in us, each loop the mean of {} barriers, over {} loops:\n", s.iters, s.reps);
  append(o, "{:>10} {:>10} {:>10} {:>10}\n{:10.3f} {:10.3f} {:10.3f} {:10.3f}\n", "min", "median", "mean", "max",
         s.min_us, s.median_us, s.mean_us, s.max_us);
  return o;
}

std::string toy_json_text(const ToyResult &r, const std::string &command_line) {
  const lat_toy_summary &s = r.summary;
  nlohmann::json j = report_head_json("mpilat-toy", command_line);
  j["run"].update({{"wall_s", s.wall_s}, {"partial", s.partial != 0}});
  j["options"] = spec_options_json(r.options);
  j["barrier"] = spec_result_json(s);
  j["disturbance"] = disturbance_json(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s);
  return json_document_text(std::move(j), 2);
}

std::vector<std::string> toy_output_names(const std::string &outdir) {
  return {join_path(outdir, "toy.txt"), join_path(outdir, "toy.json")};
}

void write_toy_files(const std::string &outdir, const std::string &command_line, const ToyResult &r) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {join_path(outdir, "toy.txt"), toy_table_text(r)}, {join_path(outdir, "toy.json"), toy_json_text(r, command_line)}};
  require_declared(toy_output_names(outdir), files);
  write_files_whole(files);
}

}  // namespace lat
