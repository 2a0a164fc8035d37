#include "maxrate/regimes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lat {

namespace {

/// Prefix sums that give any segment's weighted least squares line in O(1): the relative error
/// (a + b x - y) / y is linear in (a, b) with rows (1 / y, x / y) against 1.
struct Sums {
  std::vector<double> s0, s1, s2, t0, t1;  // sum 1/y^2, x/y^2, x^2/y^2, 1/y, x/y (x scaled)

  Sums(const std::vector<double> &x, const std::vector<double> &y) {
    const size_t n = x.size();
    for (auto *v : {&s0, &s1, &s2, &t0, &t1}) v->assign(n + 1, 0.0);
    for (size_t i = 0; i < n; ++i) {
      const double w = 1.0 / (y[i] * y[i]);
      s0[i + 1] = s0[i] + w;
      s1[i + 1] = s1[i] + w * x[i];
      s2[i + 1] = s2[i] + w * x[i] * x[i];
      t0[i + 1] = t0[i] + 1.0 / y[i];
      t1[i + 1] = t1[i] + x[i] / y[i];
    }
  }

  /// The sum of squared relative errors of the best line through points i..j (inclusive).
  double cost(size_t i, size_t j) const {
    const double a0 = s0[j + 1] - s0[i], a1 = s1[j + 1] - s1[i], a2 = s2[j + 1] - s2[i];
    const double b0 = t0[j + 1] - t0[i], b1 = t1[j + 1] - t1[i];
    const double n = static_cast<double>(j - i + 1);
    const double det = a0 * a2 - a1 * a1;
    double a = 0.0, b = 0.0;
    if (det > 1e-12 * a0 * a2) {
      a = (b0 * a2 - b1 * a1) / det;
      b = (a0 * b1 - a1 * b0) / det;
    } else {
      a = b0 / a0;  // all x equal (one size): the best constant
    }
    // sum (a/y + b x/y - 1)^2 expanded over the sums.
    const double rss = a * a * a0 + 2.0 * a * b * a1 + b * b * a2 - 2.0 * (a * b0 + b * b1) + n;
    return std::max(0.0, rss);
  }
};

}  // namespace

std::vector<int64_t> segment_thresholds(const std::vector<int64_t> &sizes, const std::vector<double> &times,
                                        int max_breaks, double noise_rel) {
  const size_t n = sizes.size();
  if (n < 4 || max_breaks < 1) return {};
  // Sizes scaled to [0, 1] for the sums' conditioning; a line stays a line.
  const double span = static_cast<double>(std::max<int64_t>(1, sizes.back() - sizes.front()));
  std::vector<double> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<double>(sizes[i] - sizes.front()) / span;
  const Sums sums(x, times);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr size_t kMinPoints = 3;  // a line through two points proves nothing: a regime holds three sizes at least
  const size_t pieces_max = std::min<size_t>(static_cast<size_t>(max_breaks) + 1, n / kMinPoints);
  // best[m][j]: the least cost of points 0..j in m + 1 pieces; from[m][j]: where the last piece starts.
  std::vector<std::vector<double>> best(pieces_max, std::vector<double>(n, kInf));
  std::vector<std::vector<size_t>> from(pieces_max, std::vector<size_t>(n, 0));
  for (size_t j = kMinPoints - 1; j < n; ++j) best[0][j] = sums.cost(0, j);
  for (size_t m = 1; m < pieces_max; ++m)
    for (size_t j = (m + 1) * kMinPoints - 1; j < n; ++j)
      for (size_t i = m * kMinPoints; i + kMinPoints - 1 <= j; ++i) {
        if (!std::isfinite(best[m - 1][i - 1])) continue;
        const double c = best[m - 1][i - 1] + sums.cost(i, j);
        if (c < best[m][j]) best[m][j] = c, from[m][j] = i;
      }
  // The criterion: n ln(max(RSS / n, noise^2)) + (3 pieces - 1) ln n (a line per piece, a place per cut).
  const double dn = static_cast<double>(n);
  const double floor = noise_rel * noise_rel;
  size_t chosen = 0;
  double chosen_bic = kInf;
  for (size_t m = 0; m < pieces_max; ++m) {
    if (!std::isfinite(best[m][n - 1])) continue;
    const double bic = dn * std::log(std::max(best[m][n - 1] / dn, floor)) + (3.0 * static_cast<double>(m + 1) - 1.0) * std::log(dn);
    if (bic < chosen_bic - 1e-9) chosen_bic = bic, chosen = m;
  }
  std::vector<int64_t> cut;
  for (size_t m = chosen, j = n - 1; m > 0; --m) {
    const size_t i = from[m][j];
    cut.push_back(sizes[i - 1]);
    j = i - 1;
  }
  std::reverse(cut.begin(), cut.end());
  return cut;
}

}  // namespace lat
