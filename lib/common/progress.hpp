// progress.hpp: "phase, percent, time left" lines on stderr for long runs, at most one every 2 s.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace lat {

class Progress {
 public:
  Progress(bool enabled, std::string phase);
  /// Reports done of total; prints only when enough time has passed since the last line.
  void update(int64_t done, int64_t total);
  /// Prints the closing line of the phase if any line was printed.
  void finish(int64_t done, int64_t total);

 private:
  using clock = std::chrono::steady_clock;
  void print(int64_t done, int64_t total);
  bool enabled_;
  bool printed_ = false;
  std::string phase_;
  clock::time_point start_, last_;
};

}  // namespace lat
