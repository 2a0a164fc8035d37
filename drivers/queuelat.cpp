// queuelat: latency against MPI queue depth, as Underwood & Brightwell measured it (Figures 1 and 2), on
// lat_queue_sweep. Writes queuelat.txt, .csv, .json, .gp and .png into --outdir; see docs/queuelat.md.
// Exit status: 0 done, 1 failed, 2 bad input, 3 partial (stopped by a signal).
#include <mpi.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "driver_finish.hpp"
#include "driver_options.hpp"
#include "driver_support.h"
#include "mpilat.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  driver_launch_hint("queuelat");
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  lat_queue_options o;
  lat_queue_defaults(&o);
  std::string mode = "posted", lengths_text, fractions_text, sizes_text, timer = "mpi_wtime", outdir;
  bool quick = false, noplot = false;
  int progress = -1;
  CLI::App app{"queuelat (mpilat): one-way latency against the length of the posted-receive queue (and the "
               "fraction of it traversed) or of the unexpected-message queue (Underwood & Brightwell 2004)."};
  app.get_formatter()->column_width(30);
  show_defaults(app);
  app.add_option("--mode", mode, spec_help<&lat_queue_options::mode>("queuelat", "--mode"));
  app.add_option("--lengths", lengths_text, own_option_help("queuelat", "--lengths"));
  app.add_option("--fractions", fractions_text, own_option_help("queuelat", "--fractions"));
  app.add_option("--sizes", sizes_text, own_option_help("queuelat", "--sizes"));
  spec_option<&lat_queue_options::iters>(app, "queuelat", o);
  spec_option<&lat_queue_options::reps>(app, "queuelat", o);
  app.add_flag("--any-source", [&](int64_t) { o.any_source = 1; },
               spec_help<&lat_queue_options::any_source>("queuelat", "--any-source"));
  spec_option<&lat_queue_options::source>(app, "queuelat", o);
  spec_option<&lat_queue_options::dest>(app, "queuelat", o);
  app.add_option("--timer", timer, spec_help<&lat_queue_options::timer>("queuelat", "--timer"));
  spec_option<&lat_queue_options::nr>(app, "queuelat", o);
  spec_option<&lat_queue_options::timeout_s>(app, "queuelat", o);
  app.add_option("--outdir", outdir, own_option_help("queuelat", "--outdir"));
  app.add_flag("--noplot", noplot, own_option_help("queuelat", "--noplot"));
  app.add_flag("--quick", quick, own_option_help("queuelat", "--quick"));
  add_progress_flags<&lat_queue_options::progress>(app, progress, "queuelat");
  int status = parse_options(app, [&] { app.parse(argc, argv); }, rank, "queuelat");
  std::vector<int64_t> lengths, sizes;
  std::vector<double> fractions;
  std::string bad;
  if (status < 0) {
    if (quick) {
      if (lengths_text.empty()) lengths_text = "0:1000:250";
      if (fractions_text.empty()) fractions_text = "0,50,100";
      if (app.count("--iters") == 0) o.iters = 100;
      if (app.count("--reps") == 0) o.reps = 3;
      if (app.count("--nr") == 0) o.nr = int64_t{1} << 18;
    }
    if (mode == "posted") o.mode = LAT_QUEUE_POSTED;
    else if (mode == "unexpected") o.mode = LAT_QUEUE_UNEXPECTED;
    else bad = "--mode '" + mode + "': must be posted or unexpected";
    if (bad.empty() && !lengths_text.empty()) bad = parse_list("--lengths", lengths_text, lengths);
    if (bad.empty() && !fractions_text.empty()) bad = parse_list("--fractions", fractions_text, fractions);
    if (bad.empty() && !sizes_text.empty()) bad = parse_list("--sizes", sizes_text, sizes);
    if (bad.empty()) timer_option("--timer '" + timer + "'", timer, &o.timer, bad);
    // The library's own rules (the ones lat_queue_sweep applies), before anything is measured.
    if (bad.empty())
      bad = check_complaint(lat_queue_check(&o, nprocs, static_cast<int64_t>(lengths.size()), lengths.data(),
                                            static_cast<int64_t>(fractions.size()), fractions.data(),
                                            static_cast<int64_t>(sizes.size()), sizes.data(), nullptr));
    if (!bad.empty()) {
      refuse_options(rank, "queuelat", bad);
      status = DRIVER_BAD_INPUT;
    }
  }
  // One verdict on the options for every rank before any collective step (a launch may give ranks different ones).
  if (status < 0 && rank == 0 && !noplot && !driver_plotter_usable("queuelat", "--noplot")) status = DRIVER_BAD_INPUT;
  status = driver_agree_options("queuelat", status, options_complaint().c_str());
  // The output directory is checked before anything is measured.
  if (status < 0 && !driver_outdir_usable("queuelat", "--outdir", outdir.c_str(), "queue", nullptr)) status = DRIVER_BAD_INPUT;
  if (status >= 0) {
    driver_finalize(status);
    return status;
  }
  o.progress = progress >= 0 ? progress : latency_stderr_is_terminal();
  if (rank != o.source) o.progress = 0;
  if (show_options_instead(rank, o)) return DRIVER_DONE;
  driver_warn_oversubscribed("queuelat");
  latency_install_stop_handlers();
  lat_queue q = nullptr;
  const int rc = lat_queue_sweep(MPI_COMM_WORLD, &o, static_cast<int64_t>(lengths.size()),
                                 lengths.empty() ? nullptr : lengths.data(), static_cast<int64_t>(fractions.size()),
                                 fractions.empty() ? nullptr : fractions.data(), static_cast<int64_t>(sizes.size()),
                                 sizes.empty() ? nullptr : sizes.data(), nullptr, &q);
  return finish_measurement(
      "queuelat", rc, rank, 0,
      [&](int ended) {
        const std::string cmd = command_line_of(argc, argv);
        if (const int wrote = lat_write_queue_files(outdir.c_str(), cmd.c_str(), q, noplot ? 0 : 1); wrote != LAT_SUCCESS) {
          std::fprintf(stderr, "queuelat: writing queuelat.*: %s\n", lat_last_error_message());
          return driver_write_failed_status(wrote);
        }
        driver_print_file(((outdir.empty() ? std::string(".") : outdir) + "/queuelat.txt").c_str());
        if (ended == DRIVER_PARTIAL) driver_stopped_note("queuelat", "the files hold the points measured");
        return ended;
      },
      [&] { lat_queue_free(&q); });
}
