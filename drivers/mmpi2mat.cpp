// mmpi2mat: an mmpi log (ours, or the 2009 program's) or our JSON of it into the two N x N matrices
// MATLAB/Octave load (<base>_comm.dat: mean, <base>_var.dat: standard deviation), a CSV (a column per
// statistic the file holds) and a heat map (PNG and SVG, node boundaries marked, a logarithmic colour bar in
// us: of the median where the file has it, the JSON, else of the mean), on lat_read_mmpi_log or
// lat_read_pair_json and lat_write_pair_matrices. No MPI job.
// Exit status: 0 done, 1 failed (a file could not be written, gnuplot failed), 2 bad input (the log).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "driver_options.hpp"
#include "driver_support.h"
#include "mpilat.h"

int main(int argc, char **argv) {
  std::string log, base, outdir;
  bool noplot = false, mean = false;
  CLI::App app{"mmpi2mat (mpilat): reads an mmpi log and writes <base>_comm.dat and <base>_var.dat (N x N "
               "matrices of the mean and standard deviation, for MATLAB/Octave load), <base>.csv, and the heat map "
               "<base>_heatmap.png/.svg (with <base>_heatmap.gp)."};
  app.get_formatter()->column_width(30);
  app.add_option("log", log, "the mmpi log (ammpi_<np>_<len>_<reps>.dat), or its JSON (.json: median, minimum, count too)")
      ->required();
  app.add_option("--base", base, "name of the files (the log's name without its extension)");
  app.add_option("--outdir", outdir, "directory of the files (the log's directory)");
  app.add_flag("--noplot", noplot, "write the gnuplot script but draw no PNG or SVG");
  app.add_flag("--mean", mean, "the heat map of the mean (default: the median where the file has it, the JSON)");
  if (const int status = parse_options(app, [&] { app.parse(argc, argv); }, 0, "mmpi2mat"); status >= 0) return status;
  if (!noplot && !driver_plotter_usable("mmpi2mat", "--noplot")) return DRIVER_BAD_INPUT;
  const size_t slash = log.rfind('/');
  const std::string file = slash == std::string::npos ? log : log.substr(slash + 1);
  if (outdir.empty() && slash != std::string::npos) outdir = slash == 0 ? "/" : log.substr(0, slash);
  if (base.empty()) {
    const size_t dot = file.find_last_of('.');
    base = dot == std::string::npos || dot == 0 ? file : file.substr(0, dot);
  }
  for (const std::string &complaint : {name_complaint("--base", base, true), name_complaint("--outdir", outdir, false)})
    if (!complaint.empty()) {
      std::fprintf(stderr, "mmpi2mat: %s\n", complaint.c_str());
      return DRIVER_BAD_INPUT;
    }
  lat_pairs pairs = nullptr;
  const bool json = file.size() > 5 && file.compare(file.size() - 5, 5, ".json") == 0;
  int rc = json ? lat_read_pair_json(log.c_str(), &pairs) : lat_read_mmpi_log(log.c_str(), &pairs);
  if (rc != LAT_SUCCESS) {
    std::fprintf(stderr, "mmpi2mat: %s\n", lat_last_error_message());
    return rc == LAT_ERR_DATA || rc == LAT_ERR_IO ? DRIVER_BAD_INPUT : DRIVER_FAILED;
  }
  if (driver_outdir_make(outdir.c_str()) != LAT_SUCCESS || lat_check_outputs("matrices", outdir.c_str(), base.c_str()) != LAT_SUCCESS) {
    std::fprintf(stderr, "mmpi2mat: --outdir '%s': %s\n", outdir.empty() ? "." : outdir.c_str(), lat_last_error_message());
    driver_outdir_unmake();
    lat_pairs_free(&pairs);
    return DRIVER_BAD_INPUT;
  }
  rc = lat_write_pair_matrices(outdir.c_str(), base.c_str(), pairs,
                               (noplot ? 0 : LAT_PAIR_FILES_PNG) | (mean ? LAT_PAIR_FILES_MEAN : 0));
  int status = DRIVER_DONE;
  if (rc != LAT_SUCCESS) {
    std::fprintf(stderr, "mmpi2mat: writing %s_*: %s\n", base.c_str(), lat_last_error_message());
    driver_outdir_unmake();  // only while empty: the files are written whole or not at all
    status = driver_write_failed_status(rc);
  } else {
    lat_pair_summary s;
    lat_pairs_get_summary(pairs, &s);
    const std::string at = outdir.empty() ? "" : outdir + (outdir.back() == '/' ? "" : "/");
    // The log's own text (its name, its "# Testing Hostname:") with its control bytes shown, never acting.
    std::printf("mmpi2mat: %s: %lld ranks on %lld host(s), %lld-byte messages, %lld repeats (%s)\n", shown_text(log).c_str(),
                static_cast<long long>(s.nprocs), static_cast<long long>(s.nnodes), static_cast<long long>(s.msg_bytes),
                static_cast<long long>(s.repeats), shown_text(s.testing_host).c_str());
    std::printf("mean round trip per pair: %.2f us to %.2f us\n", s.mean_min_us, s.mean_max_us);
    std::printf("wrote %s%s_comm.dat, %s_var.dat, %s.csv, %s_heatmap.gp%s\n", at.c_str(), base.c_str(), base.c_str(),
                base.c_str(), base.c_str(), noplot ? "" : (", " + base + "_heatmap.png, " + base + "_heatmap.svg").c_str());
  }
  lat_pairs_free(&pairs);
  return status == DRIVER_DONE ? driver_stdout_status("mmpi2mat") : status;
}
