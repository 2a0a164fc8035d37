// capability_contract.cpp: a capability that lacks follow() handed to run_measurement. Compiled by
// tests/tools/check_capability_contract.sh: refused at the capability with the harness's static_assert
// ("a Capability needs void follow(MPI_Comm)"); with LAT_TEST_COMPLETE (follow given) it compiles.
#include <mpi.h>

#include <string>
#include <vector>

#include "common/harness.hpp"

namespace {

struct Lacking {
  std::string check(lat::MeasurementFrame &) { return ""; }
  std::vector<lat::Shared> shared() const { return {}; }
  lat::Members members(lat::MeasurementFrame &) { return lat::Members::every_rank(0); }
  std::string allocate(bool) { return ""; }
  std::vector<char> lead(MPI_Comm) { return {}; }
#ifdef LAT_TEST_COMPLETE
  void follow(MPI_Comm) {}
#endif
  int result(std::vector<char>) { return 0; }
};

}  // namespace

int measure_lacking(MPI_Comm comm) {
  Lacking cap;
  return lat::run_measurement(comm, 0.0, cap);
}
