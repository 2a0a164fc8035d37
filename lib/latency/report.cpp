#include "latency/report.hpp"
#include "common/report_json.hpp"

#include "common/run_levels.hpp"

#include <mpi.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "common/clock.hpp"
#include "common/report_text.hpp"
#include "common/error.hpp"
#include "common/staged_files.hpp"
#include "common/plot.hpp"
#include "generated/spec_json.hpp"

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

const char *phase_name(int phase) {
  switch (phase) {
    case LAT_PHASE_CALIBRATION: return "the timer calibration (part 1)";
    case LAT_PHASE_ESTIMATE: return "the npp estimate (part 2)";
    case LAT_PHASE_TRIALS: return "the timing trials (part 3)";
    default: return "";
  }
}

/// A run stopped before its first trial: nothing of parts 3-5 exists, and the files say only what was done.
bool no_trials(const lat_pingpong_result &p) { return p.partial != LAT_COMPLETE && p.ntrial_done == 0; }

void partial_banner(std::string &o, const lat_pingpong_result &p) {
  if (!p.partial) return;
  const char *cause = p.partial == LAT_PARTIAL_TIMEOUT ? "a peer did not answer within the timeout"
                                                       : "a stop request: SIGTERM, SIGINT or lat_request_stop()";
  if (no_trials(p))
    append(o, "*** PARTIAL RESULTS: the run was stopped ({}) during {}, before any timing trial was measured ***\n\n", cause,
           phase_name(p.stopped_in));
  else
    append(o, "*** PARTIAL RESULTS: the run was stopped ({}) after {} of {} timing trials ***\n\n", cause, p.ntrial_done,
           p.ntrial);
}

/// The head of the parameters (Appendix C's first lines): processes, source and dest.
void processes(std::string &o, const char *title, const lat_pingpong_result &p) {
  append(o, "{}\n\n", title);
  append(o, "Number of MPI processes used = {}\n", p.nprocs);
  append(o, "Ping pongs are between processors of rank source and dest where\n");
  append(o, "  source = {}\n  dest = {}\n\n", p.source, p.dest);
}

/// What a run stopped before its first trial did: the parameters as far as it got, no times (there are none).
void parameters_before_trials(std::string &o, const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  processes(o, "PROGRAM PARAMETERS (AS FAR AS THE RUN GOT)", p);
  if (p.n >= 0)
    append(o, "Message size(# of 8-bytes els) = {}\n", p.n);
  else
    append(o, "Message size(# of bytes) = {}\n", p.bytes);
  if (r.timer != nullptr)
    append(o, "timer pairs measured in part 1 = {} of nr = {}\n", r.timer->nr, r.timer->nr_requested);
  if (p.stopped_in == LAT_PHASE_ESTIMATE)
    append(o, "npp estimate (part 2) = stopped after {} timing loops of npp_init = {} ping pongs\n", p.npptrial, p.npp_init);
  else if (p.stopped_in == LAT_PHASE_CALIBRATION)
    append(o, "npp estimate (part 2) = not begun\n");
  append(o, "timing trials measured = 0\n\n");
  append(o, "NO TIMING TRIAL WAS MEASURED: there are no ping-pong times, statistics, rates or distribution to report.\n\n");
}

bool run_quiet(const lat_pingpong_result &p) {
  return p.nchunks >= LAT_PRECISION_MIN_CHUNKS && p.nlevels <= 1 && p.nchanges == 0;
}

const char *run_end_name(int end) {
  switch (end) {
    case LAT_END_TIME: return "time";
    case LAT_END_PRECISION: return "precision";
    case LAT_END_UNREACHABLE: return "unreachable";
    default: return "trials";
  }
}

/// The lines' placement in words: a level a launch draws once, which this launch cannot show (a diagnostic,
/// never part of the interval), or why the probe did not run.
std::string placement_words(const lat_pingpong_result &p) {
  if (p.placement_lines > 0)
    return fmt::format("a level drawn once per launch: a one-way time through {} lines of shared memory spread {:.1f} % here, so "
                       "launches will differ by more than this interval; mpilat-campaign states the median over launches",
                       p.placement_lines, p.placement_sd_pct);
  return (p.shared & LAT_SHARE_NODE) != 0
             ? "the placement probe did not run (its pair did not answer within its second: a loaded machine, or source and dest on one "
               "processor); "
               "launches may differ by more than this interval; mpilat-campaign states the median over launches"
             : "the placement probe did not run (source and dest on two nodes); launches may differ by more than this interval; "
               "mpilat-campaign states the median over launches";
}

/// The interval within this launch: its ends in microseconds around the median, null where unbounded.
nlohmann::json within_interval_json(const lat_pingpong_result &p) {
  if (!(p.median_ci_half_pct <= 100.0)) return nullptr;
  const double m = p.all.median_us, h = m * p.median_ci_half_pct / 100.0;
  return nlohmann::json::array({m - h, m + h});
}

/// --precision: what ended the trials, and the median's interval within this launch (nothing without it).
void precision_line(std::string &o, const lat_pingpong_result &p) {
  if (!(p.precision_pct > 0.0) || p.partial != LAT_COMPLETE) return;
  const std::string within = fmt::format("the median's 95 % interval within this launch (from {} batch medians) is {}",
                                         LAT_PRECISION_BATCHES, half_width_text(p.median_ci_half_pct));
  if (p.ended_by == LAT_END_PRECISION) {
    append(o, "the trials ended on --precision {}: {} of the median and the run over time is quiet. It says nothing of other "
              "launches: {}\n\n",
           p.precision_pct, within, placement_words(p));
    return;
  }
  const bool minutes_first = p.minutes > 0.0 && 60.0 * p.minutes <= p.precision_limit_s;
  append(o, "the trials ended at {} before --precision {} was met (PRECISION NOT MET): {}{}. {}\n\n",
         p.ended_by != LAT_END_TIME ? std::string("ntrial")
         : minutes_first            ? std::string("the time limit (--minutes)")
                                    : fmt::format("the time limit ({} s: --precision-limit)", p.precision_limit_s),
         p.precision_pct, within,
         run_quiet(p) ? "" : fmt::format(" and the run over time is not quiet ({} levels, {} state changes, {} chunks)",
                                         p.nlevels, p.nchanges, p.nchunks),
         placement_words(p));
}

void parameters(std::string &o, const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  processes(o, "PROGRAM PARAMETERS", p);
  append(o, "Number of timing trials used for parts 1, 2 & 3 are:\n\n");
  append(o, "nr = {}\n", r.timer ? r.timer->nr : 0);
  append(o, "npptrial = {}\n", p.npptrial);  // 0: Part 2 skipped (estimate = 0); why: latency.output, JSON
  append(o, "ntrial = {}\n\n", p.ntrial_done);
  precision_line(o, p);
  if (p.n >= 0)
    append(o, "Message size(# of 8-bytes els) = {}\n\n", p.n);
  else
    append(o, "Message size(# of bytes) = {}\n\n", p.bytes);
  append(o, "Number of ping pongs in a timing loop (npp):\n\n");
  append(o, "calculated value of npp = {}\n", p.npp_calculated);  // 0: not calculated
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

/// Decimals that print values step apart as different numbers (at least 3, Appendix A's): every value of
/// a table keyed on clock ticks then stands once, with its whole count.
int decimals_for(double step_us) {
  if (!(step_us > 0.0)) return 3;
  return std::clamp(static_cast<int>(std::ceil(-std::log10(step_us) - 1e-9)), 3, 12);
}

void frequency_table(std::string &o, const Distribution &d, double step_us) {
  const int decimals = decimals_for(step_us);
  for (size_t i = 0; i < d.values.size(); ++i)
    append(o, "time = {:.{}f} with frequency = {}\n", d.values[i], decimals, d.counts[i]);
}

/// The step between two neighbouring one-way times of the run: one clock unit over 2 npp.
double one_way_step_us(const lat_pingpong_result &p) {
  return p.npp_used > 0 ? p.unit_us / (2.0 * static_cast<double>(p.npp_used)) : 0.0;
}

std::string interval_end(double x) {
  if (std::isinf(x)) return x > 0 ? "unbounded above (too few trials)" : "unbounded below (too few trials)";
  return fmt::format("{:.4f}", x);
}

/// Percentiles and the 95 % intervals of the median and p99 (not in the paper; after Part 3 and Part 5).
/// Each percentile is one of the times, printed with the decimals of the clock's one-way step (as the tables).
void percentiles(std::string &o, const char *title, const lat_quantiles &q, int64_t count, double step_us) {
  append(o, "{}\n\n", title);
  if (count == 0) {
    append(o, "no trials\n\n");
    return;
  }
  const int decimals = std::max(4, decimals_for(step_us));
  for (int i = 0; i < LAT_NPERCENTILES; ++i) append(o, "p{} = {:.{}f}\n", q.level[i], q.p_us[i], decimals);
  append(o, "95 % confidence interval of the median = {} to {} (of this launch's trials)\n", interval_end(q.median_ci_us[0]),
         interval_end(q.median_ci_us[1]));
  append(o, "95 % confidence interval of p99 = {} to {}\n\n", interval_end(q.p99_ci_us[0]), interval_end(q.p99_ci_us[1]));
}

std::string known_text(int v) { return v >= 0 ? std::to_string(v) : std::string("unknown"); }

std::string share_text(int bits, int known_bit, int share_bit) {
  if (!(bits & known_bit)) return "unknown";
  return (bits & share_bit) ? "yes" : "no";
}

/// Where source and dest ran (hwloc, as mmpi reports it), and what they share.
void where_ranks_ran(std::string &o, const lat_pingpong_result &p) {
  append(o, "\nWHERE THE RANKS RAN\n\n");
  for (const auto &[role, pl] : {std::pair<const char *, const lat_rank_place *>{"source", &p.source_place}, {"dest", &p.dest_place}})
    append(o, "{} = rank {}, host {}, processors {}, core {}, socket {}, numa node {}, node {}\n", role, pl->rank, pl->host,
           pl->cpus[0] ? pl->cpus : "unknown", known_text(pl->core), known_text(pl->socket), known_text(pl->numa), pl->node);
  append(o, "share a node = {}\n", (p.shared & LAT_SHARE_NODE) ? "yes" : "no");
  append(o, "share a socket = {}\n", share_text(p.shared, LAT_SHARE_KNOWN_SOCKET, LAT_SHARE_SOCKET));
  append(o, "share a core = {}\n", share_text(p.shared, LAT_SHARE_KNOWN_CORE, LAT_SHARE_CORE));
  if (!(p.shared & LAT_SHARE_KNOWN_CORE) && (p.shared & LAT_SHARE_NODE))
    append(o, "(a rank not bound to one core may share one with its partner at times: bind them, e.g. mpiexec -bind-to core)\n");
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

/// The levels, state changes and warnings of a run, from the chunks when there are (else from the result's
/// own fields).
std::vector<std::string> warning_lines(const LatencyReport &r, std::vector<RunLevel> *levels_out,
                                       std::vector<StateChange> *changes_out = nullptr) {
  const lat_pingpong_result &p = *r.pp;
  std::vector<RunLevel> levels;
  std::vector<StateChange> changes;
  if (r.chunks != nullptr && !r.chunks->empty()) {
    levels = run_levels(*r.chunks);
    changes = state_changes(*r.chunks);
  } else {
    for (int g = 0; g < p.nlevels && g < LAT_MAX_LEVELS; ++g) {
      RunLevel l;
      l.median_us = p.level_us[g];
      l.share = p.level_share[g];
      levels.push_back(l);
    }
    for (int k = 0; k < p.nchanges && k < LAT_MAX_CHANGES; ++k)
      changes.push_back({p.change_quantity[k], p.change_start_s[k], p.change_end_s[k], p.change_before[k], p.change_after[k]});
  }
  std::vector<std::string> lines;
  run_warnings(levels, changes, p.n_removed, p.all.count, &lines);
  if (levels_out != nullptr) *levels_out = std::move(levels);
  if (changes_out != nullptr) *changes_out = std::move(changes);
  return lines;
}

/// The end of latency.output: the run over time (chunks, their levels) and any WARNING lines.
void run_over_time(std::string &o, const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  std::vector<RunLevel> levels;
  const std::vector<std::string> lines = warning_lines(r, &levels);
  std::vector<StateChange> changes;
  warning_lines(r, nullptr, &changes);
  append(o, "\nTHE RUN OVER TIME (CHUNKS OF ~{:.2f} S OF WALL CLOCK; TIMES ONE WAY IN MICROSECONDS)\n\n",
         p.chunk_target_s > 0.0 ? p.chunk_target_s : 0.25);
  append(o, "chunks = {}\nlevels of the chunk medians = {}\n", p.nchunks, levels.size());
  for (const RunLevel &l : levels) append(o, "level: median = {:.4f}, share of the trials = {:.1f} %\n", l.median_us, 100.0 * l.share);
  append(o, "state changes (median, p99 or trials per second) = {}\n", changes.size());
  for (const StateChange &c : changes)
    append(o, "state change: {} from {:.6g} to {:.6g} ({:.2f}x) from {:.2f} s to {:.2f} s\n", change_quantity_name(c.quantity),
           c.before, c.after, c.after / c.before, c.start_s, c.end_s);
  if (r.chunks != nullptr && !r.chunks->empty()) {
    append(o, "first trial of a chunk over the chunk's median (median over chunks) = {:.4f}\n", first_trial_ratio(*r.chunks));
    append(o, "\n{:>12} {:>10} {:>10} {:>10} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "first trial", "trials", "start s",
           "end s", "min", "median", "p99", "mean", "first", "trials/s");
    for (const TrialChunk &c : *r.chunks)
      append(o, "{:>12} {:>10} {:>10.2f} {:>10.2f} {:>12.4f} {:>12.4f} {:>12.4f} {:>12.4f} {:>12.4f} {:>12.0f}\n", c.first_trial,
             c.count, c.start_s, c.end_s, c.min_us, c.median_us, c.p99_us, c.mean_us, c.first_us, c.rate());
  }
  for (const std::string &line : lines) append(o, "\n{}\n", line);
}

/// latency.output from Part 2 on for a run stopped before its first trial: what the estimate measured, if it
/// began, and no Parts 3-5 (the run over time has no chunk either).
void parts_before_trials(std::string &o, const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  if (p.stopped_in == LAT_PHASE_ESTIMATE && p.npptrial > 0) {
    append(o, "stopped after {} timing loops: the figures below are of those loops\n", p.npptrial);
    append(o, "npp_init = {}\nres_npp = {}\n", p.npp_init, p.res_npp);
    append(o, "median time of one ping pong (median_ppt) in microseconds = {:.4f}\n", p.median_ppt_us);
    if (p.npp_calculated > 0)
      append(o, "npp = nint(max(1, res_npp * res_timing / median_ppt)) = {} (from those loops; no trial used it)\n",
             p.npp_calculated);
    append(o, "\n");
  } else if (p.stopped_in == LAT_PHASE_ESTIMATE) {
    append(o, "stopped before its first timing loop\n\n");
  } else {
    append(o, "not begun: the run was stopped in {}\n\n", phase_name(p.stopped_in));
  }
  append(o, "PARTS 3, 4 AND 5: not begun: no timing trial was measured\n\n");
  program_time(o, r);
  timer_used(o, r.timer);
  where_ranks_ran(o, p);
}

}  // namespace

std::string summary_text(const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  std::string o;
  partial_banner(o, p);
  if (no_trials(p)) {
    parameters_before_trials(o, r);
    program_time(o, r);
    timer_used(o, r.timer);
    return o;
  }
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
  if (no_trials(p))
    parameters_before_trials(o, r);
  else
    parameters(o, r);

  if (r.timer != nullptr && r.timer->nr == 0) {
    append(o, "PART 1: RESOLUTION AND OVERHEAD OF THE TIMER IN MICROSECONDS\n\nnot measured: stopped before the first timer pair\n\n");
  } else if (r.timer != nullptr) {
    const lat_timer_result &t = *r.timer;
    append(o, "PART 1: RESOLUTION AND OVERHEAD OF THE TIMER IN MICROSECONDS\n\n");
    if (t.nr < t.nr_requested)
      append(o, "stopped after {} of nr = {} timer pairs: the figures below are of the pairs measured\n", t.nr, t.nr_requested);
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
      frequency_table(o, *r.timer_dist, t.unit_us);
      append(o, "\n");
    }
  }

  append(o, "PART 2: ESTIMATING THE NUMBER OF PING PONGS IN A TIMING LOOP (npp)\n\n");
  if (no_trials(p)) {
    parts_before_trials(o, r);
    return o;
  }
  if (p.estimate) {
    append(o, "npp_init = {}\nnpptrial = {}\nres_npp = {}\n", p.npp_init, p.npptrial, p.res_npp);
    append(o, "median time of one ping pong (median_ppt) in microseconds = {:.4f}\n", p.median_ppt_us);
    append(o, "npp = nint(max(1, res_npp * res_timing / median_ppt)) = {}\n", p.npp_calculated);
    if (p.npp_held)
      append(o, "npp is held at {} for --precision, so that it does not move between launches (the power of two at or above the "
                "rule's unrounded value; docs/method.md, \"Precision\")\n", p.npp_used);
    else if (p.npp_used != p.npp_calculated)
      append(o, "npp was given as {}: the rule's value is reported beside it\n", p.npp_used);
    append(o, "\n");
  } else {
    append(o, "not run: npp was given as {} and the estimate was switched off (--no-estimate)\n\n", p.npp_used);
  }
  if (p.minutes > 0.0)
    append(o, "ntrial = {} chosen for about {} minutes of trials from the time per trial in part 2\n\n", p.ntrial, p.minutes);

  append(o, "PART 3: PING PONG TIMES WITH {} PING PONGS IN A TIMING LOOP\n\n", p.npp_used);
  times(o, "TIMING RESULTS FOR PING PONG TIMES DIVIDED BY TWO IN MICROSECONDS", p.all);
  statistics(o, "STATISTICS FOR PING PONG TIMES", p.all);
  rates(o, "COMMUNICATION RATE RESULTS IN MBYTES/SECOND", p.all);
  percentiles(o, "PERCENTILES OF PING PONG TIMES DIVIDED BY TWO IN MICROSECONDS (NEAREST RANK)", p.all_q, p.all.count,
              one_way_step_us(p));

  if (r.pp_dist != nullptr) {
    append(o, "PART 4: DISTRIBUTION OF PING PONG TIMES\n\n");
    append(o, "MEASURED TIMINGS AND THEIR FREQUENCY IN MICROSECONDS\n\n");
    frequency_table(o, *r.pp_dist, one_way_step_us(p));
    append(o, "\n");
  }

  append(o, "PART 5: FILTERED DATA\n\n");
  filter_counts(o, p);
  append(o, "filtering cut-off time in microseconds = {:.4f}\n\n", p.cut_off_us);
  times(o, "FILTERED TIMING RESULTS FOR PING PONG TIMES DIVIDED BY TWO IN MICROSECONDS", p.filtered);
  statistics(o, "STATISTICS FOR FILTERED TIMINGS", p.filtered);
  rates(o, "COMMUNICATION RATE RESULTS FOR FILTERED TIMINGS IN MBYTES/SECOND", p.filtered);
  percentiles(o, "PERCENTILES OF FILTERED TIMINGS IN MICROSECONDS (NEAREST RANK)", p.filtered_q, p.filtered.count,
              one_way_step_us(p));
  program_time(o, r);
  timer_used(o, r.timer);
  run_over_time(o, r);
  where_ranks_ran(o, p);
  return o;
}

namespace {

const char *phase_json_name(int phase) {
  switch (phase) {
    case LAT_PHASE_CALIBRATION: return "timer calibration";
    case LAT_PHASE_ESTIMATE: return "npp estimate";
    default: return "trials";
  }
}

nlohmann::json place_json(const lat_rank_place &p) {
  nlohmann::json j = spec_result_json(p);
  j["processors"] = p.cpus[0] ? nlohmann::json(p.cpus) : nlohmann::json();
  return j;
}

nlohmann::json share_json(int bits, int known_bit, int share_bit) {
  return (bits & known_bit) ? nlohmann::json((bits & share_bit) != 0) : nlohmann::json();
}


}  // namespace

std::string json_text(const LatencyReport &r) {
  const lat_pingpong_result &p = *r.pp;
  nlohmann::json j = report_head_json("mpilat-latency", r.command_line);
  j["run"].update({{"nprocs", p.nprocs},
                   {"program_seconds", r.program_seconds},
                   {"partial", p.partial != 0},
                   {"partial_cause", partial_cause(p)},
                   {"stopped_in", p.partial != LAT_COMPLETE ? nlohmann::json(phase_json_name(p.stopped_in)) : nlohmann::json()},
                   {"ntrial_requested", p.ntrial},
                   {"ntrial_done", p.ntrial_done}});
  j["source"] = place_json(p.source_place);
  j["dest"] = place_json(p.dest_place);
  j["source"]["rank"] = p.source;
  j["dest"]["rank"] = p.dest;
  j["source"]["host"] = std::string(p.source_host);
  j["dest"]["host"] = std::string(p.dest_host);
  j["shared"] = {{"node", (p.shared & LAT_SHARE_NODE) != 0},
                 {"socket", share_json(p.shared, LAT_SHARE_KNOWN_SOCKET, LAT_SHARE_SOCKET)},
                 {"core", share_json(p.shared, LAT_SHARE_KNOWN_CORE, LAT_SHARE_CORE)},
                 {"unknown_is", "null: hwloc could not tell (a rank not bound inside one socket or core)"}};
  j["message"] = {{"bytes", p.bytes}, {"elements_8byte", p.n >= 0 ? nlohmann::json(p.n) : nlohmann::json()}};
  if (r.timer != nullptr) {
    const lat_timer_result &t = *r.timer;
    nlohmann::json bins = nlohmann::json::array();
    for (int b = 0; b < LAT_NBINS; ++b)
      bins.push_back({{"lower_us", b * LAT_BIN_WIDTH_US},
                      {"upper_us", b + 1 < LAT_NBINS ? nlohmann::json((b + 1) * LAT_BIN_WIDTH_US) : nlohmann::json()},
                      {"count", t.bin_count[b]}});
    j["timer"] = spec_result_json(t);
    j["timer"].update({{"name", timer_name(t.timer)}, {"bins", bins}});
    if (r.timer_dist != nullptr) j["timer"]["frequencies"] = table_json(*r.timer_dist);
  }
  j["npp"] = {{"calculated", p.estimate ? nlohmann::json(p.npp_calculated) : nlohmann::json(0)},
              {"estimate_ran", p.estimate != 0},
              {"estimate_stopped", p.stopped_in == LAT_PHASE_ESTIMATE},
              {"estimate_skipped_because",
               p.estimate ? nlohmann::json() : nlohmann::json("npp was given and the estimate was switched off (--no-estimate)")},
              {"used", p.npp_used},
              {"held_for_precision", p.npp_held != 0},
              {"npp_init", p.npp_init},
              {"npptrial", p.npptrial},
              {"res_npp", p.res_npp},
              {"median_ppt_us", p.median_ppt_us}};
  j["pingpong"] = {{"units", "microseconds, ping-pong time divided by two; rates in MB/s (10^6 bytes/s)"},
                   {"clock_unit_us", p.unit_us},
                   {"one_way_step_us", one_way_step_us(p)},
                   {"all", stats_json(p.all)},
                   {"quantiles", quantiles_json(p.all_q, p.all.count)}};
  j["run"]["minutes_requested"] = p.minutes > 0.0 ? nlohmann::json(p.minutes) : nlohmann::json();
  j["run"]["ended_by"] = p.partial == LAT_COMPLETE ? nlohmann::json(run_end_name(p.ended_by)) : nlohmann::json();
  j["precision"] = p.precision_pct > 0.0
                      ? nlohmann::json{{"asked_pct", p.precision_pct},
                                       {"met", p.partial == LAT_COMPLETE && p.ended_by == LAT_END_PRECISION},
                                       {"median_ci_half_pct", number_or_null(p.median_ci_half_pct)},
                                       {"unbounded", !(p.median_ci_half_pct <= 100.0)},
                                       {"interval_us", within_interval_json(p)},
                                       {"interval", "within this launch: its batch medians (nothing of other launches: mpilat-campaign)"},
                                       {"placement", {{"lines", p.placement_lines},
                                                      {"sd_pct", p.placement_sd_pct},
                                                      {"bound_half_pct", number_or_null(p.between_launches_half_pct)},
                                                      {"says", placement_words(p)}}},
                                       {"batches", LAT_PRECISION_BATCHES},
                                       {"limit_s", p.precision_limit_s},
                                       {"run_quiet", run_quiet(p)},
                                       {"min_chunks", LAT_PRECISION_MIN_CHUNKS}}
                      : nlohmann::json();
  j["pingpong"]["quantiles"]["intervals_of"] = "this launch's trials (order statistics): nothing of other launches";
  if (r.pp_dist != nullptr) j["pingpong"]["frequencies"] = table_json(*r.pp_dist);
  std::vector<RunLevel> levels;
  std::vector<StateChange> changes;
  const std::vector<std::string> warnings = warning_lines(r, &levels, &changes);
  nlohmann::json sc = nlohmann::json::array();
  for (const StateChange &c : changes)
    sc.push_back({{"start_s", c.start_s}, {"end_s", c.end_s}, {"quantity", change_quantity_name(c.quantity)},
                  {"before", c.before}, {"after", c.after}, {"unit", c.quantity == LAT_CHANGE_RATE ? "trials/s" : "us"}});
  nlohmann::json lv = nlohmann::json::array();
  for (const RunLevel &l : levels) {
    nlohmann::json spans = nlohmann::json::array();
    for (const auto &[a, b] : l.spans) spans.push_back({a, b});
    lv.push_back({{"median_us", l.median_us}, {"trials", l.trials}, {"share", l.share}, {"spans_s", spans}});
  }
  nlohmann::json rows = nlohmann::json::array();
  if (r.chunks != nullptr)
    for (const TrialChunk &c : *r.chunks)
      rows.push_back({c.first_trial, c.count, c.start_s, c.end_s, c.min_us, c.median_us, c.first_us, c.p90_us, c.p99_us,
                      c.mean_us, c.max_us, c.rate()});
  j["run_over_time"] = {{"chunks", {{"columns", {"first_trial", "trials", "start_s", "end_s", "min_us", "median_us", "first_us",
                                                 "p90_us", "p99_us", "mean_us", "max_us", "trials_per_s"}},
                                    {"rows", rows}}},
                        {"chunk_target_s", p.chunk_target_s},
                        {"trials_start_unix_s", p.trials_start_unix_s},
                        {"state_changes", sc},
                        {"first_trial_over_median", r.chunks != nullptr ? first_trial_ratio(*r.chunks) : 0.0},
                        {"nchunks", p.nchunks},
                        {"levels", lv}};
  j["warnings"] = warnings;
  j["filtered"] = {{"cut_coef", p.cut_coef},
                   {"cut_off_us", p.cut_off_us},
                   {"kept", p.n_kept},
                   {"removed", p.n_removed},
                   {"stats", stats_json(p.filtered)},
                   {"quantiles", quantiles_json(p.filtered_q, p.filtered.count)}};
  return json_document_text(std::move(j), 2);
}

std::string latency_plot_text(const lat_pingpong_result &p, const Distribution &d, const std::vector<TrialChunk> &chunks) {
  std::string o = gnuplot_figure_head("latency", 1000, 900);
  // The histogram on a log time axis: 40 bins a decade between the smallest and largest positive time.
  std::vector<std::pair<double, int64_t>> positive;
  int64_t not_positive = 0;
  for (size_t i = 0; i < d.values.size(); ++i)
    if (d.values[i] > 0.0) positive.push_back({d.values[i], d.counts[i]});
    else not_positive += d.counts[i];
  append(o, "set multiplot layout 2,1 title {}\n",
         gnuplot_quoted(fmt::format("mpilat latency: {} B between rank {} ({}) and rank {} ({}), npp = {}, {} trials",
                                    p.bytes, p.source, p.source_host, p.dest, p.dest_host, p.npp_used, p.all.count)));
  append(o, "$hist << EOD\n");
  if (!positive.empty()) {
    constexpr double kBinsPerDecade = 40.0;
    const double lo = std::log10(positive.front().first);
    std::vector<std::pair<int64_t, int64_t>> bins;  // (bin, count)
    for (const auto &[v, c] : positive) {
      const int64_t b = static_cast<int64_t>(std::floor((std::log10(v) - lo) * kBinsPerDecade));
      if (!bins.empty() && bins.back().first == b) bins.back().second += c;
      else bins.push_back({b, c});
    }
    for (const auto &[b, c] : bins)
      append(o, "{:.9g} {:.9g} {}\n", std::pow(10.0, lo + (static_cast<double>(b) + 0.5) / kBinsPerDecade),
             std::pow(10.0, lo + static_cast<double>(b + 1) / kBinsPerDecade) - std::pow(10.0, lo + static_cast<double>(b) / kBinsPerDecade), c);
  } else {
    append(o, "1 0 0\n");
  }
  append(o, "EOD\n");
  // From 0.5: a bin of a single trial shows as a bar (on a log axis from 1 it would have no height).
  append(o, "set logscale x\nset logscale y\nset yrange [0.5:*]\nset grid\nset xlabel 'one-way time (us), log scale'\n"
            "set ylabel 'trials per bin (40 a decade)'\n");
  append(o, "set title {}\n", gnuplot_quoted(fmt::format("distribution: median {:.4f} us, filter cut {:.4f} us ({} removed){}", p.all.median_us,
                                                           p.cut_off_us, p.n_removed,
                                                           not_positive ? fmt::format("; {} times <= 0 not drawn", not_positive) : "")));
  if (p.all.median_us > 0.0) append(o, "set arrow 1 from {:.9g}, graph 0 to {:.9g}, graph 1 nohead front lw 2 lc rgb '#1a7f37'\n", p.all.median_us, p.all.median_us);
  if (p.cut_off_us > 0.0) append(o, "set arrow 2 from {:.9g}, graph 0 to {:.9g}, graph 1 nohead front lw 2 dt 2 lc rgb '#cf222e'\n", p.cut_off_us, p.cut_off_us);
  append(o, "plot $hist using 1:3:2 with boxes fill solid 0.5 lc rgb '#0969da' title 'trials', "
            "NaN with lines lw 2 lc rgb '#1a7f37' title 'median', NaN with lines lw 2 dt 2 lc rgb '#cf222e' title 'filter cut (cut_coef x median)'\n");
  append(o, "unset arrow\nunset logscale\nset yrange [*:*]\nset logscale y\n");
  append(o, "$chunks << EOD\n");
  for (const TrialChunk &c : chunks)
    if (c.median_us > 0.0 && c.min_us > 0.0)
      append(o, "{:.6f} {:.9g} {:.9g} {:.9g}\n", 0.5 * (c.start_s + c.end_s), c.median_us, c.min_us, c.p99_us > 0.0 ? c.p99_us : c.median_us);
  if (chunks.empty()) append(o, "0 1 1 1\n");
  append(o, "EOD\n");
  // The state changes: a line where each begins, labelled with what changed.
  for (const StateChange &c : state_changes(chunks))
    append(o, "set arrow from {:.6f}, graph 0 to {:.6f}, graph 1 nohead lw 1 dt 2 lc rgb '#cf222e'\n"
              "set label {} at {:.6f}, graph 0.97 rotate by 90 right font ',8' tc rgb '#cf222e'\n",
           c.start_s, c.start_s, gnuplot_quoted(fmt::format("{} {:.2f}x", change_quantity_name(c.quantity), c.after / c.before)), c.start_s);
  append(o, "set xrange [0:*]\nset xlabel 'seconds since the trials began'\nset ylabel 'one-way time (us), log scale'\n");
  std::string levels;
  for (int g = 0; g < p.nlevels; ++g) levels += fmt::format("{}{:.4f} us ({:.0f} %)", g ? ", " : "", p.level_us[g], 100.0 * p.level_share[g]);
  append(o, "set title {}\n", gnuplot_quoted(fmt::format("the run over time: chunks of ~0.25 s; {} level(s) of the chunk medians: {}{}{}", p.nlevels,
                                                           levels, (p.warnings & LAT_WARN_LEVELS) ? " - WARNING: the machine changed state" : "",
                                                           p.nchanges > 0 ? fmt::format(" - WARNING: {} state change(s), dashed", p.nchanges) : "")));
  std::string level_lines;
  for (int g = 0; g < p.nlevels; ++g)
    level_lines += fmt::format(", {:.9g} with lines dt 3 lc rgb '#6e7781' title {}", p.level_us[g], gnuplot_quoted(fmt::format("level {}", g + 1)));
  append(o, "plot $chunks using 1:2 with points pt 7 ps 0.5 lc rgb '#0969da' title 'chunk median', "
            "$chunks using 1:3 with points pt 1 ps 0.5 lc rgb '#8c959f' title 'chunk minimum', "
            "$chunks using 1:4 with points pt 2 ps 0.5 lc rgb '#bf8700' title 'chunk p99'{}\n", level_lines);
  append(o, "unset multiplot\n");
  return o;
}

std::vector<std::string> latency_output_names(const std::string &outdir) {
  std::vector<std::string> names;
  for (const char *name : {"latency.output", "latency.summary.output", "latency.json", "latency.gp", "latency.png", "latency.svg"})
    names.push_back(join_path(outdir, name));
  return names;
}

std::vector<std::string> npp_study_output_names(const std::string &outdir) {
  std::vector<std::string> names;
  for (const char *ext : {".txt", ".csv", ".json", ".gp", ".png", ".svg"}) names.push_back(join_path(outdir, "latency.npp") + ext);
  return names;
}

void write_latency_plots(const std::string &outdir, const lat_pingpong_result &p, const Distribution &d,
                         const std::vector<TrialChunk> &chunks) {
  const std::string base = join_path(outdir, "latency");
  const std::vector<std::pair<std::string, std::string>> files = {{base + ".gp", latency_plot_text(p, d, chunks)}};
  require_declared(latency_output_names(outdir), files);
  write_files_whole(files, render_plots({{base + ".png", 0}, {base + ".svg", 0}}, {}), 0);
}

namespace {

std::string study_csv(const std::vector<lat_npp_study_row> &rows) {
  std::string o = "npp,res_npp,trials,extra_trials,min_us,median_us,mean_us,max_us,variance_us2,stddev_us,p99_us,start_s,end_s\n";
  for (const lat_npp_study_row &r : rows)
    append(o, "{},{},{},{},{:.6f},{:.6f},{:.6f},{:.6f},{:.6g},{:.6f},{:.6f},{:.3f},{:.3f}\n", r.npp, r.res_npp, r.stats.count, r.extra,
           r.stats.min_us, r.stats.median_us, r.stats.mean_us, r.stats.max_us, r.stats.variance_us2, r.stats.stddev_us, r.q.p_us[8],
           r.start_s, r.end_s);
  return o;
}

std::string study_table(const std::string &command_line, const lat_pingpong_result &p, const std::vector<lat_npp_study_row> &rows) {
  std::string o;
  append(o, "NPP STUDY (Luecke et al. 2009, Tables 4.1-4.3): ONE-WAY PING PONG TIMES IN MICROSECONDS\n\n");
  append(o, "command = {}\n", command_line);
  append(o, "source = {} ({})\ndest = {} ({})\nmessage size in bytes = {}\n", p.source, p.source_host, p.dest, p.dest_host, p.bytes);
  append(o, "timer = {}, res_timing = {:.4f} us, min_ov = {:.4f} us\n", timer_name(p.timer), p.res_timing_us, p.min_ov_us);
  if (p.estimate)
    append(o, "part 2: median_ppt = {:.4f} us with npp_init = {}; the rule's npp (res_npp = {}) = {}\n", p.median_ppt_us, p.npp_init,
           p.res_npp, p.npp_calculated);
  append(o, "values interleaved chunk by chunk (~0.25 s of each in turn) from the first chunk to the last (each value's span in "
            "seconds below), so the machine's phases fall on every value alike; a value that had its {} trials took its turns on "
            "until the slowest had them (its extra trials are in its statistics)\n\n", p.ntrial);
  append(o, "{:>10} {:>8} {:>10} {:>8} {:>10} {:>10} {:>10} {:>10} {:>12} {:>10} {:>10} {:>13}\n", "npp", "res_npp", "trials", "extra",
         "min", "median", "mean", "max", "variance", "SD", "p99", "span s");
  for (const lat_npp_study_row &r : rows)
    append(o, "{:>10} {:>8} {:>10} {:>8} {:>10.4f} {:>10.4f} {:>10.4f} {:>10.4f} {:>12.4e} {:>10.4f} {:>10.4f} {:>6.2f}-{:<6.2f}\n",
           r.npp, r.res_npp ? std::to_string(r.res_npp) : std::string("-"), r.stats.count, r.extra, r.stats.min_us, r.stats.median_us,
           r.stats.mean_us, r.stats.max_us, r.stats.variance_us2, r.stats.stddev_us, r.q.p_us[8], r.start_s, r.end_s);
  if (p.partial) append(o, "\n*** PARTIAL RESULTS: the study was stopped ({}) ***\n", partial_cause(p));
  return o;
}

std::string study_json(const std::string &command_line, const lat_pingpong_result &p, const std::vector<lat_npp_study_row> &rows) {
  nlohmann::json j = report_head_json("mpilat-npp-study", command_line);
  j["run"].update({{"partial", p.partial != 0}, {"partial_cause", partial_cause(p)}});
  j["source"] = place_json(p.source_place);
  j["dest"] = place_json(p.dest_place);
  j["message"] = {{"bytes", p.bytes}};
  j["timer"] = {{"name", timer_name(p.timer)}, {"res_timing_us", p.res_timing_us}, {"min_ov_us", p.min_ov_us}, {"unit_us", p.unit_us}};
  j["part2"] = p.estimate ? nlohmann::json{{"median_ppt_us", p.median_ppt_us}, {"npp_init", p.npp_init}, {"npptrial", p.npptrial},
                                           {"res_npp", p.res_npp}, {"npp_calculated", p.npp_calculated}}
                          : nlohmann::json();
  j["interleaving"] = "chunk by chunk: ~0.25 s of each value in turn, every value taking its turns until the slowest has its trials";
  nlohmann::json out = nlohmann::json::array();
  for (const lat_npp_study_row &r : rows) {
    nlohmann::json row = spec_result_json(r);
    row.update({{"res_npp", r.res_npp ? nlohmann::json(r.res_npp) : nlohmann::json()}, {"stats", stats_json(r.stats)},
                {"quantiles", quantiles_json(r.q, r.stats.count)}, {"span_s", {r.start_s, r.end_s}}});
    out.push_back(row);
  }
  j["values"] = out;
  return json_document_text(std::move(j), 2);
}

std::string study_plot(const lat_pingpong_result &p, const std::vector<lat_npp_study_row> &rows) {
  std::string o = gnuplot_figure_head("latency.npp", 900, 600);
  append(o, "set title {}\n", gnuplot_quoted(fmt::format("mpilat npp study: {} B, rank {} ({}) to rank {} ({})", p.bytes, p.source,
                                                           p.source_host, p.dest, p.dest_host)));
  append(o, "set logscale x\nset grid\nset key top right\nset xlabel 'npp (ping-pongs per timing loop), log scale'\n"
            "set ylabel 'one-way time (us)'\n");
  append(o, "$rows << EOD\n");
  for (const lat_npp_study_row &r : rows)
    append(o, "{} {:.9g} {:.9g} {:.9g}\n", r.npp, r.stats.median_us, r.stats.min_us, r.q.p_us[8]);
  append(o, "EOD\n");
  append(o, "plot $rows using 1:2:3:4 with yerrorbars lc rgb '#6e7781' title 'min .. p99', "
            "$rows using 1:2 with linespoints pt 7 lc rgb '#0969da' title 'median', "
            "$rows using 1:4 with linespoints pt 1 lc rgb '#cf222e' title 'p99'\n");
  return o;
}

}  // namespace

void write_npp_study_files(const std::string &outdir, const std::string &command_line, const lat_pingpong_result &p,
                           const std::vector<lat_npp_study_row> &rows, bool render) {
  const std::string base = join_path(outdir, "latency.npp");
  std::vector<std::pair<std::string, std::string>> files = {{base + ".txt", study_table(command_line, p, rows)},
                                                            {base + ".csv", study_csv(rows)},
                                                            {base + ".json", study_json(command_line, p, rows)},
                                                            {base + ".gp", study_plot(p, rows)}};
  require_declared(npp_study_output_names(outdir), files);
  if (render)
    write_files_whole(files, render_plots({{base + ".png", 3}, {base + ".svg", 3}}, {}));
  else
    write_files_whole(files);
}

void write_latency_files(const std::string &outdir, const LatencyReport &r) {
  if (r.pp == nullptr) throw ArgError("pp must not be NULL");
  const std::vector<std::pair<std::string, std::string>> files = {{join_path(outdir, "latency.output"), full_text(r)},
                                                                  {join_path(outdir, "latency.summary.output"), summary_text(r)},
                                                                  {join_path(outdir, "latency.json"), json_text(r)}};
  require_declared(latency_output_names(outdir), files);
  write_files_whole(files);
}

}  // namespace lat
