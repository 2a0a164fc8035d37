#include "maxrate/regimes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Dense>

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

/// The sum of squared relative errors of the best polynomial of this degree in u (least squares of the
/// relative error, as the pieces): a smooth curve with no regime boundary.
double polynomial_cost(const std::vector<double> &u, const std::vector<double> &y, int degree) {
  const Eigen::Index n = static_cast<Eigen::Index>(u.size());
  Eigen::MatrixXd a(n, degree + 1);
  for (Eigen::Index i = 0; i < n; ++i) {
    double power = 1.0;
    for (int d = 0; d <= degree; ++d, power *= u[static_cast<size_t>(i)]) a(i, d) = power / y[static_cast<size_t>(i)];
  }
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(n);
  const Eigen::VectorXd c = a.colPivHouseholderQr().solve(ones);
  return (a * c - ones).squaredNorm();
}

}  // namespace

double smooth_curve_bic(const std::vector<int64_t> &sizes, const std::vector<std::vector<double>> &columns, double noise_rel) {
  const size_t n = sizes.size();
  const double columns_n = static_cast<double>(columns.size());
  const double dn = static_cast<double>(n) * columns_n, floor = noise_rel * noise_rel;
  // Two scales, each mapped onto [0, 1]: the size itself (a curve over an even grid) and its logarithm (a
  // curve over a grid that doubles, bent where the sizes are dense).
  std::vector<double> linear(n), logarithmic(n);
  const double lo = static_cast<double>(sizes.front()), hi = static_cast<double>(sizes.back());
  const double llo = std::log1p(lo), lhi = std::log1p(hi);
  for (size_t i = 0; i < n; ++i) {
    linear[i] = (static_cast<double>(sizes[i]) - lo) / std::max(1.0, hi - lo);
    logarithmic[i] = (std::log1p(static_cast<double>(sizes[i])) - llo) / std::max(1e-300, lhi - llo);
  }
  const auto bic = [&](double rss, double params) {
    return dn * std::log(std::max(rss / dn, floor)) + params * std::log(dn);
  };
  // Each column its own coefficients of one shape: the residuals summed over the columns.
  const auto rss_of = [&](const std::vector<double> &u, int degree) {
    double rss = 0.0;
    for (const std::vector<double> &times : columns) rss += polynomial_cost(u, times, degree);
    return rss;
  };
  double best = std::numeric_limits<double>::infinity();
  for (const std::vector<double> *u : {&linear, &logarithmic})
    for (int degree = 2; degree <= 3 && static_cast<size_t>(degree) + 2 <= n; ++degree)
      best = std::min(best, bic(rss_of(*u, degree), columns_n * (degree + 1)));
  // A power of the size, a + b s^c (c from 0.05 to 3 in steps of 0.05, shared by the columns, a parameter like
  // the others): a curve over decades that no polynomial follows at both ends.
  std::vector<double> power(n);
  for (int step = 1; step <= 60; ++step) {
    const double c = 0.05 * step;
    for (size_t i = 0; i < n; ++i) power[i] = std::pow(static_cast<double>(sizes[i]) / std::max(1.0, hi), c);
    best = std::min(best, bic(rss_of(power, 1), 2.0 * columns_n + 1.0));
  }
  return best;
}

double smooth_curve_bic(const std::vector<int64_t> &sizes, const std::vector<double> &times, double noise_rel) {
  return smooth_curve_bic(sizes, std::vector<std::vector<double>>{times}, noise_rel);
}

std::vector<int64_t> segment_thresholds(const std::vector<int64_t> &sizes, const std::vector<std::vector<double>> &columns,
                                        int max_breaks, double noise_rel) {
  const size_t n = sizes.size();
  if (n < 4 || max_breaks < 1 || columns.empty()) return {};
  // Sizes scaled to [0, 1] for the sums' conditioning; a line stays a line.
  const double span = static_cast<double>(std::max<int64_t>(1, sizes.back() - sizes.front()));
  std::vector<double> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<double>(sizes[i] - sizes.front()) / span;
  std::vector<Sums> column_sums;
  for (const std::vector<double> &times : columns) column_sums.emplace_back(x, times);
  // A piece's cost: a line for each column, the cuts shared.
  const struct {
    const std::vector<Sums> &all;
    double cost(size_t i, size_t j) const {
      double c = 0.0;
      for (const Sums &one : all) c += one.cost(i, j);
      return c;
    }
  } sums{column_sums};
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
  // The criterion over the N = n x columns points: N ln(max(RSS / N, noise^2)) + (2 columns pieces + 2 (pieces -
  // 1)) ln N: a line per piece and column, and a cut's place counted twice, since it is the best of every place
  // and not a value given (with the place counted once, 1 % noise gave a rise a second, spurious cut in 4 of
  // 16 seeds).
  const double dn = static_cast<double>(n * columns.size()), lines = 2.0 * static_cast<double>(columns.size());
  const double floor = noise_rel * noise_rel;
  size_t chosen = 0;
  double chosen_bic = kInf;
  for (size_t m = 0; m < pieces_max; ++m) {
    if (!std::isfinite(best[m][n - 1])) continue;
    const double pieces = static_cast<double>(m + 1);
    const double bic = dn * std::log(std::max(best[m][n - 1] / dn, floor)) + (lines * pieces + 2.0 * (pieces - 1.0)) * std::log(dn);
    if (bic < chosen_bic - 1e-9) chosen_bic = bic, chosen = m;
  }
  // A cut must also pay for itself against a smooth curve: where a polynomial of degree 2 or 3 describes
  // the data as well by the same criterion, the curve bends without changing regime, and is not cut.
  if (chosen > 0 && smooth_curve_bic(sizes, columns, noise_rel) <= chosen_bic) return {};
  std::vector<int64_t> cut;
  for (size_t m = chosen, j = n - 1; m > 0; --m) {
    const size_t i = from[m][j];
    cut.push_back(sizes[i - 1]);
    j = i - 1;
  }
  std::reverse(cut.begin(), cut.end());
  return cut;
}

std::vector<int64_t> segment_thresholds(const std::vector<int64_t> &sizes, const std::vector<double> &times,
                                        int max_breaks, double noise_rel) {
  return segment_thresholds(sizes, std::vector<std::vector<double>>{times}, max_breaks, noise_rel);
}

}  // namespace lat
