// test_core.cpp: pieces of the C++ core the C ABI does not expose one by one.
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <string>

extern "C" {
#include <cmocka.h>
}

#include "latency/report.hpp"
#include "common/stats.hpp"
#include "common/tally.hpp"

namespace {

void fortran_e_format(void **) {
  assert_string_equal(lat::fortran_e(0.1463).c_str(), "0.1463E+00");
  assert_string_equal(lat::fortran_e(28.92).c_str(), "0.2892E+02");
  assert_string_equal(lat::fortran_e(1.321e-4).c_str(), "0.1321E-03");
  assert_string_equal(lat::fortran_e(46.83).c_str(), "0.4683E+02");
  assert_string_equal(lat::fortran_e(0.0).c_str(), "0.0000E+00");
  assert_string_equal(lat::fortran_e(-2.5).c_str(), "-0.2500E+01");
  assert_string_equal(lat::fortran_e(0.99996).c_str(), "0.1000E+01");  // rounding carries into the exponent
  assert_string_equal(lat::fortran_e(8.0 / 1.2451).c_str(), "0.6425E+01");
  assert_string_equal(lat::fortran_e(1e123).c_str(), "0.1000E+124");
}

void tally_counts_distinct_values(void **) {
  lat::Tally t;
  for (int i = 0; i < 100000; ++i) t.add((i % 7) * 0.1);
  t.add(-0.0);  // the same value as +0.0
  assert_int_equal(t.total(), 100001);
  assert_int_equal(t.distinct(), 7);
  std::vector<double> v;
  std::vector<int64_t> c;
  t.sorted(v, c);
  assert_int_equal(v.size(), 7);
  assert_true(v[0] == 0.0 && c[0] == 14286 + 1);
  for (size_t k = 1; k < v.size(); ++k) assert_true(v[k - 1] < v[k]);
  // Growth past the initial table keeps every count.
  lat::Tally big;
  for (int i = 0; i < 50000; ++i) big.add(i * 1e-9, 2);
  assert_int_equal(big.distinct(), 50000);
  assert_int_equal(big.total(), 100000);
}

lat::Distribution dist(std::vector<double> v, std::vector<int64_t> c) {
  lat::Distribution d;
  d.values = std::move(v);
  d.counts = std::move(c);
  return d;
}

void bins_follow_printed_edges(void **) {
  // 0.6 belongs to "0.60 <= times < 0.80" although 0.6 / 0.2 = 2.9999999999999996 in doubles.
  int64_t bins[LAT_NBINS];
  lat::fill_bins(dist({-1.0, 0.0, 0.19999, 0.2, 0.6, 0.954, 1.192, 9.79, 9.8, 1204.967}, {5, 1, 1, 1, 1, 3, 2, 1, 1, 1}),
                 bins);
  assert_int_equal(bins[0], 2);  // 0.0 and 0.19999; the negative value is not binned
  assert_int_equal(bins[1], 1);  // 0.2
  assert_int_equal(bins[3], 1);  // 0.6
  assert_int_equal(bins[4], 3);  // 0.954: Appendix A's 0.80 <= times < 1.00
  assert_int_equal(bins[5], 2);  // 1.192: 1.00 <= times < 1.20
  assert_int_equal(bins[48], 1); // 9.79: 9.60 <= times < 9.80
  assert_int_equal(bins[49], 2); // 9.80 <= times, open-ended
  int64_t total = 0;
  for (int64_t b : bins) total += b;
  assert_int_equal(total, 12);
}

void filtering_keeps_at_most_the_cut(void **) {
  const lat::Distribution d = dist({1.0, 1.3, 2.6, 2.7, 500.0}, {10, 70, 1, 3, 1});
  assert_true(lat::median_of(d) == 1.3);
  const lat::Distribution kept = lat::at_most(d, 2.0 * lat::median_of(d));
  assert_int_equal(kept.total(), 81);  // 2.6 == 2 * 1.3 is kept: only times larger than the cut go
  const lat_stats s = lat::describe(kept, 8);
  assert_true(s.max_us == 2.6 && s.count == 81);
}

void median_of_even_count_across_values(void **) {
  assert_true(lat::median_of(dist({1.0, 3.0}, {2, 2})) == 2.0);
  assert_true(lat::median_of(dist({1.0, 3.0}, {3, 1})) == 1.0);
  assert_true(lat::median_of(dist({}, {})) == 0.0);
}

}  // namespace

int main() {
  const CMUnitTest tests[] = {
      cmocka_unit_test(fortran_e_format),         cmocka_unit_test(tally_counts_distinct_values),
      cmocka_unit_test(bins_follow_printed_edges), cmocka_unit_test(filtering_keeps_at_most_the_cut),
      cmocka_unit_test(median_of_even_count_across_values),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
