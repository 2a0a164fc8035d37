#include "maxrate/nodecomm_table.hpp"

#include "maxrate/options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "common/error.hpp"
#include "common/report_text.hpp"

namespace lat {

namespace {

/// size -> (k -> time): the observations as the table's rows (the smallest time where one repeats).
std::map<int64_t, std::map<int64_t, double>> rows_of(const std::vector<lat_maxrate_obs> &obs) {
  std::map<int64_t, std::map<int64_t, double>> rows;
  for (const lat_maxrate_obs &o : obs) {
    auto &row = rows[o.bytes];
    auto it = row.find(o.k);
    if (it == row.end() || o.time_us < it->second) row[o.k] = o.time_us;
  }
  return rows;
}

}  // namespace

std::vector<lat_maxrate_obs> parse_nodecomm_table(const std::string &text, const std::string &name, double us_per_unit,
                                                  int64_t *missing) {
  if (missing != nullptr) *missing = 0;
  if (!(us_per_unit > 0.0) || !std::isfinite(us_per_unit)) throw ArgError(got("us_per_unit must be > 0", us_per_unit));
  if (std::string bad = encoding_complaint(text, name); !bad.empty()) throw DataError(bad);
  std::vector<lat_maxrate_obs> obs;
  std::istringstream in(text);
  std::string line;
  int64_t line_no = 0;
  size_t columns = 0;
  int64_t last_len = -1, nrows = 0;
  while (std::getline(in, line)) {
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string x; fields >> x;) f.push_back(x);
    if (f.empty() || f[0][0] == '#') continue;
    if (f[0] == "len" || f[0] == "Len" || f[0] == "LEN") continue;  // the header row
    auto fail = [&](const std::string &expected) {
      throw DataError(name + ":" + std::to_string(line_no) + ": expected " + expected + ", got " + quoted_line(line));
    };
    if (f.size() < 2) fail("a message length and at least one time");
    if (columns == 0) columns = f.size();
    // The fit's time grows faster than linearly in the pair counts: a table of 20,000 columns ran past a minute.
    if (columns - 1 > static_cast<size_t>(kMaxTablePairs))
      fail("at most " + std::to_string(kMaxTablePairs) + " times a row (pair counts k = 1.." + std::to_string(kMaxTablePairs) +
           "), " + std::to_string(columns - 1) + " here");
    if (f.size() != columns)
      fail(std::to_string(columns) + " columns (len and " + std::to_string(columns - 1) + " times, as the first row), " +
           std::to_string(f.size()) + " here");
    char *end = nullptr;
    errno = 0;
    const long long len = std::strtoll(f[0].c_str(), &end, 10);
    if (*end != '\0' || errno != 0 || len < 0) fail("a message length (a whole number >= 0) first");
    if (len <= last_len) fail("lengths that ascend (" + std::to_string(last_len) + " came before)");
    last_len = len;
    // The fit's bounds, as soon as a row passes them (its time grows with the square of the rows).
    if (++nrows > kMaxFitSizes || static_cast<int64_t>(obs.size() + columns - 1) > kMaxFitObservations)
      fail("at most " + std::to_string(kMaxFitSizes) + " rows and " + std::to_string(kMaxFitObservations) +
           " times in all (what the max-rate fit takes), this row passes them");
    for (size_t c = 1; c < f.size(); ++c) {
      if (f[c] == "-") {  // a cell not measured (a partial table): skipped
        if (missing != nullptr) ++*missing;
        continue;
      }
      errno = 0;
      const double t = std::strtod(f[c].c_str(), &end);
      if (*end != '\0' || errno != 0 || !std::isfinite(t) || !(t > 0.0))
        fail("times that are numbers > 0 or '-' (column " + std::to_string(c + 1) + " is " + quoted_line(f[c]) + ")");
      obs.push_back({static_cast<int64_t>(c), static_cast<int64_t>(len), t * us_per_unit});
    }
  }
  if (obs.empty()) throw DataError(name + ": no rows of a length and times: not a nodecomm table");
  return obs;
}
std::string nodecomm_table_text(const std::vector<lat_maxrate_obs> &obs, const std::string &what) {
  const auto rows = rows_of(obs);
  int64_t kmax = 0;
  for (const auto &r : rows) kmax = std::max(kmax, r.second.rbegin()->first);
  std::string o = "# " + what + "\nlen";
  for (int64_t k = 1; k <= kmax; ++k) append(o, "\t{}", k);
  o += "\n";
  for (const auto &[len, row] : rows) {
    append(o, "{}", len);
    for (int64_t k = 1; k <= kmax; ++k) {
      auto it = row.find(k);
      if (it == row.end()) o += "\t-";
      else append(o, "\t{:.4f}", it->second);
    }
    o += "\n";
  }
  return o;
}

}  // namespace lat
