#include "sweep/report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/plot.hpp"
#include "common/report_json.hpp"
#include "common/report_text.hpp"
#include "common/staged_files.hpp"
#include "generated/spec_json.hpp"
#include "generated/spec_options.hpp"
#include "sweep/options.hpp"  // is_overlap, pattern_label

namespace lat {

/// A regime line a reader must not take as the regime's figures: "" or why. A negative startup, or a rate
/// above any node's memory bandwidth (kSweepRateBoundMbs), is a line drawn through a curve the host's phases
/// made jagged, not a property of the MPI.
std::string sweep_line_questioned(const lat_sweep_line &l) {
  constexpr double kSweepRateBoundMbs = 1e6;  // 1 TB/s: above the memory bandwidth of any node's processors today
  std::string why;
  if (l.startup_us < 0.0) why = fmt::format("a negative startup ({:.4f} us)", l.startup_us);
  if (l.rate_mbs > kSweepRateBoundMbs)
    why += fmt::format("{}a rate above {:.0f} MB/s, any memory's bandwidth", why.empty() ? "" : " and ", kSweepRateBoundMbs);
  if (!why.empty()) why += ": the minima of this regime do not lie on a line; read its points, not the line";
  return why;
}

namespace {


std::string size_label(const SweepResult &r) {
  return is_overlap(r.summary.pattern) ? "computation (multiply-adds)" : "message size (bytes)";
}

std::string time_label(const SweepResult &r) {
  switch (r.summary.pattern) {
    case LAT_SWEEP_PINGPONG:
    case LAT_SWEEP_NONBLOCKING:
    case LAT_SWEEP_PERSISTENT: return "time per message, round trip / 2 (us)";
    case LAT_SWEEP_OVERLAP_ROUNDTRIP: return "time per round trip (us)";
    case LAT_SWEEP_MEMCPY: return "time per copy (us)";
    case LAT_SWEEP_HALO: return "time per halo exchange, the slowest rank's (us)";
    case LAT_SWEEP_GOP: return "time per call, the slowest rank's (us)";
    default: return "time per exchange (us)";
  }
}

/// ", bisection of N pairs" and, with the original's pairing, its distance.
std::string bisection_words(const SweepResult &r) {
  std::string t = ", bisection of " + std::to_string(r.summary.npairs) + " pairs";
  if (r.options.bisect_distance > 0) t += " at distance " + std::to_string(r.options.bisect_distance);
  return t;
}

/// ", P ranks, N partners each (periodic)": the halo exchange's shape, N the most partners a rank has.
std::string halo_words(const SweepResult &r) {
  return fmt::format(", {} ranks, up to {} partner{} each ({} asked{})", r.summary.nprocs, r.summary.halo_partners,
                     r.summary.halo_partners == 1 ? "" : "s", r.options.halo_partners,
                     r.options.halo_periodic ? ", periodic" : "");
}

/// ", dsum on P ranks": the collective operation and its ranks.
std::string gop_words(const SweepResult &r) { return fmt::format(", {} on {} ranks", gop_name(r.options.gop), r.summary.nprocs); }

/// ", strided: doubles 10 apart (MPI_Type_vector)": the original's -vector and -vectortype; else "".
std::string vector_words(const SweepResult &r) {
  if (r.summary.vector_stride <= 0) return "";
  return fmt::format(", strided: doubles {} apart ({})", r.summary.vector_stride,
                     r.summary.vector_type ? "MPI_Type_vector" : "MPI_DOUBLE resized");
}

std::string title(const SweepResult &r) {
  std::string t = std::string("mpilat size sweep: ") + sweep_pattern_name(r.summary.pattern);
  if (r.summary.bisect) t += bisection_words(r);
  if (r.summary.pattern == LAT_SWEEP_HALO) t += halo_words(r);
  if (r.summary.pattern == LAT_SWEEP_GOP) t += gop_words(r);
  t += vector_words(r);
  if (r.summary.cachesize > 0) t += ", cache-cold (" + std::to_string(r.summary.cachesize) + " bytes walked)";
  if (is_overlap(r.summary.pattern)) t += ", " + std::to_string(r.summary.overlap_bytes) + "-byte messages";
  return t;
}

}  // namespace

const char *sweep_pattern_name(int pattern) {
  switch (pattern) {
    case LAT_SWEEP_PINGPONG: return "pingpong";
    case LAT_SWEEP_NONBLOCKING: return "nonblocking";
    case LAT_SWEEP_HEAD_TO_HEAD: return "head";
    case LAT_SWEEP_OVERLAP: return "overlap";
    case LAT_SWEEP_OVERLAP_ROUNDTRIP: return "overlap_roundtrip";
    case LAT_SWEEP_PERSISTENT: return "persistent";
    case LAT_SWEEP_MEMCPY: return "memcpy";
    case LAT_SWEEP_HALO: return "halo";
    case LAT_SWEEP_GOP: return "gop";
    default: return "unknown";
  }
}

const char *sweep_end_name(int end) {
  switch (end) {
    case LAT_SWEEP_END_STABLE: return "stable";
    case LAT_SWEEP_END_REPS: return "reps";
    case LAT_SWEEP_END_BUDGET: return "budget";
    case LAT_SWEEP_END_STOPPED: return "stopped";
    default: return "unknown";
  }
}

std::string sweep_table_text(const SweepResult &r) {
  const lat_sweep_summary &s = r.summary;
  std::string o;
  const char *pattern = pattern_label(s.pattern);
  const char *end = s.end == LAT_SWEEP_END_STABLE   ? "minima stable"
                    : s.end == LAT_SWEEP_END_REPS && s.refining
                        ? "all passes done, the refinement unfinished: brackets may be wider than -autodx"
                    : s.end == LAT_SWEEP_END_REPS   ? "all passes done"
                    : s.end == LAT_SWEEP_END_BUDGET ? "TIME LIMIT REACHED (-max_run_time): partial"
                                                    : "STOPPED: partial";
  const std::string ranks = s.pattern == LAT_SWEEP_MEMCPY ? fmt::format("rank {} ({}) alone", s.source, s.source_host)
                           : every_rank_pattern(s.pattern)
                               ? fmt::format("rank {} ({}) leading", s.source, s.source_host)
                               : fmt::format("ranks {} ({}) and {} ({})", s.source, s.source_host, s.dest, s.dest_host);
  const std::string shape = (s.bisect                         ? bisection_words(r)
                             : s.pattern == LAT_SWEEP_HALO ? halo_words(r)
                             : s.pattern == LAT_SWEEP_GOP  ? gop_words(r)
                                                           : "") +
                            vector_words(r);
  // A disturbed run says so first: "(minima stable)" below is no verdict on the machine.
  if (const std::string w = disturbance_warning(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s); !w.empty()) append(o, "# {}\n", w);
  append(o, "# mpptest (mpilat {}): {}{}, {}, {} sizes, {} samples in {} passes, {:.3f} s ({})\n",
         MPILAT_VERSION_STRING, pattern, shape, ranks, s.nsizes,
         s.measurements, s.passes, s.wall_s, end);
  append(o, "# time: minimum over samples of the average of n_avg operations (us); flags: r refined, "
            "R rerun, A anomalous, L low (its minimum from a minority of its samples, one or a cluster far below "
            "the rest: questioned; steps and lines leave A and L out)\n");
  append(o, "#{:>11} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {}\n", is_overlap(s.pattern) ? "work" : "bytes",
         "time(us)", "rate(MB/s)", "median(us)", "max(us)", "samples", "n_avg", "flags");
  for (const lat_sweep_point &p : r.points)
    append(o, "{:12} {:12.4f} {:12.3f} {:12.4f} {:12.4f} {:8} {:8} {}{}{}{}\n", p.bytes, p.min_us, p.rate_mbs,
           p.median_us, p.max_us, p.samples + p.rerun_samples, p.n_avg, p.refined ? "r" : "", p.rerun ? "R" : "",
           p.anomalous ? "A" : "", p.low ? "L" : "");
  // Each step's bracket, and whether the refinement brought it to -autodx or stopped short (and why).
  // -cachesize against the machine's last-level cache; -overlap's computation windows against its single calls.
  if (s.cachesize > 0 && s.llc_bytes > 0 && s.cachesize < LAT_CACHESIZE_LLC_FACTOR * s.llc_bytes)
    append(o, "# WARNING: -cachesize {} bytes is less than {} times the last-level cache ({} bytes, hwloc): the \"cold\" "
              "walk may stay in the cache; give at least {}\n",
           s.cachesize, LAT_CACHESIZE_LLC_FACTOR, s.llc_bytes, LAT_CACHESIZE_LLC_FACTOR * s.llc_bytes);
  for (const lat_sweep_point &p : r.points)
    if (is_overlap(s.pattern) && p.compute_us > 0.0 && p.compute_window_us > LAT_OVERLAP_WINDOW_RATIO * p.compute_us)
      append(o, "# WARNING: at {} the computation took {:.4f} us a call in a window of {} calls against {:.4f} us alone "
                "({:.2f}x): the windows, as the exchange's, were disturbed\n",
             p.bytes, p.compute_window_us, p.n_avg, p.compute_us, p.compute_window_us / p.compute_us);
  for (const lat_sweep_threshold &t : r.thresholds) {
    const int64_t width = t.above_bytes - t.below_bytes;
    const std::string bracket =
        !r.options.adaptive           ? std::string()
        : width < 2 * r.options.autodx ? fmt::format("; bracketed to {} bytes (-autodx {})", width, r.options.autodx)
        : s.refining                   ? fmt::format("; bracket {} bytes wide, -autodx {} not reached: the passes ran out (-reps {})",
                                                     width, r.options.autodx, r.options.reps)
        : s.capped                     ? fmt::format("; bracket {} bytes wide, -autodx {} not reached: -max_sizes {} reached",
                                                     width, r.options.autodx, r.options.max_sizes)
                                       : fmt::format("; bracket {} bytes wide (-autodx {}): the refinement found no curvature to split",
                                                     width, r.options.autodx);
    append(o, "# step: between {} and {} bytes the time rises {:.4f} us beyond the slope ({:.4f} -> {:.4f} us){}\n",
           t.below_bytes, t.above_bytes, t.excess_us, t.time_below_us, t.time_above_us, bracket);
  }
  if (!r.lines.empty()) {
    append(o, "# startup and rate: a least-squares line s + n / rate through the minima of each regime between "
              "steps;\n# one line does not describe the whole curve (Gropp & Lusk), only its regime\n");
    for (const lat_sweep_line &l : r.lines) {
      const std::string why = sweep_line_questioned(l);
      append(o, "# bytes {}..{} ({} sizes): startup = {:.4f} us, rate = {:.2f} MB/s (largest misfit {:.1f} %){}\n",
             l.first_bytes, l.last_bytes, l.npoints, l.startup_us, l.rate_mbs, 100.0 * l.max_rel_err,
             why.empty() ? "" : " QUESTIONED: " + why);
    }
  }
  return o;
}

std::string sweep_gpl_text(const SweepResult &r, bool givedy) {
  // The original's DataoutGraph, tab-separated: the two ranks, their distance, the length, the time (%f, us)
  // and the rate (%.2f, bytes/s: the length over the time in seconds); with -givedy its order: the mean, the
  // rate, the minimum (the reported time) and the maximum, so its `using 4:5:7:8 with errorbars` draws the
  // mean with a bar from the minimum to the maximum.
  std::string o;
  append(o, "# {}\n", title(r));
  if (givedy)
    append(o, "# columns: 1 proc1, 2 proc2, 3 distance (ranks), 4 {}, 5 mean (us) over the samples, 6 rate (bytes/s, "
              "from the minimum), 7 time (us, minimum of averages: the reported value), 8 max (us)\n",
           size_label(r));
  else
    append(o, "# columns: 1 proc1, 2 proc2, 3 distance (ranks), 4 {}, 5 time (us, minimum of averages: the reported "
              "value), 6 rate (bytes/s)\n",
           size_label(r));
  if (r.summary.end == LAT_SWEEP_END_STOPPED || r.summary.end == LAT_SWEEP_END_BUDGET)
    append(o, "# PARTIAL: the sweep ended early ({})\n", sweep_end_name(r.summary.end));
  const int64_t distance = r.summary.dest > r.summary.source ? r.summary.dest - r.summary.source
                                                             : r.summary.source - r.summary.dest;
  for (const lat_sweep_point &p : r.points) {
    const double bytes_per_s = p.rate_mbs * 1e6;
    if (givedy)
      append(o, "{}\t{}\t{}\t{}\t{:.6f}\t{:.2f}\t{:.6f}\t{:.6f}\n", r.summary.source, r.summary.dest, distance, p.bytes,
             p.mean_us, bytes_per_s, p.min_us, p.max_us);
    else
      append(o, "{}\t{}\t{}\t{}\t{:.6f}\t{:.2f}\n", r.summary.source, r.summary.dest, distance, p.bytes, p.min_us,
             bytes_per_s);
  }
  return o;
}

namespace {

/// What the .gcm and the picture's script share: title, axes (log-log with -logscale, as the original
/// plots; else log in time only: the max of a sample can be 100 times the min), the steps as dashed lines.
std::string figure_settings(const SweepResult &r, const char *rate_label) {
  std::string o;
  append(o, "set title {}\n", gnuplot_quoted(title(r) + " (" + r.summary.source_host + ")").c_str());
  append(o, "set xlabel {}\nset ylabel {}\n", gnuplot_quoted(size_label(r)),
         gnuplot_quoted(rate_label != nullptr ? rate_label : time_label(r)));
  append(o, "set key top left\nset grid\n{}\n", r.options.logscale ? "set logscale xy" : "set logscale y");
  for (const lat_sweep_threshold &t : r.thresholds)
    append(o, "set arrow from {}, graph 0 to {}, graph 1 nohead dashtype 2 linecolor rgb 'gray50'\n",
           t.above_bytes, t.above_bytes);
  return o;
}

}  // namespace

std::string sweep_gcm_text(const SweepResult &r, const std::string &fname, bool givedy, bool rate) {
  std::string o = gnuplot_figure_head(fname, 1000, 650, ".gcm");
  append(o, "if (!exists(\"datafile\")) datafile = {}\n", gnuplot_quoted(fname + ".gpl").c_str());
  o += figure_settings(r, rate ? "rate (bytes/s, from the minimum time)" : nullptr);
  if (rate) {  // the .gpl's column 6
    o += "plot datafile using 4:6 with linespoints pointtype 7 pointsize 0.5 linecolor rgb 'blue' title 'rate'\n";
    return o;
  }
  if (givedy) {  // the original's picture: the mean with a bar from the minimum to the maximum, and the minimum
    append(o, "plot datafile using 4:5:7:8 with errorbars linecolor rgb 'dark-green' title 'mean (bar: min to max)', \\\n");
    append(o, "     datafile using 4:7 with linespoints pointtype 7 pointsize 0.5 linecolor rgb 'blue' title 'time (min)'\n");
    return o;
  }
  append(o, "plot datafile using 4:5 with linespoints pointtype 7 pointsize 0.5 linecolor rgb 'blue' title 'time (min)'\n");
  return o;
}

std::string sweep_plot_script(const SweepResult &r, const std::string &fname, bool rate) {
  std::string o = gnuplot_figure_head(fname, 1000, 650);
  append(o, "if (!exists(\"datafile\")) datafile = {}\n", gnuplot_quoted(fname + ".csv").c_str());
  o += "set datafile separator ','\n";
  o += figure_settings(r, rate ? "rate (MB/s, from the minimum time)" : nullptr);
  if (rate) {  // <base>.csv's column 9, rate_mbs
    o += "plot datafile every ::1 using 1:9 with linespoints pointtype 7 pointsize 0.5 linecolor rgb 'blue' "
         "title 'rate'\n";
    return o;
  }
  // <base>.csv: 1 bytes, 4 min_us, 5 median_us, 7 max_us; its first line names the columns.
  append(o, "plot datafile every ::1 using 1:7 with lines linecolor rgb 'light-red' title 'max', \\\n");
  append(o, "     datafile every ::1 using 1:5 with lines linecolor rgb 'dark-green' title 'median', \\\n");
  append(o, "     datafile every ::1 using 1:4 with linespoints pointtype 7 pointsize 0.5 linecolor rgb 'blue' "
            "title 'min (reported)'\n");
  return o;
}

std::string sweep_csv_text(const SweepResult &r) {
  std::string o = "bytes,samples,n_avg,min_us,median_us,mean_us,max_us,stddev_us,rate_mbs,compute_us,refined,rerun,"
                  "anomalous,low\n";
  for (const lat_sweep_point &p : r.points)
    append(o, "{},{},{},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{},{},{},{}\n", p.bytes, p.samples,
            p.n_avg, p.min_us, p.median_us, p.mean_us, p.max_us, p.stddev_us, p.rate_mbs, p.compute_us,
            p.refined, p.rerun, p.anomalous, p.low);
  return o;
}

std::string sweep_json_text(const SweepResult &r, const std::string &command_line) {
  const lat_sweep_summary &s = r.summary;
  const lat_sweep_options &o = r.options;
  nlohmann::json j = report_head_json("mpilat-sweep", command_line);
  j["run"].update({{"nprocs", s.nprocs},
                   {"wall_s", s.wall_s},
                   {"end", sweep_end_name(s.end)},
                   {"partial", s.end == LAT_SWEEP_END_STOPPED || s.end == LAT_SWEEP_END_BUDGET},
                   {"passes", s.passes},
                   {"measurements", s.measurements},
                   {"refinement_capped", s.capped != 0},
                   {"refinement_unfinished", s.refining != 0},
                   {"disturbance", disturbance_json(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s)}});
  j["pattern"] = {{"name", sweep_pattern_name(s.pattern)},
                  {"bisect", s.bisect != 0},
                  {"pairs", s.npairs},
                  {"bisect_distance", s.bisect ? nlohmann::json(o.bisect_distance) : nlohmann::json()},
                  {"halo_partners", s.pattern == LAT_SWEEP_HALO ? nlohmann::json(s.halo_partners) : nlohmann::json()},
                  {"halo_periodic", s.pattern == LAT_SWEEP_HALO ? nlohmann::json(o.halo_periodic != 0) : nlohmann::json()},
                  {"gop", s.pattern == LAT_SWEEP_GOP ? nlohmann::json(gop_name(o.gop)) : nlohmann::json()},
                  {"vector_stride", s.vector_stride > 0 ? nlohmann::json(s.vector_stride) : nlohmann::json()},
                  {"vector_type", s.vector_stride > 0 ? nlohmann::json(s.vector_type != 0) : nlohmann::json()},
                  {"cachesize", s.cachesize},
                  {"llc_bytes", s.llc_bytes > 0 ? nlohmann::json(s.llc_bytes) : nlohmann::json()},
                  {"cachesize_below_llc_factor", s.cachesize > 0 && s.llc_bytes > 0 &&
                                                     s.cachesize < LAT_CACHESIZE_LLC_FACTOR * s.llc_bytes},
                  {"overlap_bytes", is_overlap(s.pattern) ? nlohmann::json(s.overlap_bytes) : nlohmann::json()},
                  {"verify", s.verify != 0},
                  {"time_unit", time_label(r)}};
  j["source"] = {{"rank", s.source}, {"host", std::string(s.source_host)}};
  j["dest"] = {{"rank", s.dest}, {"host", std::string(s.dest_host)}};
  j["timer"] = {{"name", timer_name(s.timer)}, {"res_timing_us", s.res_timing_us}, {"min_ov_us", s.min_ov_us}};
  j["options"] = spec_options_json(o);
  nlohmann::json points = nlohmann::json::array();
  for (size_t k = 0; k < r.points.size(); ++k) {
    const lat_sweep_point &p = r.points[k];
    nlohmann::json q = spec_result_json(p);
    q["samples_us"] = r.samples[k];
    if (is_overlap(s.pattern)) q["compute_us"] = p.compute_us;
    points.push_back(q);
  }
  j["points"] = points;
  nlohmann::json steps = nlohmann::json::array();
  for (const lat_sweep_threshold &t : r.thresholds) steps.push_back(spec_result_json(t));
  j["thresholds"] = steps;
  nlohmann::json lines = nlohmann::json::array();
  for (const lat_sweep_line &l : r.lines) {
    nlohmann::json line = spec_result_json(l);
    const std::string why = sweep_line_questioned(l);
    line["questioned"] = why.empty() ? nlohmann::json() : nlohmann::json(why);
    lines.push_back(line);
  }
  j["startup_rate"] = {{"lines", lines},
                       {"caveat", "a least-squares line s + n / rate per regime between the steps; one line does "
                                  "not describe the whole curve, only its regime"}};
  return json_document_text(std::move(j), 2);
}

std::vector<std::string> sweep_output_names(const std::string &outdir, const std::string &base_name) {
  require_file_name("base", base_name);
  std::vector<std::string> names;
  for (const char *ext : {".csv", ".json", ".gpl", ".gcm", ".gp", ".png"})
    names.push_back(join_path(outdir, base_name) + ext);
  return names;
}

void write_sweep_files(const std::string &outdir, const std::string &base_name, const std::string &command_line,
                       const SweepResult &r, int flags, const std::string &table_path) {
  require_file_name("base", base_name);
  const std::string base = join_path(outdir, base_name);
  std::vector<std::pair<std::string, std::string>> files = {{base + ".csv", sweep_csv_text(r)},
                                                            {base + ".json", sweep_json_text(r, command_line)}};
  if (!table_path.empty() && table_path != "-") files.emplace_back(table_path, sweep_table_text(r));
  if (flags & LAT_SWEEP_FILES_GNUPLOT) {
    const bool givedy = (flags & LAT_SWEEP_FILES_GIVEDY) != 0;
    files.emplace_back(base + ".gpl", sweep_gpl_text(r, givedy));
    files.emplace_back(base + ".gcm", sweep_gcm_text(r, base_name, givedy, (flags & LAT_SWEEP_FILES_RATE) != 0));
  }
  // The picture is drawn from the CSV (min, median, max) by <base>.gp, written beside it.
  const size_t script = files.size();
  if (flags & LAT_SWEEP_FILES_PNG)
    files.emplace_back(base + ".gp", sweep_plot_script(r, base_name, (flags & LAT_SWEEP_FILES_RATE) != 0));
  std::vector<std::string> declared = sweep_output_names(outdir, base_name);
  if (!table_path.empty() && table_path != "-") declared.push_back(table_path);
  require_declared(declared, files);
  const MakeFromStaged plot = (flags & LAT_SWEEP_FILES_PNG) ? render_plots({{base + ".png", script}}, {{"datafile", 0}})
                                                            : nullptr;
  write_files_whole(files, plot);
  if (table_path == "-") std::fputs(sweep_table_text(r).c_str(), stdout);
}

}  // namespace lat
