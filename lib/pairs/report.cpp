#include "pairs/report.hpp"

#include "common/memory.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/plot.hpp"
#include "common/report_json.hpp"
#include "common/report_text.hpp"
#include "common/staged_files.hpp"

namespace lat {

namespace {


constexpr int64_t kJsonMatrixRanks = 1024;

const char *const kStatNames[LAT_PAIR_NSTATS] = {"mean_us", "stddev_us", "stderr_us", "min_us",
                                                 "median_us", "max_us", "count"};

bool has_stat(const PairResult &r, int stat) { return !r.triangle[static_cast<size_t>(stat)].empty(); }

}  // namespace

const char *pair_schedule_name(int schedule) {
  switch (schedule) {
    case LAT_PAIRS_SEQUENTIAL: return "sequential";
    case LAT_PAIRS_ROUNDS: return "rounds";
    default: return "unknown";
  }
}


std::string pair_json_text(const PairResult &r, const std::string &command_line) {
  const lat_pair_summary &s = r.summary;
  nlohmann::json j = report_head_json("mpilat-pairs", command_line);
  j["run"].update({{"testing_host", std::string(s.testing_host)}, {"nprocs", s.nprocs}, {"nnodes", s.nnodes},
                   {"wall_s", s.wall_s}, {"partial", s.partial != 0}, {"from_log", s.from_log != 0},
                   {"disturbance", s.from_log ? nlohmann::json() : disturbance_json(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s)}});
  j["method"] = {{"msg_bytes", s.msg_bytes}, {"repeats", s.repeats}, {"schedule", pair_schedule_name(s.schedule)},
                 {"pairs", s.npairs}, {"steps_per_repeat", s.nrounds}, {"steps", s.steps},
                 {"round_trips", s.round_trips}, {"timer", s.from_log ? "unknown" : timer_name(s.timer)},
                 {"wait", s.wait == LAT_WAIT_YIELD ? "yield" : s.wait == LAT_WAIT_SPIN ? "spin" : "unknown"},
                 {"root", s.root}, {"timeout_s", r.options.timeout_s},
                 {"time", "round trip (send, then receive the reply) of one message, timed by the lower rank, us; "
                          "stddev is the sample standard deviation, stderr_us the standard error of the mean"}};
  nlohmann::json ranks = nlohmann::json::array();
  auto known = [](int v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json("unknown"); };
  for (const lat_rank_place &p : r.places)
    ranks.push_back({{"rank", p.rank}, {"host", std::string(p.host)}, {"node", p.node}, {"node_rank", p.node_rank},
                     {"socket", known(p.socket)}, {"core", known(p.core)}, {"cpu", known(p.cpu)},
                     {"res_timing_us", p.res_timing_us}, {"min_ov_us", p.min_ov_us}});
  j["ranks"] = ranks;
  nlohmann::json matrices;
  const int64_t n = s.nprocs;
  // Seven N x N matrices of text grow as N^2 (35 GB at 16384 ranks): past kJsonMatrixRanks the log, the
  // CSV of mmpi2mat and lat_pairs_get_matrix carry them.
  if (n > kJsonMatrixRanks) {
    j["matrices_omitted"] = "more than " + std::to_string(kJsonMatrixRanks) +
                            " ranks: the mean and standard deviation are in the mmpi log";
    return json_document_text(std::move(j), 1);
  }
  for (int stat = 0; stat < LAT_PAIR_NSTATS; ++stat) {
    if (!has_stat(r, stat)) continue;
    nlohmann::json m = nlohmann::json::array();
    for (int64_t i = 0; i < n; ++i) {
      nlohmann::json row = nlohmann::json::array();
      for (int64_t k = 0; k < n; ++k) row.push_back(r.at(stat, i, k));
      m.push_back(row);
    }
    matrices[kStatNames[stat]] = m;
  }
  j["matrices"] = matrices;
  return json_document_text(std::move(j), 1);
}

std::string pair_matrix_text(const PairResult &r, int stat) {
  std::string o;
  const int64_t n = r.summary.nprocs;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < n; ++k) append(o, "{}{:.10g}", k ? " " : "", r.at(stat, i, k));
    o += "\n";
  }
  return o;
}

namespace {

std::string csv_field(const char *text) {
  const std::string shown = printable(text);
  if (shown.find_first_of(",\"") == std::string::npos) return shown;
  std::string quoted = "\"";
  for (char c : shown) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string pair_csv_text(const PairResult &r) {
  // A column per statistic the result holds (an mmpi log: the mean and standard deviation only).
  std::string o = "rank_i,host_i,node_i,rank_j,host_j,node_j";
  for (int stat = 0; stat < LAT_PAIR_NSTATS; ++stat)
    if (has_stat(r, stat)) o += std::string(",") + kStatNames[stat];
  o += "\n";
  const int64_t n = r.summary.nprocs;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = i + 1; k < n; ++k) {
      const lat_rank_place &a = r.places[static_cast<size_t>(i)], &b = r.places[static_cast<size_t>(k)];
      // A host name from a log is the log writer's text: control bytes (an escape sequence) shown as \xNN,
      // a comma or quote quoted, so the CSV stays one row per pair and a terminal showing it stays sane.
      append(o, "{},{},{},{},{},{}", i, csv_field(a.host), a.node, k, csv_field(b.host), b.node);
      for (int stat = 0; stat < LAT_PAIR_NSTATS; ++stat)
        if (has_stat(r, stat)) append(o, ",{:.6f}", r.at(stat, i, k));
      o += "\n";
    }
  return o;
}

PairResult parse_pair_json(const std::string &text, const std::string &name) {
  check_json_parse_memory(text.size(), name);
  // nlohmann-json ends its input at a NUL byte (what follows would be ignored): JSON never holds a raw one.
  const nlohmann::json j = text.find('\0') == std::string::npos ? nlohmann::json::parse(text, nullptr, false)
                                                                 : nlohmann::json(nlohmann::json::value_t::discarded);
  if (j.is_discarded() || !j.is_object() || j.value("format", "") != "mpilat-pairs")
    throw DataError(name + ": not the JSON of a pair matrix (format mpilat-pairs)");
  if (!j.contains("matrices"))
    throw DataError(name + ": holds no matrices (" + j.value("matrices_omitted", std::string("none")) + "): read the mmpi log");
  try {
    PairResult r;
    lat_pair_summary &s = r.summary;
    const nlohmann::json &run = j.at("run"), &method = j.at("method");
    s.nprocs = run.at("nprocs").get<int64_t>();
    s.nnodes = run.at("nnodes").get<int64_t>();
    s.partial = run.value("partial", false) ? 1 : 0;
    s.msg_bytes = method.at("msg_bytes").get<int64_t>();
    s.repeats = method.at("repeats").get<int64_t>();
    s.wait = method.value("wait", "") == "yield" ? LAT_WAIT_YIELD : method.value("wait", "") == "spin" ? LAT_WAIT_SPIN : LAT_WAIT_AUTO;
    s.from_log = 1;
    copy_c_string(s.testing_host, run.at("testing_host").get<std::string>().c_str());
    if (s.nprocs < 2 || s.nprocs > kJsonMatrixRanks) throw DataError(name + ": nprocs must be in 2.." + std::to_string(kJsonMatrixRanks));
    const nlohmann::json &ranks = j.at("ranks");
    if (static_cast<int64_t>(ranks.size()) != s.nprocs) throw DataError(name + ": ranks must list nprocs ranks");
    for (const nlohmann::json &p : ranks) {
      lat_rank_place place{};
      place.rank = p.at("rank").get<int>();
      place.node = p.at("node").get<int>();
      place.node_rank = p.value("node_rank", -1);
      place.socket = place.core = place.cpu = place.numa = -1;
      copy_c_string(place.host, p.at("host").get<std::string>().c_str());
      r.places.push_back(place);
    }
    allocate_matrices(r, s.nprocs);
    const nlohmann::json &m = j.at("matrices");
    for (int stat = 0; stat < LAT_PAIR_NSTATS; ++stat) {
      if (!m.contains(kStatNames[stat])) {
        r.triangle[static_cast<size_t>(stat)].clear();
        continue;
      }
      const nlohmann::json &rows = m.at(kStatNames[stat]);
      if (static_cast<int64_t>(rows.size()) != s.nprocs) throw DataError(name + ": matrix " + kStatNames[stat] + " is not N x N");
      for (int64_t i = 0; i < s.nprocs; ++i) {
        if (static_cast<int64_t>(rows.at(static_cast<size_t>(i)).size()) != s.nprocs)
          throw DataError(name + ": matrix " + kStatNames[stat] + " is not N x N");
        for (int64_t k = i + 1; k < s.nprocs; ++k) {
          const nlohmann::json &v = rows.at(static_cast<size_t>(i)).at(static_cast<size_t>(k));
          r.triangle[static_cast<size_t>(stat)][static_cast<size_t>(triangle_index(s.nprocs, i, k))] =
              v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
        }
      }
    }
    if (!has_stat(r, LAT_PAIR_MEAN) || !has_stat(r, LAT_PAIR_STDDEV))
      throw DataError(name + ": the matrices of mean_us and stddev_us are needed");
    s.has_matrices = 1;
    s.npairs = s.nprocs * (s.nprocs - 1) / 2;
    const std::vector<double> &means = r.triangle[LAT_PAIR_MEAN];
    s.mean_min_us = *std::min_element(means.begin(), means.end());
    s.mean_max_us = *std::max_element(means.begin(), means.end());
    return r;
  } catch (const nlohmann::json::exception &e) {
    throw DataError(name + ": lacks what a pair matrix's JSON holds (" + e.what() + ")");
  }
}

std::string pair_heatmap_text(const PairResult &r, const std::string &default_outfile, int stat) {
  const lat_pair_summary &s = r.summary;
  const int64_t n = s.nprocs;
  const char *what = stat == LAT_PAIR_MEDIAN ? "median" : "mean";
  std::string o = gnuplot_figure_head(default_outfile.substr(0, default_outfile.find_last_of('.')), 900, 820);
  append(o, "# the heat map of the {} round-trip latency (data inline)\nset encoding utf8\n", what);
  append(o, "set title {}\n",
          gnuplot_quoted(std::string(s.testing_host) + ": " + what + " round trip (log colour scale), " + std::to_string(n) + " ranks on " +
                         std::to_string(s.nnodes) + " node(s), " + std::to_string(s.msg_bytes) + " B, " +
                         std::to_string(s.repeats) + " repeats; lines: node boundaries")
              .c_str());
  append(o, "set xlabel 'rank'\nset ylabel 'rank'\nset cblabel {}\n", gnuplot_quoted(std::string(what) + " round-trip latency (µs), log scale"));
  // A logarithmic colour scale: one pair a hundred times slower than the rest takes the top of the bar
  // without pressing every other pair into its bottom colour.
  append(o, "set logscale cb\n");
  append(o, "set xrange [-0.5:{}.5]\nset yrange [-0.5:{}.5]\nset size ratio -1\nset tics out\n", n - 1,
          n - 1);
  // Blue for the fastest pairs, through yellow, to red for the slowest, as the paper's plots.
  append(o, "set palette defined (0 'blue', 1 'cyan', 2 'yellow', 3 'red')\n");
  // Node boundaries: a line where the node changes between consecutive ranks; the node's host on top.
  std::vector<int64_t> starts = {0};
  for (int64_t k = 1; k < n; ++k)
    if (r.places[static_cast<size_t>(k)].node != r.places[static_cast<size_t>(k - 1)].node) starts.push_back(k);
  for (size_t b = 1; b < starts.size(); ++b)
    append(o,
            "set arrow from {}.5, -0.5 to {}.5, {}.5 nohead front linewidth 1.5 linecolor rgb 'black'\n"
            "set arrow from -0.5, {}.5 to {}.5, {}.5 nohead front linewidth 1.5 linecolor rgb 'black'\n",
            starts[b] - 1, starts[b] - 1, n - 1, starts[b] - 1, n - 1, starts[b] - 1);
  if (starts.size() <= 32) {
    // Fully qualified names would be clipped: a domain every node shares is cut off (and named under the
    // plot), a label still longer than 20 characters keeps its ends; the top margin fits the longest.
    std::vector<std::string> labels;
    for (int64_t start : starts) labels.push_back(r.host_of(start));
    const size_t dot = labels.front().find('.');
    const std::string domain = dot == std::string::npos ? "" : labels.front().substr(dot);
    const bool shared = !domain.empty() && std::all_of(labels.begin(), labels.end(), [&](const std::string &h) {
      return h.size() > domain.size() && h.compare(h.size() - domain.size(), domain.size(), domain) == 0;
    });
    size_t longest = 0;
    for (std::string &h : labels) {
      if (shared) h.resize(h.size() - domain.size());
      if (h.size() > 20) h = h.substr(0, 9) + ".." + h.substr(h.size() - 9);
      longest = std::max(longest, h.size());
    }
    if (shared) append(o, "set label {} at screen 0.01, screen 0.02 left\n", gnuplot_quoted("node names without " + domain));
    append(o, "set x2range [-0.5:{}.5]\nset x2tics (", n - 1);
    for (size_t b = 0; b < starts.size(); ++b) {
      const int64_t end = b + 1 < starts.size() ? starts[b + 1] : n;
      append(o, "{}{} {:.1f}", b ? ", " : "", gnuplot_quoted(labels[b]), 0.5 * static_cast<double>(starts[b] + end - 1));
    }
    append(o, ") rotate by 30 left\nset tmargin {}\nset rmargin {}\n", 4 + (longest + 1) / 2, 8 + longest);
  }
  // The diagonal is not measured: it takes the smallest value (so it does not stretch the colour range)
  // and is covered by white squares.
  double least = std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = i + 1; k < n; ++k)
      if (r.at(stat, i, k) > 0.0) least = std::min(least, r.at(stat, i, k));
  if (!std::isfinite(least)) least = 1.0;
  append(o, "$mean << EOD\n");
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < n; ++k) {
      const double v = i == k ? least : r.at(stat, i, k);
      append(o, "{}{:.6f}", k ? " " : "", v > 0.0 ? v : least);
    }
    o += "\n";
  }
  append(o, "EOD\n$diagonal << EOD\n");
  for (int64_t i = 0; i < n; ++i) append(o, "{} {}\n", i, i);
  append(o, "EOD\nplot $mean matrix with image notitle, \\\n"
             "     $diagonal using 1:2:(0.5):(0.5) with boxxyerror fillstyle solid noborder linecolor rgb 'white' "
             "notitle\n");
  return o;
}

std::vector<std::string> pair_output_names(const std::string &outdir, const std::string &log_name) {
  require_file_name("log_name", log_name);
  const size_t dot = log_name.find_last_of('.');
  const std::string json_name = (dot == std::string::npos || dot == 0 ? log_name : log_name.substr(0, dot)) + ".json";
  if (json_name == log_name)
    throw ArgError("log_name '" + log_name + "' ends in .json, the name of its JSON: give the log another extension");
  return {join_path(outdir, log_name), join_path(outdir, json_name)};
}

std::vector<std::string> matrix_output_names(const std::string &outdir, const std::string &base) {
  require_file_name("base", base);
  std::vector<std::string> names;
  for (const char *suffix : {"_comm.dat", "_var.dat", ".csv", "_heatmap.gp", "_heatmap.png", "_heatmap.svg"})
    names.push_back(join_path(outdir, base) + suffix);
  return names;
}

void write_pair_files(const std::string &outdir, const std::string &log_name, const std::string &command_line,
                      const PairResult &r) {
  const std::vector<std::string> names = pair_output_names(outdir, log_name);  // the log, then its JSON
  write_files_whole({{names[0], mmpi_log_text(r)}, {names[1], pair_json_text(r, command_line)}});
}

void write_pair_matrices(const std::string &outdir, const std::string &base, const PairResult &r, bool render, bool mean) {
  require_file_name("base", base);
  const std::string path = join_path(outdir, base);
  const MakeFromStaged plot =
      render ? render_plots({{path + "_heatmap.png", 3}, {path + "_heatmap.svg", 3}}, {}) : nullptr;
  const std::vector<std::pair<std::string, std::string>> files = {
      {path + "_comm.dat", pair_matrix_text(r, LAT_PAIR_MEAN)},
      {path + "_var.dat", pair_matrix_text(r, LAT_PAIR_STDDEV)},
      {path + ".csv", pair_csv_text(r)},
      {path + "_heatmap.gp",
       pair_heatmap_text(r, base + "_heatmap.png", !mean && has_stat(r, LAT_PAIR_MEDIAN) ? LAT_PAIR_MEDIAN : LAT_PAIR_MEAN)}};
  require_declared(matrix_output_names(outdir, base), files);
  write_files_whole(files, plot);
}

}  // namespace lat
