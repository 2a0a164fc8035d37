// nodecomm: ping-pongs between two nodes with k = 1..K pairs at once (Gropp, Olson & Samfass 2016) and the
// max-rate model fitted to them per regime, on lat_nodecomm_measure and lat_fit_maxrate; or, with --fit
// FILE, the fit of a table measured earlier, without MPI. Writes nodecomm.txt, nodecomm_fit.txt, .csv,
// .json and Figures 1 and 2 of every model (nodecomm_bw_<model>, nodecomm_err_<model>: .gp, .png, .svg)
// into --outdir; see docs/nodecomm.md.
// Exit status: 0 done, 1 failed, 2 bad input, 3 partial (stopped by a signal).
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "driver_finish.hpp"
#include "driver_options.hpp"
#include "driver_support.h"
#include "mpilat.h"

namespace {

struct Settings {
  lat_nodecomm_options opts{};
  lat_fit_options fit{};
  std::string sizes_text, thresholds_text, fit_file, time_unit = "us", timer = "mpi_wtime", outdir, sides = "node";
  std::vector<int64_t> sizes;
  bool quick = false, noplot = false, noadaptive = false;
  int progress = 1;
};

void add_options(CLI::App &app, Settings &s) {
  app.get_formatter()->column_width(30);
  show_defaults(app);
  app.add_option("--sizes", s.sizes_text, own_option_help("nodecomm", "--sizes"));
  spec_option<&lat_nodecomm_options::size_last>(app, "nodecomm", s.opts);
  spec_option<&lat_nodecomm_options::reps>(app, "nodecomm", s.opts);
  spec_option<&lat_nodecomm_options::max_pairs>(app, "nodecomm", s.opts);
  app.add_option("--sides", s.sides, spec_help<&lat_nodecomm_options::sides>("nodecomm", "--sides"));
  app.add_flag("--noadaptive", s.noadaptive, spec_help<&lat_nodecomm_options::adaptive>("nodecomm", "--noadaptive"));
  app.add_option("--thresholds", s.thresholds_text,
                 spec_help<&lat_fit_options::nthresholds>("nodecomm", "--thresholds"));
  app.add_option("--fit", s.fit_file, own_option_help("nodecomm", "--fit"));
  app.add_option("--time-unit", s.time_unit, own_option_help("nodecomm", "--time-unit"));
  app.add_option("--timer", s.timer, spec_help<&lat_nodecomm_options::timer>("nodecomm", "--timer"));
  spec_option<&lat_nodecomm_options::timeout_s>(app, "nodecomm", s.opts);
  app.add_option("--outdir", s.outdir, own_option_help("nodecomm", "--outdir"));
  app.add_flag("--noplot", s.noplot, own_option_help("nodecomm", "--noplot"));
  app.add_flag("--quick", s.quick, own_option_help("nodecomm", "--quick"));
  add_progress_flags<&lat_nodecomm_options::progress>(app, s.progress, "nodecomm");
}

/// "" or the complaint about the settings (not the MPI job).
std::string check(Settings &s, const CLI::App &app) {
  if (s.quick) {
    if (app.count("--size-last") == 0) s.opts.size_last = 65536;
    if (app.count("--reps") == 0) s.opts.reps = 3;
    s.opts.nr = int64_t{1} << 14;
  }
  s.opts.adaptive = s.noadaptive ? 0 : 1;
  std::string bad;
  if (!s.sizes_text.empty()) bad = parse_list("--sizes", s.sizes_text, s.sizes);
  // The fit that follows the measurement needs three sizes: refused now, not after the run.
  if (bad.empty() && !s.sizes.empty() && s.sizes.size() < 3)
    bad = "--sizes '" + s.sizes_text + "': the fit needs at least 3 message sizes, got " + std::to_string(s.sizes.size());
  // The library's own rules (the ones lat_nodecomm_measure and lat_fit_maxrate apply).
  if (bad.empty())
    bad = check_complaint(lat_nodecomm_check(&s.opts, static_cast<int64_t>(s.sizes.size()), s.sizes.data()));
  if (bad.empty() && !s.thresholds_text.empty()) {
    std::vector<int64_t> t;
    bad = parse_list("--thresholds", s.thresholds_text, t);
    if (bad.empty() && t.size() > LAT_MAX_REGIMES - 1)
      bad = "--thresholds '" + s.thresholds_text + "': at most " + std::to_string(LAT_MAX_REGIMES - 1) + " sizes";
    if (bad.empty()) {
      s.fit.nthresholds = static_cast<int64_t>(t.size());
      for (size_t i = 0; i < t.size(); ++i) s.fit.thresholds[i] = t[i];
    }
  }
  if (bad.empty()) bad = check_complaint(lat_fit_check(&s.fit));
  if (bad.empty() && s.sides != "node" && s.sides != "socket") bad = "--sides '" + s.sides + "': must be node or socket";
  s.opts.sides = s.sides == "socket" ? LAT_SIDES_SOCKET : LAT_SIDES_NODE;
  if (bad.empty() && s.time_unit != "us" && s.time_unit != "s") bad = "--time-unit '" + s.time_unit + "': must be us or s";
  if (bad.empty()) timer_option("--timer '" + s.timer + "'", s.timer, &s.opts.timer, bad);
  return bad;
}

/// Fits obs (falling back to one regime when the regimes found leave one too few sizes) and writes the
/// files; then prints header and the tables (files first: a reader that closes the pipe, which ends the
/// launcher and with it the ranks, costs nothing). The exit status.
int fit_and_write(Settings &s, const std::string &cmd, lat_nodecomm measured, const std::vector<lat_maxrate_obs> &obs,
                  const std::string &header = "") {
  lat_maxrate_fit fit = nullptr;
  int rc = lat_fit_maxrate(&s.fit, static_cast<int64_t>(obs.size()), obs.data(), &fit);
  if (rc == LAT_ERR_ARG && s.fit.nthresholds < 0 && std::strstr(lat_last_error_message(), "regime")) {
    std::fprintf(stderr, "nodecomm: %s; fitting one regime instead\n", lat_last_error_message());
    s.fit.nthresholds = 0;
    rc = lat_fit_maxrate(&s.fit, static_cast<int64_t>(obs.size()), obs.data(), &fit);
  }
  if (rc != LAT_SUCCESS) {
    std::fputs(header.c_str(), stdout);
    std::fprintf(stderr, "nodecomm: the fit: %s\n", lat_last_error_message());
    driver_outdir_unmake();
    return rc == LAT_ERR_ARG ? DRIVER_BAD_INPUT : DRIVER_FAILED;
  }
  int status = DRIVER_DONE;
  const int wrote = lat_write_maxrate_files(s.outdir.c_str(), cmd.c_str(), measured, static_cast<int64_t>(obs.size()),
                                            obs.data(), fit, s.noplot ? 0 : 1);
  std::fputs(header.c_str(), stdout);
  if (wrote != LAT_SUCCESS) {
    std::fprintf(stderr, "nodecomm: writing nodecomm.*: %s\n", lat_last_error_message());
    driver_outdir_unmake();  // only while empty: the files are written whole or not at all
    status = driver_write_failed_status(wrote);
  } else {
    const std::string tables = (s.outdir.empty() ? std::string(".") : s.outdir) + "/nodecomm_fit.txt";
    if (FILE *f = std::fopen(tables.c_str(), "r")) {
      char line[4096];
      while (std::fgets(line, sizeof line, f)) std::fputs(line, stdout);
      std::fclose(f);
    }
  }
  lat_maxrate_free(&fit);
  return status == DRIVER_DONE ? driver_stdout_status("nodecomm") : status;
}

/// --fit FILE: no MPI job.
int fit_table(Settings &s, const std::string &cmd) {
  if (driver_outdir_make(s.outdir.c_str()) != LAT_SUCCESS || lat_check_outputs("nodecomm", s.outdir.c_str(), nullptr) != LAT_SUCCESS) {
    std::fprintf(stderr, "nodecomm: --outdir '%s': %s\n", s.outdir.empty() ? "." : s.outdir.c_str(), lat_last_error_message());
    driver_outdir_unmake();
    return DRIVER_BAD_INPUT;
  }
  const double scale = s.time_unit == "s" ? 1e6 : 1.0;
  int64_t n = 0, missing = 0;
  if (lat_read_nodecomm_table(s.fit_file.c_str(), scale, 0, nullptr, &n, &missing) != LAT_SUCCESS) {
    std::fprintf(stderr, "nodecomm: %s\n", lat_last_error_message());
    driver_outdir_unmake();  // a refused table leaves no directory made for its files
    return DRIVER_BAD_INPUT;
  }
  std::vector<lat_maxrate_obs> obs(static_cast<size_t>(n));
  lat_read_nodecomm_table(s.fit_file.c_str(), scale, n, obs.data(), &n, &missing);
  if (missing > 0)
    std::fprintf(stderr, "nodecomm: %s: %lld cell(s) '-' (not measured) skipped; %lld observations fitted\n",
                 s.fit_file.c_str(), static_cast<long long>(missing), static_cast<long long>(n));
  return fit_and_write(s, cmd, nullptr, obs);
}

}  // namespace

int main(int argc, char **argv) {
  Settings s;
  lat_nodecomm_defaults(&s.opts);
  lat_fit_defaults(&s.fit);
  bool fit_only = false;
  for (int k = 1; k < argc; ++k) fit_only |= std::strncmp(argv[k], "--fit", 5) == 0;
  int rank = 0, nprocs = 1;
  if (!fit_only) {
    MPI_Init(&argc, &argv);
    driver_launch_hint("nodecomm");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  }
  CLI::App app{"nodecomm (mpilat): ping-pongs between two nodes with k = 1..K pairs at once, and the max-rate model "
               "T = alpha + k n / min(RN, k RC) fitted per regime (Gropp, Olson & Samfass 2016); --fit FILE fits a "
               "table measured earlier without MPI."};
  add_options(app, s);
  int status = parse_options(app, [&] { app.parse(argc, argv); }, rank, "nodecomm");
  if (status < 0) {
    const std::string bad = check(s, app);
    if (!bad.empty()) {
      refuse_options(rank, "nodecomm", bad);
      status = DRIVER_BAD_INPUT;
    }
  }
  const std::string cmd = command_line_of(argc, argv);
  if (status < 0 && rank == 0 && !s.noplot && !driver_plotter_usable("nodecomm", "--noplot")) status = DRIVER_BAD_INPUT;
  if (fit_only) {
    if (status < 0 && driver_show_options_asked()) {
      driver_show(s.fit);
      return DRIVER_DONE;
    }
    return status >= 0 ? status : fit_table(s, cmd);
  }
  // One verdict on the options for every rank before any collective step (a launch may give ranks different ones).
  status = driver_agree_options("nodecomm", status, options_complaint().c_str());
  if (status < 0 && !driver_outdir_usable("nodecomm", "--outdir", s.outdir.c_str(), "nodecomm", nullptr)) status = DRIVER_BAD_INPUT;
  if (status >= 0) {
    driver_finalize(status);
    return status;
  }
  s.opts.progress = rank == 0 ? s.progress : 0;
  if (show_options_instead(rank, s.opts, s.fit)) return DRIVER_DONE;
  driver_warn_oversubscribed("nodecomm");
  latency_install_stop_handlers();
  lat_nodecomm measured = nullptr;
  const int rc = lat_nodecomm_measure(MPI_COMM_WORLD, &s.opts, static_cast<int64_t>(s.sizes.size()),
                                      s.sizes.empty() ? nullptr : s.sizes.data(), &measured);
  return finish_measurement(
      "nodecomm", rc, rank, 0,
      [&](int ended) {
        lat_nodecomm_summary sum;
        lat_nodecomm_get_summary(measured, &sum);
        std::vector<lat_maxrate_obs> obs(static_cast<size_t>(sum.npoints));
        int64_t nobs = 0;
        lat_nodecomm_observations(measured, sum.npoints, obs.data(), &nobs);
        obs.resize(static_cast<size_t>(nobs));
        const char *between = sum.sides == LAT_SIDES_SOCKET ? " (INTRA-NODE: two sockets of one node)"
                              : sum.sides == LAT_SIDES_HALVES && s.opts.sides == LAT_SIDES_SOCKET
                                  ? " (INTRA-NODE: one socket, or sockets unknown: its two halves, not two sockets)"
                              : sum.intra_node ? " (INTRA-NODE: one node, its two halves)" : "";
        char header[1024];
        std::snprintf(header, sizeof header, "nodecomm (mpilat %s): %s - %s%s, K = %lld pairs, %lld sizes, %.1f s\n\n",
                      MPILAT_VERSION_STRING, sum.host_a, sum.host_b, between, static_cast<long long>(sum.kmax),
                      static_cast<long long>(sum.nsizes), sum.wall_s);
        // Stopped while the sizes were chosen (the first seconds): no k-pair point to write, ended 3 still.
        if (nobs == 0) std::fputs(header, stdout);
        const int fitted = nobs > 0                   ? fit_and_write(s, cmd, measured, obs, header)
                           : ended == DRIVER_PARTIAL ? DRIVER_PARTIAL
                                                      : DRIVER_FAILED;
        if (nobs == 0)
          std::fprintf(stderr, "nodecomm: stopped %s while the sizes were chosen, before any k-pair point was "
                               "timed: no files\n", driver_stop_cause());
        if (fitted != DRIVER_DONE) ended = fitted == DRIVER_BAD_INPUT ? DRIVER_FAILED : fitted;
        if (ended == DRIVER_PARTIAL && nobs > 0) driver_stopped_note("nodecomm", "the files hold the points measured");
        return ended;
      },
      [&] { lat_nodecomm_free(&measured); });
}
