#include "queue/report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

#include "common/clock.hpp"
#include "common/plot.hpp"
#include "common/report_json.hpp"
#include "common/report_text.hpp"
#include "common/staged_files.hpp"
#include "generated/spec_json.hpp"
#include "generated/spec_options.hpp"

namespace lat {

namespace {


bool posted(const QueueResult &r) { return r.summary.mode == LAT_QUEUE_POSTED; }

/// One curve of the figures: a fraction (posted) and a size, every length.
struct Curve {
  double fraction;
  int64_t bytes;
  std::string label;
  std::vector<const lat_queue_point *> points;
};

std::vector<Curve> curves_of(const QueueResult &r) {
  std::vector<Curve> curves;
  for (const lat_queue_point &q : r.points) {
    if (curves.empty() || curves.back().fraction != q.fraction_percent || curves.back().bytes != q.bytes) {
      const std::string label = posted(r) && r.summary.nsizes > 1 ? fmt::format("{:g}% {}B", q.fraction_percent, q.bytes)
                                : posted(r)                      ? fmt::format("{:g}%", q.fraction_percent)
                                                                 : fmt::format("{}B", q.bytes);
      curves.push_back({q.fraction_percent, q.bytes, label, {}});
    }
    curves.back().points.push_back(&q);
  }
  return curves;
}

const char *mode_name(const QueueResult &r) { return posted(r) ? "posted" : "unexpected"; }

/// The label of the curve the line goes through (fitted_points' choice), or "" where there is none.
std::string fitted_label(const QueueResult &r, const std::vector<Curve> &curves) {
  const std::vector<const lat_queue_point *> fitted = fitted_points(r);
  for (const Curve &c : curves)
    if (!fitted.empty() && c.fraction == fitted.front()->fraction_percent && c.bytes == fitted.front()->bytes)
      return c.label;
  return "";
}

/// Each fitted point's minimum less the line's value there, us.
std::vector<double> fit_residuals(const QueueResult &r) {
  std::vector<double> res;
  for (const lat_queue_point *q : fitted_points(r))
    res.push_back(q->min_us - (r.summary.intercept_us + r.summary.slope_us_per_entry * static_cast<double>(q->traversed)));
  return res;
}

/// Why the slope is no latency per entry (LAT_WARN_FIT), one "WARNING: ..." line per reason.
std::vector<std::string> fit_warnings(const lat_queue_summary &s) {
  std::vector<std::string> w;
  if (s.warnings & LAT_WARN_CONTROL)
    w.push_back(fmt::format("WARNING: the negative control failed: the 0% curve, which must be flat, rose {:.4f} us over "
                            "the queue lengths ({} points; the reps' spread {:.4f} us): the machine, not the queue, moved "
                            "the times, and the slope cannot be trusted",
                            s.control_rise_us, s.control_points, s.control_spread_us));
  if (!(s.warnings & LAT_WARN_FIT)) return w;
  if (s.fit_points < 3)
    w.push_back(fmt::format("WARNING: the line goes through {} points: too few to tell whether they lie on one; "
                            "measure 3 queue lengths or more", s.fit_points));
  if (s.fit_points >= 2 && s.slope_us_per_entry < 0.0)
    w.push_back(fmt::format("WARNING: the slope is negative ({:.5f} us per entry): a longer queue cannot make a "
                            "message faster; the minima are noise at this scale (more --iters or --reps)",
                            s.slope_us_per_entry));
  if (s.fit_points >= 3 && s.fit_r2 < LAT_QUEUE_FIT_R2_MIN)
    w.push_back(fmt::format("WARNING: the minima do not lie on a line (R^2 = {:.3f} < {:g}, largest residual {:.4f} us): "
                            "the slope is no latency per entry (see the table)", s.fit_r2, LAT_QUEUE_FIT_R2_MIN,
                            s.fit_residual_max_us));
  return w;
}

}  // namespace

std::string queue_table_text(const QueueResult &r) {
  const lat_queue_summary &s = r.summary;
  std::string o;
  const std::string disturbed = disturbance_warning(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s);
  if (!disturbed.empty()) append(o, "{}\n", disturbed);  // first: every figure below is in question
  append(o, "queuelat (mpilat {}): {}-queue latency, ranks {} ({}) and {} ({}){}\n", MPILAT_VERSION_STRING,
          mode_name(r), s.source, s.source_host, s.dest, s.dest_host, s.any_source ? ", MPI_ANY_SOURCE receives" : "");
  append(o, "one-way latency in us: the mean of {} timed ping-pongs / 2 (the paper's figure), over {} measurements\n",
          s.iters, s.reps);
  if (s.partial) append(o, "*** PARTIAL RESULTS: stopped by a stop request; empty cells were not measured ***\n");
  append(o, "columns: {}\n\n", posted(r) ? "percent of the posted queue traversed (and message size)" : "message size");
  const std::vector<Curve> curves = curves_of(r);
  append(o, "{:>10}", posted(r) ? "posted" : "unexpected");
  for (const Curve &c : curves) append(o, " {:>10}", c.label);
  append(o, "\n");
  for (size_t row = 0; row < static_cast<size_t>(s.nlengths); ++row) {
    append(o, "{:10}", curves.front().points[row]->length);
    for (const Curve &c : curves) {
      const lat_queue_point &q = *c.points[row];
      if (q.measurements > 0) append(o, " {:10.3f}", q.paper_us);
      else append(o, " {:>10}", "-");
    }
    append(o, "\n");
  }

  append(o, "\nlatency added per {} entry: {:.5f} us (least squares of the minima over the {} curve: {} points, "
            "R^2 {:.3f}, largest residual {:.4f} us; {:.3f} us at 0){}\n",
          posted(r) ? "traversed" : "queued", s.slope_us_per_entry, fitted_label(r, curves), s.fit_points, s.fit_r2,
          s.fit_residual_max_us, s.intercept_us,
          !disturbed.empty()                 ? "; the machine disturbed the run (WARNING above): the slope cannot be trusted"
          : (s.warnings & LAT_WARN_CONTROL) ? "; the 0% control was not flat (WARNING below): the slope cannot be trusted"
                                             : "");
  for (const std::string &w : fit_warnings(s)) append(o, "{}\n", w);
  append(o, "messages left unmatched after the sweep: {}\n", s.leftover_messages);
  return o;
}

std::string queue_csv_text(const QueueResult &r) {
  std::string o = "mode,length,traversed,fraction_percent,bytes,measurements,paper_us,min_us,median_us,mean_us,max_us,stddev_us\n";
  for (const lat_queue_point &q : r.points)
    append(o, "{},{},{},{:g},{},{},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f}\n", mode_name(r), q.length, q.traversed,
            q.fraction_percent, q.bytes, q.measurements, q.paper_us, q.min_us, q.median_us, q.mean_us, q.max_us,
            q.stddev_us);
  return o;
}

std::string queue_json_text(const QueueResult &r, const std::string &command_line) {
  const lat_queue_summary &s = r.summary;
  nlohmann::json j = report_head_json("mpilat-queue", command_line);
  j["run"].update({{"wall_s", s.wall_s}, {"partial", s.partial != 0}, {"leftover_messages", s.leftover_messages}});
  j["mode"] = mode_name(r);
  j["any_source"] = s.any_source != 0;
  j["source"] = {{"rank", s.source}, {"host", std::string(s.source_host)}};
  j["dest"] = {{"rank", s.dest}, {"host", std::string(s.dest_host)}};
  j["timer"] = {{"name", timer_name(s.timer)}, {"res_timing_us", s.res_timing_us}, {"min_ov_us", s.min_ov_us}};
  j["options"] = spec_options_json(r.options);
  const std::vector<Curve> curves = curves_of(r);
  j["fit"] = {{"of", "minima"},
              {"curve", fitted_label(r, curves)},
              {"slope_us_per_entry", s.slope_us_per_entry},
              {"intercept_us", s.intercept_us},
              {"points", s.fit_points},
              {"r2", s.fit_r2},
              {"residual_max_us", s.fit_residual_max_us},
              {"residuals_us", fit_residuals(r)},
              {"warnings", fit_warnings(s)},
              {"trusted", !(s.warnings & (LAT_WARN_FIT | LAT_WARN_DISTURBED | LAT_WARN_CONTROL))},
              {"control", s.control_points >= 2 ? nlohmann::json{{"curve", "0%"},
                                                                 {"points", s.control_points},
                                                                 {"rise_us", s.control_rise_us},
                                                                 {"spread_us", s.control_spread_us},
                                                                 {"flat", !(s.warnings & LAT_WARN_CONTROL)}}
                                                : nlohmann::json()}};
  j["disturbance"] = disturbance_json(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s);
  nlohmann::json points = nlohmann::json::array();
  for (const lat_queue_point &q : r.points) points.push_back(spec_result_json(q));
  j["points"] = points;
  return json_document_text(std::move(j), 2);
}

std::string queue_gnuplot_text(const QueueResult &r) {
  const std::vector<Curve> curves = curves_of(r);
  std::string o = gnuplot_figure_head("queuelat", 1000, 650);
  append(o, "set title {}\n",
          gnuplot_quoted(std::string("mpilat queuelat: latency against ") +
                         (posted(r) ? "posted-receive queue length (curves: percent traversed)"
                                    : "unexpected-queue length (curves: message size)") +
                         " (" + r.summary.source_host + ")")
              .c_str());
  append(o, "set xlabel {}\nset ylabel 'one-way latency (us)'\nset key top left\nset grid\n",
          gnuplot_quoted(posted(r) ? "receives pre-posted" : "unexpected messages queued").c_str());
  for (size_t k = 0; k < curves.size(); ++k) {
    append(o, "$c{} << EOD\n", k);
    for (const lat_queue_point *q : curves[k].points)
      if (q->measurements > 0) append(o, "{} {:.6f}\n", q->length, q->paper_us);
    append(o, "EOD\n");
  }
  append(o, "plot ");
  for (size_t k = 0; k < curves.size(); ++k)
    append(o, "{}$c{} using 1:2 with linespoints title {}", k ? ", \\\n     " : "", k,
            gnuplot_quoted(curves[k].label));
  append(o, "\n");
  return o;
}

std::vector<std::string> queue_output_names(const std::string &outdir) {
  std::vector<std::string> names;
  for (const char *ext : {".txt", ".csv", ".json", ".gp", ".png"}) names.push_back(join_path(outdir, "queuelat") + ext);
  return names;
}

void write_queue_files(const std::string &outdir, const std::string &command_line, const QueueResult &r, bool render) {
  const std::string base = join_path(outdir, "queuelat");
  const MakeFromStaged plot = render ? render_plots({{base + ".png", 3}}, {}) : nullptr;
  const std::vector<std::pair<std::string, std::string>> files = {{base + ".txt", queue_table_text(r)},
                                                                  {base + ".csv", queue_csv_text(r)},
                                                                  {base + ".json", queue_json_text(r, command_line)},
                                                                  {base + ".gp", queue_gnuplot_text(r)}};
  require_declared(queue_output_names(outdir), files);
  write_files_whole(files, plot);
}

}  // namespace lat
