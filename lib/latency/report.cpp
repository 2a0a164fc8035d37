#include "latency/report.hpp"

#include "latency/run_levels.hpp"

#include <mpi.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "common/clock.hpp"
#include "common/report_text.hpp"
#include "common/error.hpp"
#include "common/staged_files.hpp"

namespace lat {

namespace {


// ---- the sections shared by latency.output and latency.summary.output -------------------------------

const char *partial_cause(const lat_pingpong_result &p) {
  switch (p.partial) {
    case LAT_COMPLETE: return "complete";
    case LAT_PARTIAL_STOPPED: return "stop request";
    case LAT_PARTIAL_TIMEOUT: return "timeout";
    default: return "unknown";
  }
}

void partial_banner(std::string &o, const lat_pingpong_result &p) {
  if (!p.partial) return;
  append(o, "*** PARTIAL RESULTS: the run was stopped ({}) after {} of {} timing trials ***\n\n",
          p.partial == LAT_PARTIAL_TIMEOUT ? "a peer did not answer within the timeout"
                                           : "a stop request: SIGTERM, SIGINT or lat_request_stop()",
          p.ntrial_done, p.ntrial);
}

void parameters(std::string &o, const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  append(o, "PROGRAM PARAMETERS\n\n");
  append(o, "Number of MPI processes used = {}\n", p.nprocs);
  append(o, "Ping pongs are between processors of rank source and dest where\n");
  append(o, "  source = {}\n  dest = {}\n\n", p.source, p.dest);
  append(o, "Number of timing trials used for parts 1, 2 & 3 are:\n\n");
  append(o, "nr = {}\n", r.timer ? r.timer->nr : 0);
  if (p.npp_calculated > 0)
    append(o, "npptrial = {}\n", p.npptrial);
  else
    append(o, "npptrial = 0 (npp was given, part 2 not run)\n");
  append(o, "ntrial = {}\n\n", p.ntrial_done);
  if (p.n >= 0)
    append(o, "Message size(# of 8-bytes els) = {}\n\n", p.n);
  else
    append(o, "Message size(# of bytes) = {}\n\n", p.bytes);
  append(o, "Number of ping pongs in a timing loop (npp):\n\n");
  if (p.npp_calculated > 0)
    append(o, "calculated value of npp = {}\n", p.npp_calculated);
  else
    append(o, "calculated value of npp = not calculated (npp was given)\n");
  append(o, "value of npp used = {}\n\n", p.npp_used);
}

void times(std::string &o, const char *title, const lat_stats &s) {
  append(o, "{}\n\n", title);
  append(o, "minimum time = {:.4f}\nmedian time = {:.4f}\naverage time = {:.4f}\nmaximum time = {:.4f}\n\n", s.min_us,
          s.median_us, s.mean_us, s.max_us);
}

void statistics(std::string &o, const char *title, const lat_stats &s) {
  append(o, "{}\n\n", title);
  append(o, "variance = {}\n", fortran_e(s.variance_us2));
  append(o, "standard deviation = {}\n", fortran_e(s.stddev_us));
  append(o, "coefficient of variation = {}\n", fortran_e(s.cv_percent));
  append(o, "standard error = {}\n", fortran_e(s.stderr_us));
  append(o, "relative standard error = {}\n\n", fortran_e(s.rse));
}

void rates(std::string &o, const char *title, const lat_stats &s) {
  append(o, "{}\n\n", title);
  append(o, "communication rate using minimum time = {}\n", fortran_e(s.rate_min_mbs));
  append(o, "communication rate using median time = {}\n", fortran_e(s.rate_median_mbs));
  append(o, "communication rate using average time = {}\n", fortran_e(s.rate_mean_mbs));
  append(o, "communication rate using maximum time = {}\n\n", fortran_e(s.rate_max_mbs));
}

void filter_counts(std::string &o, const lat_pingpong_result &p) {
  append(o, "FILTERED DATA RESULTS FROM PART 5\n\n");
  append(o, "filtering cut-off coefficient = {:.4f}\n", p.cut_coef);
  append(o, "timing trials after filtering = {}\n", p.n_kept);
  append(o, "# of timings removed by filtering = {}\n\n", p.n_removed);
}

void program_time(std::string &o, const LatencyReport &r) {
  append(o, "program time in minutes = {}\n", fortran_e(r.program_seconds / 60.0));
}

// Our addition after Appendix C's last line: the timer actually used, so no number comes unexplained.
void timer_used(std::string &o, const lat_timer_result *t) {
  if (t == nullptr) return;
  append(o, "\nTIMER USED\n\n");
  append(o, "timer = {}\n", timer_name(t->timer));
  append(o, "resolution of the timer (res_timing) in microseconds = {:.4f}\n", t->res_timing_us);
  append(o, "minimum timing overhead (min_ov) in microseconds = {:.4f}\n", t->min_ov_us);
}

void frequency_table(std::string &o, const Distribution &d) {
  for (size_t i = 0; i < d.values.size(); ++i)
    append(o, "time = {:.3f} with frequency = {}\n", d.values[i], d.counts[i]);
}

}  // namespace

std::string fortran_e(double x, int digits) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  std::string mant(static_cast<size_t>(digits), '0');
  int exponent = 0;
  if (x != 0.0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, std::fabs(x));  // "1.463e-01"
    mant.clear();
    const char *c = buf;
    for (; *c != 'e'; ++c)
      if (*c != '.') mant.push_back(*c);
    exponent = std::atoi(c + 1) + 1;
  }
  char out[64];
  std::snprintf(out, sizeof out, "%s0.%sE%c%02d", x < 0 ? "-" : "", mant.c_str(), exponent < 0 ? '-' : '+',
                std::abs(exponent));
  return out;
}

namespace {

/// The levels and warnings of a run, from the chunks when there are (else from the result's own fields).
std::vector<std::string> warning_lines(const LatencyReport &r, std::vector<RunLevel> *levels_out) {
  const lat_pingpong_result &p = *r.pp;
  std::vector<RunLevel> levels;
  if (r.chunks != nullptr && !r.chunks->empty()) {
    levels = run_levels(*r.chunks);
  } else {
    for (int g = 0; g < p.nlevels && g < LAT_MAX_LEVELS; ++g) {
      RunLevel l;
      l.median_us = p.level_us[g];
      l.share = p.level_share[g];
      levels.push_back(l);
    }
  }
  std::vector<std::string> lines;
  run_warnings(levels, p.n_removed, p.all.count, &lines);
  if (levels_out != nullptr) *levels_out = std::move(levels);
  return lines;
}

/// The end of latency.output: the run over time (chunks, their levels) and any WARNING lines.
void run_over_time(std::string &o, const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  std::vector<RunLevel> levels;
  const std::vector<std::string> lines = warning_lines(r, &levels);
  append(o, "\nTHE RUN OVER TIME (CHUNKS OF ~0.25 S OF TRIALS; TIMES ONE WAY IN MICROSECONDS)\n\n");
  append(o, "chunks = {}\nlevels of the chunk medians = {}\n", p.nchunks, levels.size());
  for (const RunLevel &l : levels) append(o, "level: median = {:.4f}, share of the trials = {:.1f} %\n", l.median_us, 100.0 * l.share);
  if (r.chunks != nullptr && !r.chunks->empty()) {
    append(o, "\n{:>12} {:>10} {:>10} {:>12} {:>12}\n", "first trial", "trials", "start s", "min", "median");
    for (const TrialChunk &c : *r.chunks)
      append(o, "{:>12} {:>10} {:>10.2f} {:>12.4f} {:>12.4f}\n", c.first_trial, c.count, c.start_s, c.min_us, c.median_us);
  }
  for (const std::string &line : lines) append(o, "\n{}\n", line);
}

}  // namespace

std::string summary_text(const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  std::string o;
  partial_banner(o, p);
  parameters(o, r);
  times(o, "TIMING RESULTS FOR PING PONG TIMES DIVIDED BY TWO IN MICROSECONDS", p.all);
  statistics(o, "STATISTICS FOR PING PONG TIMES", p.all);
  rates(o, "COMMUNICATION RATE RESULTS IN MBYTES/SECOND", p.all);
  filter_counts(o, p);
  times(o, "FILTERED TIMING RESULTS FOR PING PONG TIMES DIVIDED BY TWO IN MICROSECONDS", p.filtered);
  statistics(o, "STATISTICS FOR FILTERED TIMINGS", p.filtered);
  program_time(o, r);
  timer_used(o, r.timer);
  return o;
}

std::string full_text(const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  std::string o;
  partial_banner(o, p);
  parameters(o, r);

  if (r.timer != nullptr) {
    const lat_timer_result &t = *r.timer;
    append(o, "PART 1: RESOLUTION AND OVERHEAD OF THE TIMER IN MICROSECONDS\n\n");
    append(o, "timer = {}\n", timer_name(t.timer));
    append(o, "number of timer pairs measured (nr) = {}\n", t.nr);
    append(o, "minimum time = {:.4f}\nmedian time = {:.4f}\naverage time = {:.4f}\nmaximum time = {:.4f}\n", t.min_us,
            t.median_us, t.mean_us, t.max_us);
    append(o, "standard deviation = {:.4f}\n", t.stddev_us);
    append(o, "resolution of the timer (res_timing) = {:.4f}\n", t.res_timing_us);
    append(o, "minimum timing overhead (min_ov) = {:.4f}\n", t.min_ov_us);
    append(o, "clock tick reported by the system = {:.4f}\n", t.tick_us);
    append(o, "times equal to zero = {}\n", t.n_zero);
    append(o, "times below zero (not binned) = {}\n\n", t.n_negative);
    append(o, "DISTRIBUTION OF TIMES FROM THE TIMER OVERHEAD MEASUREMENTS IN PART 1:\n\n");
    for (int b = 0; b < LAT_NBINS - 1; ++b)
      append(o, "{:.2f} <= times < {:.2f} with count = {}\n", b * LAT_BIN_WIDTH_US, (b + 1) * LAT_BIN_WIDTH_US,
              t.bin_count[b]);
    append(o, "{:.2f} <= times with count = {}\n\n", (LAT_NBINS - 1) * LAT_BIN_WIDTH_US,
            t.bin_count[LAT_NBINS - 1]);
    if (r.timer_dist != nullptr) {
      append(o, "FREQUENCY OF TIMES FROM THE TIMER OVERHEAD MEASUREMENTS IN PART 1:\n\n");
      frequency_table(o, *r.timer_dist);
      append(o, "\n");
    }
  }

  append(o, "PART 2: ESTIMATING THE NUMBER OF PING PONGS IN A TIMING LOOP (npp)\n\n");
  if (p.npp_calculated > 0) {
    append(o, "npp_init = {}\nnpptrial = {}\nres_npp = {}\n", p.npp_init, p.npptrial, p.res_npp);
    append(o, "median time of one ping pong (median_ppt) in microseconds = {:.4f}\n", p.median_ppt_us);
    append(o, "npp = nint(max(1, res_npp * res_timing / median_ppt)) = {}\n\n", p.npp_calculated);
  } else {
    append(o, "not run: npp was given as {}\n\n", p.npp_used);
  }

  append(o, "PART 3: PING PONG TIMES WITH {} PING PONGS IN A TIMING LOOP\n\n", p.npp_used);
  times(o, "TIMING RESULTS FOR PING PONG TIMES DIVIDED BY TWO IN MICROSECONDS", p.all);
  statistics(o, "STATISTICS FOR PING PONG TIMES", p.all);
  rates(o, "COMMUNICATION RATE RESULTS IN MBYTES/SECOND", p.all);

  if (r.pp_dist != nullptr) {
    append(o, "PART 4: DISTRIBUTION OF PING PONG TIMES\n\n");
    append(o, "MEASURED TIMINGS AND THEIR FREQUENCY IN MICROSECONDS\n\n");
    frequency_table(o, *r.pp_dist);
    append(o, "\n");
  }

  append(o, "PART 5: FILTERED DATA\n\n");
  filter_counts(o, p);
  append(o, "filtering cut-off time in microseconds = {:.4f}\n\n", p.cut_off_us);
  times(o, "FILTERED TIMING RESULTS FOR PING PONG TIMES DIVIDED BY TWO IN MICROSECONDS", p.filtered);
  statistics(o, "STATISTICS FOR FILTERED TIMINGS", p.filtered);
  rates(o, "COMMUNICATION RATE RESULTS FOR FILTERED TIMINGS IN MBYTES/SECOND", p.filtered);
  program_time(o, r);
  timer_used(o, r.timer);
  run_over_time(o, r);
  return o;
}

namespace {

nlohmann::json stats_json(const lat_stats &s) {
  return {{"count", s.count},
          {"min_us", s.min_us},
          {"median_us", s.median_us},
          {"mean_us", s.mean_us},
          {"max_us", s.max_us},
          {"variance_us2", s.variance_us2},
          {"stddev_us", s.stddev_us},
          {"cv_percent", s.cv_percent},
          {"stderr_us", s.stderr_us},
          {"rse", s.rse},
          {"rate_min_mbs", s.rate_min_mbs},
          {"rate_median_mbs", s.rate_median_mbs},
          {"rate_mean_mbs", s.rate_mean_mbs},
          {"rate_max_mbs", s.rate_max_mbs}};
}

nlohmann::json table_json(const Distribution &d) {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < d.values.size(); ++i) rows.push_back({d.values[i], d.counts[i]});
  return rows;
}

}  // namespace

std::string json_text(const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  nlohmann::json j;
  j["format"] = "mpilat-latency";
  j["format_version"] = 1;
  j["run"] = {{"date_utc", utc_now()},
              {"command_line", r.command_line},
              {"mpilat_version", MPILAT_VERSION_STRING},
              {"api_version", LAT_API_VERSION},
              {"mpi_library_version", mpi_library_version()},
              {"nprocs", p.nprocs},
              {"program_seconds", r.program_seconds},
              {"partial", p.partial != 0},
              {"partial_cause", partial_cause(p)},
              {"ntrial_requested", p.ntrial},
              {"ntrial_done", p.ntrial_done}};
  j["source"] = {{"rank", p.source}, {"host", std::string(p.source_host)}};
  j["dest"] = {{"rank", p.dest}, {"host", std::string(p.dest_host)}};
  j["message"] = {{"bytes", p.bytes}, {"elements_8byte", p.n >= 0 ? nlohmann::json(p.n) : nlohmann::json()}};
  if (r.timer != nullptr) {
    const lat_timer_result &t = *r.timer;
    nlohmann::json bins = nlohmann::json::array();
    for (int b = 0; b < LAT_NBINS; ++b)
      bins.push_back({{"lower_us", b * LAT_BIN_WIDTH_US},
                      {"upper_us", b + 1 < LAT_NBINS ? nlohmann::json((b + 1) * LAT_BIN_WIDTH_US) : nlohmann::json()},
                      {"count", t.bin_count[b]}});
    j["timer"] = {{"name", timer_name(t.timer)},
                  {"rank", t.rank},
                  {"nr", t.nr},
                  {"nr_requested", t.nr_requested},
                  {"res_timing_us", t.res_timing_us},
                  {"min_ov_us", t.min_ov_us},
                  {"tick_us", t.tick_us},
                  {"min_us", t.min_us},
                  {"median_us", t.median_us},
                  {"mean_us", t.mean_us},
                  {"max_us", t.max_us},
                  {"stddev_us", t.stddev_us},
                  {"n_zero", t.n_zero},
                  {"n_negative", t.n_negative},
                  {"bins", bins}};
    if (r.timer_dist != nullptr) j["timer"]["frequencies"] = table_json(*r.timer_dist);
  }
  j["npp"] = {{"calculated", p.npp_calculated > 0 ? nlohmann::json(p.npp_calculated) : nlohmann::json()},
              {"used", p.npp_used},
              {"npp_init", p.npp_init},
              {"npptrial", p.npptrial},
              {"res_npp", p.res_npp},
              {"median_ppt_us", p.median_ppt_us}};
  j["pingpong"] = {{"units", "microseconds, ping-pong time divided by two; rates in MB/s (10^6 bytes/s)"},
                   {"all", stats_json(p.all)}};
  if (r.pp_dist != nullptr) j["pingpong"]["frequencies"] = table_json(*r.pp_dist);
  std::vector<RunLevel> levels;
  const std::vector<std::string> warnings = warning_lines(r, &levels);
  nlohmann::json lv = nlohmann::json::array();
  for (const RunLevel &l : levels) {
    nlohmann::json spans = nlohmann::json::array();
    for (const auto &[a, b] : l.spans) spans.push_back({a, b});
    lv.push_back({{"median_us", l.median_us}, {"trials", l.trials}, {"share", l.share}, {"spans_s", spans}});
  }
  nlohmann::json rows = nlohmann::json::array();
  if (r.chunks != nullptr)
    for (const TrialChunk &c : *r.chunks) rows.push_back({c.first_trial, c.count, c.start_s, c.end_s, c.min_us, c.median_us});
  j["run_over_time"] = {{"chunks", {{"columns", {"first_trial", "trials", "start_s", "end_s", "min_us", "median_us"}}, {"rows", rows}}},
                        {"nchunks", p.nchunks},
                        {"levels", lv}};
  j["warnings"] = warnings;
  j["filtered"] = {{"cut_coef", p.cut_coef},
                   {"cut_off_us", p.cut_off_us},
                   {"kept", p.n_kept},
                   {"removed", p.n_removed},
                   {"stats", stats_json(p.filtered)}};
  return j.dump(2) + "\n";
}

void write_latency_files(const std::string &outdir, const LatencyReport &r) {
  if (r.pp == nullptr) throw ArgError("pp must not be NULL");
  write_files_whole({{join_path(outdir, "latency.output"), full_text(r)},
                     {join_path(outdir, "latency.summary.output"), summary_text(r)},
                     {join_path(outdir, "latency.json"), json_text(r)}});
}

}  // namespace lat
