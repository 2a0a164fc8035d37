// mpilat-campaign: the launch as the unit. Runs one command (a launcher and an mpilat driver) once per
// launch, each into DIR/launch-NNN, reads each launch's JSON through mpilat-compare's reader and states every
// figure over the launches: the median of the launch values and its distribution-free 95 % interval, the
// spread between launches and the share of it a launch's own trials explain, the launches a precision needs.
// With --precision it adds launches until every figure's interval is within +-P % (docs/campaign.md).
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <map>
#include <string>
#include <vector>

#include "compare_reader.hpp"
#include "driver_options.hpp"
#include "driver_support.h"
#include "mpilat.h"

namespace {

using nlohmann::json;
using namespace compare;

/// The fewest launches whose distribution-free interval of the median reaches 95 % (1 - 2/2^6 = 96.9 %).
constexpr int kFewestFor95 = 6;
/// A stopped launch gets this long to write its partial files after the stop is passed on, then SIGKILL.
constexpr double kStopGraceS = 20.0;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

json json_number(double x) { return std::isfinite(x) ? json(x) : json(); }

/// The mpilat drivers a campaign runs, by the name of the program (a path's last part).
const std::vector<std::string> kDrivers = {"latency", "mpptest", "queuelat", "mmpi", "nodecomm", "mpilat-coll"};

struct Options {
  int64_t launches = 0, max_launches = 30;
  double precision = 0.0, time_limit_s = 0.0, launch_timeout_s = 0.0, interval_s = 0.0;
  std::string outdir, length = "quick";
  bool noplot = false, quiet = false;
  std::vector<std::string> command;
};

/// Where the driver stands in the command, and what the campaign adds to its arguments.
struct Command {
  std::vector<std::string> words;  // as given, with --quick where the campaign chose short launches
  size_t driver = 0;               // index of the driver's program
  std::string driver_name;
  bool added_quick = false, npp_given = false;
};

std::string base_name(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// The command checked: an mpilat driver in it, no --outdir of its own (the campaign gives each launch its
/// folder), one program (no MPMD ':'); "" or the complaint.
std::string plan_command(const Options &o, Command &c) {
  c.words = o.command;
  if (c.words.empty()) return "no command after '--': give a launcher and an mpilat driver (mpiexec -n 2 latency --quick)";
  c.driver = c.words.size();
  for (size_t k = 0; k < c.words.size(); ++k)
    if (std::find(kDrivers.begin(), kDrivers.end(), base_name(c.words[k])) != kDrivers.end()) {
      c.driver = k;
      break;
    }
  if (c.driver == c.words.size())
    return "the command '" + shown_text(c.words.front()) + " ...' runs none of the mpilat drivers (latency, mpptest, queuelat, mmpi, "
           "nodecomm, mpilat-coll), whose JSON a campaign reads";
  c.driver_name = base_name(c.words[c.driver]);
  bool quick = false;
  for (size_t k = c.driver + 1; k < c.words.size(); ++k) {
    const std::string &w = c.words[k];
    if (w == ":") return "an MPMD command (':') is not run by a campaign: give one program";
    if (w == "--outdir" || w == "-outdir" || w.rfind("--outdir=", 0) == 0 || w == "-o" || w == "--output" || w == "-fname" ||
        w == "--fname")
      return "the command gives '" + shown_text(w) + "': the campaign gives each launch its own folder (DIR/launch-NNN); leave it out";
    if (w == "--quick" || w == "-quick") quick = true;
    if (w == "--npp" || w.rfind("--npp=", 0) == 0) c.npp_given = true;
  }
  if (o.length == "quick" && !quick) {
    c.words.insert(c.words.begin() + static_cast<std::ptrdiff_t>(c.driver) + 1, "--quick");
    c.added_quick = true;
  }
  return "";
}

/// One launch: its folder, how it ended, its figures (pooled only when status is "done").
struct LaunchRun {
  std::string dir, status, note;
  int exit_code = -1;
  double wall_s = 0.0;
  std::vector<std::string> extra;  // words the campaign added (--npp N)
  Launch result;
};

volatile sig_atomic_t child_group = 0, stop_signo = 0;
volatile sig_atomic_t stop_count = 0;

/// The first SIGINT/SIGTERM/SIGUSR1/SIGHUP/SIGXCPU/SIGQUIT asks the campaign to stop: the launch running is
/// passed SIGTERM (its driver's stop: it writes its partial files) and the campaign writes what it has. A
/// third (Slurm sends SIGTERM twice within milliseconds) ends the launch's group at once, and the campaign.
void on_stop_signal(int signo) {
  if (stop_signo == 0) stop_signo = signo;
  if (++stop_count >= 3) {
    if (child_group > 0) kill(-child_group, SIGKILL);
    _exit(128 + signo);
  }
}

void install_stop_handlers() {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (int signo : {SIGINT, SIGTERM, SIGUSR1, SIGHUP, SIGXCPU, SIGQUIT}) sigaction(signo, &action, nullptr);
  signal(SIGXFSZ, SIG_IGN);  // a file-size limit: the write fails and says so, the campaign is not killed
}

/// Runs words in its own process group with its output to log, until it ends, the deadline passes (SIGTERM,
/// then SIGKILL after a grace) or a stop is asked of the campaign (passed on as SIGTERM, the drivers' stop:
/// they write their partial files). Returns the wait status, or -1 where it could not start.
int run_launch(const std::vector<std::string> &words, const std::string &log, double deadline_s, LaunchRun &run, bool &stopped) {
  std::vector<char *> argv;
  for (const std::string &w : words) argv.push_back(const_cast<char *>(w.c_str()));
  argv.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    setpgid(0, 0);  // its own group: a stop or a deadline ends the launcher and every rank it started
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0) dup2(in, 0);
    if (out >= 0) dup2(out, 1), dup2(out, 2);
    signal(SIGPIPE, SIG_DFL);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "mpilat-campaign: cannot run '%s': %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  child_group = pid;
  int status = 0;
  double signalled_at = -1.0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const double t = seconds_since(t0);
    if (signalled_at < 0.0 && (stop_signo != 0 || t > deadline_s)) {
      stopped = stop_signo != 0;
      if (!stopped) run.note = "no end within its limit of " + number(deadline_s) + " s: ended";
      kill(-pid, SIGTERM);
      signalled_at = t;
    } else if (signalled_at >= 0.0 && t > signalled_at + kStopGraceS) {
      kill(-pid, SIGKILL);
      signalled_at = t + 1e9;  // once
    }
    usleep(20000);
  }
  // Whatever the launcher left behind in its group (a rank it did not reap) goes with it.
  kill(-pid, SIGKILL);
  child_group = 0;
  run.wall_s = seconds_since(t0);
  return status;
}

/// The result file of a launch's folder: the one JSON file of a format mpilat-compare reads.
std::string read_launch_dir(const std::string &dir, Launch &out) {
  DIR *d = opendir(dir.c_str());
  if (d == nullptr) return "its folder cannot be read";
  std::vector<std::string> names;
  while (const dirent *e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0 && n.find(".npp.") == std::string::npos) names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  std::string why = "no result file (JSON) in its folder";
  for (const std::string &n : names) {
    try {
      out = read_launch(dir + "/" + n);
      return "";
    } catch (const std::exception &e) {
      why = e.what();
    }
  }
  return why;
}

/// The exact probability that Binomial(n, 1/2) <= k.
double binomial_half_cdf(int64_t n, int64_t k) {
  double p = 0.0;
  for (int64_t i = 0; i <= k; ++i)
    p += std::exp(std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(i) + 1) -
                  std::lgamma(static_cast<double>(n - i) + 1) - static_cast<double>(n) * std::log(2.0));
  return p;
}

/// One figure over the launches (docs/campaign.md, "The figures").
struct Figure {
  std::string name, unit;
  std::vector<double> values;  // in launch order
  double median = NAN, low = NAN, high = NAN, coverage = NAN, half_pct = NAN;
  double between_sd_pct = NAN, within_share = NAN;
  int64_t needed = 0;
};

std::string unit_of(const std::string &name) {
  const size_t open = name.rfind('('), close = name.rfind(')');
  if (open != std::string::npos && close != std::string::npos && close > open) return name.substr(open + 1, close - open - 1);
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_us") == 0) return "us";
  if (name.size() > 4 && name.compare(name.size() - 4, 4, "_mbs") == 0) return "MB/s";
  return "";
}

/// The distribution-free interval of the median over n launches: [x_(k), x_(n+1-k)], k the largest whose
/// coverage 1 - 2 P(B <= k - 1), B ~ Binomial(n, 1/2), is at least 95 %. Fewer than 6 launches reach no 95 %:
/// no interval, the coverage of [min, max] said.
void median_interval(std::vector<double> v, Figure &f) {
  std::sort(v.begin(), v.end());
  const int64_t n = static_cast<int64_t>(v.size());
  f.median = median_of(v);
  int64_t k = 0;
  while (k + 1 <= n / 2 && 1.0 - 2.0 * binomial_half_cdf(n, k) >= 0.95) ++k;
  if (k == 0) {
    f.coverage = n >= 2 ? 1.0 - 2.0 * binomial_half_cdf(n, 0) : NAN;
    return;
  }
  f.low = v[static_cast<size_t>(k - 1)];
  f.high = v[static_cast<size_t>(n - k)];
  f.coverage = 1.0 - 2.0 * binomial_half_cdf(n, k - 1);
  if (f.median > 0) f.half_pct = 100.0 * std::max(f.median - f.low, f.high - f.median) / f.median;
}

/// The figures of the pooled launches, and the launches each needs for +-target_pct.
std::vector<Figure> figures_of(const std::vector<Launch> &pooled, double target_pct, std::vector<std::string> &notes) {
  std::vector<Figure> out;
  if (pooled.empty()) return out;
  for (const Quantity &q : gather(pooled, notes)) {
    Figure f;
    f.name = q.name;
    f.unit = unit_of(q.name);
    double own_var = 0.0;
    int own = 0;
    for (const LaunchValue &l : q.launches) {
      f.values.push_back(l.value);
      // The launch's own standard error, relative: its 97.5 % interval's relative half-width / 2.241.
      if (const double w = launch_own_width(q, l); !std::isnan(w)) own_var += std::pow(w / 2.0 / 2.2414, 2), ++own;
    }
    median_interval(f.values, f);
    const size_t n = f.values.size();
    if (n >= 2) {
      double mean = 0.0, ss = 0.0;
      for (double x : f.values) mean += x;
      mean /= static_cast<double>(n);
      for (double x : f.values) ss += (x - mean) * (x - mean);
      const double sd_rel = std::sqrt(ss / static_cast<double>(n - 1)) / mean;
      f.between_sd_pct = 100.0 * sd_rel;
      // The nested variance of a launch value: s_L^2 (the launch's level) + s_w^2/m (its trials). The share of
      // the launch values' variance that their own trials explain; the rest is the level each launch draws.
      if (own > 0 && sd_rel > 0) f.within_share = std::min(1.0, own_var / own / (sd_rel * sd_rel));
      // The median of n launches has a standard error of about 1.2533 sd / sqrt(n): n for 1.96 of it <= target.
      const double z = 1.96 * 1.2533 * f.between_sd_pct / target_pct;
      f.needed = std::max<int64_t>(kFewestFor95, static_cast<int64_t>(std::ceil(z * z)));
    }
    out.push_back(std::move(f));
  }
  return out;
}

bool precision_met(const std::vector<Figure> &figures, double p) {
  if (figures.empty()) return false;
  for (const Figure &f : figures)
    if (!(f.half_pct <= p)) return false;
  return true;
}

std::string percent_text(double share) {
  if (std::isnan(share)) return "-";
  char t[32];
  std::snprintf(t, sizeof t, share < 0.001 ? "%.2g %%" : "%.1f %%", 100.0 * share);
  return t;
}

std::string interval_text(const Figure &f) {
  if (std::isnan(f.low)) {
    if (std::isnan(f.coverage)) return "no interval (one launch)";
    char t[160];
    std::snprintf(t, sizeof t, "none at 95 %%: %zu launches reach %.1f %%", f.values.size(), 100.0 * f.coverage);
    return t;
  }
  char t[200];
  std::snprintf(t, sizeof t, "[%s, %s] +-%.1f %% (%.1f %%)", number(f.low).c_str(), number(f.high).c_str(), f.half_pct, 100.0 * f.coverage);
  return t;
}

/// The picture: the first figures' launch values in launch order, with the median and its interval.
std::string campaign_plot(const std::vector<Figure> &figures) {
  const size_t shown = std::min<size_t>(figures.size(), 4);
  std::string o = "# gnuplot script: `gnuplot campaign.gp` draws campaign.png (data inline)\n"
                  "if (!exists(\"outfile\")) outfile = 'campaign.png'\nif (!exists(\"format\")) format = 'png'\n"
                  "if (format eq 'svg') { set terminal svg size 1000,800 dynamic noenhanced font 'sans,10' } "
                  "else { set terminal pngcairo size 1000,800 noenhanced font 'sans,10' }\nset output outfile\n";
  o += "set multiplot layout " + std::to_string(shown) + ",1 title 'mpilat-campaign: each launch, and the median over launches "
       "with its 95 % interval'\nset grid\nset key outside top right\nset xlabel 'launch'\n";
  if (!figures.empty() && figures.front().values.size() <= 30) o += "set xtics 1\n";
  for (size_t i = 0; i < shown; ++i) {
    const Figure &f = figures[i];
    o += "$d" + std::to_string(i) + " << EOD\n";
    for (size_t k = 0; k < f.values.size(); ++k) o += std::to_string(k + 1) + " " + number(f.values[k]) + "\n";
    o += "EOD\nset ylabel " + gp_quoted(f.unit) + "\nset title " + gp_quoted(f.name) + "\n";
    o += "set xrange [0.5:" + std::to_string(f.values.size()) + ".5]\n";
    o += "plot $d" + std::to_string(i) + " using 1:2 with linespoints pt 7 lc rgb '#0969da' title 'launch', " + number(f.median) +
         " with lines lc rgb '#1a7f37' title 'median'";
    if (std::isfinite(f.low))
      o += ", " + number(f.low) + " with lines dt 2 lc rgb '#cf222e' title '95 % interval', " + number(f.high) +
           " with lines dt 2 lc rgb '#cf222e' notitle";
    o += "\n";
  }
  return o + "unset multiplot\n";
}

struct Campaign {
  Options o;
  Command c;
  std::vector<LaunchRun> runs;
  std::vector<Launch> pooled;
  std::vector<Figure> figures;
  std::vector<std::string> notes;
  std::string ended, held_npp, held_from;
  bool partial = false;
  double wall_s = 0.0;
};

json campaign_json(const Campaign &k, const std::string &command_line) {
  json j;
  j["format"] = "mpilat-campaign";
  j["format_version"] = 1;
  j["command_line"] = command_line;
  int major = 0, minor = 0, patch = 0;
  lat_get_version(&major, &minor, &patch);
  j["mpilat_version"] = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  j["command"] = k.c.words;
  j["driver"] = k.c.driver_name;
  j["kind"] = k.pooled.empty() ? json() : json(k.pooled.front().kind);
  j["options"] = {{"launches", k.o.launches},          {"precision_pct", json_number(k.o.precision > 0 ? k.o.precision : NAN)},
                  {"max_launches", k.o.max_launches},  {"time_limit_s", json_number(k.o.time_limit_s > 0 ? k.o.time_limit_s : NAN)},
                  {"launch_length", k.o.length},       {"added_quick", k.c.added_quick},
                  {"interval_s", k.o.interval_s}};
  j["held"] = k.held_npp.empty() ? json::object()
                                 : json{{"npp", std::stoll(k.held_npp)}, {"from", k.held_from},
                                        {"why", "npp is estimated per launch; a campaign measures one setting, so the first launch's "
                                                "npp is given to every later launch (--npp)"}};
  json launches = json::array();
  for (const LaunchRun &r : k.runs) {
    json figs = json::object();
    if (r.status == "done")
      for (const auto &[name, q] : r.result.quantities) figs[name] = json_number(q.launches.front().value);
    launches.push_back({{"dir", r.dir}, {"status", r.status}, {"exit", r.exit_code}, {"wall_s", r.wall_s},
                        {"added", r.extra}, {"note", r.note}, {"figures", figs}});
  }
  j["launches"] = launches;
  const double target = k.o.precision > 0 ? k.o.precision : 5.0;
  json figs = json::array();
  for (const Figure &f : k.figures)
    figs.push_back({{"name", f.name}, {"unit", f.unit}, {"median", json_number(f.median)},
                    {"ci95", std::isfinite(f.low) ? json{f.low, f.high} : json()}, {"ci_coverage", json_number(f.coverage)},
                    {"half_width_pct", json_number(f.half_pct)}, {"between_launch_sd_pct", json_number(f.between_sd_pct)},
                    {"within_launch_share", json_number(f.within_share)},
                    {"launches_needed", f.needed > 0 ? json(f.needed) : json()}, {"launches_needed_for_pct", target},
                    {"launch_values", f.values}});
  j["figures"] = figs;
  j["launches_pooled"] = k.pooled.size();
  j["ended"] = k.ended;
  j["partial"] = k.partial;
  j["wall_s"] = k.wall_s;
  const char *slurm = std::getenv("SLURM_JOB_ID");
  j["slurm_job_id"] = slurm != nullptr ? json(slurm) : json();
  j["notes"] = k.notes;
  j["definitions"] =
      "median: of the launch values; ci95: [x_(k), x_(n+1-k)] of the n launch values, k the largest whose coverage "
      "1 - 2 P(Binomial(n, 1/2) <= k - 1) is at least 95 % (distribution-free; none below 6 launches); half_width_pct: the "
      "interval's larger side over the median; between_launch_sd_pct: the launch values' sd over their mean; "
      "within_launch_share: the mean squared standard error of a launch value from its own trials over the launch values' "
      "variance (the nested variance s_L^2 + s_w^2/m: the rest is the level a launch draws; null where the files hold no "
      "trials); launches_needed: n with 1.96 x 1.2533 x between_launch_sd_pct / sqrt(n) <= launches_needed_for_pct, at least 6";
  return j;
}

std::string campaign_text(const Campaign &k) {
  std::string t = "mpilat-campaign: " + std::to_string(k.pooled.size()) + " launches pooled of " + std::to_string(k.runs.size()) +
                  " run; ended: " + k.ended + (k.partial ? " (partial)" : "") + "\ncommand:";
  for (const std::string &w : k.c.words) t += " " + shown_text(w);
  t += "\n";
  if (k.c.added_quick)
    t += "short launches: the campaign added --quick (--launch-length as-given keeps the command's length): what varies is the "
         "level each launch draws (within-launch share below), which only more launches average out; longer launches buy little\n";
  if (!k.held_npp.empty()) t += "npp held at " + k.held_npp + " in every launch after " + k.held_from + " (its own estimate)\n";
  const double target = k.o.precision > 0 ? k.o.precision : 5.0;
  char line[700];
  std::snprintf(line, sizeof line, "\n%-44s %11s  %-48s %9s %8s %8s\n", "figure", "median", "95 % interval over launches (coverage)",
                "sd %", "within", "needed");
  t += line;
  for (const Figure &f : k.figures) {
    std::snprintf(line, sizeof line, "%-44s %11s  %-48s %9s %8s %8s\n", f.name.c_str(), number(f.median).c_str(), interval_text(f).c_str(),
                  number(f.between_sd_pct).c_str(), percent_text(f.within_share).c_str(),
                  f.needed > 0 ? std::to_string(f.needed).c_str() : "-");
    t += line;
  }
  std::snprintf(line, sizeof line,
                "\nsd %%: the launch values' spread; within: the share of it the launches' own trials explain (the rest is the "
                "level each launch draws); needed: launches for +-%g %%\n", target);
  t += line;
  for (const LaunchRun &r : k.runs)
    if (r.status != "done") t += "launch " + r.dir + ": " + r.status + (r.note.empty() ? "" : ": " + r.note) + "\n";
  for (const std::string &n : k.notes) t += n + "\n";
  return t;
}

/// Whether to go on after a launch: "" to go on, else why the campaign ends.
std::string end_reason(const Campaign &k, double elapsed_s) {
  const int64_t n = static_cast<int64_t>(k.runs.size());
  if (k.o.launches > 0) return n >= k.o.launches ? "the " + std::to_string(k.o.launches) + " launches asked were run" : "";
  if (static_cast<int64_t>(k.pooled.size()) >= kFewestFor95 && precision_met(k.figures, k.o.precision))
    return "--precision " + number(k.o.precision) + " met: every figure's interval within +-" + number(k.o.precision) + " %";
  if (n >= k.o.max_launches) return "--max-launches " + std::to_string(k.o.max_launches) + " reached before --precision was met";
  if (k.o.time_limit_s > 0) {
    double longest = 0.0;
    for (const LaunchRun &r : k.runs) longest = std::max(longest, r.wall_s);
    if (elapsed_s + std::max(longest, k.o.interval_s) > k.o.time_limit_s) return "--time-limit " + number(k.o.time_limit_s) + " s: no time for another launch";
  }
  // A launch that failed three times in a row is not a campaign that will end well.
  if (n >= 3 && k.runs[n - 1].status != "done" && k.runs[n - 2].status != "done" && k.runs[n - 3].status != "done")
    return "three launches in a row failed";
  return "";
}

/// The launches, one after the other, until the campaign ends.
void run_campaign(Campaign &k) {
  const auto t0 = std::chrono::steady_clock::now();
  const double target = k.o.precision > 0 ? k.o.precision : 5.0;
  double last_start = -1e300;
  for (int64_t index = 1;; ++index) {
    // --interval: launches spread over the host's phases (seconds to minutes here), which launches back to
    // back sample only one or two of (docs/campaign.md, "Spread the launches"); a stop ends the wait.
    while (stop_signo == 0 && seconds_since(t0) < last_start + k.o.interval_s) usleep(20000);
    if (stop_signo != 0 && index > 1) {
      k.partial = true;
      k.ended = "stopped by signal " + std::to_string(stop_signo);
      break;
    }
    last_start = seconds_since(t0);
    LaunchRun r;
    char dir[32];
    std::snprintf(dir, sizeof dir, "launch-%03lld", static_cast<long long>(index));
    r.dir = dir;
    const std::string path = k.o.outdir + "/" + r.dir;
    std::vector<std::string> words = k.c.words;
    if (!k.held_npp.empty()) r.extra = {"--npp", k.held_npp};
    r.extra.insert(r.extra.end(), {"--outdir", path});
    words.insert(words.end(), r.extra.begin(), r.extra.end());
    // The limit of one launch: --launch-timeout, else 600 s for the first and 5 x the longest done since;
    // never past --time-limit.
    double limit = k.o.launch_timeout_s;
    if (limit <= 0) {
      limit = 600.0;
      for (const LaunchRun &d : k.runs)
        if (d.status == "done") limit = std::max(60.0, 5.0 * d.wall_s);
    }
    const double elapsed = seconds_since(t0);
    if (k.o.time_limit_s > 0) limit = std::min(limit, std::max(1.0, k.o.time_limit_s - elapsed));
    bool stopped = false;
    const int status = run_launch(words, path + ".log", limit, r, stopped);
    if (status < 0) {
      r.status = "failed";
      r.note = std::string("could not start: ") + std::strerror(errno);
    } else if (WIFEXITED(status)) {
      r.exit_code = WEXITSTATUS(status);
      if (r.exit_code == DRIVER_DONE) {
        const std::string why = read_launch_dir(path, r.result);
        r.status = why.empty() ? "done" : "failed";
        if (!why.empty()) r.note = "its result could not be read: " + why;
      } else {
        r.status = r.exit_code == DRIVER_PARTIAL ? "partial" : "failed";
        r.note = "exit " + std::to_string(r.exit_code) + " (its log: " + r.dir + ".log)" + (r.note.empty() ? "" : "; " + r.note);
      }
    } else {
      r.status = stopped ? "stopped" : r.note.empty() ? "failed" : "timed out";
      r.note = "ended by signal " + std::to_string(WTERMSIG(status)) + (r.note.empty() ? "" : ": " + r.note);
    }
    if (stopped && r.status == "partial") r.status = "stopped";
    if (r.status == "done") {
      k.pooled.push_back(r.result);
      if (k.c.driver_name == "latency" && !k.c.npp_given && k.held_npp.empty()) {
        auto it = r.result.noted.find("npp used");
        if (it != r.result.noted.end() && it->second.find_first_not_of("0123456789") == std::string::npos && !it->second.empty())
          k.held_npp = it->second, k.held_from = r.dir;
      }
    }
    const bool first_refused = index == 1 && r.exit_code == DRIVER_BAD_INPUT;
    k.runs.push_back(std::move(r));
    std::vector<std::string> notes;
    k.figures = figures_of(k.pooled, target, notes);
    k.notes = notes;
    const LaunchRun &last = k.runs.back();
    if (!k.o.quiet) {
      std::string head = k.figures.empty() ? std::string("-") : k.figures.front().name + " " + number(k.figures.front().median);
      if (!k.figures.empty() && std::isfinite(k.figures.front().half_pct)) head += " +-" + number(k.figures.front().half_pct) + " %";
      std::fprintf(stderr, "mpilat-campaign: launch %lld %s (%.1f s)%s; %zu pooled: %s\n", static_cast<long long>(index),
                   last.status.c_str(), last.wall_s, last.note.empty() ? "" : (": " + last.note).c_str(), k.pooled.size(), head.c_str());
    }
    if (stop_signo != 0) {
      k.partial = true;
      k.ended = "stopped by signal " + std::to_string(stop_signo);
      break;
    }
    if (first_refused) {
      k.ended = "the first launch was refused by the driver (exit 2; its log: " + last.dir + ".log)";
      break;
    }
    k.ended = end_reason(k, seconds_since(t0));
    if (!k.ended.empty()) break;
  }
  k.wall_s = seconds_since(t0);
}

int write_campaign(const Campaign &k, const std::string &command_line) {
  std::vector<std::pair<std::string, std::string>> files = {
      {"campaign.json", campaign_json(k, command_line).dump(2, ' ', false, json::error_handler_t::replace) + "\n"},
      {"campaign.txt", campaign_text(k)}};
  const bool plot = !k.o.noplot && !k.figures.empty();
  if (plot) files.push_back({"campaign.gp", campaign_plot(k.figures)});
  std::vector<const char *> names, contents;
  for (const auto &[n, c] : files) names.push_back(n.c_str()), contents.push_back(c.c_str());
  const int wrote = lat_write_report_files(k.o.outdir.c_str(), static_cast<int>(files.size()), names.data(), contents.data(), plot ? 1 : 0);
  if (wrote != LAT_SUCCESS) {
    std::fprintf(stderr, "mpilat-campaign: error: %s\n", lat_last_error_message());
    return driver_write_failed_status(wrote);
  }
  std::fputs(campaign_text(k).c_str(), stdout);
  std::fprintf(stdout, "mpilat-campaign: wrote campaign.json, campaign.txt%s in %s\n", plot ? " and campaign.png/.svg" : "", k.o.outdir.c_str());
  return DRIVER_DONE;
}

/// "" or why the output folder cannot take a campaign: made if absent; one that holds launches refused.
std::string prepare_outdir(const std::string &outdir) {
  if (driver_outdir_make(outdir.c_str()) != LAT_SUCCESS) return std::string("--outdir: ") + lat_last_error_message();
  DIR *d = opendir(outdir.c_str());
  if (d == nullptr) return "--outdir '" + shown_text(outdir) + "': " + std::strerror(errno);
  std::string found;
  while (const dirent *e = readdir(d))
    if (std::strncmp(e->d_name, "launch-", 7) == 0) found = e->d_name;
  closedir(d);
  if (!found.empty())
    return "--outdir '" + shown_text(outdir) + "' holds '" + shown_text(found) + "' of an earlier campaign: give a new folder";
  return "";
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> own;
  Options o;
  int k = 1;
  for (; k < argc && std::strcmp(argv[k], "--") != 0; ++k) own.emplace_back(argv[k]);
  for (++k; k < argc; ++k) o.command.emplace_back(argv[k]);
  std::reverse(own.begin(), own.end());  // CLI11 parses a reversed vector
  CLI::App app{"mpilat-campaign: one command run once per launch, each figure stated over the launches.\n"
               "usage: mpilat-campaign (--launches N | --precision P [--max-launches M]) [--time-limit S] --outdir DIR -- COMMAND..."};
  show_defaults(app);
  app.add_option("--launches", o.launches, own_option_help("mpilat-campaign", "--launches"))->check(CLI::Range(int64_t{1}, int64_t{10000}));
  app.add_option("--precision", o.precision, own_option_help("mpilat-campaign", "--precision"))->check(CLI::Range(0.01, 100.0));
  app.add_option("--max-launches", o.max_launches, own_option_help("mpilat-campaign", "--max-launches"))
      ->check(CLI::Range(int64_t{kFewestFor95}, int64_t{10000}));
  app.add_option("--time-limit", o.time_limit_s, own_option_help("mpilat-campaign", "--time-limit"))->check(CLI::Range(1.0, 1e7));
  app.add_option("--launch-timeout", o.launch_timeout_s, own_option_help("mpilat-campaign", "--launch-timeout"))->check(CLI::Range(1.0, 1e7));
  app.add_option("--interval", o.interval_s, own_option_help("mpilat-campaign", "--interval"))->check(CLI::Range(0.0, 1e6));
  app.add_option("--launch-length", o.length, own_option_help("mpilat-campaign", "--launch-length"))->check(CLI::IsMember({"quick", "as-given"}));
  app.add_option("--outdir", o.outdir, own_option_help("mpilat-campaign", "--outdir"))->required();
  app.add_flag("--noplot", o.noplot, own_option_help("mpilat-campaign", "--noplot"));
  app.add_flag("--no-progress,--noprogress", o.quiet, own_option_help("mpilat-campaign", "--no-progress"));
  const int status = parse_options(app, [&] { app.parse(own); }, 0, "mpilat-campaign");
  if (status >= 0) return status;
  std::string bad;
  if ((o.launches > 0) == (o.precision > 0)) bad = "give --launches N or --precision P (one of them)";
  else if (app.count("--max-launches") > 0 && o.precision <= 0) bad = "--max-launches goes with --precision";
  if (bad.empty()) bad = name_complaint("--outdir", o.outdir, false);
  Campaign c;
  c.o = o;
  if (bad.empty()) bad = plan_command(o, c.c);
  if (bad.empty() && !o.noplot && !driver_plotter_usable("mpilat-campaign", "--noplot")) return DRIVER_BAD_INPUT;
  if (bad.empty()) bad = prepare_outdir(o.outdir);
  if (!bad.empty()) {
    std::fprintf(stderr, "mpilat-campaign: error: %s\n", bad.c_str());
    driver_outdir_unmake();
    return DRIVER_BAD_INPUT;
  }
  install_stop_handlers();
  try {
    run_campaign(c);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "mpilat-campaign: internal error: %s\n", e.what());
    c.partial = true;
    c.ended = std::string("internal error: ") + e.what();
  }
  const int wrote = write_campaign(c, command_line_of(argc, argv));
  if (wrote != DRIVER_DONE) return wrote;
  if (c.partial) {
    std::fprintf(stderr, "mpilat-campaign: stopped by signal %d: campaign.json holds the launches done, marked partial\n", static_cast<int>(stop_signo));
    return DRIVER_PARTIAL;
  }
  if (c.pooled.empty()) {
    std::fprintf(stderr, "mpilat-campaign: error: no launch gave a result (%s); their logs: %s/launch-NNN.log\n", c.ended.c_str(),
                 c.o.outdir.c_str());
    // What the driver said of its last launch, so a refused command needs no look into the logs.
    if (!c.runs.empty())
      driver_print_lines_of(("mpilat-campaign: " + c.runs.back().dir).c_str(), (c.o.outdir + "/" + c.runs.back().dir + ".log").c_str(), "");
    return c.runs.size() == 1 && c.runs.front().exit_code == DRIVER_BAD_INPUT ? DRIVER_BAD_INPUT : DRIVER_FAILED;
  }
  if (o.precision > 0 && c.ended.rfind("--precision", 0) != 0) {
    int64_t most = 0;
    for (const Figure &f : c.figures) most = std::max(most, f.needed);
    std::fprintf(stdout, "mpilat-campaign: --precision %g not met (%s): about %lld launches would meet it\n", o.precision, c.ended.c_str(),
                 static_cast<long long>(most));
    return DRIVER_PRECISION_NOT_MET;
  }
  return driver_stdout_status("mpilat-campaign");
}
