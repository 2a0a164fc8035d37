#include "toy/options.hpp"

#include "generated/spec_options.hpp"

namespace lat {

lat_toy_options toy_defaults() {
  lat_toy_options o;
  spec_defaults(o);
  return o;
}

std::string check_toy_options(const lat_toy_options &o, int nprocs) {
  if (std::string bad = spec_check_fields(o); !bad.empty()) return bad;
  // A rule across fields or the communicator goes here, after the fields' own checks.
  if (nprocs < 2) return "a barrier run needs at least 2 ranks, got " + std::to_string(nprocs);
  return "";
}

std::vector<Shared> toy_shared_values(const lat_toy_options &o) { return spec_shared_values(o); }

}  // namespace lat
