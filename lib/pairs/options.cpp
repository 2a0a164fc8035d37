#include "pairs/options.hpp"

#include <climits>

#include "common/error.hpp"
#include "common/option_rules.hpp"
#include "timer/options.hpp"

namespace lat {

lat_pair_options pair_defaults() {
  lat_pair_options o{};
  o.msg_bytes = 64;
  o.repeats = 100;
  o.nr = int64_t{1} << 16;
  o.timeout_s = 0.0;
  o.schedule = LAT_PAIRS_SEQUENTIAL;
  o.root = 0;
  o.timer = LAT_TIMER_MPI_WTIME;
  o.wait = LAT_WAIT_AUTO;
  o.progress = 0;
  return o;
}

std::string check_pair_options(const lat_pair_options &o, int size) {
  if (o.msg_bytes < 0 || o.msg_bytes > INT_MAX)
    return got("msg_bytes must be in 0.." + std::to_string(INT_MAX), o.msg_bytes);
  if (o.repeats < 1) return got("repeats must be >= 1", o.repeats);
  if (o.schedule != LAT_PAIRS_SEQUENTIAL && o.schedule != LAT_PAIRS_ROUNDS)
    return got("schedule must be 0 (sequential) or 1 (rounds)", o.schedule);
  if (o.wait < LAT_WAIT_AUTO || o.wait > LAT_WAIT_YIELD) return got("wait must be 0 (auto), 1 (spin) or 2 (yield)", o.wait);
  if (std::string bad = check_flag("progress", o.progress); !bad.empty()) return bad;
  if (size < 2) return "a pair matrix needs at least 2 processes, the communicator has " + std::to_string(size);
  if (o.root < 0 || o.root >= size) return got("root must be a rank in 0.." + std::to_string(size - 1), o.root);
  return first_complaint({check_timeout(o.timeout_s), check_timer_kind(o.timer), check_calibration(nullptr, o.timer, o.nr)});
}

std::vector<Shared> pair_shared_values(const lat_pair_options &o) {
  return {Shared::integer("msg_bytes", o.msg_bytes), Shared::integer("repeats", o.repeats),
          Shared::integer("nr", o.nr),               Shared::real("timeout_s", o.timeout_s),
          Shared::integer("schedule", o.schedule),   Shared::integer("root", o.root),
          Shared::integer("timer", o.timer),         Shared::integer("wait", o.wait)};
}

}  // namespace lat
