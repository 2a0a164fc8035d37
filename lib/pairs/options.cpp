#include "pairs/options.hpp"

#include <climits>
#include <cstdio>

#include "common/error.hpp"
#include "common/memory.hpp"
#include "common/option_rules.hpp"
#include "generated/spec_options.hpp"
#include "timer/options.hpp"

namespace lat {

lat_pair_options pair_defaults() {
  lat_pair_options o;
  spec_defaults(o);
  return o;
}

std::string check_pair_options(const lat_pair_options &o, int size) {
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  if (size < 2) return "a pair matrix needs at least 2 processes, the communicator has " + std::to_string(size);
  if (o.root < 0 || o.root >= size) return got("root must be a rank in 0.." + std::to_string(size - 1), o.root);
  // Rank 0 keeps every round trip of its size - 1 pairs, the most of any rank: a repeats count beyond
  // memory is bad input, found before anything is allocated (in doubles: the product can pass 2^63).
  const double sample_bytes = static_cast<double>(o.repeats) * sizeof(double) * static_cast<double>(size - 1);
  const int64_t available = available_memory_bytes();
  if (std::string bad = memory_complaint("repeats " + std::to_string(o.repeats), sample_bytes, "samples on rank 0", available);
      !bad.empty())
    return bad;
  if (std::string bad = matrix_memory_complaint(size, available); !bad.empty()) return bad;
  return check_calibration(nullptr, o.timer, o.nr);
}

double matrix_bytes(int64_t n) {
  const double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
  return pairs * LAT_PAIR_NSTATS * sizeof(double) + static_cast<double>(n) * sizeof(lat_rank_place);
}

std::string matrix_memory_complaint(int64_t n, int64_t available_bytes) {
  const double need = matrix_bytes(n);
  if (available_bytes < 0 || need <= static_cast<double>(available_bytes)) return "";
  char text[256];
  std::snprintf(text, sizeof text,
                "the matrices of %lld ranks need %.1f MB on the root rank, but only %.1f MB of memory are available",
                static_cast<long long>(n), need / 1e6, static_cast<double>(available_bytes) / 1e6);
  return text;
}

std::vector<Shared> pair_shared_values(const lat_pair_options &o) { return spec_shared_values(o); }

}  // namespace lat
