// compare_reader.hpp: mpilat-compare's reading of a result file (the JSON of any MPI driver) into the
// quantities it compares, apart from the comparison so that a fuzz target (tests/fuzz) can link it.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace compare {

/// A bad input: exit 2 with the message, which names the file.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A file whose reading would pass the process's memory limit (ulimit -v, -d): refused before it is parsed.
struct MemoryShort : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// text cut to at most `most` bytes, between UTF-8 characters (a cut inside one made the JSON invalid).
std::string cut_text(const std::string &text, size_t most);

/// One launch's value of a quantity, and its trials where the file holds them (a frequency table or the
/// samples of a size), for the comparison over trials.
struct Trials {
  std::vector<double> values;   // the table's distinct values (or samples), ascending
  std::vector<int64_t> counts;  // their counts (1 for samples)
};
struct LaunchValue {
  double value = NAN;
  /// Shared by the quantities of one table (a latency file's median and p99 read the same 3,000,000 rows).
  std::shared_ptr<const Trials> trials;
  const std::vector<double> &values() const { return trials ? trials->values : kNone.values; }
  const std::vector<int64_t> &counts() const { return trials ? trials->counts : kNone.counts; }

 private:
  static inline const Trials kNone{};
};

/// A quantity compared: its name, whether a higher value is slower (a time) or faster (a rate), the
/// quantile its trials give it (0: none: a minimum, a fitted parameter), and each launch's value.
struct Quantity {
  std::string name;
  bool higher_is_slower = true;
  double q = 0.0;
  double x = NAN;  // for the picture: a size, or the index
  std::vector<LaunchValue> launches;
};

/// A launch: its file, kind, what must match between launches (refused if not), what is worth a note.
struct Launch {
  std::string path, kind;
  std::map<std::string, std::string> must_match, noted;
  std::map<std::string, Quantity> quantities;
  std::vector<std::string> order;  // quantity names in the file's order
};

/// The median of values (the mean of the two middle ones for an even count); NaN for none.
double median_of(std::vector<double> v);

/// The quantities of a group of launches: each one's launch values gathered, in the first launch's order;
/// only those every launch has (a note in `notes` for each left out).
std::vector<Quantity> gather(const std::vector<Launch> &launches, std::vector<std::string> &notes);

/// A launch's own interval of its quantity, from its trials (the launch against itself through
/// lat_compare_distributions: [low/high, high/low] of its order-statistic interval, 97.5 % each side): half
/// that interval's width, about the interval's relative width. NaN where the quantity has no trials.
double launch_own_width(const Quantity &q, const LaunchValue &l);

/// x as a table shows it: %.6g, "-" for NaN, "inf" and "-inf".
std::string number(double x);
/// s quoted for a CSV field ("" doubled) and for a gnuplot string ('' doubled).
std::string csv_quoted(const std::string &s);
std::string gp_quoted(const std::string &s);

/// Reads the file at path: a Launch, or BadInput naming the file, never echoing its bytes.
Launch read_launch(const std::string &path);

/// The same for a file's text already read (path only names it in messages).
Launch read_launch_text(const std::string &text, const std::string &path);

}  // namespace compare
