// mpilat-toy: the template capability's driver (docs/architecture.md, "How to add a capability"): the time
// of one MPI_Barrier on every rank of the job, on lat_toy_measure. Writes toy.txt and toy.json into --outdir.
// Exit status: 0 done, 1 failed, 2 bad input, 3 partial (stopped by a signal).
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "driver_finish.hpp"
#include "driver_options.hpp"
#include "driver_support.h"
#include "mpilat.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  driver_launch_hint("mpilat-toy");
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  lat_toy_options o;
  lat_toy_defaults(&o);
  std::string outdir;
  int progress = -1;
  CLI::App app{"mpilat-toy (mpilat): the time of one MPI_Barrier on every rank of the job (the template capability)."};
  app.get_formatter()->column_width(30);
  show_defaults(app);
  spec_option<&lat_toy_options::iters>(app, "mpilat-toy", o);
  spec_option<&lat_toy_options::reps>(app, "mpilat-toy", o);
  spec_option<&lat_toy_options::timeout_s>(app, "mpilat-toy", o);
  app.add_option("--outdir", outdir, own_option_help("mpilat-toy", "--outdir"));
  add_progress_flags<&lat_toy_options::progress>(app, progress, "mpilat-toy");
  int status = parse_options(app, [&] { app.parse(argc, argv); }, rank, "mpilat-toy");
  if (status < 0) {
    // The library's own rules (the ones lat_toy_measure applies), before anything is measured.
    const std::string bad = check_complaint(lat_toy_check(&o, nprocs));
    if (!bad.empty()) {
      refuse_options(rank, "mpilat-toy", bad);
      status = DRIVER_BAD_INPUT;
    }
  }
  // One verdict on the options for every rank before any collective step (a launch may give ranks different ones).
  status = driver_agree_options("mpilat-toy", status, options_complaint().c_str());
  // The output directory is checked before anything is measured.
  if (status < 0 && !driver_outdir_usable("mpilat-toy", "--outdir", outdir.c_str(), "toy", nullptr)) status = DRIVER_BAD_INPUT;
  if (status >= 0) {
    driver_finalize(status);
    return status;
  }
  o.progress = progress >= 0 ? progress : latency_stderr_is_terminal();
  if (rank != 0) o.progress = 0;
  if (show_options_instead(rank, o)) return DRIVER_DONE;
  driver_warn_oversubscribed("mpilat-toy");
  latency_install_stop_handlers();
  lat_toy t = nullptr;
  const int rc = lat_toy_measure(MPI_COMM_WORLD, &o, &t);
  return finish_measurement(
      "mpilat-toy", rc, rank, 0,
      [&](int ended) {
        const std::string cmd = command_line_of(argc, argv);
        if (const int wrote = lat_write_toy_files(outdir.c_str(), cmd.c_str(), t); wrote != LAT_SUCCESS) {
          std::fprintf(stderr, "mpilat-toy: writing toy.*: %s\n", lat_last_error_message());
          return driver_write_failed_status(wrote);
        }
        driver_print_file(((outdir.empty() ? std::string(".") : outdir) + "/toy.txt").c_str());
        if (ended == DRIVER_PARTIAL) driver_stopped_note("mpilat-toy", "the files hold the loops measured");
        return ended;
      },
      [&] { lat_toy_free(&t); });
}
