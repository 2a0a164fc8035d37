#include "collective/report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "collective/options.hpp"
#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/plot.hpp"
#include "common/report_json.hpp"
#include "common/report_text.hpp"
#include "common/run_levels.hpp"
#include "common/staged_files.hpp"
#include "generated/spec_json.hpp"
#include "generated/spec_options.hpp"
#include "mpilat_version.h"

namespace lat {

namespace {

const char *wait_name(int wait) { return wait == LAT_WAIT_YIELD ? "yield" : "spin"; }

/// The rank that finished last most often, and its share of the kept samples.
std::string last_rank_text(const lat_coll_point &p) {
  if (p.samples == 0) return "-";
  return fmt::format("{} ({:.0f} %)", p.last_rank, 100.0 * static_cast<double>(p.last_rank_count) / static_cast<double>(p.samples));
}

/// The points whose run over time (more than one level, a state change) keeps --precision from ending.
size_t unquiet_points(const CollResult &r) {
  size_t n = 0;
  for (const lat_coll_point &p : r.points) n += p.nlevels > 1 || p.nchanges > 0;
  return n;
}

/// The points without a figure (withheld_reason), which no --precision can be met for.
size_t withheld_points(const CollResult &r) {
  size_t n = 0;
  for (const lat_coll_point &p : r.points) n += !withheld_reason(p).empty();
  return n;
}

}  // namespace

std::string coll_table_text(const CollResult &r) {
  const lat_coll_summary &s = r.summary;
  std::string o;
  // A stopped run says so on its first line, as latency's files do.
  if (s.partial)
    append(o, "*** PARTIAL RESULTS: the run was stopped after {} of {} rounds; points with no sample have no figures ***\n",
           s.rounds, s.reps);
  if (const std::string w = disturbance_warning(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s); !w.empty()) append(o, "{}\n", w);
  append(o, "mpilat-coll (mpilat {}): collective latency, one call per sample\n", MPILAT_VERSION_STRING);
  append(o, "ranks {} on {} node(s); the busiest node: {} ranks on {} processors; root {}; timer {}; waits {}\n",
         s.nprocs, s.nnodes, s.ranks_on_node, s.processors, s.root, timer_name(s.timer), wait_name(s.wait));
  append(o, "clocks: HCA tree against rank 0, {} synchronisation(s), the first in {:.3f} s, checked every 0.1 s; offsets up to {:.3f} us, "
            "drift up to {:.3g}; residual up to {:.3f} us (round trip {:.3f} us): error bound {:.3f} us\n",
         s.syncs, s.sync_s, s.offset_max_us, s.drift_max, s.residual_max_us, s.rtt_min_us, s.error_bound_us);
  append(o, "rounds {} of {} ({} interleaved points per round){}; sync samples discarded for a late start: {}\n",
         s.rounds, s.reps, s.npoints, s.partial ? ", PARTIAL: stopped" : "", s.late_total);
  if (s.precision_pct > 0.0 && !s.partial) {
    // A launch claims only what it saw: each point's batch medians within this launch; the lines' placement,
    // drawn once a launch, a diagnostic (docs/method.md, "Precision").
    const std::string within = fmt::format("the widest median's 95 % interval within this launch (from its batch medians) is {}",
                                           half_width_text(s.median_ci_half_pct_max));
    const std::string placement =
        s.placement_lines > 0
            ? fmt::format("a level drawn once per launch: a one-way time through {} lines of shared memory of ranks 0 and 1 spread "
                          "{:.1f} % here, so launches will differ by more than this interval; mpilat-campaign states the medians "
                          "over launches", s.placement_lines, s.placement_sd_pct)
            : std::string("the placement probe did not run (ranks 0 and 1 not on one node, or the probe ran past its second); "
                          "launches may differ by more than this interval; mpilat-campaign states the medians over launches");
    if (s.ended_by == LAT_END_UNREACHABLE)
      append(o, "the rounds ended after {} rounds: --precision {} cannot be met (PRECISION NOT MET): {} point(s) kept no sample in {} "
                "rounds or more (every start late; withheld below)\n",
             s.rounds, s.precision_pct, withheld_points(r), LAT_UNREACHABLE_ROUNDS);
    else if (s.ended_by == LAT_END_PRECISION)
      append(o, "the rounds ended on --precision {}: {} and every point's run over time is quiet. It says nothing of other "
                "launches: {}\n",
             s.precision_pct, within, placement);
    else
      append(o, "the rounds ended at {} before --precision {} was met (PRECISION NOT MET): {}; {} of {} points have a run over "
                "time that is not quiet (more than one level or a state change), and a quiet one needs {} chunks of {} s{}. {}\n",
             s.ended_by == LAT_END_TIME ? fmt::format("the time limit ({} s: --precision-limit)", s.precision_limit_s) : "reps",
             s.precision_pct, within, unquiet_points(r), r.points.size(), LAT_PRECISION_MIN_CHUNKS, kCollChunkS,
             withheld_points(r) > 0 ? fmt::format("; {} point(s) withheld (below), for which no interval exists",
                                                  withheld_points(r))
                                    : std::string(),
             placement);
  }
  append(o, "what each mode reports (us):\n");
  for (int m : modes_of(s.modes)) append(o, "  {:<8} {}\n", coll_mode_name(m), coll_mode_quantity(m));
  append(o, "\n{:<10} {:>9} {:<8} {:>7} {:>6} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>6} {:>9} {:>9} {:>21} {:>9} {}\n",
         "operation", "bytes", "mode", "samples", "late", "min", "median", "mean", "max", "SD", "SE", "RSE", "p90",
         "p99", "median 95% CI", "window", "last rank (share)");
  for (const lat_coll_point &p : r.points) {
    const lat_stats &st = p.stats;
    const double p90 = p.q.p_us[6], p99 = p.q.p_us[8];
    if (const std::string why = withheld_reason(p); !why.empty()) {
      append(o, "{:<10} {:>9} {:<8} {:>7} {:>6} withheld: {}\n", coll_op_name(p.op), p.msg_bytes, coll_mode_name(p.mode),
             p.samples, p.late, why);
      continue;
    }
    append(o, "{:<10} {:>9} {:<8} {:>7} {:>6} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>8.3f} {:>8.4f} {:>6.4f} {:>9.3f} {:>9.3f} "
              "{:>21} {:>9} {}\n",
           coll_op_name(p.op), p.msg_bytes, coll_mode_name(p.mode), p.samples, p.late, st.min_us, st.median_us, st.mean_us,
           st.max_us, st.stddev_us, st.stderr_us, st.rse, p90, p99,
           std::isfinite(p.q.median_ci_us[0]) && std::isfinite(p.q.median_ci_us[1])
               ? fmt::format("[{:.3f}, {:.3f}]", p.q.median_ci_us[0], p.q.median_ci_us[1])
               : std::string("unbounded"),
           p.mode == LAT_COLL_MODE_SYNC ? fmt::format("{:.1f}", p.window_us) : std::string("-"), last_rank_text(p));
  }
  if (!r.warnings.empty()) o += "\n";
  for (const std::string &w : r.warnings) o += w + "\n";
  return o;
}

std::string coll_csv_text(const CollResult &r) {
  std::string o = "operation,bytes,mode,quantity,samples,late,min_us,median_us,mean_us,max_us,stddev_us,stderr_us,rse,p90_us,"
                  "p99_us,median_ci_low_us,median_ci_high_us,window_us,local_max_median_us,last_rank,last_rank_count,warnings\n";
  for (const lat_coll_point &p : r.points) {
    if (!withheld_reason(p).empty()) {  // no figure a reader could take for a measurement
      append(o, "{},{},{},{},{},{},,,,,,,,,,,,{:.3f},,,,{}\n", coll_op_name(p.op), p.msg_bytes, coll_mode_name(p.mode),
             coll_mode_short_quantity(p.mode), p.samples, p.late, p.window_us, p.warnings);
      continue;
    }
    append(o, "{},{},{},{},{},{},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.3f},{:.6f},{},{},{}\n",
           coll_op_name(p.op), p.msg_bytes, coll_mode_name(p.mode), coll_mode_short_quantity(p.mode), p.samples, p.late, p.stats.min_us, p.stats.median_us,
           p.stats.mean_us, p.stats.max_us, p.stats.stddev_us, p.stats.stderr_us, p.stats.rse, p.q.p_us[6], p.q.p_us[8],
           p.q.median_ci_us[0], p.q.median_ci_us[1], p.window_us, p.local_max_median_us, p.last_rank, p.last_rank_count,
           p.warnings);
  }
  return o;
}

std::string coll_samples_csv_text(const CollResult &r) {
  std::string o = "point,operation,bytes,mode,label,sample,at_s,value_us,quantity\n";
  for (size_t k = 0; k < r.series.size(); ++k) {
    const PointSeries &ps = r.series[k];
    const std::string label = fmt::format("{} {} B {}", coll_op_name(ps.op), ps.bytes, coll_mode_name(ps.mode));
    for (size_t i = 0; i < ps.values_us.size(); ++i)
      append(o, "{},{},{},{},{},{},{:.9f},{:.6f},{}\n", k, coll_op_name(ps.op), ps.bytes, coll_mode_name(ps.mode), label, i,
             ps.at_s[i], ps.values_us[i], coll_mode_short_quantity(ps.mode));
  }
  return o;
}

std::string coll_json_text(const CollResult &r, const std::string &command_line) {
  const lat_coll_summary &s = r.summary;
  nlohmann::json j = report_head_json("mpilat-coll", command_line);
  j["run"].update({{"nprocs", s.nprocs},
                   {"nnodes", s.nnodes},
                   {"root_host", r.host},
                   {"busiest_node", {{"ranks", s.ranks_on_node}, {"processors", s.processors}}},
                   {"oversubscribed", (s.warnings & LAT_WARN_OVERSUBSCRIBED) != 0},
                   {"wait", wait_name(s.wait)},
                   {"timer", timer_name(s.timer)},
                   {"wall_s", s.wall_s},
                   {"rounds", s.rounds},
                   {"reps", s.reps},
                   {"partial", s.partial != 0},
                   {"late_total", s.late_total},
                   {"warning_bits", s.warnings},
                   {"disturbance", disturbance_json(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s)},
                   {"ended_by", s.partial ? nlohmann::json()
                                          : nlohmann::json(s.ended_by == LAT_END_PRECISION     ? "precision"
                                                           : s.ended_by == LAT_END_UNREACHABLE ? "unreachable"
                                                           : s.ended_by == LAT_END_TIME        ? "time"
                                                                                               : "reps")},
                   {"precision", s.precision_pct > 0.0 ? nlohmann::json{{"asked_pct", s.precision_pct},
                                                                        {"met", !s.partial && s.ended_by == LAT_END_PRECISION},
                                                                        {"median_ci_half_pct_max", number_or_null(s.median_ci_half_pct_max)},
                                                                        {"unbounded", !(s.median_ci_half_pct_max <= 100.0)},
                                                                        {"placement", {{"lines", s.placement_lines},
                                                                                       {"sd_pct", s.placement_sd_pct},
                                                                                       {"bound_half_pct_max", number_or_null(s.between_launches_half_pct_max)}}},
                                                                        {"interval", "within this launch: each point's batch medians (nothing of other launches: mpilat-campaign)"},
                                                                        {"batches", LAT_PRECISION_BATCHES},
                                                                        {"limit_s", s.precision_limit_s},
                                                                        {"min_chunks", LAT_PRECISION_MIN_CHUNKS}}
                                                       : nlohmann::json()},
                   {"warnings", r.warnings}});
  nlohmann::json clocks = nlohmann::json::array();
  for (size_t k = 0; k < r.clocks.size(); ++k) {
    const ClockReport &c = r.clocks[k];
    clocks.push_back({{"rank", k}, {"offset_us", c.offset_us}, {"drift", c.drift}, {"fit_rtt_min_us", c.rtt_us},
                      {"residual_end_us", c.residual_us}, {"residual_rtt_us", c.residual_rtt_us},
                      {"checks", static_cast<int64_t>(c.checks)}});
  }
  j["clocks"] = {{"method", "HCA (Hunold and Carpen-Amarie): a tree of offset-and-drift lines to rank 0 in log2(p) rounds; "
                            "during the run every rank's offset to rank 0 checked every 0.1 s and the line refitted through the checks"},
                 {"syncs", s.syncs},
                 {"first_sync_s", s.sync_s},
                 {"offset_max_us", s.offset_max_us},
                 {"drift_max", s.drift_max},
                 {"residual_max_us", s.residual_max_us},
                 {"rtt_min_us", s.rtt_min_us},
                 {"error_bound_us", s.error_bound_us},
                 {"error_bound_rule", "max over ranks of |residual| + the residual exchange's round trip / 2, after each "
                                      "synchronisation and at the end (rank 0's time lies within that exchange)"},
                 {"ranks", clocks}};
  nlohmann::json modes = nlohmann::json::object();
  for (int m : modes_of(s.modes)) modes[coll_mode_name(m)] = coll_mode_quantity(m);
  j["modes"] = modes;
  j["options"] = spec_options_json(r.options);
  j["sizes"] = r.sizes;
  nlohmann::json points = nlohmann::json::array();
  for (size_t k = 0; k < r.points.size(); ++k) {
    const lat_coll_point &p = r.points[k];
    nlohmann::json ranks = nlohmann::json::array();
    for (int64_t i = 0; i < s.nprocs; ++i) {
      const lat_coll_rank &c = r.ranks[k * static_cast<size_t>(s.nprocs) + static_cast<size_t>(i)];
      nlohmann::json rank = spec_result_json(c);
      rank["end_median_us"] = p.mode == LAT_COLL_MODE_SYNC ? nlohmann::json(c.end_median_us) : nlohmann::json();
      ranks.push_back(rank);
    }
    nlohmann::json q = spec_result_json(p);
    q.update({{"operation", coll_op_name(p.op)},
              {"mode", coll_mode_name(p.mode)},
              {"quantity", coll_mode_quantity(p.mode)},
              {"window_us", p.mode == LAT_COLL_MODE_SYNC ? nlohmann::json(p.window_us) : nlohmann::json()},
              {"stats", stats_json(p.stats)},
              {"quantiles", quantiles_json(p.q, p.stats.count)},
              {"withheld", withheld_reason(p).empty() ? nlohmann::json() : nlohmann::json(withheld_reason(p))},
              {"ranks", ranks}});
    if (k < r.series.size()) q["frequencies"] = table_json(distribution_of_values(r.series[k].values_us));
    points.push_back(q);
  }
  j["points"] = points;
  return json_document_text(std::move(j), 2);
}

namespace {

std::string size_data_text(const CollResult &r, std::vector<std::string> &titles) {
  std::string o = "# median (us) against message size (bytes), one block per operation and mode\n";
  for (int m : modes_of(r.summary.modes))
    for (int op : ops_of(r.summary.ops)) {
      if (op == LAT_COLL_BARRIER) continue;
      bool any = false;
      for (const lat_coll_point &p : r.points)
        if (p.op == op && p.mode == m && p.samples > 0) {
          append(o, "{} {:.6f} {:.6f} {:.6f}\n", p.msg_bytes, p.stats.median_us, p.stats.min_us, p.q.p_us[8]);
          any = true;
        }
      if (!any) continue;
      o += "\n\n";
      titles.push_back(fmt::format("{} {}: {}", coll_op_name(op), coll_mode_name(m), coll_mode_short_quantity(m)));
    }
  return o;
}

std::string size_plot_text(const std::string &base, const std::vector<std::string> &titles) {
  std::string o = gnuplot_figure_head(base + ".size", 1000, 650);
  append(o, "if (!exists(\"datafile\")) datafile = {}\n", gnuplot_quoted(base + ".size.dat"));
  o += "set title 'collective latency against message size (median of the samples)'\n"
       "set xlabel 'message size per rank (bytes)'\nset ylabel 'median (us)'\nset logscale y\nset grid\nset key outside right\n";
  if (titles.empty()) {
    o += "set label 1 'no sized operation measured' at graph 0.5, graph 0.5 center\nplot 1/0 notitle\n";
    return o;
  }
  o += "set logscale x 2\nplot ";
  for (size_t k = 0; k < titles.size(); ++k)
    append(o, "{}datafile index {} using ($1 > 0 ? $1 : 1):2 with linespoints pointtype 7 title {}", k ? ", \\\n     " : "", k,
           gnuplot_quoted(titles[k]));
  o += "\n";
  return o;
}

std::string dist_plot_text(const std::string &base, const CollResult &r) {
  std::string o = gnuplot_figure_head(base + ".dist", std::max<int>(900, 60 * static_cast<int>(r.points.size())), 650);
  append(o, "if (!exists(\"datafile\")) datafile = {}\n", gnuplot_quoted(base + ".samples.csv"));
  std::string key;
  for (int m : modes_of(r.summary.modes)) key += fmt::format("{}{}: {}", key.empty() ? "" : "; ", coll_mode_name(m), coll_mode_short_quantity(m));
  append(o, "set datafile separator ','\nset title 'every sample of every point (box: quartiles; whiskers: 1.5 IQR)' offset 0, 1\n"
            "set label 2 {} at screen 0.5, screen 0.94 center font ',9'\n",
         gnuplot_quoted(key));
  o += "set ylabel 'us'\nset logscale y\nset grid y\n"
       "set style data boxplot\nset style boxplot sorted nooutliers\nset xtics rotate by -45\nset bmargin 12\nset rmargin 10\nunset key\n";
  if (r.series.empty() || std::all_of(r.series.begin(), r.series.end(), [](const PointSeries &s) { return s.values_us.empty(); })) {
    o += "set label 1 'no sample' at graph 0.5, graph 0.5 center\nplot 1/0 notitle\n";
    return o;
  }
  o += "plot datafile every ::1 using (1.0):8:(0.6):5 with boxplot linecolor rgb 'blue'\n";
  return o;
}

}  // namespace

std::vector<std::string> coll_output_names(const std::string &outdir, const std::string &base_name) {
  require_file_name("base", base_name);
  std::vector<std::string> names;
  for (const char *ext : {".txt", ".json", ".csv", ".samples.csv", ".size.dat", ".dist.gp", ".size.gp", ".dist.png", ".size.png"})
    names.push_back(join_path(outdir, base_name) + ext);
  return names;
}

void write_coll_files(const std::string &outdir, const std::string &base_name, const std::string &command_line,
                      const CollResult &r, bool render) {
  require_file_name("base", base_name);
  const std::string base = join_path(outdir, base_name);
  std::vector<std::string> titles;
  std::vector<std::pair<std::string, std::string>> files = {
      {base + ".txt", coll_table_text(r)},
      {base + ".json", coll_json_text(r, command_line)},
      {base + ".csv", coll_csv_text(r)},
      {base + ".samples.csv", coll_samples_csv_text(r)}};
  const size_t samples = 3;
  files.emplace_back(base + ".size.dat", size_data_text(r, titles));
  const size_t size_dat = files.size() - 1;
  files.emplace_back(base + ".dist.gp", dist_plot_text(base_name, r));
  const size_t dist_gp = files.size() - 1;
  files.emplace_back(base + ".size.gp", size_plot_text(base_name, titles));
  const size_t size_gp = files.size() - 1;
  require_declared(coll_output_names(outdir, base_name), files);
  MakeFromStaged plot = nullptr;
  if (render) {
    const MakeFromStaged dist = render_plots({{base + ".dist.png", dist_gp}}, {{"datafile", samples}});
    const MakeFromStaged size = render_plots({{base + ".size.png", size_gp}}, {{"datafile", size_dat}});
    plot = [dist, size](const std::vector<std::string> &staged) {
      auto out = dist(staged);
      auto more = size(staged);
      out.insert(out.end(), more.begin(), more.end());
      return out;
    };
  }
  write_files_whole(files, plot);
}

}  // namespace lat
