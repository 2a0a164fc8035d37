// mmpi: round-trip latency between every pair of ranks, as the 2009 TeraGrid mmpi program measured it,
// on lat_pair_matrix. Writes the mmpi log (ammpi_<np>_<len>_<reps>.dat, or -o) and a JSON file beside
// it; mmpi2mat turns the log into matrices and a heat map. See docs/mmpi.md.
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
  driver_launch_hint("mmpi");
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  lat_pair_options o;
  lat_pair_defaults(&o);
  std::string schedule = "sequential", wait = "auto", timer = "mpi_wtime", output, outdir;
  bool quick = false;
  int progress = 1;
  CLI::App app{"mmpi (mpilat): round-trip latency between every pair of ranks of the job, with each rank's host, "
               "node, socket and core; writes the mmpi log of the 2009 TeraGrid program and a JSON file."};
  app.get_formatter()->column_width(30);
  show_defaults(app);
  spec_option<&lat_pair_options::msg_bytes>(app, "mmpi", o);
  spec_option<&lat_pair_options::repeats>(app, "mmpi", o);
  app.add_option("--schedule", schedule,
                 spec_help<&lat_pair_options::schedule>("mmpi", "--schedule"));
  app.add_option("-o,--output", output, own_option_help("mmpi", "--output"));
  app.add_option("--outdir", outdir, own_option_help("mmpi", "--outdir"));
  app.add_option("--wait", wait, spec_help<&lat_pair_options::wait>("mmpi", "--wait"));
  app.add_option("--timer", timer, spec_help<&lat_pair_options::timer>("mmpi", "--timer"));
  spec_option<&lat_pair_options::timeout_s>(app, "mmpi", o);
  app.add_flag("--quick", quick, own_option_help("mmpi", "--quick"));
  add_progress_flags<&lat_pair_options::progress>(app, progress, "mmpi");
  int status = parse_options(app, [&] { app.parse(argc, argv); }, rank, "mmpi");
  std::string bad;
  if (status < 0) {
    if (quick) {
      if (app.count("--repeats") == 0) o.repeats = 10;
      o.nr = int64_t{1} << 12;
    }
    if (schedule == "sequential") o.schedule = LAT_PAIRS_SEQUENTIAL;
    else if (schedule == "rounds") o.schedule = LAT_PAIRS_ROUNDS;
    else bad = "--schedule '" + schedule + "': must be sequential or rounds";
    if (bad.empty()) {
      if (wait == "auto") o.wait = LAT_WAIT_AUTO;
      else if (wait == "spin") o.wait = LAT_WAIT_SPIN;
      else if (wait == "yield") o.wait = LAT_WAIT_YIELD;
      else bad = "--wait '" + wait + "': must be auto, spin or yield";
    }
    if (bad.empty()) timer_option("--timer '" + timer + "'", timer, &o.timer, bad);
    // The library's own rules (the ones lat_pair_matrix applies), before anything is measured.
    if (bad.empty()) bad = check_complaint(lat_pair_check(&o, nprocs));
    if (bad.empty()) bad = name_complaint("-o", output, false);
    if (bad.empty()) bad = name_complaint("--outdir", outdir, false);
    if (bad.empty() && !output.empty() && (output.back() == '/' || output == "." || output == ".."))
      bad = "-o '" + output + "': must name a file, not a directory";
    if (bad.empty() && !output.empty() && output.find('/') != std::string::npos && !outdir.empty())
      bad = "-o '" + output + "' has a directory: give it there or in --outdir, not both";
    if (!bad.empty()) {
      refuse_options(rank, "mmpi", bad);
      status = DRIVER_BAD_INPUT;
    }
  }
  std::string log_name = output;
  if (status < 0) {
    if (log_name.empty())
      log_name = "ammpi_" + std::to_string(nprocs) + "_" + std::to_string(o.msg_bytes) + "_" +
                 std::to_string(o.repeats) + ".dat";
    const size_t slash = log_name.rfind('/');
    if (slash != std::string::npos) {
      outdir = slash == 0 ? "/" : log_name.substr(0, slash);
      log_name = log_name.substr(slash + 1);
    }
  }
  // One verdict on the options for every rank before any collective step (a launch may give ranks different ones).
  status = driver_agree_options("mmpi", status, options_complaint().c_str());
  // The output directory is checked before anything is measured.
  if (status < 0 && !driver_outdir_usable("mmpi", outdir.empty() ? "--outdir" : "-o/--outdir", outdir.c_str(), nullptr, nullptr))
    status = DRIVER_BAD_INPUT;
  // The log itself, and its JSON (the log's name with .json for its extension): never the same file.
  if (status < 0) {
    int usable = 1;
    if (rank == 0 && log_name.size() > 5 && log_name.compare(log_name.size() - 5, 5, ".json") == 0) {
      std::fprintf(stderr, "mmpi: -o '%s': the log's JSON goes beside it with the extension .json, so the log "
                           "must have another (.dat)\n", output.c_str());
      usable = 0;
    }
    // The log and the JSON beside it, as lat_write_pair_files will write them.
    if (rank == 0 && usable && lat_check_outputs("pairs", outdir.c_str(), log_name.c_str()) != LAT_SUCCESS) {
      std::fprintf(stderr, "mmpi: -o: %s\n", lat_last_error_message());
      usable = 0;
    }
    driver_bcast_int_politely(&usable);
    if (!usable) {
      status = DRIVER_BAD_INPUT;
      driver_outdir_unmake();
    }
  }
  if (status >= 0) {
    driver_finalize(status);
    return status;
  }
  o.progress = rank == 0 ? progress : 0;
  if (show_options_instead(rank, o)) return DRIVER_DONE;
  if (rank == 0) {
    const long long pairs = static_cast<long long>(nprocs) * (nprocs - 1) / 2;
    const long long steps = o.schedule == LAT_PAIRS_ROUNDS ? (nprocs % 2 == 0 ? nprocs - 1 : nprocs) : pairs;
    std::fprintf(stderr, "mmpi: %d ranks, %lld pairs, %lld-byte messages, %lld repeats, %s schedule: %lld steps\n",
                 nprocs, pairs, static_cast<long long>(o.msg_bytes), static_cast<long long>(o.repeats),
                 schedule.c_str(), steps * (o.repeats + 1));
  }
  latency_install_stop_handlers();
  lat_pairs pairs = nullptr;
  const int rc = lat_pair_matrix(MPI_COMM_WORLD, &o, &pairs);
  return finish_measurement(
      "mmpi", rc, rank, 0,
      [&](int ended) {
        const std::string cmd = command_line_of(argc, argv);
        const std::string where = outdir.empty() ? "" : outdir + (outdir.back() == '/' ? "" : "/");
        if (const int wrote = lat_write_pair_files(outdir.c_str(), log_name.c_str(), cmd.c_str(), pairs); wrote != LAT_SUCCESS) {
          std::fprintf(stderr, "mmpi: writing %s%s: %s\n", where.c_str(), log_name.c_str(), lat_last_error_message());
          return driver_write_failed_status(wrote);
        }
        lat_pair_summary s;
        lat_pairs_get_summary(pairs, &s);
        if (s.wait == LAT_WAIT_YIELD)
          std::fprintf(stderr, "mmpi: yield mode: %s, so waiting ranks yielded their processor (slower steps, fair "
                               "round trips); the log's header says so too\n",
                       o.wait == LAT_WAIT_YIELD ? "asked with --wait yield" : "more ranks than processors on a node");
        std::printf("mmpi (mpilat %s): %lld ranks on %lld node(s), %lld pairs, %lld-byte messages, %lld repeats, "
                    "%s schedule, %.1f s\n",
                    MPILAT_VERSION_STRING, static_cast<long long>(s.nprocs), static_cast<long long>(s.nnodes),
                    static_cast<long long>(s.npairs), static_cast<long long>(s.msg_bytes),
                    static_cast<long long>(s.repeats), schedule.c_str(), s.wall_s);
        std::printf("mean round trip per pair: %.3f us (fastest pair) to %.3f us (slowest pair)\n", s.mean_min_us,
                    s.mean_max_us);
        std::printf("log: %s%s (the JSON beside it: the same name, .json)\nmatrices and heat map: mmpi2mat %s%s\n",
                    where.c_str(), log_name.c_str(), where.c_str(), log_name.c_str());
        if (ended == DRIVER_PARTIAL) driver_stopped_note("mmpi", "the files hold the round trips measured (JSON: count)");
        return ended;
      },
      [&] { lat_pairs_free(&pairs); });
}
