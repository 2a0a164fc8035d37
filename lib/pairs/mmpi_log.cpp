#include "pairs/mmpi_log.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>

#include "common/error.hpp"
#include "common/report_text.hpp"

namespace lat {

namespace {


std::vector<std::string> fields_of(const std::string &line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

/// A rank field: decimal digits only (leading zeros of %03d are not octal).
bool parse_rank(const std::string &s, int64_t &v) {
  if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  v = std::stoll(s);
  return true;
}

bool parse_time(const std::string &s, double &v) {
  char *end = nullptr;
  errno = 0;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && *end == '\0' && errno == 0 && std::isfinite(v) && v >= 0.0;
}

struct LogParser {
  std::string name;
  int64_t line_no = 0;
  std::string line;

  [[noreturn]] void fail(const std::string &expected) const {
    throw DataError(name + ":" + std::to_string(line_no) + ": expected " + expected + ", got " + quoted_line(line));
  }
  [[noreturn]] void fail_plain(const std::string &what) const {
    throw DataError(name + ":" + std::to_string(line_no) + ": " + what);
  }
};

constexpr const char *kPairLine = "'<host> <rank> <host> <rank> <AvgCommTime> <StdDev>'";
constexpr const char *kProcessorsLine = "'# Processors: <N> MsgLen <bytes> Repeats: <R>'";

/// "# Processors: 4 MsgLen 64 Repeats: 100" (MsgLen with or without a colon).
void parse_processors(const LogParser &p, PairResult &r) {
  std::vector<std::string> f = fields_of(p.line.substr(1));
  int64_t n = 0, len = 0, reps = 0;
  if (f.size() != 6 || f[0] != "Processors:" || (f[2] != "MsgLen" && f[2] != "MsgLen:") || f[4] != "Repeats:" ||
      !parse_rank(f[1], n) || !parse_rank(f[3], len) || !parse_rank(f[5], reps))
    p.fail(kProcessorsLine);
  if (n < 1) p.fail_plain("the header must give at least 1 processor, got " + f[1]);
  r.summary.nprocs = n;
  r.summary.msg_bytes = len;
  r.summary.repeats = reps;
}

}  // namespace

std::string mmpi_log_text(const PairResult &r) {
  const lat_pair_summary &s = r.summary;
  std::string o;
  append(o, "# Testing Hostname: {}\n", s.testing_host);
  append(o, "# Processors: {} MsgLen {} Repeats: {}\n", s.nprocs, s.msg_bytes, s.repeats);
  append(o, "# ProcName1:rank ProcName2:rank AvgCommTime(usecs) StdDev\n");
  // Not in the 2009 layout, comments its readers skip, before the pairs (the layout's three header lines stay
  // first): a disturbed run, and how the waiting ranks waited, where it matters.
  if (const std::string w = disturbance_warning(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s); !w.empty() && !s.from_log)
    append(o, "# {}\n", w);
  if (s.wait == LAT_WAIT_YIELD && !s.from_log)
    append(o, "# yield mode: waiting ranks yielded their processor (more ranks than processors, or --wait yield)\n");
  for (int64_t i = 0; i < s.nprocs; ++i)
    for (int64_t j = i; j < s.nprocs; ++j)
      append(o, "{} {:03} {} {:03} {:.2f} {:.2f}\n", r.host_of(i), i, r.host_of(j), j,
              r.at(LAT_PAIR_MEAN, i, j), r.at(LAT_PAIR_STDDEV, i, j));
  // The layout has no place for it: a partial run says so in a comment after the pairs.
  if (s.partial) append(o, "# PARTIAL: stopped early; see the JSON file for each pair's count\n");
  return o;
}

PairResult parse_mmpi_log(const std::string &text, const std::string &name) {
  if (std::string bad = encoding_complaint(text, name); !bad.empty()) throw DataError(bad);
  PairResult r;
  r.summary.schedule = -1;
  r.summary.has_matrices = 1;
  r.summary.from_log = 1;
  LogParser p{name, 0, ""};
  std::vector<int64_t> first_line;  // of each pair i < j, 0 when not seen
  std::vector<int64_t> host_line;   // where each rank's host was first given
  std::vector<int64_t> diagonal_line;  // where each rank's line with itself was
  bool have_header = false;
  // The lines that hold something: a header's promise of pairs is bounded by these (blank lines counted too
  // let a header of 14,000 processors over 98 million empty lines allocate 2.5 GB).
  int64_t nlines = 0;
  bool filled = false;
  for (const char c : text) {
    if (c == '\n') nlines += filled, filled = false;
    else if (c != ' ' && c != '\t' && c != '\r') filled = true;
  }
  nlines += filled;
  std::istringstream in(text);
  while (std::getline(in, p.line)) {
    ++p.line_no;
    while (!p.line.empty() && (p.line.back() == '\r' || p.line.back() == ' ' || p.line.back() == '\t'))
      p.line.pop_back();
    const size_t first = p.line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    if (p.line[first] == '#') {
      const std::string body = p.line.substr(first);
      if (body.rfind("# Testing Hostname:", 0) == 0) {
        const std::string host = body.substr(19);
        const size_t h = host.find_first_not_of(" \t");
        std::snprintf(r.summary.testing_host, sizeof r.summary.testing_host, "%s",
                      h == std::string::npos ? "" : host.c_str() + h);
      } else if (fields_of(body.substr(1) + " -")[0] == "Processors:") {
        if (have_header) p.fail_plain("a second '# Processors:' header");
        p.line = body;
        parse_processors(p, r);
        const int64_t n = r.summary.nprocs;
        // A header promising more pairs than the file has lines is a broken log, not a request for memory.
        if (n * (n - 1) / 2 > nlines)
          p.fail_plain("the header says " + std::to_string(n) + " processors: that is " +
                       std::to_string(n * (n - 1) / 2) + " pairs, but the log has only " + std::to_string(nlines) +
                       " lines that are not blank");
        r.triangle[LAT_PAIR_MEAN].assign(static_cast<size_t>(n * (n - 1) / 2), 0.0);
        r.triangle[LAT_PAIR_STDDEV].assign(static_cast<size_t>(n * (n - 1) / 2), 0.0);
        first_line.assign(static_cast<size_t>(n * (n - 1) / 2), 0);
        host_line.assign(static_cast<size_t>(n), 0);
        diagonal_line.assign(static_cast<size_t>(n), 0);
        r.places.assign(static_cast<size_t>(n), lat_rank_place{});
        have_header = true;
      }
      continue;  // the column header and any other comment
    }
    std::vector<std::string> f = fields_of(p.line);
    if (f.empty()) continue;  // blank as the fields see it: a vertical tab, a form feed, a carriage return inside
    // The column header, also when a log split it over two lines without a '#' on the second.
    if (f[0].rfind("ProcName", 0) == 0) continue;
    if (!have_header) p.fail(std::string(kProcessorsLine) + " before the first pair");
    // The 2009 program's "host:rank" fields, as its column header names them.
    if (f.size() == 4) {
      std::vector<std::string> split;
      for (size_t k = 0; k < 2; ++k) {
        const size_t colon = f[k].rfind(':');
        if (colon == std::string::npos) p.fail(kPairLine);
        split.push_back(f[k].substr(0, colon));
        split.push_back(f[k].substr(colon + 1));
      }
      split.push_back(f[2]);
      split.push_back(f[3]);
      f = split;
    }
    if (f.size() != 6) p.fail(std::string(kPairLine) + " (6 fields)");
    int64_t ranks[2];
    double mean = 0.0, sd = 0.0;
    if (!parse_rank(f[1], ranks[0]) || !parse_rank(f[3], ranks[1])) p.fail(std::string(kPairLine) + " with whole ranks");
    // The 2009 program printed "nan" (or "-nan") as the StdDev of a pair measured once: not measured.
    const bool sd_missing = f[5] == "nan" || f[5] == "-nan" || f[5] == "NaN" || f[5] == "-NaN";
    if (!parse_time(f[4], mean) || !(sd_missing || parse_time(f[5], sd)))
      p.fail(std::string(kPairLine) + " with times that are numbers >= 0");
    if (sd_missing) sd = std::numeric_limits<double>::quiet_NaN();
    const int64_t n = r.summary.nprocs;
    for (int k = 0; k < 2; ++k) {
      const int64_t rank = ranks[k];
      if (rank >= n)
        p.fail_plain("rank " + std::to_string(rank) + " is outside 0.." + std::to_string(n - 1) +
                     " (the header says " + std::to_string(n) + " processors)");
      lat_rank_place &place = r.places[static_cast<size_t>(rank)];
      const std::string &host = f[static_cast<size_t>(2 * k)];
      if (host.size() >= sizeof place.host) p.fail_plain("a host name longer than " + std::to_string(sizeof place.host - 1) + " characters");
      if (host_line[static_cast<size_t>(rank)] == 0) {
        std::snprintf(place.host, sizeof place.host, "%s", host.c_str());
        host_line[static_cast<size_t>(rank)] = p.line_no;
      } else if (host != place.host) {
        p.fail_plain("rank " + std::to_string(rank) + " is on host '" + host + "' here but on '" + place.host +
                     "' on line " + std::to_string(host_line[static_cast<size_t>(rank)]));
      }
    }
    if (ranks[0] == ranks[1]) {
      if (mean != 0.0 || (sd != 0.0 && !std::isnan(sd))) p.fail(std::string("0.00 0.00 for rank ") + f[1] + " with itself (the diagonal)");
      int64_t &seen = diagonal_line[static_cast<size_t>(ranks[0])];
      if (seen != 0) p.fail_plain("rank " + f[1] + " with itself again (first on line " + std::to_string(seen) + ")");
      seen = p.line_no;
      continue;
    }
    const int64_t i = std::min(ranks[0], ranks[1]), j = std::max(ranks[0], ranks[1]);
    const size_t at = static_cast<size_t>(triangle_index(n, i, j));
    if (first_line[at] != 0)
      p.fail_plain("the pair (" + std::to_string(i) + ", " + std::to_string(j) + ") again (first on line " +
                   std::to_string(first_line[at]) + ")");
    first_line[at] = p.line_no;
    r.triangle[LAT_PAIR_MEAN][at] = mean;
    r.triangle[LAT_PAIR_STDDEV][at] = sd;
  }
  if (!have_header) {
    p.line_no = std::max<int64_t>(p.line_no, 1);
    throw DataError(name + ": no " + kProcessorsLine + " header: not an mmpi log");
  }
  const int64_t n = r.summary.nprocs;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j)
      if (first_line[static_cast<size_t>(triangle_index(n, i, j))] == 0)
        throw DataError(name + ":" + std::to_string(p.line_no) + ": the log ends without the pair (" +
                        std::to_string(i) + ", " + std::to_string(j) + ")");
  // Nodes from hostnames, numbered by their lowest rank; place among the node's ranks.
  std::map<std::string, std::pair<int, int>> node_of_host;  // host -> (index, ranks so far)
  for (int64_t k = 0; k < n; ++k) {
    lat_rank_place &place = r.places[static_cast<size_t>(k)];
    if (host_line[static_cast<size_t>(k)] == 0) std::snprintf(place.host, sizeof place.host, "unknown");
    auto it = node_of_host.emplace(place.host, std::make_pair(static_cast<int>(node_of_host.size()), 0)).first;
    place.rank = static_cast<int>(k);
    place.node = it->second.first;
    place.node_rank = it->second.second++;
    place.socket = place.core = place.cpu = place.numa = -1;
  }
  lat_pair_summary &s = r.summary;
  s.nnodes = static_cast<int64_t>(node_of_host.size());
  s.npairs = n * (n - 1) / 2;
  const std::vector<double> &means = r.triangle[LAT_PAIR_MEAN];
  if (!means.empty()) {
    s.mean_min_us = *std::min_element(means.begin(), means.end());
    s.mean_max_us = *std::max_element(means.begin(), means.end());
  }
  return r;
}

}  // namespace lat
