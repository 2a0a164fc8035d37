#include "pairs/options.hpp"

#include <climits>

#include "common/error.hpp"
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
  return check_calibration(nullptr, o.timer, o.nr);
}

std::vector<Shared> pair_shared_values(const lat_pair_options &o) { return spec_shared_values(o); }

}  // namespace lat
