// test_pair_core.cpp: the pair matrix's pieces without MPI: the round-robin tournament, the triangle's
// indexing, the memory check, and the mmpi log: its layout, the parser on the 2009 program's variants
// and on broken logs, and the round trip write -> read.
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "capi/guard.hpp"
#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/failure_notes.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "pairs/measurement.hpp"
#include "pairs/report.hpp"

namespace {

void tournament_meets_every_pair_once(void **) {
  for (int64_t n = 2; n <= 17; ++n) {
    const int64_t rounds = lat::tournament_rounds(n);
    assert_int_equal(rounds, n % 2 == 0 ? n - 1 : n);
    std::set<std::pair<int64_t, int64_t>> met;
    for (int64_t k = 0; k < rounds; ++k) {
      int64_t resting = 0;
      for (int64_t r = 0; r < n; ++r) {
        const int64_t p = lat::tournament_partner(n, k, r);
        if (p < 0) {
          ++resting;
          continue;
        }
        assert_true(p != r && p < n);
        assert_int_equal(lat::tournament_partner(n, k, p), r);  // disjoint pairs: partners agree
        if (r < p) assert_true(met.insert({r, p}).second);      // never twice
      }
      assert_int_equal(resting, n % 2);  // one rank rests in each round of an odd count
    }
    assert_int_equal(static_cast<int64_t>(met.size()), n * (n - 1) / 2);  // every pair once
  }
}

void triangle_index_is_row_after_row(void **) {
  for (int64_t n = 2; n <= 9; ++n) {
    int64_t expect = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) assert_int_equal(lat::triangle_index(n, i, j), expect++);
  }
  assert_int_equal(lat::triangle_index(16384, 16382, 16383), int64_t{16384} * 16383 / 2 - 1);
}

void memory_is_checked_before_measuring(void **) {
  assert_true(lat::matrix_bytes(2) == LAT_PAIR_NSTATS * 8.0 + 2.0 * sizeof(lat_rank_place));
  assert_string_equal(lat::matrix_memory_complaint(64, int64_t{1} << 30).c_str(), "");
  assert_string_equal(lat::matrix_memory_complaint(16384, -1).c_str(), "");  // unknown: try
  const std::string big = lat::matrix_memory_complaint(16384, int64_t{1} << 30);
  assert_non_null(strstr(big.c_str(), "16384 ranks need 7521.8 MB on the root rank"));
  assert_non_null(strstr(big.c_str(), "only 1073.7 MB"));
  // Memory that cannot be had is an exception the caller turns into LAT_ERR_NOMEM, not a crash.
  lat::PairResult r;
#if defined(__SANITIZE_ADDRESS__)
  const bool new_throws = false;  // AddressSanitizer aborts where new would throw
#else
  const bool new_throws = std::getenv("MPILAT_UNDER_VALGRIND") == nullptr;  // and so does valgrind
#endif
  if (new_throws) {
    bool refused = false;
    try {
      lat::allocate_matrices(r, 3000000);  // 36 TB
    } catch (const std::bad_alloc &) {
      refused = true;
    }
    assert_true(refused);
  }
  // The verdict agreed between ranks keeps its message all the way to the caller.
  const int rc = lat::guard([&]() -> int { lat::throw_code(LAT_ERR_NOMEM, big); });
  assert_int_equal(rc, LAT_ERR_NOMEM);
  assert_string_equal(lat_last_error_message(), big.c_str());
  lat::allocate_matrices(r, 5);
  assert_int_equal(static_cast<int64_t>(r.triangle[LAT_PAIR_MEAN].size()), 10);
}

/// A result as root holds it, with made-up values: pair (i, j) has mean i + j / 8 + 0.126 etc.
lat::PairResult made_up(int64_t n, const std::vector<std::string> &hosts) {
  lat::PairResult r;
  lat::allocate_matrices(r, n);
  r.summary.nprocs = n;
  r.summary.msg_bytes = 64;
  r.summary.repeats = 100;
  r.summary.has_matrices = 1;
  std::snprintf(r.summary.testing_host, sizeof r.summary.testing_host, "%s", hosts[0].c_str());
  for (int64_t i = 0; i < n; ++i) {
    r.places[static_cast<size_t>(i)].rank = static_cast<int>(i);
    std::snprintf(r.places[static_cast<size_t>(i)].host, LAT_HOSTNAME_LEN, "%s",
                  hosts[static_cast<size_t>(i) % hosts.size()].c_str());
    for (int64_t j = i + 1; j < n; ++j) {
      const size_t at = static_cast<size_t>(lat::triangle_index(n, i, j));
      r.triangle[LAT_PAIR_MEAN][at] = static_cast<double>(i) + static_cast<double>(j) / 8.0 + 0.126;
      r.triangle[LAT_PAIR_STDDEV][at] = 0.5 * static_cast<double>(j) + 0.004;
    }
  }
  return r;
}

void log_layout_is_the_papers(void **) {
  const lat::PairResult r = made_up(3, {"nid00670", "nid00670", "nid00671"});
  const std::string text = lat::mmpi_log_text(r);
  assert_string_equal(text.c_str(),
                      "# Testing Hostname: nid00670\n"
                      "# Processors: 3 MsgLen 64 Repeats: 100\n"
                      "# ProcName1:rank ProcName2:rank AvgCommTime(usecs) StdDev\n"
                      "nid00670 000 nid00670 000 0.00 0.00\n"
                      "nid00670 000 nid00670 001 0.25 0.50\n"
                      "nid00670 000 nid00671 002 0.38 1.00\n"
                      "nid00670 001 nid00670 001 0.00 0.00\n"
                      "nid00670 001 nid00671 002 1.38 1.00\n"
                      "nid00671 002 nid00671 002 0.00 0.00\n");
}

void round_trip_gives_the_same_matrices(void **) {
  const int64_t n = 11;
  const lat::PairResult r = made_up(n, {"c401-101.stampede.tacc.utexas.edu", "c401-102.stampede.tacc.utexas.edu"});
  const lat::PairResult back = lat::parse_mmpi_log(lat::mmpi_log_text(r), "made-up");
  assert_int_equal(back.summary.nprocs, n);
  assert_int_equal(back.summary.nnodes, 2);
  assert_int_equal(back.summary.from_log, 1);
  for (int64_t i = 0; i < n; ++i) {
    assert_string_equal(back.places[static_cast<size_t>(i)].host, r.places[static_cast<size_t>(i)].host);
    assert_int_equal(back.places[static_cast<size_t>(i)].node, i % 2);
    for (int64_t j = 0; j < n; ++j)
      for (int stat : {LAT_PAIR_MEAN, LAT_PAIR_STDDEV}) {
        assert_true(back.at(stat, i, j) == back.at(stat, j, i));
        assert_true(std::fabs(back.at(stat, i, j) - r.at(stat, i, j)) <= 0.005 + 1e-12);  // 2 decimals
      }
  }
  // Read back, written again: the same text, character for character.
  assert_string_equal(lat::mmpi_log_text(back).c_str(), lat::mmpi_log_text(r).c_str());
}

std::string read_file(const char *name) {
  const char *dir = std::getenv("MPILAT_TEST_DATA");
  std::ifstream in(std::string(dir ? dir : "tests/data") + "/mmpi/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  assert_true(!text.str().empty());
  return text.str();
}

void original_logs_are_read(void **) {
  // The sample of the paper: tabs, the column header broken over two lines.
  const lat::PairResult p = lat::parse_mmpi_log(read_file("paper_example.dat"), "paper_example.dat");
  assert_int_equal(p.summary.nprocs, 4);
  assert_int_equal(p.summary.msg_bytes, 64);
  assert_int_equal(p.summary.repeats, 100);
  assert_int_equal(p.summary.nnodes, 2);
  assert_string_equal(p.summary.testing_host, "tg-login4");
  assert_true(p.at(LAT_PAIR_MEAN, 0, 1) == 10.44 && p.at(LAT_PAIR_MEAN, 3, 0) == 24.34);
  assert_true(p.at(LAT_PAIR_STDDEV, 2, 3) == 0.14 && p.at(LAT_PAIR_MEAN, 2, 2) == 0.0);
  assert_true(p.summary.mean_min_us == 10.44 && p.summary.mean_max_us == 24.34);
  assert_string_equal(p.places[2].host, "nid00671");
  assert_int_equal(p.places[1].node, 0);
  assert_int_equal(p.places[3].node, 1);
  assert_int_equal(p.places[3].node_rank, 1);
  // Dotted hostnames, "host:rank" fields, CRLF, "MsgLen:", no diagonal lines, pairs in any order.
  const lat::PairResult q = lat::parse_mmpi_log(read_file("ranger_colon_crlf.dat"), "ranger_colon_crlf.dat");
  assert_int_equal(q.summary.nprocs, 3);
  assert_string_equal(q.summary.testing_host, "login3.ranger.tacc.utexas.edu");
  assert_string_equal(q.places[2].host, "i182-103.ranger.tacc.utexas.edu");
  assert_true(q.at(LAT_PAIR_MEAN, 0, 2) == 5.75 && q.at(LAT_PAIR_STDDEV, 2, 1) == 0.25);
  assert_int_equal(q.summary.nnodes, 2);
  // Rank fields of any width: zero-padded to 4 and 5 digits (the program's %03d past 999 ranks).
  const lat::PairResult w = lat::parse_mmpi_log(
      "# Processors: 3 MsgLen 8 Repeats: 2\nh 0000 h 0001 1.5 0.5\nh 0001 h 00002 2.5 0.5\nh 0000 h 00002 3.5 0.5\n",
      "wide");
  assert_true(w.at(LAT_PAIR_MEAN, 1, 2) == 2.5);
  assert_int_equal(w.summary.nnodes, 1);
  // A StdDev of "nan" or "-nan" (the 2009 program's for a pair it measured once) is read as missing.
  const lat::PairResult m = lat::parse_mmpi_log(
      "# Processors: 3 MsgLen 8 Repeats: 1\nh 0 h 1 1.5 nan\nh 1 h 2 2.5 -nan\nh 0 h 2 3.5 0.25\n", "nan");
  assert_true(m.at(LAT_PAIR_MEAN, 0, 1) == 1.5 && std::isnan(m.at(LAT_PAIR_STDDEV, 0, 1)));
  assert_true(std::isnan(m.at(LAT_PAIR_STDDEV, 2, 1)) && m.at(LAT_PAIR_STDDEV, 0, 2) == 0.25);
}

void broken_logs_name_the_line(void **) {
  const std::string head = "# Testing Hostname: x\n# Processors: 3 MsgLen 64 Repeats: 10\n";
  const std::string ok01 = "a 000 a 001 1.00 0.10\n", ok02 = "a 000 b 002 2.00 0.20\n", ok12 = "a 001 b 002 3.00 0.30\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "log: no '# Processors: <N> MsgLen <bytes> Repeats: <R>' header: not an mmpi log"},
      {"a 000 a 001 1.00 0.10\n", "log:1: expected '# Processors: <N> MsgLen <bytes> Repeats: <R>' before the first pair"},
      {"# Processors: three MsgLen 64 Repeats: 10\n", "log:1: expected '# Processors: <N> MsgLen <bytes> Repeats: <R>', got '# Processors: three"},
      {"# Processors: 0 MsgLen 64 Repeats: 10\n", "log:1: the header must give at least 1 processor"},
      {"# Processors: 100000 MsgLen 64 Repeats: 10\n" + ok01, "log:1: the header says 100000 processors: that is 4999950000 pairs, but the log has only 2 lines that are not blank"},
      // Blank lines promise no pair (issue 45: 14,000 processors over blank lines allocated 2.5 GB).
      {"# Processors: 200 MsgLen 64 Repeats: 10\n" + std::string(30000, '\n') + ok01,
       "log:1: the header says 200 processors: that is 19900 pairs, but the log has only 2 lines that are not blank"},
      {head + ok01 + "a 000 b 002 2.00\n", "log:4: expected '<host> <rank> <host> <rank> <AvgCommTime> <StdDev>' (6 fields), got 'a 000 b 002 2.00'"},
      {head + ok01 + "a 000 b 002 fast 0.20\n", "log:4: expected '<host> <rank> <host> <rank> <AvgCommTime> <StdDev>' with times that are numbers >= 0"},
      {head + ok01 + "a 000 b 002 -2.00 0.20\n", "with times that are numbers >= 0, got 'a 000 b 002 -2.00 0.20'"},
      {head + ok01 + "a 000 b 0x2 2.00 0.20\n", "log:4: expected '<host> <rank> <host> <rank> <AvgCommTime> <StdDev>' with whole ranks"},
      {head + ok01 + "a 000 b 007 2.00 0.20\n", "log:4: rank 7 is outside 0..2 (the header says 3 processors)"},
      {head + ok01 + ok02 + "a 001 a 000 1.00 0.10\n", "log:5: the pair (0, 1) again (first on line 3)"},
      {head + ok01 + ok02, "log:4: the log ends without the pair (1, 2)"},
      {head + ok01 + ok02 + "c 001 b 002 3.00 0.30\n", "log:5: rank 1 is on host 'c' here but on 'a' on line 3"},
      {head + ok01 + ok02 + ok12 + "b 002 b 002 0.10 0.00\n", "log:6: expected 0.00 0.00 for rank 002 with itself (the diagonal)"},
      {head + "# Processors: 3 MsgLen 64 Repeats: 10\n", "log:3: a second '# Processors:' header"},
      // Binary garbage is described, never echoed to the terminal.
      {head + ok01 + "a 000 b 002 \x01\x1b[31m 0.20\n", "log:4: expected '<host> <rank> <host> <rank> <AvgCommTime> <StdDev>' with times that are numbers >= 0, got a line of 23 bytes that is not text"},
  };
  for (const auto &c : cases) {
    std::string message;
    try {
      lat::parse_mmpi_log(c.first, "log");
    } catch (const lat::DataError &e) {
      message = e.what();
    }
    if (message.find(c.second) == std::string::npos)
      fail_msg("log\n%s\ngave '%s', expected '%s'", c.first.c_str(), message.c_str(), c.second.c_str());
  }
  // The same three pairs without a fault: accepted.
  const lat::PairResult r = lat::parse_mmpi_log(head + ok01 + ok02 + ok12, "log");
  assert_true(r.at(LAT_PAIR_MEAN, 2, 1) == 3.0);
}

void matrices_text_is_what_octave_loads(void **) {
  const lat::PairResult r = made_up(3, {"h"});
  assert_string_equal(lat::pair_matrix_text(r, LAT_PAIR_MEAN).c_str(),
                      "0 0.251 0.376\n0.251 0 1.376\n0.376 1.376 0\n");
  const std::string csv = lat::pair_csv_text(r);
  assert_non_null(strstr(csv.c_str(), "rank_i,host_i,node_i,rank_j,host_j,node_j,mean_us,stddev_us,stderr_us,min_us,"));
  assert_non_null(strstr(csv.c_str(), "\n1,h,0,2,h,0,1.376000,1.004000,0.000000,"));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tournament_meets_every_pair_once),  cmocka_unit_test(triangle_index_is_row_after_row),
      cmocka_unit_test(memory_is_checked_before_measuring), cmocka_unit_test(log_layout_is_the_papers),
      cmocka_unit_test(round_trip_gives_the_same_matrices), cmocka_unit_test(original_logs_are_read),
      cmocka_unit_test(broken_logs_name_the_line),         cmocka_unit_test(matrices_text_is_what_octave_loads),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
