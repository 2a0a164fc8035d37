#include "maxrate/report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/plot.hpp"
#include "common/report_json.hpp"
#include "common/report_text.hpp"
#include "common/staged_files.hpp"
#include "generated/spec_json.hpp"

namespace lat {

namespace {



/// A rate in MB/s, or "inf".
std::string rate(double mbs) {
  return std::isinf(mbs) ? "inf" : fmt::format("{:.4g}", mbs);
}

}  // namespace

const char *rate_model_name(int model) {
  switch (model) {
    case LAT_MODEL_POSTAL_1PAIR: return "postal (1 pair)";
    case LAT_MODEL_POSTAL_KPAIRS: return "postal (K pairs)";
    case LAT_MODEL_POSTAL_ALL: return "postal (all pairs)";
    case LAT_MODEL_MAXRATE: return "max-rate 3-parameter";
    case LAT_MODEL_MAXRATE4: return "max-rate 4-parameter";
    case LAT_MODEL_MAXPOSTAL: return "modified (5)";
    default: return "unknown";
  }
}

const char *rate_model_slug(int model) {
  switch (model) {
    case LAT_MODEL_POSTAL_1PAIR: return "postal_1pair";
    case LAT_MODEL_POSTAL_KPAIRS: return "postal_kpairs";
    case LAT_MODEL_POSTAL_ALL: return "postal_all";
    case LAT_MODEL_MAXRATE: return "maxrate";
    case LAT_MODEL_MAXRATE4: return "maxrate4";
    case LAT_MODEL_MAXPOSTAL: return "maxpostal";
    default: return "unknown";
  }
}

const char *rate_model_formula(int model) {
  switch (model) {
    case LAT_MODEL_MAXRATE: return "T = alpha + k n / min(RN, k RC)";
    case LAT_MODEL_MAXRATE4: return "T = alpha + k n / min(RN, RCb + (k-1) RCi)";
    case LAT_MODEL_MAXPOSTAL: return "T = k n / min(RN, k n / (alpha + n / RC)) = max(alpha + n / RC, k n / RN)";
    default: return "T = alpha + n / RC";
  }
}

const char *rate_model_method(int model) {
  switch (model) {
    case LAT_MODEL_MAXRATE: return "exact: every linear piece solved (global optimum)";
    case LAT_MODEL_MAXRATE4:
      return "certified: branch and bound over RC(K)/RC(k0), each point exact; no parameters do better than "
             "rel_err_sq - sse_gap (certified: sse_gap <= 1e-3 rel_err_sq)";
    case LAT_MODEL_MAXPOSTAL:
      return "searched: exact for each RC/RN (a sweep over the faces), RC/RN on a grid refined by golden section; no certificate";
    default: return "exact: linear least squares with alpha >= 0 (global optimum)";
  }
}

std::string regime_name(int regime, int nregimes) {
  static const char *const three[] = {"short", "eager", "rendezvous"};
  if (nregimes == 3) return three[regime];
  if (nregimes == 1) return "all";
  if (nregimes == 2) return regime == 0 ? "lower" : "upper";
  return "regime " + std::to_string(regime + 1);
}



namespace {

/// A parameter's cell: the value, or the bound the data allow ("≥ 1234", "≤ 3.2"), "n/d" not determined.
std::string cell(double v, int bounded, int bit, const char *bound_sign) {
  if (std::isnan(v)) return "n/d";
  if ((bounded & bit) && bound_sign != nullptr) return std::string(bound_sign) + rate(v);
  return rate(v);
}

/// A rate's cell in Table 1: per round trip, then per direction (twice it), "27.3 / 54.6": T is a full ping-pong.
std::string rate_cell(double v, int bounded, int bit, const char *bound_sign) {
  if (!std::isfinite(v)) return cell(v, bounded, bit, bound_sign);  // n/d, inf: the same both ways
  return cell(v, bounded, bit, bound_sign) + " / " + cell(2.0 * v, bounded, bit, bound_sign);
}

std::string k_star_text(double k) { return std::isnan(k) ? "n/d" : std::isinf(k) ? "none" : fmt::format("{:.4g}", k); }

const char *verdict_slug(const lat_model_fit &m) {
  if (std::isnan(m.alpha_us)) return "not_fitted";
  return m.verdict == LAT_VERDICT_MISFIT     ? "misfit"
         : m.verdict == LAT_VERDICT_NO_K     ? "no_k_dependence"
         : m.verdict == LAT_VERDICT_UNTESTED ? "cannot_be_tested"
                                             : "fits";
}

const char *verdict_word(const lat_model_fit &m) {
  if (std::isnan(m.alpha_us)) return "not fitted";
  switch (m.verdict) {
    case LAT_VERDICT_MISFIT: return "MISFIT";
    case LAT_VERDICT_NO_K: return "no k dep.";
    case LAT_VERDICT_UNTESTED: return "untested";
    default: return "fits";
  }
}

/// One regime's verdict on a model, in words.
std::string verdict_text(const lat_model_fit &m) {
  if (std::isnan(m.alpha_us)) return "not fitted";
  switch (m.verdict) {
    case LAT_VERDICT_MISFIT:
      if (m.latency_growth > LAT_VERDICT_LATENCY_GROWTH)
        return fmt::format("DOES NOT FIT (the latency grows with k: at the regime's smaller sizes the time from 1 to K pairs "
                           "grows {:.0f} % more than this model allows, above {:.0f} %: a latency that depends on k, which "
                           "no model here has, or a growth of another shape than this model's; its parameters describe nothing)",
                           100.0 * m.latency_growth, 100.0 * LAT_VERDICT_LATENCY_GROWTH);
      return fmt::format("DOES NOT FIT (runs z {:.1f}: its errors are systematic; its parameters describe nothing)", m.runs_z);
    case LAT_VERDICT_NO_K:
      return fmt::format("fits, but shows no dependence on k (BIC gain {:.1f} over the postal model < {}): no RN, no k*",
                         m.bic_gain, LAT_VERDICT_BIC_GAIN);
    case LAT_VERDICT_UNTESTED: {
      int64_t need = 10;
      while (!runs_test_can_reject(need)) ++need;
      return fmt::format("cannot be tested: too few observations for the runs test to find a systematic error (it "
                         "needs {} at least in a regime); measure more sizes or pairs", need);
    }
    default:
      return std::isnan(m.bic_gain) ? fmt::format("fits (runs z {:.1f})", m.runs_z)
                                    : fmt::format("fits (runs z {:.1f}, BIC gain {:.1f} over the postal model)", m.runs_z, m.bic_gain);
  }
}

}  // namespace

std::string one_pair_note() {
  return "K = 1: one pair cannot tell the network's rate from a core's. The max-rate models see only min(RN, RC), "
         "shown as RC; RN, RCi and k* are not identifiable (n/d). Measure with 2 or more pairs (up to a node's "
         "cores) to separate them";
}

std::string maxrate_tables_text(const MaxrateFit &fit) {
  const lat_fit_summary &s = fit.summary;
  const int nreg = static_cast<int>(s.nregimes);
  std::string o;
  // The verdict first: whether the paper's model describes the data at all (docs/method.md, "Does the model fit?").
  o += "Verdict (does the model describe the data? runs test and BIC, docs/method.md):";
  for (int model : {LAT_MODEL_MAXRATE4, LAT_MODEL_MAXRATE, LAT_MODEL_MAXPOSTAL}) {
    append(o, "{} {}:", model == LAT_MODEL_MAXRATE4 ? "" : ";", rate_model_name(model));
    for (int g = 0; g < nreg; ++g) {
      const lat_model_fit &m = fit.models[static_cast<size_t>(g * LAT_NMODELS + model)];
      append(o, "{} {} {}", g ? "," : "", regime_name(g, nreg),
             m.verdict == LAT_VERDICT_MISFIT     ? "DOES NOT FIT"
             : m.verdict == LAT_VERDICT_UNTESTED ? "cannot be tested"
                                                 : verdict_word(m));
    }
  }
  o += "\n";
  append(o, "Regimes ({}): ", s.thresholds_detected ? "thresholds by segmented regression of every k's curve, the cuts shared" : "thresholds given");
  for (int g = 0; g < nreg; ++g)
    append(o, "{}{} {}..{} bytes", g ? ", " : "", regime_name(g, nreg), s.regime_first[g],
            s.regime_last[g]);
  append(o, "; K = {} pairs, {} observations\n\n", s.kmax, s.nobs);
  std::vector<std::string> notes;
  for (int model : {LAT_MODEL_MAXRATE4, LAT_MODEL_MAXRATE, LAT_MODEL_MAXPOSTAL, LAT_MODEL_POSTAL_ALL,
                    LAT_MODEL_POSTAL_1PAIR, LAT_MODEL_POSTAL_KPAIRS}) {
    const bool four = model == LAT_MODEL_MAXRATE4;
    append(o, "Table 1: {} model parameters, {}\n", rate_model_name(model), rate_model_formula(model));
    append(o, "  fit: {}\n", rate_model_method(model));
    append(o, "  rates in MB/s as 'per round trip / per direction': T is a full ping-pong (n bytes each way in turn), so "
              "the rate a link or a core sustains in one direction is twice the round trip's (the JSON's *_per_direction_mbs)\n");
    const char *unit = " rt / dir";
    append(o, "{:<11} {:>12} {:>28} {:>20} {:>20} {:>10} {:>12} {:>8} {:>10} {}\n", "phase", "alpha [us]", std::string("RN") + unit,
            std::string(four ? "RCb" : "RC") + unit, four ? std::string("RCi") + unit : "", "k*", "sse gap", "runs z", "BIC gain", "verdict");
    for (int g = 0; g < nreg; ++g) {
      const lat_model_fit &m = fit.models[static_cast<size_t>(g * LAT_NMODELS + model)];
      std::string rn = cell(m.rn_mbs, 0, 0, nullptr);  // n/d where one pair cannot identify it
      if (m.bounded & LAT_BOUND_RN) rn += " (>=" + rate(m.rn_min_mbs) + " / " + rate(2.0 * m.rn_min_mbs) + ")";
      else rn = rate_cell(m.rn_mbs, 0, 0, nullptr);
      append(o, "{:<11} {:>12} {:>28} {:>20} {:>20} {:>10} {:>12} {:>8} {:>10} {}\n", regime_name(g, nreg),
             std::isnan(m.alpha_us) ? std::string("n/d") : (m.bounded & LAT_BOUND_ALPHA ? "<=" : "") + fmt::format("{:.4g}", m.alpha_us),
             rn, rate_cell(m.rc_mbs, m.bounded, LAT_BOUND_RC, ">="),
             four ? rate_cell(m.rci_mbs, m.bounded, LAT_BOUND_RCI, nullptr) : "",
             k_star_text(m.k_star), std::isnan(m.sse_gap) ? std::string("none") : fmt::format("{:.3g}", m.sse_gap),
             std::isnan(m.runs_z) ? std::string("n/d") : fmt::format("{:.1f}", m.runs_z),
             std::isnan(m.bic_gain) || m.model < LAT_MODEL_MAXRATE ? std::string("-") : fmt::format("{:.1f}", m.bic_gain),
             verdict_word(m));
      const std::string where = std::string(rate_model_name(model)) + ", " + regime_name(g, nreg) + ": ";
      if (m.bounded & LAT_BOUND_RN)
        notes.push_back(where + "no point is network-bound; the data only say RN >= " + rate(m.rn_min_mbs) + " MB/s" +
                        " per round trip (" + rate(2.0 * m.rn_min_mbs) + " per direction)");
      if (m.bounded & LAT_BOUND_NARROW)
        notes.push_back(where + "the regime is too narrow to fix a rate (its one-pair times show no slope in the size at "
                                "95 %); RC" + (four ? "b" : "") + " is only bounded below, and k*" + (four ? " and RCi are" : " is") +
                        " not determined");
      else if (m.bounded & LAT_BOUND_RC)
        notes.push_back(where + "every point is network-bound; RC" + (four ? "b" : "") + " is only bounded below");
      if ((m.bounded & LAT_BOUND_RCI) && !(m.bounded & LAT_BOUND_RC))
        notes.push_back(where + "fewer than two pair counts are core-bound; RCi is not determined");
      if (m.bounded & LAT_BOUND_ALPHA) notes.push_back(where + "alpha is only bounded above");
      if (m.verdict == LAT_VERDICT_MISFIT) notes.push_back(where + "does not describe the data: " + verdict_text(m));
      if (m.verdict == LAT_VERDICT_NO_K || m.verdict == LAT_VERDICT_UNTESTED) notes.push_back(where + verdict_text(m));
      if (model == LAT_MODEL_MAXRATE4 && !m.certified && !std::isnan(m.sse_gap))
        notes.push_back(where + "NOT certified within 1e-3: the optimum may be up to sse gap lower");
    }
    o += "\n";
  }
  if (s.kmax == 1) notes.insert(notes.begin(), one_pair_note());
  if (!notes.empty()) {
    o += "What the data leave open:\n";
    for (const std::string &n : notes) o += "  " + n + "\n";
    o += "\n";
  }
  append(o, "Table 2: relative error sums, sum over the regime's points of |T_model - T| / T\n");
  append(o, "{:<11} {:>14} {:>14} {:>14} {:>14} {:>14} {:>14}\n", "phase", "max-rate 4p", "max-rate 3p", "modified (5)",
         "postal 1 pair", "postal K pairs", "postal all");
  for (int g = 0; g < nreg; ++g) {
    append(o, "{:<11}", regime_name(g, nreg));
    for (int model : {LAT_MODEL_MAXRATE4, LAT_MODEL_MAXRATE, LAT_MODEL_MAXPOSTAL, LAT_MODEL_POSTAL_1PAIR,
                      LAT_MODEL_POSTAL_KPAIRS, LAT_MODEL_POSTAL_ALL})
      append(o, " {:14.4g}", fit.models[static_cast<size_t>(g * LAT_NMODELS + model)].rel_err_sum);
    o += "\n";
  }
  return o;
}

namespace {

/// Between what the pairs ran, where it is not two nodes.
std::string sides_text(const NodecommResult &m) {
  const lat_nodecomm_summary &s = m.summary;
  if (s.sides == LAT_SIDES_SOCKET) return " (INTRA-NODE: two sockets of one node)";
  if (s.sides == LAT_SIDES_HALVES && m.options.sides == LAT_SIDES_SOCKET)
    return " (INTRA-NODE: one socket, or sockets unknown: its two halves, not two sockets)";
  if (s.intra_node) return " (INTRA-NODE: one node, its two halves)";
  return "";
}

std::string what_of(const NodecommResult *m) {
  if (m == nullptr) return "nodecomm table read back; full ping-pong time (us) of the slowest of k pairs";
  const lat_nodecomm_summary &s = m->summary;
  return std::string("nodecomm (mpilat ") + MPILAT_VERSION_STRING + "): full ping-pong time (us) of the slowest of k pairs, " +
         s.host_a + " - " + s.host_b + sides_text(*m) + (s.partial ? " PARTIAL: stopped early" : "");
}

/// The plots' short form: the hosts, and INTRA-NODE where it is one node.
std::string plot_what(const NodecommResult *m) {
  if (m == nullptr) return "a nodecomm table";
  return std::string(m->summary.host_a) + " - " + m->summary.host_b + sides_text(*m);
}

std::string json_text(const std::string &command_line, const NodecommResult *m, const std::vector<lat_maxrate_obs> &obs,
                      const MaxrateFit &fit) {
  nlohmann::json j = report_head_json("mpilat-nodecomm", command_line, m != nullptr);
  j["run"]["measured"] = m != nullptr;
  if (m != nullptr) {
    const lat_nodecomm_summary &s = m->summary;
    j["run"]["wall_s"] = s.wall_s;
    j["run"]["partial"] = s.partial != 0;
    j["run"]["disturbance"] = disturbance_json(s.runqueue_share_max, s.runqueue_rank, s.runqueue_wait_s);
    j["measurement"] = {{"intra_node", s.intra_node != 0},
                        {"sides", s.sides == LAT_SIDES_SOCKET ? "socket" : s.sides == LAT_SIDES_HALVES ? "halves" : "node"},
                        {"sides_asked", m->options.sides == LAT_SIDES_SOCKET ? "socket" : "node"},
                        {"host_a", std::string(s.host_a)},
                        {"host_b", std::string(s.host_b)}, {"ranks_a", s.ranks_a}, {"ranks_b", s.ranks_b},
                        {"kmax", s.kmax}, {"nsizes", s.nsizes}, {"reps", m->options.reps},
                        {"timer", timer_name(s.timer)}, {"res_timing_us", s.res_timing_us},
                        {"time", "full ping-pong (send and receive the reply), the slowest of the k pairs, "
                                 "minimum over the measurements of each measurement's mean, us"}};
    nlohmann::json points = nlohmann::json::array();
    for (const lat_nodecomm_point &p : m->points) points.push_back(spec_result_json(p));
    j["points"] = points;
  }
  const lat_fit_summary &s = fit.summary;
  nlohmann::json regimes = nlohmann::json::array();
  for (int g = 0; g < s.nregimes; ++g) {
    nlohmann::json models;
    for (int model = 0; model < LAT_NMODELS; ++model) {
      const lat_model_fit &f = fit.models[static_cast<size_t>(g * LAT_NMODELS + model)];
      nlohmann::json bounds = nlohmann::json::array();
      if (f.bounded & LAT_BOUND_NARROW)
        bounds.push_back("rc_mbs is a lower bound: the regime is too narrow to fix a rate (no slope in the size at 95 %)");
      else if (f.bounded & LAT_BOUND_RC)
        bounds.push_back("rc_mbs is a lower bound: every point is network-bound");
      if (f.bounded & LAT_BOUND_RCI) bounds.push_back("rci_mbs is not determined");
      if (f.bounded & LAT_BOUND_RN) bounds.push_back("rn_mbs: no point is network-bound; RN >= rn_min_mbs");
      if (f.bounded & LAT_BOUND_ALPHA) bounds.push_back("alpha_us is an upper bound: every point is network-bound");
      nlohmann::json fitted = spec_result_json(f);
      fitted.update({{"formula", rate_model_formula(model)}, {"method", rate_model_method(model)}, {"bounds", bounds},
                     {"verdict", verdict_slug(f)}, {"verdict_text", verdict_text(f)}});
      fitted.update({{"rates_are", "per round trip: T is a full ping-pong, n bytes each way in turn; per direction twice"},
                     {"rn_per_direction_mbs", number_or_text(2.0 * f.rn_mbs)},
                     {"rc_per_direction_mbs", number_or_text(2.0 * f.rc_mbs)},
                     {"rci_per_direction_mbs", number_or_text(2.0 * f.rci_mbs)}});
      models[rate_model_name(model)] = fitted;
    }
    regimes.push_back({{"name", regime_name(g, static_cast<int>(s.nregimes))}, {"first_bytes", s.regime_first[g]},
                       {"last_bytes", s.regime_last[g]}, {"models", models}});
  }
  nlohmann::json verdict;
  for (int model : {LAT_MODEL_MAXRATE4, LAT_MODEL_MAXRATE, LAT_MODEL_MAXPOSTAL}) {
    nlohmann::json per = nlohmann::json::array();
    for (int g = 0; g < s.nregimes; ++g) per.push_back(verdict_slug(fit.models[static_cast<size_t>(g * LAT_NMODELS + model)]));
    verdict[rate_model_slug(model)] = per;
  }
  j["fit"] = {{"verdict", verdict},
              {"verdict_rule", "runs test of the signs of the relative errors (ordered by k within each size and by "
                               "size within each k) below -3.5: misfit; else too few observations for the test to reject "
                               "at all (fewer than 16 in the regime): cannot_be_tested; else BIC gain over the postal "
                               "model below 10: no k dependence shown (no RN, no k*); else fits"},
              {"observations", s.nobs}, {"kmax", s.kmax}, {"thresholds_detected", s.thresholds_detected != 0},
              {"thresholds", std::vector<int64_t>(s.thresholds, s.thresholds + s.nthresholds)}, {"regimes", regimes},
              {"objective", "least squares of the relative error (T_model - T) / T; each model's method says which "
                            "guarantee holds: exact (global optimum), certified (within sse_gap of it) or searched (none)"}};
  nlohmann::json o = nlohmann::json::array();
  for (size_t i = 0; i < obs.size(); ++i) {
    nlohmann::json e = nlohmann::json::array();
    for (int model = 0; model < LAT_NMODELS; ++model) e.push_back(number_or_text(fit.rel_err[static_cast<size_t>(model)][i]));
    nlohmann::json ob = spec_result_json(obs[i]);
    ob["rel_err"] = e;
    o.push_back(ob);
  }
  j["observations"] = o;
  return json_document_text(std::move(j), 1);
}

std::string csv_text(const std::vector<lat_maxrate_obs> &obs, const MaxrateFit &fit) {
  std::string o = "k,bytes,time_us,regime";
  for (int model = 0; model < LAT_NMODELS; ++model) o += std::string(",err_") + rate_model_slug(model);
  o += "\n";
  const lat_fit_summary &s = fit.summary;
  for (size_t i = 0; i < obs.size(); ++i) {
    int g = 0;
    while (g < s.nthresholds && obs[i].bytes > s.thresholds[g]) ++g;
    append(o, "{},{},{:.6f},{}", obs[i].k, obs[i].bytes, obs[i].time_us,
            regime_name(g, static_cast<int>(s.nregimes)));
    for (int model = 0; model < LAT_NMODELS; ++model) append(o, ",{:.6f}", fit.rel_err[static_cast<size_t>(model)][i]);
    o += "\n";
  }
  return o;
}

/// size -> (k -> (measured T, model T)) for one model: the model's time is T (1 + its relative error).
std::map<int64_t, std::map<int64_t, std::pair<double, double>>> model_rows(const std::vector<lat_maxrate_obs> &obs,
                                                                            const MaxrateFit &fit, int model) {
  std::map<int64_t, std::map<int64_t, std::pair<double, double>>> rows;
  for (size_t i = 0; i < obs.size(); ++i) {
    auto &row = rows[obs[i].bytes];
    auto it = row.find(obs[i].k);
    if (it == row.end() || obs[i].time_us < it->second.first)
      row[obs[i].k] = {obs[i].time_us, obs[i].time_us * (1.0 + fit.rel_err[static_cast<size_t>(model)][i])};
  }
  return rows;
}

/// A title of several lines: each quoted, joined by gnuplot's "\n" (single quotes take no escapes).
std::string title_lines(const std::vector<std::string> &lines) {
  std::string o;
  for (size_t i = 0; i < lines.size(); ++i) o += (i ? ".\"\\n\"." : "") + gnuplot_quoted(lines[i]);
  return o;
}

/// k* of each regime under the model, as a line of text.
std::string k_star_line(const MaxrateFit &fit, int model) {
  if (fit.summary.kmax == 1) return "k*: not identifiable from one pair (K = 1)";
  const int nreg = static_cast<int>(fit.summary.nregimes);
  std::string o = "k* (the network limits from this many pairs): ";
  for (int g = 0; g < nreg; ++g)
    append(o, "{}{} {}", g ? ", " : "", regime_name(g, nreg), k_star_text(fit.models[static_cast<size_t>(g * LAT_NMODELS + model)].k_star));
  return o;
}

/// Figure 1 for one model: aggregate bandwidth k n / T (MB/s) against n, a colour per k, points measured,
/// lines the model of each size's regime; regime boundaries dashed; k* per regime under the title.
std::string bandwidth_gp_text(const std::vector<lat_maxrate_obs> &obs, const MaxrateFit &fit, int model,
                              const std::string &file, const std::string &what) {
  const lat_fit_summary &s = fit.summary;
  const auto rows = model_rows(obs, fit, model);
  std::string o = gnuplot_figure_head(file, 1100, 720);
  append(o, "set title {}\n", title_lines({std::string("aggregate bandwidth k n / T: measured (points), ") + rate_model_name(model) +
                                                " model (lines)", what, k_star_line(fit, model)}));
  append(o, "set xlabel 'message size (bytes)'\nset ylabel 'aggregate bandwidth (MB/s per round trip; per direction twice)'\nset logscale x 2\nset grid\n");
  append(o, "set format x '%.0b%B'\n");
  append(o, "set key outside right top title 'k pairs' maxrows 20\n");
  for (int64_t g = 0; g < s.nthresholds; ++g)
    append(o, "set arrow from {}, graph 0 to {}, graph 1 nohead dashtype 2 linecolor rgb 'gray50'\n",
           s.thresholds[g], s.thresholds[g]);
  for (int64_t k = 1; k <= s.kmax; ++k) {
    append(o, "$k{} << EOD\n", k);
    for (const auto &[len, row] : rows) {
      auto it = row.find(k);
      if (it == row.end() || len == 0 || !std::isfinite(it->second.second) || !(it->second.second > 0.0)) continue;
      append(o, "{} {:.6g} {:.6g}\n", len, static_cast<double>(k * len) / it->second.first,
             static_cast<double>(k * len) / it->second.second);
    }
    append(o, "EOD\n");
  }
  append(o, "plot ");
  for (int64_t k = 1; k <= s.kmax; ++k)
    append(o, "{}$k{} using 1:2 with points pointtype 7 pointsize 0.6 linecolor {} title '{}', "
              "$k{} using 1:3 with lines linecolor {} notitle",
           k > 1 ? ", \\\n     " : "", k, k, k, k, k);
  append(o, "\n");
  return o;
}

/// Figure 2 for one model: its relative error over (size, k); k* of each regime drawn as a line across
/// the regime's columns (pairs above it are network-bound).
std::string error_gp_text(const std::vector<lat_maxrate_obs> &obs, const MaxrateFit &fit, int model,
                          const std::string &file, const std::string &what) {
  std::map<int64_t, std::map<int64_t, double>> err;  // size -> k -> relative error (percent)
  for (size_t i = 0; i < obs.size(); ++i)
    err[obs[i].bytes][obs[i].k] = 100.0 * fit.rel_err[static_cast<size_t>(model)][i];
  const lat_fit_summary &s = fit.summary;
  std::string o = gnuplot_figure_head(file, 1100, 640);
  append(o, "set title {}\n", title_lines({std::string("relative error of the ") + rate_model_name(model) + " model", what,
                                                k_star_line(fit, model) + " (black lines)"}));
  append(o, "set xlabel 'message size (bytes), one column per size measured'\nset ylabel 'pairs k'\n");
  append(o, "set cblabel '(T_model - T) / T  (%)'\nset palette defined (-1 'blue', 0 'white', 1 'red')\n");
  double worst = 1e-9;
  for (const auto &r : err)
    for (const auto &c : r.second)
      if (std::isfinite(c.second)) worst = std::max(worst, std::fabs(c.second));
  append(o, "set cbrange [{:.6g}:{:.6g}]\nset yrange [0.5:{}.5]\nset ytics 1\n", -worst, worst, s.kmax);
  // Sizes are uneven: columns by index, labelled with a few sizes.
  append(o, "set xtics rotate by 45 right (");
  size_t col = 0;
  const size_t every = std::max<size_t>(1, err.size() / 12);
  std::vector<size_t> first_col(static_cast<size_t>(s.nregimes), 0), last_col(static_cast<size_t>(s.nregimes), 0);
  for (const auto &r : err) {
    if (col % every == 0) append(o, "{}'{}' {}", col ? ", " : "", r.first, col);
    int g = 0;
    while (g < s.nthresholds && r.first > s.thresholds[g]) ++g;
    if (r.first == s.regime_first[g]) first_col[static_cast<size_t>(g)] = col;
    last_col[static_cast<size_t>(g)] = col;
    ++col;
  }
  append(o, ")\n");
  for (int g = 0; g < s.nregimes; ++g) {
    const double ks = fit.models[static_cast<size_t>(g * LAT_NMODELS + model)].k_star;
    if (std::isfinite(ks) && ks <= static_cast<double>(s.kmax) + 0.5)
      append(o, "set arrow from {}, {:.4g} to {}, {:.4g} nohead front linewidth 2 linecolor rgb 'black'\n",
             static_cast<double>(first_col[static_cast<size_t>(g)]) - 0.5, std::max(ks, 0.5),
             static_cast<double>(last_col[static_cast<size_t>(g)]) + 0.5, std::max(ks, 0.5));
  }
  append(o, "$err << EOD\n");
  col = 0;
  for (const auto &r : err) {
    for (const auto &c : r.second) append(o, "{} {} {:.6g}\n", col, c.first, c.second);
    ++col;
    o += "\n";
  }
  append(o, "EOD\nplot $err using 1:2:3 with image notitle\n");
  return o;
}

}  // namespace

std::vector<std::string> maxrate_output_names(const std::string &outdir) {
  std::vector<std::string> names;
  for (const char *name : {"nodecomm.txt", "nodecomm_fit.txt", "nodecomm.csv", "nodecomm.json"}) names.push_back(join_path(outdir, name));
  for (int model = 0; model < LAT_NMODELS; ++model)
    for (const char *figure : {"bw", "err"})
      for (const char *ext : {".gp", ".png", ".svg"})
        names.push_back(join_path(outdir, std::string("nodecomm_") + figure + "_" + rate_model_slug(model) + ext));
  return names;
}

void write_maxrate_files(const std::string &outdir, const std::string &command_line, const NodecommResult *measured,
                         const std::vector<lat_maxrate_obs> &obs, const MaxrateFit &fit, bool render) {
  const std::string base = join_path(outdir, "nodecomm");
  const std::string what = what_of(measured);
  // A disturbed measurement says so on the first line of both tables (a comment: the table reads back).
  const std::string warning = measured == nullptr ? std::string()
                              : disturbance_warning(measured->summary.runqueue_share_max, measured->summary.runqueue_rank, measured->summary.runqueue_wait_s);
  const std::string first = warning.empty() ? "" : "# " + warning + "\n";
  std::vector<std::pair<std::string, std::string>> files = {{base + ".txt", first + nodecomm_table_text(obs, what)},
                                   {base + "_fit.txt", first + "# " + what + "\n\n" + maxrate_tables_text(fit)},
                                   {base + ".csv", csv_text(obs, fit)},
                                   {base + ".json", json_text(command_line, measured, obs, fit)}};
  // Figures 1 and 2 for every model, each a script drawn as PNG and SVG.
  std::vector<Plot> plots;
  for (int model = 0; model < LAT_NMODELS; ++model)
    for (const char *figure : {"bw", "err"}) {
      const std::string file = std::string("nodecomm_") + figure + "_" + rate_model_slug(model);
      files.push_back({join_path(outdir, file + ".gp"),
                       figure[0] == 'b' ? bandwidth_gp_text(obs, fit, model, file, plot_what(measured))
                                        : error_gp_text(obs, fit, model, file, plot_what(measured))});
      plots.push_back({join_path(outdir, file + ".png"), files.size() - 1});
      plots.push_back({join_path(outdir, file + ".svg"), files.size() - 1});
    }
  require_declared(maxrate_output_names(outdir), files);
  write_files_whole(files, render ? render_plots(plots, {}) : nullptr);
}

}  // namespace lat
