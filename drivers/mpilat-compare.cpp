// mpilat-compare: is the difference real? Two groups of mpilat results (the JSON of any driver), compared
// with the launch as the unit: `mpilat-compare A1.json A2.json ... -- B1.json B2.json ...`. One group alone:
// its spread within launches against its spread between launches. No MPI job (docs/compare.md).
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <map>
#include <new>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver_options.hpp"
#include "driver_support.h"
#include "compare_reader.hpp"
#include "json_fields.hpp"
#include "mpilat.h"

namespace {

using nlohmann::json;
using namespace compare;

/// All launches of both groups must be of one kind and match where a difference would make the comparison
/// meaningless; where it only may matter, a loud note.
void check_alike(const std::vector<const Launch *> &all, std::vector<std::string> &notes) {
  const Launch &first = *all.front();
  for (const Launch *l : all) {
    if (l->kind != first.kind)
      throw BadInput("refusing to compare unlike results: " + first.path + " is " + first.kind + ", " + l->path + " is " + l->kind);
    for (const auto &[key, value] : first.must_match) {
      auto it = l->must_match.find(key);
      if (it == l->must_match.end() || it->second != value)
        throw BadInput("refusing to compare unlike results: " + key + " is " + value + " in " + first.path + " but " +
                       (it == l->must_match.end() ? std::string("missing") : it->second) + " in " + l->path);
    }
  }
  std::set<std::string> said;
  for (const Launch *l : all)
    for (const auto &[key, value] : l->noted) {
      if (key == "partial") {
        notes.push_back("NOTE: " + l->path + " holds a partial run (stopped early)");
        continue;
      }
      auto it = first.noted.find(key);
      if (key != "MPI library" && (it == first.noted.end() || it->second != value) && said.insert(key).second)
        notes.push_back("NOTE: LOUDLY: the " + key + " differs between the files (" + (it == first.noted.end() ? "?" : it->second) +
                        " in " + first.path + ", " + value + " in " + l->path + "): the comparison may show that difference");
    }
}

json json_number(double x) { return std::isfinite(x) ? json(x) : json(); }

/// One quantity of two groups compared: over launches with >= 3 a group, over trials with fewer where the
/// files hold them, else no interval.
struct Row {
  const Quantity *qa = nullptr;
  lat_compare_result r{};
  std::string verdict, method, why;
};

Row compare(const Quantity &a, const Quantity &b, const lat_compare_options &opts) {
  Row row;
  row.qa = &a;
  std::vector<double> av, bv;
  for (const LaunchValue &l : a.launches) av.push_back(l.value);
  for (const LaunchValue &l : b.launches) bv.push_back(l.value);
  row.r.a_value = median_of(av);
  row.r.b_value = median_of(bv);
  row.r.ratio = row.r.b_value / row.r.a_value;
  row.r.ratio_low = row.r.ratio_high = NAN;
  row.r.a_count = static_cast<int64_t>(av.size());
  row.r.b_count = static_cast<int64_t>(bv.size());
  const bool positive = std::all_of(av.begin(), av.end(), [](double v) { return v > 0; }) &&
                        std::all_of(bv.begin(), bv.end(), [](double v) { return v > 0; });
  int rc = LAT_SUCCESS;
  if (!positive) {
    row.why = "a value <= 0: no ratio";
  } else if (av.size() >= 3 && bv.size() >= 3) {
    rc = lat_compare_launches(static_cast<int64_t>(av.size()), av.data(), static_cast<int64_t>(bv.size()), bv.data(), &opts, &row.r);
    // The exact rank interval has a coarsest step: below it no level can be kept, so the run is refused.
    if (rc == LAT_SUCCESS && row.r.max_confidence < opts.confidence) {
      char text[400];
      std::snprintf(text, sizeof text,
                    "with %zu and %zu launches the exact rank interval over launches reaches at most %.1f %% confidence, "
                    "not the %g %% asked: take more launches a group (4 and 4 reach 97.1 %%), or give --confidence %.3f "
                    "or lower", av.size(), bv.size(), 100.0 * row.r.max_confidence, 100.0 * opts.confidence,
                    std::floor(row.r.max_confidence * 1000.0) / 1000.0);
      throw BadInput(text);
    }
  } else if (a.q > 0.0 && b.q > 0.0) {
    // Fewer than 3 launches: the trials of each group pooled, compared by order statistics.
    std::vector<double> pa, pb;
    std::vector<int64_t> ca, cb;
    for (const LaunchValue &l : a.launches) pa.insert(pa.end(), l.values().begin(), l.values().end()), ca.insert(ca.end(), l.counts().begin(), l.counts().end());
    for (const LaunchValue &l : b.launches) pb.insert(pb.end(), l.values().begin(), l.values().end()), cb.insert(cb.end(), l.counts().begin(), l.counts().end());
    rc = lat_compare_distributions(static_cast<int64_t>(pa.size()), pa.data(), ca.data(), static_cast<int64_t>(pb.size()), pb.data(),
                                   cb.data(), a.q, &opts, &row.r);
  } else {
    row.why = "fewer than 3 launches a group and no trials in the files for this quantity";
  }
  if (rc != LAT_SUCCESS) row.why = lat_last_error_message();
  const bool slower_if_higher = a.higher_is_slower;
  switch (row.r.method) {
    case LAT_METHOD_LAUNCHES: row.method = "exact ranks over launches"; break;
    case LAT_METHOD_TRIALS: row.method = "order statistics over trials, within launches only"; break;
    default: row.method = "none: " + row.why;
  }
  if (row.r.method == LAT_METHOD_TRIALS)  // the trials of 1 or 2 launches cannot show the spread between launches
    row.verdict = "none: within-launch interval only (take 3 launches or more a group)";
  else if (row.r.verdict == LAT_VERDICT_B_HIGHER) row.verdict = slower_if_higher ? "B slower" : "B faster";
  else if (row.r.verdict == LAT_VERDICT_B_LOWER) row.verdict = slower_if_higher ? "B faster" : "B slower";
  else row.verdict = "no difference resolvable at this noise";
  return row;
}

/// One group's spread: between launches (relative range of the launch values) against within (each launch's
/// 95 % interval of its quantity, relative, the median over launches); and where the next launch will fall.
struct Spread {
  const Quantity *q = nullptr;
  double median = NAN, between = NAN, within = NAN;
  std::string dominates;
  double next_low = NAN, next_high = NAN, next_coverage = NAN;
};

/// The distribution-free prediction interval of one more launch from n launches alike (exchangeable): the
/// next value falls below the j-th smallest of n with probability j / (n + 1), so [x_(j), x_(n+1-j)] holds it
/// with probability (n + 1 - 2j) / (n + 1). j: the largest that reaches `confidence`; with too few launches
/// to reach it, j = 1 ([min, max]) and the coverage it has. Fewer than 2 launches: none.
void next_launch_interval(std::vector<double> v, double confidence, Spread &s) {
  const int64_t n = static_cast<int64_t>(v.size());
  if (n < 2) return;
  std::sort(v.begin(), v.end());
  int64_t j = 1;
  while (j + 1 <= n / 2 && static_cast<double>(n + 1 - 2 * (j + 1)) / static_cast<double>(n + 1) >= confidence) ++j;
  s.next_low = v[static_cast<size_t>(j - 1)];
  s.next_high = v[static_cast<size_t>(n - j)];
  s.next_coverage = static_cast<double>(n + 1 - 2 * j) / static_cast<double>(n + 1);
}

Spread spread_of(const Quantity &q, double confidence) {
  Spread s;
  s.q = &q;
  std::vector<double> v, widths;
  for (const LaunchValue &l : q.launches) {
    v.push_back(l.value);
    if (const double w = launch_own_width(q, l); !std::isnan(w)) widths.push_back(w);
  }
  s.median = median_of(v);
  if (v.size() >= 2 && s.median > 0)
    s.between = (*std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end())) / s.median;
  if (!widths.empty()) s.within = median_of(widths);
  if (std::isnan(s.between)) s.dominates = "unknown (one launch)";
  else if (std::isnan(s.within)) s.dominates = "unknown (no trials in the files)";
  else s.dominates = s.between > s.within ? "between launches" : "within launches";
  next_launch_interval(v, confidence, s);
  return s;
}

/// "[low, high] 90.0 %", the next launch's interval and its coverage; "-" with fewer than 2 launches.
std::string next_launch_text(const Spread &s) {
  if (std::isnan(s.next_coverage)) return "-";
  char text[96];
  std::snprintf(text, sizeof text, "[%s, %s] %.1f %%", number(s.next_low).c_str(), number(s.next_high).c_str(), 100.0 * s.next_coverage);
  return text;
}

/// The picture: each quantity's A and B values (above) and B/A with its interval (below).
std::string compare_plot(const std::vector<Row> &rows) {
  std::string o = "# gnuplot script: `gnuplot compare.gp` draws compare.png (data inline)\n"
                  "if (!exists(\"outfile\")) outfile = 'compare.png'\nif (!exists(\"format\")) format = 'png'\n"
                  "if (format eq 'svg') { set terminal svg size 1100,800 dynamic noenhanced font 'sans,10' } "
                  "else { set terminal pngcairo size 1100,800 noenhanced font 'sans,10' }\nset output outfile\n";
  o += "$d << EOD\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const lat_compare_result &r = rows[i].r;
    char line[256];
    std::snprintf(line, sizeof line, "%zu %.9g %.9g %.9g %.9g %.9g\n", i, r.a_value, r.b_value, r.ratio,
                  std::isfinite(r.ratio_low) ? r.ratio_low : r.ratio, std::isfinite(r.ratio_high) ? r.ratio_high : r.ratio);
    o += line;
  }
  o += "EOD\n";
  std::string tics;
  const size_t every = std::max<size_t>(1, rows.size() / 40);
  for (size_t i = 0; i < rows.size(); i += every) tics += (tics.empty() ? "" : ", ") + gp_quoted(rows[i].qa->name) + " " + std::to_string(i);
  o += "set multiplot layout 2,1 title 'mpilat-compare: B against A'\nset grid\nset key outside top right\n";
  o += "set xtics (" + tics + ") rotate by 30 right font ',8'\nset xrange [-0.5:" + std::to_string(rows.size()) + "-0.5]\n";
  o += "set ylabel 'value (each group: median of its launches)'\nset logscale y\n";
  o += "plot $d using 1:2 with points pt 7 lc rgb '#0969da' title 'A', $d using 1:3 with points pt 5 lc rgb '#cf222e' title 'B'\n";
  o += "unset logscale y\nset ylabel 'B / A with its interval'\n";
  o += "plot $d using 1:4:5:6 with yerrorbars pt 7 lc rgb '#1a7f37' title 'B/A', 1 with lines dt 2 lc rgb '#6e7781' title 'no difference'\n";
  o += "unset multiplot\n";
  return o;
}

int run(const std::vector<std::string> &a_files, const std::vector<std::string> &b_files, const std::string &outdir,
        const lat_compare_options &opts, bool plot, const std::string &command_line) {
  // A launch is a file: one file given twice (by two names, or in both groups) would count as two launches.
  std::map<std::pair<dev_t, ino_t>, std::string> seen;
  for (const std::vector<std::string> *group : {&a_files, &b_files})
    for (const std::string &f : *group) {
      struct stat st;
      if (stat(f.c_str(), &st) != 0) continue;  // read_launch says why
      const auto [at, fresh] = seen.emplace(std::make_pair(st.st_dev, st.st_ino), f);
      if (!fresh) throw BadInput("'" + at->second + "' and '" + f + "' are one file: give each launch once");
    }
  std::vector<Launch> a, b;
  for (const std::string &f : a_files) a.push_back(read_launch(f));
  for (const std::string &f : b_files) b.push_back(read_launch(f));
  std::vector<std::string> notes;
  std::vector<const Launch *> all;
  for (const Launch &l : a) all.push_back(&l);
  for (const Launch &l : b) all.push_back(&l);
  check_alike(all, notes);
  // A refusal from here on removes the directories this made (main's catch, driver_outdir_unmake).
  if (driver_outdir_make(outdir.c_str()) != LAT_SUCCESS) throw BadInput(std::string("--outdir: ") + lat_last_error_message());
  const std::vector<Quantity> qa = gather(a, notes);
  json j;
  j["format"] = "mpilat-compare";
  j["format_version"] = 1;
  j["kind"] = a.front().kind;
  j["command_line"] = command_line;
  j["group_a"] = a_files;
  j["options"] = {{"confidence", opts.confidence},
                  {"method", "3 launches or more a group: the exact rank interval (Hodges-Lehmann, Mann-Whitney) of the "
                             "ratio over the launch values; fewer: order statistics over the pooled trials, no verdict"}};
  std::string table, csv;
  std::vector<std::pair<std::string, std::string>> files;
  if (b.empty()) {
    // One group: which spread dominates.
    if (a.size() < 2) notes.push_back("NOTE: one launch: the spread between launches needs two or more");
    char line[512];
    std::snprintf(line, sizeof line, "%-52s %12s %14s %14s  %-34s %s\n", "quantity", "median", "between (rel)", "within (rel)",
                  "dominates", "next launch (coverage)");
    table += line;
    csv = "quantity,median,between_launches_rel,within_launch_rel,dominates,next_launch_low,next_launch_high,next_launch_coverage\n";
    json rows = json::array();
    double short_of = 1.0;  // the smallest next-launch coverage below the confidence asked
    for (const Quantity &q : qa) {
      const Spread s = spread_of(q, opts.confidence);
      std::snprintf(line, sizeof line, "%-52s %12s %14s %14s  %-34s %s\n", q.name.c_str(), number(s.median).c_str(),
                    number(s.between).c_str(), number(s.within).c_str(), s.dominates.c_str(), next_launch_text(s).c_str());
      table += line;
      csv += csv_quoted(q.name) + "," + number(s.median) + "," + number(s.between) + "," + number(s.within) + "," + s.dominates + "," +
             number(s.next_low) + "," + number(s.next_high) + "," + number(s.next_coverage) + "\n";
      std::vector<double> values;
      for (const LaunchValue &l : q.launches) values.push_back(l.value);
      rows.push_back({{"quantity", q.name}, {"launch_values", values}, {"median", json_number(s.median)},
                      {"between_launches_rel", json_number(s.between)}, {"within_launch_rel", json_number(s.within)},
                      {"dominates", s.dominates},
                      {"next_launch", {{"low", json_number(s.next_low)}, {"high", json_number(s.next_high)},
                                       {"coverage", json_number(s.next_coverage)}}}});
      if (!std::isnan(s.next_coverage) && s.next_coverage < opts.confidence) short_of = std::min(short_of, s.next_coverage);
    }
    if (short_of < 1.0) {
      char note[320];
      std::snprintf(note, sizeof note, "NOTE: the next launch: %zu launches put it within their [min, max] with %.1f %% only, not the "
                    "%g %% asked (--confidence): that needs %.0f launches or more", a.size(), 100.0 * short_of,
                    100.0 * opts.confidence, std::ceil(2.0 / (1.0 - opts.confidence) - 1.0 - 1e-9));
      notes.push_back(note);
    }
    j["mode"] = "spread of one group";
    j["definitions"] = "between: (max - min) / median of the launch values; within: the median over launches of half the "
                       "width of the interval of the launch's quantity against itself (order statistics, 97.5 % each side), "
                       "about the relative width of its interval; the larger dominates; next_launch: where one more launch falls with "
                       "probability coverage, distribution-free for launches alike: [x_(j), x_(n+1-j)] of the n launch values, "
                       "coverage (n+1-2j)/(n+1), j the largest reaching the confidence (else j = 1)";
    j["spread"] = rows;
  } else {
    j["group_b"] = b_files;
    j["mode"] = "B against A";
    const std::vector<Quantity> qb = gather(b, notes);
    if (a.size() < 3 || b.size() < 3)
      notes.push_back("WARNING: fewer than 3 launches in a group: intervals are over trials (where the files hold them) and "
                      "cannot show the variation between launches, which on shared machines is far larger; take 3 or more");
    std::map<std::string, const Quantity *> by_name;
    for (const Quantity &q : qb) by_name[q.name] = &q;
    std::vector<Row> rows;
    for (const Quantity &q : qa) {
      auto it = by_name.find(q.name);
      if (it == by_name.end()) {
        notes.push_back("NOTE: '" + q.name + "' is only in group A: left out");
        continue;
      }
      rows.push_back(compare(q, *it->second, opts));
    }
    char line[640];
    std::snprintf(line, sizeof line, "%-52s %12s %12s %9s %21s  %s\n", "quantity", "A", "B", "B/A", "interval", "verdict");
    table += line;
    csv = "quantity,a,b,ratio,ratio_low,ratio_high,confidence,verdict,method,a_count,b_count\n";
    json out = json::array();
    for (const Row &r : rows) {
      const std::string interval = "[" + number(r.r.ratio_low) + ", " + number(r.r.ratio_high) + "]";
      std::snprintf(line, sizeof line, "%-52s %12s %12s %9s %21s  %s (%s)\n", r.qa->name.c_str(), number(r.r.a_value).c_str(),
                    number(r.r.b_value).c_str(), number(r.r.ratio).c_str(), interval.c_str(), r.verdict.c_str(), r.method.c_str());
      table += line;
      csv += csv_quoted(r.qa->name) + "," + number(r.r.a_value) + "," + number(r.r.b_value) + "," + number(r.r.ratio) + "," +
             number(r.r.ratio_low) + "," + number(r.r.ratio_high) + "," + number(opts.confidence) + "," + csv_quoted(r.verdict) + "," +
             csv_quoted(r.method) + "," + std::to_string(r.r.a_count) + "," + std::to_string(r.r.b_count) + "\n";
      out.push_back({{"quantity", r.qa->name}, {"a", json_number(r.r.a_value)}, {"b", json_number(r.r.b_value)},
                     {"ratio", json_number(r.r.ratio)}, {"ratio_interval", {json_number(r.r.ratio_low), json_number(r.r.ratio_high)}},
                     {"verdict", r.verdict}, {"method", r.method}, {"a_count", r.r.a_count}, {"b_count", r.r.b_count},
                     {"higher_is_slower", r.qa->higher_is_slower}});
    }
    j["comparisons"] = out;
    if (plot && !rows.empty()) files.push_back({"compare.gp", compare_plot(rows)});
  }
  j["notes"] = notes;
  // A file name is the user's bytes: one that is not UTF-8 (Latin-1) shows as U+FFFD in the JSON, which holds
  // nothing else (the table and the CSV keep the bytes); the strict dump aborted the program.
  files.insert(files.begin(), {{"compare.json", j.dump(2, ' ', false, json::error_handler_t::replace) + "\n"}, {"compare.csv", csv}});
  for (const std::string &n : notes) std::fprintf(stderr, "mpilat-compare: %s\n", n.c_str());
  std::fputs(table.c_str(), stdout);
  std::vector<const char *> names, contents;
  for (const auto &[n, c] : files) names.push_back(n.c_str()), contents.push_back(c.c_str());
  if (const int wrote = lat_write_report_files(outdir.c_str(), static_cast<int>(files.size()), names.data(),
                                               contents.data(), plot ? 1 : 0);
      wrote != LAT_SUCCESS) {
    std::fprintf(stderr, "mpilat-compare: error: %s\n", lat_last_error_message());
    driver_outdir_unmake();  // only while empty: the files are written whole or not at all
    return wrote == LAT_ERR_ARG ? 2 : 1;
  }
  std::fflush(stdout);
  std::fprintf(stdout, "mpilat-compare: wrote compare.json, compare.csv%s in %s\n",
               files.size() > 2 ? " and compare.png/.svg" : "", outdir.empty() ? "." : outdir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  // Group B follows "--". CLI11 ends its options at "--", so the first "--" becomes --vs, an option that takes
  // group B's files (options may still follow them).
  std::vector<std::string> args;
  bool split = false;
  for (int k = argc - 1; k >= 1; --k) args.emplace_back(argv[k]);  // CLI11 parses a reversed vector
  for (auto it = args.rbegin(); it != args.rend(); ++it)
    if (*it == "--") {
      *it = "--vs";
      split = true;
      break;
    }
  std::vector<std::string> b_files;
  CLI::App app{"mpilat-compare: two groups of mpilat results (JSON of latency, mpptest, queuelat, mmpi, nodecomm, mpilat-coll), compared\n"
               "with the launch as the unit. usage: mpilat-compare [options] A1.json A2.json ... [-- B1.json B2.json ...]"};
  lat_compare_options opts;
  lat_compare_defaults(&opts);
  show_defaults(app);
  std::vector<std::string> a_files;
  std::string outdir = ".";
  bool noplot = false;
  app.add_option("files", a_files, own_option_help("mpilat-compare", "files"))->required();
  app.add_option("--outdir", outdir, own_option_help("mpilat-compare", "--outdir"));
  spec_option<&lat_compare_options::confidence>(app, "mpilat-compare", opts);
  app.add_flag("--noplot", noplot, own_option_help("mpilat-compare", "--noplot"));
  app.add_option("--vs", b_files, own_option_help("mpilat-compare", "--vs"))->expected(0, -1);
  // "A B --vs": a group B asked for and left empty (CLI11 counts no result for a bare --vs).
  const bool vs_given = std::find(args.begin(), args.end(), "--vs") != args.end();
  const int status = parse_options(app, [&] { app.parse(args); }, 0, "mpilat-compare");
  if (status >= 0) return status;
  if (vs_given && b_files.empty()) {
    std::fprintf(stderr, "mpilat-compare: error: no files after \"%s\" (group B)\n", split ? "--" : "--vs");
    return 2;
  }
  if (!noplot && !driver_plotter_usable("mpilat-compare", "--noplot")) return DRIVER_BAD_INPUT;
  if (lat_compare_check(&opts) != LAT_SUCCESS) {  // the library's checks of the options
    std::fprintf(stderr, "mpilat-compare: error: %s\n", lat_last_error_message());
    return 2;
  }
  if (driver_show_options_asked()) {  // the options it would compare with, no file read
    driver_show(opts);
    return DRIVER_DONE;
  }
  try {
    const int done = run(a_files, b_files, outdir, opts, !noplot, command_line_of(argc, argv));
    return done == DRIVER_DONE ? driver_stdout_status("mpilat-compare") : done;
  } catch (const BadInput &e) {
    std::fprintf(stderr, "mpilat-compare: error: %s\n", e.what());
    driver_outdir_unmake();  // the --outdir it made, if any, while empty
    return 2;
  } catch (const MemoryShort &e) {  // refused before parsing: nlohmann-json would abort, not throw
    std::fprintf(stderr, "mpilat-compare: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc &) {  // a memory limit (ulimit -v) below what the files need: said, not an abort
    std::fprintf(stderr, "mpilat-compare: error: out of memory reading or comparing the files\n");
    driver_outdir_unmake();
    return 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "mpilat-compare: internal error: %s\n", e.what());
    driver_outdir_unmake();
    return 1;
  }
}
