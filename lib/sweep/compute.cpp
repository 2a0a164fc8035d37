#include "sweep/compute.hpp"

#include <algorithm>
#include <vector>

namespace lat {

namespace {

struct Arrays {
  std::vector<double> x, y;
  Arrays() : x(static_cast<size_t>(kComputeDoubles)), y(static_cast<size_t>(kComputeDoubles)) {
    for (size_t i = 0; i < x.size(); ++i) {
      x[i] = 1.0 + 1e-9 * static_cast<double>(i);
      y[i] = 1.0 - 1e-9 * static_cast<double>(i);
    }
  }
};

const Arrays &arrays() {
  static const Arrays a;  // made on the first call: the sweep makes one with work 0 before anything is timed
  return a;
}

}  // namespace

double overlap_compute(int64_t work) {
  const Arrays &a = arrays();
  double sum = 0.0;
  for (int64_t done = 0; done < work;) {
    const int64_t n = std::min(work - done, kComputeDoubles);
    for (int64_t i = 0; i < n; ++i) sum += a.x[static_cast<size_t>(i)] * a.y[static_cast<size_t>(i)];
    done += n;
  }
  return sum;
}

}  // namespace lat
