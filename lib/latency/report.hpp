// report.hpp: the files of the 2009 Iowa State `latency` program (latency.output,
// latency.summary.output; layout in docs/output-formats.md) and our latency.json.
#pragma once

#include <string>
#include <vector>

#include "mpilat.h"
#include "common/stats.hpp"

namespace lat {

struct LatencyReport {
  std::string command_line;
  double program_seconds = 0.0;
  const lat_timer_result *timer = nullptr;
  const Distribution *timer_dist = nullptr;  // may be null: tables omitted
  const lat_pingpong_result *pp = nullptr;
  const Distribution *pp_dist = nullptr;     // may be null: table omitted
  const std::vector<TrialChunk> *chunks = nullptr;  // the run over time; may be null or empty
};

/// Fortran's Ew.d without the field padding: 0.1463E+00 (mantissa in [0.1, 1)).
std::string fortran_e(double x, int digits = 4);

std::string summary_text(const LatencyReport &r);  // latency.summary.output (Appendix C)
std::string full_text(const LatencyReport &r);     // latency.output
std::string json_text(const LatencyReport &r);     // latency.json

/// Writes the three files into outdir, whole or not at all.
void write_latency_files(const std::string &outdir, const LatencyReport &r);

/// Every file write_latency_files and write_latency_plots may write in outdir (lat_check_outputs "latency").
std::vector<std::string> latency_output_names(const std::string &outdir);
/// Every file write_npp_study_files may write in outdir (lat_check_outputs "npp_study").
std::vector<std::string> npp_study_output_names(const std::string &outdir);

/// latency.gp (the script), drawn as latency.png and latency.svg.
std::string latency_plot_text(const lat_pingpong_result &p, const Distribution &d, const std::vector<TrialChunk> &chunks);
void write_latency_plots(const std::string &outdir, const lat_pingpong_result &p, const Distribution &d,
                         const std::vector<TrialChunk> &chunks);

/// latency.npp.txt, .csv, .json, .gp and (render) .png, .svg: the npp study.
void write_npp_study_files(const std::string &outdir, const std::string &command_line, const lat_pingpong_result &p,
                           const std::vector<lat_npp_study_row> &rows, bool render);

}  // namespace lat
