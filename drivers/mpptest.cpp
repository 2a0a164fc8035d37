// mpptest: message-size characterisation the way Gropp & Lusk's mpptest does it, on lat_size_sweep.
// Options keep mpptest's names where the meaning is the same (-size, -auto, -autorel, -autodx, -n_avg,
// -roundtrip, -async, -head, -persistant, -memcpy, -halo, -npartner, -periodic, -gop (-sync, -dsum, -isum,
// -bcast), -bisect, -bisectdist,
// -cachesize, -overlap, -gnuplot, -fname); each also works with two dashes. Writes <fname>.gpl/.gcm
// (mpptest's gnuplot files), .csv, .json and .png; see docs/mpptest.md. Exit status: 0 done, 1 failed, 2 bad
// input, 3 partial (stopped by a signal).
#include <mpi.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "driver_finish.hpp"
#include "driver_options.hpp"
#include "driver_support.h"
#include "mpilat.h"

namespace {

struct Settings {
  lat_sweep_options opts{};
  std::vector<int64_t> size_range;  // -size first last stride
  std::vector<int64_t> size_list;   // -sizelist
  std::string fname;                // -fname: the table goes to this file instead of stdout (the original's)
  std::string outbase = "mppout";   // -outbase: the base name of mpilat's files in -outdir
  std::string outdir;
  std::string timer = "mpi_wtime";
  bool gnuplot = false;             // -gnuplot: the original's gnuplot data and command files
  bool givedy = false;              // -givedy: with the mean and the max (implies -gnuplot)
  bool no_png = false;
  bool rate = false;                // -rate: the pictures show the rate
  int progress = -1;  // -1: on where stderr is a terminal
};

/// mpptest's options have one dash and long names: "-size" is "--size" here (a lone "-x" or a negative
/// number stays as it is).
std::vector<std::string> with_two_dashes(int argc, char **argv) {
  std::vector<std::string> args;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    const bool long_single = a.size() > 2 && a[0] == '-' && a[1] != '-' &&
                             !std::isdigit(static_cast<unsigned char>(a[1])) && a[1] != '.';
    args.push_back(long_single ? "-" + a : a);
  }
  return args;
}

/// Parses the options into s; returns -1 to run, or the exit status (help: 0, bad input: 2), having
/// printed the message on rank 0.
int parse(int argc, char **argv, int rank, int nprocs, Settings &s) {
  lat_sweep_defaults(&s.opts);
  lat_sweep_options &o = s.opts;
  CLI::App app{"mpptest (mpilat): message-size characterisation, minimum of averages over interleaved "
               "repetitions, with adaptive message lengths (Gropp & Lusk 1999). Options take one dash, as in "
               "mpptest, or two; docs/mpptest.md has the original's options beside ours."};
  app.get_formatter()->column_width(34);
  show_defaults(app);
  app.add_option("--size", s.size_range, spec_help<&lat_sweep_options::size_first>("mpptest", "--size"))
      ->expected(3)
      ->default_str(std::to_string(o.size_first) + " " + std::to_string(o.size_last) + " " +
                    std::to_string(o.size_stride));
  app.add_option("--sizelist", s.size_list, own_option_help("mpptest", "--sizelist"))->delimiter(',');
  app.add_flag("--logscale", [&](int64_t) { o.logscale = 1; },
               spec_help<&lat_sweep_options::logscale>("mpptest", "--logscale"));
  app.add_flag("--auto", [&](int64_t) { o.adaptive = 1; },
               spec_help<&lat_sweep_options::adaptive>("mpptest", "--auto"));
  spec_option<&lat_sweep_options::autorel>(app, "mpptest", o);
  spec_option<&lat_sweep_options::autodx>(app, "mpptest", o);
  spec_option<&lat_sweep_options::max_sizes>(app, "mpptest", o);
  app.add_option("--n_avg,--reps", o.n_avg,
                 spec_help<&lat_sweep_options::n_avg>("mpptest", "--n_avg"))
      ->check(positive_number())
      ->default_str("auto");
  spec_option<&lat_sweep_options::n_avg_min>(app, "mpptest", o)
      ->check(positive_number());
  spec_option<&lat_sweep_options::tgoal_s>(app, "mpptest", o)
      ->check(positive_number())
      ->default_str("off");
  spec_option<&lat_sweep_options::reps>(app, "mpptest", o);
  app.add_option("--n_stable", o.n_stable,
                 spec_help<&lat_sweep_options::n_stable>("mpptest", "--n_stable"));
  spec_option<&lat_sweep_options::refine_after>(app, "mpptest", o);
  spec_option<&lat_sweep_options::anomaly_rel>(app, "mpptest", o);
  spec_option<&lat_sweep_options::step_rel>(app, "mpptest", o);
  app.add_option("--max_run_time,--budget", o.budget_s,
                 spec_help<&lat_sweep_options::budget_s>("mpptest", "--max_run_time"));
  // Two of these were resolved silently by the order CLI11 declares them (-async -roundtrip: async): refused.
  std::vector<CLI::Option *> patterns = {
      app.add_flag("--roundtrip", [&](int64_t) { o.pattern = LAT_SWEEP_PINGPONG; },
                   spec_help<&lat_sweep_options::pattern>("mpptest", "--roundtrip")),
      app.add_flag("--async,--nonblocking", [&](int64_t) { o.pattern = LAT_SWEEP_NONBLOCKING; },
                   spec_help<&lat_sweep_options::pattern>("mpptest", "--async")),
      app.add_flag("--head", [&](int64_t) { o.pattern = LAT_SWEEP_HEAD_TO_HEAD; },
                   spec_help<&lat_sweep_options::pattern>("mpptest", "--head")),
      app.add_flag("--persistant,--persistent", [&](int64_t) { o.pattern = LAT_SWEEP_PERSISTENT; },
                   spec_help<&lat_sweep_options::pattern>("mpptest", "--persistant"))};
  exclude_each_other(patterns);
  bool memcpy_only = false;
  app.add_flag("--memcpy", memcpy_only,
               spec_help<&lat_sweep_options::pattern>("mpptest", "--memcpy"));
  bool halo = false;
  app.add_flag("--halo", halo,
               spec_help<&lat_sweep_options::pattern>("mpptest", "--halo"));
  spec_option<&lat_sweep_options::halo_partners>(app, "mpptest", o);
  app.add_flag("--periodic", [&](int64_t) { o.halo_periodic = 1; },
               spec_help<&lat_sweep_options::halo_periodic>("mpptest", "--periodic"));
  bool gop = false;
  app.add_flag("--gop", gop,
               spec_help<&lat_sweep_options::pattern>("mpptest", "--gop"));
  std::vector<int> gop_ops;
  app.add_flag("--sync", [&](int64_t) { gop_ops.push_back(LAT_SWEEP_GOP_SYNC); },
               spec_help<&lat_sweep_options::gop>("mpptest", "--sync"));
  app.add_flag("--dsum", [&](int64_t) { gop_ops.push_back(LAT_SWEEP_GOP_DSUM); },
               spec_help<&lat_sweep_options::gop>("mpptest", "--dsum"));
  app.add_flag("--isum", [&](int64_t) { gop_ops.push_back(LAT_SWEEP_GOP_ISUM); },
               spec_help<&lat_sweep_options::gop>("mpptest", "--isum"));
  app.add_flag("--bcast,--scatter", [&](int64_t) { gop_ops.push_back(LAT_SWEEP_GOP_BCAST); },
               spec_help<&lat_sweep_options::gop>("mpptest", "--bcast"));
  bool vector = false, vectortype = false;
  int vstride = 0;  // 0: not given (10, the original's)
  app.add_flag("--vector", vector,
               spec_help<&lat_sweep_options::vector_stride>("mpptest", "--vector"));
  app.add_flag("--vectortype", vectortype, spec_help<&lat_sweep_options::vector_stride>("mpptest", "--vectortype"));
  app.add_option("--vstride", vstride, own_option_help("mpptest", "--vstride"));
  bool overlap = false;
  app.add_flag("--overlap", overlap,
               spec_help<&lat_sweep_options::pattern>("mpptest", "--overlap"));
  spec_option<&lat_sweep_options::overlap_bytes>(app, "mpptest", o);
  app.add_flag("--bisect", [&](int64_t) { o.bisect = 1; },
               spec_help<&lat_sweep_options::bisect>("mpptest", "--bisect"));
  app.add_option("--bisectdist", o.bisect_distance,
                 spec_help<&lat_sweep_options::bisect_distance>("mpptest", "--bisectdist"));
  app.add_option("--cachesize", o.cachesize,
                 spec_help<&lat_sweep_options::cachesize>("mpptest", "--cachesize"));
  app.add_flag("--verify", [&](int64_t) { o.verify = 1; },
               spec_help<&lat_sweep_options::verify>("mpptest", "--verify"));
  spec_option<&lat_sweep_options::source>(app, "mpptest", o);
  spec_option<&lat_sweep_options::dest>(app, "mpptest", o);
  app.add_option("--timer", s.timer, spec_help<&lat_sweep_options::timer>("mpptest", "--timer"));
  spec_option<&lat_sweep_options::nr>(app, "mpptest", o);
  spec_option<&lat_sweep_options::timeout_s>(app, "mpptest", o);
  app.add_option("--fname", s.fname, own_option_help("mpptest", "--fname"))
      ->default_str("stdout");
  app.add_option("--outbase", s.outbase, own_option_help("mpptest", "--outbase"));
  app.add_option("--outdir", s.outdir, own_option_help("mpptest", "--outdir"));
  app.add_flag("--gnuplot", s.gnuplot, own_option_help("mpptest", "--gnuplot"));
  app.add_flag("--givedy", s.givedy, own_option_help("mpptest", "--givedy"));
  app.add_flag("--noplot", s.no_png, own_option_help("mpptest", "--noplot"));
  app.add_flag("--rate", s.rate, own_option_help("mpptest", "--rate"));
  app.add_flag("--quick")->description(own_option_help("mpptest", "--quick"));
  add_progress_flags<&lat_sweep_options::progress>(app, s.progress, "mpptest");
  app.footer("Not offered yet, refused as unknown options (docs/mpptest.md): the original's -halo variants "
             "(-waitany, -sendinit, -put, -get, -putlock, -getlock, -putpscw, -touch), -distance, -memcpy's "
             "-int, -double and -longlong (and -vector with -memcpy), -gop's -colx, -colxex and -bcastalt, "
             "-rthresh, -autoavg, -overlap's -sync (-sync is -gop's barrier here), -force, -cit and C.It output.");
  std::vector<std::string> args = with_two_dashes(argc, argv);
  // -quick sets defaults: apply them first, so options given explicitly win.
  if (std::find(args.begin(), args.end(), "--quick") != args.end()) {
    o.n_stable = 5;
    o.n_avg_min = 5;
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  if (const int status = parse_options(app, [&] { app.parse(args); }, rank, "mpptest", "-help"); status >= 0)
    return status;
  auto bad = [&](const std::string &what) {
    refuse_options(rank, "mpptest", what);
    return DRIVER_BAD_INPUT;
  };
  if (overlap && o.pattern == LAT_SWEEP_PERSISTENT) return bad("-overlap and -persistant are two patterns: give one");
  if (memcpy_only && (overlap || halo || o.pattern != LAT_SWEEP_PINGPONG))
    return bad("-memcpy copies without communication: not with another pattern");
  if (halo && (overlap || o.pattern != LAT_SWEEP_PINGPONG))
    return bad("-halo is a pattern of its own (its exchanges are non-blocking): not with another");
  if (!gop_ops.empty() && !gop) return bad("-sync, -dsum, -isum and -bcast are -gop's operations: give -gop");
  if (gop_ops.size() > 1) return bad("-sync, -dsum, -isum and -bcast: give one");
  if (gop && (overlap || halo || memcpy_only || o.pattern != LAT_SWEEP_PINGPONG))
    return bad("-gop is a pattern of its own (a collective operation): not with another");
  if (vstride != 0 && !vector && !vectortype) return bad("-vstride is -vector's and -vectortype's: give one");
  if (vector && vectortype) return bad("-vector and -vectortype are two forms of the strided message: give one");
  if (vector || vectortype) {
    o.vector_stride = vstride != 0 ? vstride : 10;
    o.vector_type = vectortype ? 1 : 0;
  }
  if (memcpy_only) o.pattern = LAT_SWEEP_MEMCPY;
  if (halo) o.pattern = LAT_SWEEP_HALO;
  if (gop) {
    o.pattern = LAT_SWEEP_GOP;
    o.gop = gop_ops.empty() ? LAT_SWEEP_GOP_SYNC : gop_ops.front();
  }
  if (overlap) o.pattern = o.pattern == LAT_SWEEP_HEAD_TO_HEAD ? LAT_SWEEP_OVERLAP : LAT_SWEEP_OVERLAP_ROUNDTRIP;
  if (!s.size_range.empty() && !s.size_list.empty()) return bad("give -size or -sizelist, not both");
  if (!s.size_range.empty()) {
    o.size_first = s.size_range[0];
    o.size_last = s.size_range[1];
    o.size_stride = s.size_range[2];
  }
  // -auto starts where the original's does: first..last in 8 equal steps, -size's stride not used (with
  // -sizelist or -logscale it refines from their sizes).
  if (o.adaptive && s.size_list.empty() && !o.logscale && o.size_last > o.size_first && o.size_first >= 0)
    o.size_stride = std::max<int64_t>(1, (o.size_last - o.size_first) / 8);
  if (std::string why; !timer_option("-timer " + s.timer, s.timer, &o.timer, why)) return bad(why);
  // The library's own rules (the ones lat_size_sweep applies), before anything is measured.
  const int64_t nsizes = static_cast<int64_t>(s.size_list.size());
  if (const std::string complaint =
          check_complaint(lat_sweep_check(&o, nprocs, nsizes, nsizes ? s.size_list.data() : nullptr, nullptr));
      !complaint.empty())
    return bad(complaint);
  if (const std::string complaint = name_complaint("-outbase", s.outbase, true); !complaint.empty()) return bad(complaint);
  if (const std::string complaint = name_complaint("-fname", s.fname, false); !complaint.empty()) return bad(complaint);
  if (const std::string complaint = name_complaint("-outdir", s.outdir, false); !complaint.empty()) return bad(complaint);
  o.progress = s.progress >= 0 ? s.progress : latency_stderr_is_terminal();
  if (rank != 0 && !(o.bisect == 0 && o.source == rank)) o.progress = 0;
  return -1;
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  driver_launch_hint("mpptest");
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  Settings s;
  int own = parse(argc, argv, rank, nprocs, s);  // before the complaint is read: it sets it
  if (own < 0 && rank == 0 && !s.no_png && !driver_plotter_usable("mpptest", "-noplot")) own = DRIVER_BAD_INPUT;
  const int parsed = driver_agree_options("mpptest", own, options_complaint().c_str());
  if (parsed >= 0) {
    driver_finalize(parsed);
    return parsed;
  }
  // The output directory is checked before anything is measured: a sweep may take an hour.
  int outputs_usable = rank != 0 || s.fname.empty() || driver_output_usable("mpptest", "-fname", s.fname.c_str());
  driver_bcast_int_politely(&outputs_usable);
  if (!outputs_usable || !driver_outdir_usable("mpptest", "-outdir", s.outdir.c_str(), "sweep", s.outbase.c_str())) {
    driver_outdir_unmake();  // -fname's folder, made before -outdir was refused
    driver_finalize(DRIVER_BAD_INPUT);
    return DRIVER_BAD_INPUT;
  }
  // -fname beside the sweep's own files, none of them under another spelling (./mppout.csv): refused now, not
  // after the sweep (the output directory exists by now, so its spellings resolve).
  int apart = rank != 0 || s.fname.empty() ||
              lat_check_output_apart("sweep", s.outdir.c_str(), s.outbase.c_str(), s.fname.c_str()) == LAT_SUCCESS;
  if (!apart) std::fprintf(stderr, "mpptest: -fname: %s\n", lat_last_error_message());
  driver_bcast_int_politely(&apart);
  if (!apart) {
    driver_outdir_unmake();
    driver_finalize(DRIVER_BAD_INPUT);
    return DRIVER_BAD_INPUT;
  }
  if (show_options_instead(rank, s.opts)) return DRIVER_DONE;
  driver_warn_oversubscribed("mpptest");
  latency_install_stop_handlers();
  lat_sweep sweep = nullptr;
  const int64_t nsizes = static_cast<int64_t>(s.size_list.size());
  const int rc = lat_size_sweep(MPI_COMM_WORLD, &s.opts, nsizes, nsizes ? s.size_list.data() : nullptr, nullptr, &sweep);
  return finish_measurement(
      "mpptest", rc, rank, 0,
      [&](int ended) {
        lat_sweep_summary summary;
        lat_sweep_get_summary(sweep, &summary);
        if (summary.end == LAT_SWEEP_END_BUDGET) ended = DRIVER_PARTIAL;  // -max_run_time: a clean partial result
        const std::string cmd = command_line_of(argc, argv);
        const int flags = (s.no_png ? 0 : LAT_SWEEP_FILES_PNG) | (s.gnuplot || s.givedy ? LAT_SWEEP_FILES_GNUPLOT : 0) |
                          (s.givedy ? LAT_SWEEP_FILES_GIVEDY : 0) | (s.rate ? LAT_SWEEP_FILES_RATE : 0);
        const char *table = s.fname.empty() ? "-" : s.fname.c_str();
        if (const int wrote = lat_write_sweep_files(s.outdir.c_str(), s.outbase.c_str(), cmd.c_str(), sweep, flags, table);
            wrote != LAT_SUCCESS) {
          std::fprintf(stderr, "mpptest: writing %s.*: %s\n", s.outbase.c_str(), lat_last_error_message());
          ended = driver_write_failed_status(wrote);
        } else if (summary.end == LAT_SWEEP_END_BUDGET) {
          std::fprintf(stderr, "mpptest: the time limit (-max_run_time %g s) ended the sweep: files hold the passes "
                               "measured, marked partial\n", s.opts.budget_s);
        } else if (ended == DRIVER_PARTIAL) {
          driver_stopped_note("mpptest", "files hold the sizes measured so far");
        }
        if (const int out = driver_stdout_status("mpptest"); out != DRIVER_DONE && ended != DRIVER_BAD_INPUT) ended = out;
        return ended;
      },
      [&] { lat_sweep_free(&sweep); });
}
