// compare_reader.cpp: a result file of any MPI driver into the quantities mpilat-compare compares
// (compare_reader.hpp). The fields read are those of spec/json.toml (json_fields.hpp).
#include "compare_reader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <set>
#include <sstream>

#include "json_fields.hpp"
#include "mpilat.h"

namespace compare {

using nlohmann::json;

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  if (n == 0) return NAN;
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<Quantity> gather(const std::vector<Launch> &launches, std::vector<std::string> &notes) {
  std::vector<Quantity> out;
  for (const std::string &name : launches.front().order) {
    Quantity q = launches.front().quantities.at(name);
    q.launches.clear();
    bool everywhere = true;
    for (const Launch &l : launches) {
      auto it = l.quantities.find(name);
      if (it == l.quantities.end() || !std::isfinite(it->second.launches.front().value)) {
        everywhere = false;
        break;
      }
      q.launches.push_back(it->second.launches.front());
      if (it->second.q == 0.0) q.q = 0.0;  // trials only where every launch has them
    }
    if (everywhere) out.push_back(std::move(q));
    else notes.push_back("NOTE: '" + name + "' is not in every file (or not a number there): left out");
  }
  return out;
}

double launch_own_width(const Quantity &q, const LaunchValue &l) {
  if (q.q <= 0.0 || l.values().empty()) return NAN;
  lat_compare_result self{};
  lat_compare_options o;
  lat_compare_defaults(&o);
  if (lat_compare_distributions(static_cast<int64_t>(l.values().size()), l.values().data(), l.counts().data(),
                                static_cast<int64_t>(l.values().size()), l.values().data(), l.counts().data(), q.q, &o,
                                &self) != LAT_SUCCESS ||
      !std::isfinite(self.ratio_high))
    return NAN;
  return (self.ratio_high - self.ratio_low) / 2.0;
}

std::string number(double x) {
  if (std::isnan(x)) return "-";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string csv_quoted(const std::string &s) {
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

std::string gp_quoted(const std::string &s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("''") : std::string(1, c);
  return o + "'";
}

namespace {

const std::set<std::string> kKinds(std::begin(json_fields::kFormats), std::end(json_fields::kFormats));
constexpr int kMaxJsonDepth = 64;

}  // namespace

std::string cut_text(const std::string &text, size_t most) {
  if (text.size() <= most) return text;
  size_t end = most;
  // Never inside a UTF-8 character: back over its continuation bytes (10xxxxxx) to the byte that starts it.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
  return text.substr(0, end);
}

namespace {

/// A value as a message or a note shows it: a string as it is, a number or a word as JSON, an array or an
/// object by its kind (never dumped: a list nested 100,000 deep overflowed the stack); control characters as
/// '?' and at most 60 bytes, cut between characters, so that no file's bytes reach the terminal raw or at length.
std::string text_of(const json &v) {
  std::string t = v.is_string() ? v.get<std::string>() : v.is_array() ? "(a JSON array)" : v.is_object() ? "(a JSON object)" : v.dump();
  if (t.size() > 60) t = cut_text(t, 57) + "...";
  for (char &c : t)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return t;
}

/// A whole number of the file: refused (json::type_error) unless it is one, so that no 1e300 is cast to an
/// integer.
int64_t whole(const json &v, const char *what) {
  if (v.is_number_integer() && (!v.is_number_unsigned() || v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX)))
    return v.get<int64_t>();
  throw json::type_error::create(302, std::string(what) + " must be a whole number", &v);
}

double number_or_nan(const json &v) {
  if (v.is_number()) return v.get<double>();
  return NAN;  // "inf", "n/a", null: not a value to compare
}

void add(Launch &l, const std::string &name, bool higher_is_slower, double value, double x = NAN, double q = 0.0,
         std::shared_ptr<const Trials> trials = nullptr) {
  Quantity &qt = l.quantities[name];
  if (qt.name.empty()) l.order.push_back(name);
  qt.name = name;
  qt.higher_is_slower = higher_is_slower;
  qt.x = x;
  qt.q = trials == nullptr || trials->values.empty() ? 0.0 : q;
  LaunchValue lv;
  lv.value = value;
  lv.trials = std::move(trials);
  qt.launches = {lv};
}

/// The nearest-rank q-quantile of a table (values ascending).
double table_quantile(const std::vector<double> &v, const std::vector<int64_t> &c, double q) {
  int64_t n = 0;
  for (int64_t k : c) n += k;
  const int64_t rank = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(q * static_cast<double>(n) - 1e-9)), 1, n);
  int64_t seen = 0;
  for (size_t i = 0; i < v.size(); ++i)
    if ((seen += c[i]) >= rank) return v[i];
  return v.empty() ? NAN : v.back();
}

/// The field at a JSON pointer of spec/json.toml (drivers/json_fields.hpp); json::out_of_range when absent.
const json &at(const json &j, const char *pointer) { return j.at(json::json_pointer(pointer)); }
bool has(const json &j, const char *pointer) { return j.contains(json::json_pointer(pointer)); }

/// The elements of the frequency tables ("frequencies": [[time, count], ...]), taken out of the parse as it
/// reads them (read_launch_text): a row as nlohmann's JSON costs about 100 bytes, here 16 (two files of
/// 3,000,000 rows: 720 MB at the peak before, docs/performance.md). A row of a number with a fraction and a
/// whole number is kept as the two; any other element as its JSON, in its place, so that reading it says
/// what it said when the table was read from the tree.
struct Table {
  std::vector<double> times;
  std::vector<int64_t> counts;
  std::map<size_t, json> other;  // element index: an element that is not such a row
  size_t size() const { return times.size(); }
};
/// Each table by its JSON pointer ("/pingpong/frequencies", "/points/3/frequencies").
using Tables = std::map<std::string, Table>;

/// The table at pointer; an empty one where the file had none there.
const Table &table_at(const Tables &tables, const std::string &pointer) {
  static const Table kNone;
  const auto it = tables.find(pointer);
  return it == tables.end() ? kNone : it->second;
}

/// A frequency table's rows [time, count] into v and c: a time of the distribution (>= 0, ascending) and
/// how many trials had it (>= 1); the total stays below 2^62 so that it is exact and cannot overflow.
void read_frequencies(const Launch &l, const Table &rows, const std::string &what, std::vector<double> &v,
                      std::vector<int64_t> &c) {
  int64_t total = 0;
  v.reserve(rows.size());
  c.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto other = rows.other.find(i);
    const json *raw = other == rows.other.end() ? nullptr : &other->second;
    const double t = raw ? raw->at(0).get<double>() : rows.times[i];
    const int64_t k = raw ? whole(raw->at(1), "a frequency count") : rows.counts[i];
    if (!(t >= 0.0) || (!v.empty() && !(t > v.back())) || k < 1 || k > (int64_t{1} << 53) ||
        (total += k) > (int64_t{1} << 62))  // added only once k is in range: no overflow
      throw BadInput(l.path + ": " + what + " row " + std::to_string(v.size()) +
                     ": expected [time >= 0, ascending; count in 1..2^53], got " + text_of(raw ? *raw : json::array({t, k})));
    v.push_back(t);
    c.push_back(k);
  }
}

/// The parse's callback: the depth bounded, and the elements of every array named "frequencies" taken out
/// of the tree into tables as they are read. It follows the path through the events (nlohmann's callback
/// gives the depth, not the path).
class TableTaker {
 public:
  TableTaker(const std::string &path, Tables &tables) : path_(path), tables_(tables) {}

  bool operator()(int depth, json::parse_event_t event, json &parsed) {
    using E = json::parse_event_t;
    if (depth > kMaxJsonDepth)
      throw BadInput(path_ + ": not an mpilat JSON result (nested deeper than " + std::to_string(kMaxJsonDepth) + " levels)");
    switch (event) {
      case E::object_start:
      case E::array_start: {
        Frame f;
        f.array = event == E::array_start;
        f.name = frames_.empty() ? "" : frames_.back().array ? std::to_string(frames_.back().index) : frames_.back().key;
        if (f.array && f.name == "frequencies") {
          std::string pointer;
          for (size_t k = 1; k < frames_.size(); ++k) pointer += "/" + escaped(frames_[k].name);
          f.table = &tables_[pointer + "/" + f.name];
        }
        frames_.push_back(std::move(f));
        return true;
      }
      case E::key:
        frames_.back().key = parsed.get<std::string>();
        return true;
      case E::value:
        return !frames_.empty() && frames_.back().array ? element_done(&parsed) : true;
      case E::object_end:
      case E::array_end:
        frames_.pop_back();
        return frames_.empty() || !frames_.back().array ? true : element_done(&parsed);
    }
    return true;
  }

 private:
  struct Frame {
    bool array = false;
    std::string name, key;  // its name in its parent; an object's current key
    size_t index = 0;       // an array's elements so far
    Table *table = nullptr; // an array named "frequencies": its elements go there
  };

  /// An element of the innermost array is complete: into its table (false: not kept in the tree), or kept.
  bool element_done(json *element) {
    Frame &f = frames_.back();
    const size_t index = f.index++;
    if (f.table == nullptr) return true;
    Table &t = *f.table;
    const json &e = *element;
    if (e.is_array() && e.size() == 2 && e[0].is_number_float() && e[1].is_number_integer() &&
        (!e[1].is_number_unsigned() || e[1].get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX))) {
      t.times.push_back(e[0].get<double>());
      t.counts.push_back(e[1].get<int64_t>());
    } else {
      t.times.push_back(0.0);
      t.counts.push_back(0);
      t.other.emplace(index, std::move(*element));
    }
    return false;
  }

  static std::string escaped(const std::string &name) {  // JSON pointer: ~ as ~0, / as ~1
    std::string e;
    for (char ch : name) e += ch == '~' ? "~0" : ch == '/' ? "~1" : std::string(1, ch);
    return e;
  }

  const std::string &path_;
  Tables &tables_;
  std::vector<Frame> frames_;
};

void read_latency(Launch &l, const json &j, const Tables &tables) {
  namespace f = json_fields::latency;
  l.must_match["message bytes"] = text_of(at(j, f::message_bytes));
  l.noted["timer"] = text_of(at(j, f::timer_name));
  l.noted["npp used"] = text_of(at(j, f::npp_used));
  l.noted["MPI library"] = cut_text(text_of(at(j, f::mpi_library_version)), 40);
  auto t = std::make_shared<Trials>();
  if (has(j, f::frequencies)) read_frequencies(l, table_at(tables, f::frequencies), "mpilat-latency frequencies", t->values, t->counts);
  if (t->values.empty()) {
    // A run stopped before its first timing trial (its statistics null: "statistics of nothing") has no
    // value: read_launch_text refuses it with every format's.
    if (at(j, f::median_us).is_null()) return;
    add(l, "latency median (us)", true, at(j, f::median_us).get<double>());
    if (has(j, f::p99_us)) add(l, "latency p99 (us)", true, number_or_nan(at(j, f::p99_us)));
    return;
  }
  add(l, "latency median (us)", true, table_quantile(t->values, t->counts, 0.5), 1, 0.5, t);
  add(l, "latency p99 (us)", true, table_quantile(t->values, t->counts, 0.99), 2, 0.99, t);
}

void read_sweep(Launch &l, const json &j) {
  namespace f = json_fields::sweep;
  l.must_match["pattern"] = text_of(at(j, f::pattern_name));
  l.noted["timer"] = text_of(at(j, f::timer_name));
  for (const json &p : at(j, f::points)) {
    const int64_t bytes = whole(at(p, f::point_bytes), "a point's bytes");
    if (at(p, f::point_min_us).is_null()) continue;  // a point a stopped run never reached: no sample, no figure
    auto t = std::make_shared<Trials>();
    if (has(p, f::point_samples_us)) t->values = at(p, f::point_samples_us).get<std::vector<double>>();
    std::sort(t->values.begin(), t->values.end());
    add(l, "minimum (us) at " + std::to_string(bytes) + " B", true, at(p, f::point_min_us).get<double>(),
        static_cast<double>(bytes));
    t->counts.assign(t->values.size(), 1);
    add(l, "median (us) at " + std::to_string(bytes) + " B", true, at(p, f::point_median_us).get<double>(),
        static_cast<double>(bytes), 0.5, t);
  }
}

void read_queue(Launch &l, const json &j) {
  namespace f = json_fields::queue;
  l.must_match["mode"] = text_of(at(j, f::mode));
  for (const json &p : at(j, f::points)) {
    const std::string name = "queue length " + text_of(at(p, f::point_length)) + ", traversed " +
                             text_of(at(p, f::point_traversed)) + ", " + text_of(at(p, f::point_bytes)) + " B (us)";
    if (whole(at(p, f::point_measurements), "a point's measurements") > 0) add(l, name, true, at(p, f::point_paper_us).get<double>());
  }
}

void read_pairs(Launch &l, const json &j) {
  namespace f = json_fields::pairs;
  l.must_match["ranks"] = text_of(at(j, f::nprocs));
  l.must_match["message bytes"] = text_of(at(j, f::msg_bytes));
  if (!has(j, f::median_matrix_us))
    throw BadInput(l.path + ": holds no matrices (too many ranks for the JSON): compare the mmpi logs' JSON of a smaller job");
  const json &m = at(j, f::median_matrix_us);
  std::vector<double> all;
  for (size_t a = 0; a < m.size(); ++a)
    for (size_t b = a + 1; b < m.at(a).size(); ++b) {
      const double v = number_or_nan(m.at(a).at(b));
      all.push_back(v);
      add(l, "pair " + std::to_string(a) + "-" + std::to_string(b) + " median round trip (us)", true, v);
    }
  std::vector<double> finite;
  for (double v : all)
    if (std::isfinite(v)) finite.push_back(v);
  if (!finite.empty()) add(l, "matrix median of the pair medians (us)", true, median_of(finite));
}

void read_nodecomm(Launch &l, const json &j) {
  namespace f = json_fields::nodecomm;
  const json &regimes = at(j, f::regimes);
  l.noted["regimes"] = std::to_string(regimes.size());
  for (size_t r = 0; r < regimes.size(); ++r) {
    const std::string where = "regime " + std::to_string(r + 1);
    for (const auto &[model, fit] : at(regimes.at(r), f::regime_models).items())
      for (const char *param : {"alpha_us", "rc_mbs", "rn_mbs", "rci_mbs"}) {
        if (!fit.contains(param)) continue;
        const double v = number_or_nan(fit.at(param));
        // A parameter the data leave open ("inf", "n/a") is not a value to compare. Times are slower when
        // higher; rates faster.
        if (std::isfinite(v)) add(l, where + " " + model + ": " + param, std::string(param) == "alpha_us", v);
      }
  }
}

void read_coll(Launch &l, const json &j, const Tables &tables) {
  namespace f = json_fields::coll;
  l.must_match["ranks"] = text_of(at(j, f::nprocs));
  l.noted["timer"] = text_of(at(j, f::timer_name));
  const json &points = at(j, f::points);
  for (size_t k = 0; k < points.size(); ++k) {
    const json &p = points.at(k);
    const int64_t bytes = whole(at(p, f::point_bytes), "a point's bytes");
    const std::string name = text_of(at(p, f::point_operation)) + " " + std::to_string(bytes) + " B " +
                             text_of(at(p, f::point_mode)) + " median (us)";
    if (whole(at(p, f::point_samples), "a point's samples") == 0) continue;
    auto t = std::make_shared<Trials>();
    if (has(p, f::point_frequencies))
      read_frequencies(l, table_at(tables, std::string(f::points) + "/" + std::to_string(k) + f::point_frequencies),
                       "mpilat-coll point " + std::to_string(k) + " frequencies", t->values, t->counts);
    if (t->values.empty()) add(l, name, true, at(p, f::point_median_us).get<double>(), static_cast<double>(bytes));
    else add(l, name, true, table_quantile(t->values, t->counts, 0.5), static_cast<double>(bytes), 0.5, t);
  }
}

/// A format read by its spec alone (spec/json.toml's `compare` and `match`): a new capability's JSON is
/// compared without a reader of its own.
void read_by_spec(Launch &l, const json &j) {
  for (const json_fields::SpecMatch &m : json_fields::kSpecMatches)
    if (l.kind == m.format) l.must_match[m.name] = text_of(at(j, m.pointer));
  bool any = false;
  for (const json_fields::SpecQuantity &q : json_fields::kSpecQuantities)
    if (l.kind == q.format) {
      add(l, q.name, q.higher_is_slower, at(j, q.pointer).get<double>());
      any = true;
    }
  if (!any) throw BadInput(l.path + ": " + l.kind + ": mpilat-compare reads none of its quantities (spec/json.toml: compare)");
}

}  // namespace

Launch read_launch(const std::string &path) {
  // Read once by the library's rule (lat_read_input): a regular file, checked again on what was opened (a
  // FIFO swapped in after the check never blocks), bounded by the bytes read; recorded as an input, which no
  // output of this run may replace.
  lat_input input = nullptr;
  int64_t nbytes = 0;
  std::string text;
  try {
    if (lat_read_input(path.c_str(), &input) != LAT_SUCCESS || lat_input_size(input, &nbytes) != LAT_SUCCESS)
      throw BadInput(lat_last_error_message());
    text.resize(static_cast<size_t>(nbytes));
    if (lat_input_get(input, nbytes, text.data()) != LAT_SUCCESS) throw BadInput(lat_last_error_message());
  } catch (...) {
    lat_input_free(&input);
    throw;
  }
  lat_input_free(&input);
  return read_launch_text(text, path);
}

Launch read_launch_text(const std::string &text, const std::string &path) {
  if (text.empty()) throw BadInput(path + ": an empty file, not an mpilat JSON result");
  // Refused before parsing when the parse could pass a memory limit: nlohmann-json would abort, not throw.
  if (lat_check_json_memory(static_cast<int64_t>(text.size()), path.c_str()) == LAT_ERR_NOMEM)
    throw MemoryShort(lat_last_error_message());
  if (text.rfind("\xff\xfe", 0) == 0 || text.rfind("\xfe\xff", 0) == 0)
    throw BadInput(path + ": UTF-16 text (it starts with a byte-order mark); JSON is read as UTF-8: convert it, "
                          "e.g. iconv -f UTF-16 -t UTF-8");
  // nlohmann-json ends its input at a NUL byte: what follows one would be ignored unread. JSON never holds a
  // raw NUL (in a string it is \u0000).
  if (const size_t nul = text.find('\0'); nul != std::string::npos)
    throw BadInput(path + ": not an mpilat JSON result (a NUL byte at byte " + std::to_string(nul) + ")");
  json j;
  Tables tables;
  try {
    // Depth bounded while it is read (no mpilat result nests deeper than a few levels); the frequency tables'
    // rows taken out as they are read.
    j = json::parse(text, TableTaker(path, tables));
  } catch (const json::parse_error &e) {
    // Where, not what: nlohmann's message quotes the bytes read.
    throw BadInput(path + ": not an mpilat JSON result (not valid JSON: a syntax error at byte " + std::to_string(e.byte) + ")");
  } catch (const json::out_of_range &) {  // 1e999: found by fuzz_compare_json
    throw BadInput(path + ": not an mpilat JSON result (a number beyond the range of a double)");
  }
  if (!j.is_object()) throw BadInput(path + ": not an mpilat JSON result (not a JSON object)");
  namespace common = json_fields::common;
  if (!has(j, common::format) || !at(j, common::format).is_string() || kKinds.count(at(j, common::format).get<std::string>()) == 0)
    throw BadInput(path + ": not an mpilat result this program reads (\"format\" must be one of " +
                   json_fields::kFormatList + ")");
  Launch l;
  l.path = path;
  l.kind = at(j, common::format).get<std::string>();
  if (!has(j, common::format_version) || at(j, common::format_version) != 1)
    throw BadInput(path + ": " + l.kind + " format_version " + (has(j, common::format_version) ? text_of(at(j, common::format_version)) : "missing") +
                   ", this mpilat-compare reads version 1");
  try {
    if (l.kind == json_fields::latency::kFormat) read_latency(l, j, tables);
    else if (l.kind == json_fields::sweep::kFormat) read_sweep(l, j);
    else if (l.kind == json_fields::queue::kFormat) read_queue(l, j);
    else if (l.kind == json_fields::pairs::kFormat) read_pairs(l, j);
    else if (l.kind == json_fields::coll::kFormat) read_coll(l, j, tables);
    else if (l.kind == json_fields::nodecomm::kFormat) read_nodecomm(l, j);
    else read_by_spec(l, j);
  } catch (const json::exception &e) {
    // nlohmann's own words ("[json.exception.type_error.302] ...") are not the user's business: which kind.
    const char *what = e.id == 403                 ? "a field missing"
                       : e.id >= 300 && e.id < 400 ? "a field of the wrong type (a text, null or list where a number belongs)"
                       : e.id >= 400 && e.id < 500 ? "an index or number beyond its range"
                                                   : "a field it cannot read";
    throw BadInput(path + ": " + l.kind + " lacks what it should hold (" + what + ")");
  }
  const bool partial = has(j, common::partial) && at(j, common::partial).is_boolean() && at(j, common::partial).get<bool>();
  if (partial) l.noted["partial"] = "yes";
  if (l.quantities.empty())  // the points a stopped run never reached are skipped above
    throw BadInput(path + (partial ? ": a partial " + l.kind + " run stopped before its first measured value"
                                   : ": " + l.kind + " holds no measured value") +
                   ": nothing to compare (leave it out)");
  return l;
}


}  // namespace compare
