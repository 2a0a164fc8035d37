#include "common/progress.hpp"

#include <cstdio>

namespace lat {

Progress::Progress(bool enabled, std::string phase)
    : enabled_(enabled), phase_(std::move(phase)), start_(clock::now()), last_(start_) {}

void Progress::update(int64_t done, int64_t total) {
  if (!enabled_) return;
  const auto now = clock::now();
  if (now - last_ < std::chrono::seconds(2)) return;
  last_ = now;
  print(done, total);
}

void Progress::finish(int64_t done, int64_t total) {
  if (enabled_ && printed_) print(done, total);
}

void Progress::print(int64_t done, int64_t total) {
  printed_ = true;
  const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();
  const double fraction = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  const double left = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  std::fprintf(stderr, "mpilat: %s %5.1f%% (%lld of %lld), about %.0f s left\n", phase_.c_str(),
               100.0 * fraction, static_cast<long long>(done), static_cast<long long>(total), left);
  std::fflush(stderr);
}

}  // namespace lat
