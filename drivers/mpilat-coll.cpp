// mpilat-coll: collective latency, one call per sample, on lat_collective: every operation, size and mode
// interleaved round by round; sync mode from a start scheduled on the synchronised clock. Writes
// mpilat-coll.txt, .json, .csv, .samples.csv and two pictures into --outdir; see docs/collective.md.
// Exit status: 0 done, 1 failed, 2 bad input, 3 partial (stopped by a signal).
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "driver_finish.hpp"
#include "driver_options.hpp"
#include "driver_support.h"
#include "mpilat.h"

namespace {

/// "" or the complaint; bits gets the bits of a comma list of names ("all": every bit of all). bit_of gives
/// a name's bit, 0 for none; what names the kind ("an operation") and valid the names (for the message).
template <class BitOf>
std::string parse_names(const std::string &option, const std::string &text, BitOf bit_of, int all, const char *what,
                        const char *valid, int &bits) {
  bits = 0;
  if (text == "all") {
    bits = all;
    return "";
  }
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string name = text.substr(at, comma - at);
    const int bit = bit_of(name);
    if (bit == 0) return option + " '" + text + "': '" + name + "' is not " + what + " (" + valid + ", or all)";
    if (bits & bit) return option + " '" + text + "': '" + name + "' is given twice: give each once";
    bits |= bit;
    at = comma + 1;
  }
  return "";
}

int op_of(const std::string &name) {
  int op = 0;
  return lat_coll_op_from_name(name.c_str(), &op) == LAT_SUCCESS ? op : 0;
}

int mode_of(const std::string &name) {
  return name == "sync" ? LAT_COLL_MODE_SYNC : name == "barrier" ? LAT_COLL_MODE_BARRIER : name == "loop" ? LAT_COLL_MODE_LOOP : 0;
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  driver_launch_hint("mpilat-coll");
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  lat_collective_options o;
  lat_collective_defaults(&o);
  constexpr int64_t kPrecisionReps = 100000, kPrecisionRepsMost = 1000000;
  constexpr double kQuickPrecisionLimitS = 5.0;  // --quick --precision: the whole run within 10 s
  std::string ops_text = "all", modes_text = "all", sizes_text, wait = "auto", timer = "mpi_wtime", outdir, base = "mpilat-coll";
  bool quick = false, noplot = false, adaptive = false;
  int progress = 1;
  CLI::App app{"mpilat-coll (mpilat): collective latency, one call per sample, every operation, size and mode "
               "interleaved; sync mode starts each call at a time scheduled on the synchronised clock."};
  app.get_formatter()->column_width(30);
  show_defaults(app);
  app.add_option("--ops", ops_text, spec_help<&lat_collective_options::ops>("mpilat-coll", "--ops"));
  app.add_option("--modes", modes_text, spec_help<&lat_collective_options::modes>("mpilat-coll", "--modes"));
  app.add_option("--sizes", sizes_text, own_option_help("mpilat-coll", "--sizes"));
  spec_option<&lat_collective_options::size_first>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::size_last>(app, "mpilat-coll", o);
  app.add_flag("--adaptive", adaptive, spec_help<&lat_collective_options::adaptive>("mpilat-coll", "--adaptive"));
  spec_option<&lat_collective_options::reps>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::precision_pct>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::precision_limit_s>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::loop_calls>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::root>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::window_us>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::sync_points>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::sync_burst>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::sync_spacing_s>(app, "mpilat-coll", o);
  spec_option<&lat_collective_options::resync_s>(app, "mpilat-coll", o);
  app.add_option("--wait", wait, spec_help<&lat_collective_options::wait>("mpilat-coll", "--wait"));
  app.add_option("--timer", timer, spec_help<&lat_collective_options::timer>("mpilat-coll", "--timer"));
  spec_option<&lat_collective_options::timeout_s>(app, "mpilat-coll", o);
  app.add_option("--outdir", outdir, own_option_help("mpilat-coll", "--outdir"));
  app.add_option("--base", base, own_option_help("mpilat-coll", "--base"));
  app.add_flag("--noplot", noplot, own_option_help("mpilat-coll", "--noplot"));
  app.add_flag("--quick", quick, own_option_help("mpilat-coll", "--quick"));
  add_progress_flags<&lat_collective_options::progress>(app, progress, "mpilat-coll");
  int status = parse_options(app, [&] { app.parse(argc, argv); }, rank, "mpilat-coll");
  std::vector<int64_t> sizes;
  std::string bad;
  if (status < 0) {
    // --precision ends the rounds; --reps and --precision-limit are their limits, reps by default far beyond the
    // usual 1000 (a fast point does 100,000 rounds before its run over time has the chunks to be judged).
    if (o.precision_pct > 0.0 && app.count("--reps") == 0) o.reps = kPrecisionRepsMost;
    if (quick && o.precision_pct > 0.0 && app.count("--precision-limit") == 0) o.precision_limit_s = kQuickPrecisionLimitS;
    if (quick) {
      if (app.count("--reps") == 0 && app.count("--precision") == 0) o.reps = 100;  // with it: the precision ends them
      if (app.count("--loop-calls") == 0) o.loop_calls = 10;
      if (app.count("--sync-points") == 0) o.sync_points = 5;
    }
    o.adaptive = adaptive ? 1 : 0;
    bad = parse_names("--ops", ops_text, op_of, LAT_COLL_ALL_OPS, "an operation",
                      "barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall", o.ops);
    if (bad.empty()) bad = parse_names("--modes", modes_text, mode_of, LAT_COLL_ALL_MODES, "a mode", "sync, barrier, loop", o.modes);
    if (bad.empty() && !sizes_text.empty()) bad = parse_list("--sizes", sizes_text, sizes);
    if (bad.empty() && !sizes_text.empty() && (app.count("--size-first") || app.count("--size-last")))
      bad = "--sizes '" + sizes_text + "' and --size-first/--size-last: give one or the other";
    if (bad.empty()) {
      if (wait == "auto") o.wait = LAT_WAIT_AUTO;
      else if (wait == "spin") o.wait = LAT_WAIT_SPIN;
      else if (wait == "yield") o.wait = LAT_WAIT_YIELD;
      else bad = "--wait '" + wait + "': must be auto, spin or yield";
    }
    if (bad.empty()) timer_option("--timer '" + timer + "'", timer, &o.timer, bad);
    // The library's own rules (those lat_collective applies), before anything is measured. The default reps of
    // --precision falls back to 100,000 where the root's memory cannot hold 10^6 rounds' samples.
    if (bad.empty() && o.precision_pct > 0.0 && app.count("--reps") == 0 &&
        lat_collective_check(&o, static_cast<int64_t>(sizes.size()), sizes.empty() ? nullptr : sizes.data(), nprocs) != LAT_SUCCESS)
      o.reps = kPrecisionReps;
    if (bad.empty())
      bad = check_complaint(lat_collective_check(&o, static_cast<int64_t>(sizes.size()), sizes.empty() ? nullptr : sizes.data(), nprocs));
    if (bad.empty()) bad = name_complaint("--base", base, true);
    if (bad.empty()) bad = name_complaint("--outdir", outdir, false);
    if (!bad.empty()) {
      refuse_options(rank, "mpilat-coll", bad);
      status = DRIVER_BAD_INPUT;
    }
  }
  // One verdict on the options for every rank before any collective step (a launch may give ranks different ones).
  if (status < 0 && rank == 0 && !noplot && !driver_plotter_usable("mpilat-coll", "--noplot")) status = DRIVER_BAD_INPUT;
  status = driver_agree_options("mpilat-coll", status, options_complaint().c_str());
  if (status < 0 && !driver_outdir_usable("mpilat-coll", "--outdir", outdir.c_str(), "coll", base.c_str())) status = DRIVER_BAD_INPUT;
  if (status >= 0) {
    driver_finalize(status);
    return status;
  }
  o.progress = rank == o.root ? progress : 0;
  if (show_options_instead(rank, o)) return DRIVER_DONE;
  latency_install_stop_handlers();
  lat_coll coll = nullptr;
  const int rc = lat_collective(MPI_COMM_WORLD, &o, static_cast<int64_t>(sizes.size()), sizes.empty() ? nullptr : sizes.data(), &coll);
  return finish_measurement(
      "mpilat-coll", rc, rank, o.root,
      [&](int ended) {
        const std::string cmd = command_line_of(argc, argv);
        const std::string where = outdir.empty() ? "" : outdir + (outdir.back() == '/' ? "" : "/");
        if (const int wrote = lat_write_coll_files(outdir.c_str(), base.c_str(), cmd.c_str(), coll, noplot ? 0 : 1);
            wrote != LAT_SUCCESS) {
          std::fprintf(stderr, "mpilat-coll: writing %s%s.*: %s\n", where.c_str(), base.c_str(), lat_last_error_message());
          return driver_write_failed_status(wrote);
        }
        driver_print_file((where + base + ".txt").c_str());  // the table on the terminal too: what the run is for
        std::printf("files: %s%s.txt, .json, .csv, .samples.csv%s\n", where.c_str(), base.c_str(),
                    noplot ? ", .dist.gp, .size.gp" : ", .dist.png, .size.png");
        if (ended == DRIVER_PARTIAL)
          driver_stopped_note("mpilat-coll", "the files hold the rounds measured (JSON: run.rounds)");
        lat_coll_summary summary;
        if (ended == DRIVER_DONE && o.precision_pct > 0.0 && lat_coll_get_summary(coll, &summary) == LAT_SUCCESS &&
            summary.ended_by != LAT_END_PRECISION) {
          std::printf("mpilat-coll: PRECISION NOT MET: not every point's median reached +-%g %% within this launch (%s%s.txt "
                      "says why); exit status 4\n", o.precision_pct, where.c_str(), base.c_str());
          return static_cast<int>(DRIVER_PRECISION_NOT_MET);
        }
        return ended;
      },
      [&] { lat_coll_free(&coll); });
}
