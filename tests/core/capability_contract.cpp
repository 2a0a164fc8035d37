// capability_contract.cpp: a capability that lacks follow() handed to run_measurement. Compiled by
// tests/tools/check_capability_contract.sh: refused at the capability with the harness's static_assert
// ("a Capability needs void follow(MPI_Comm)"), and one in the run-context form without follow(RunContext &)
// the same; with LAT_TEST_COMPLETE (follow given) both compile.
#include <mpi.h>

#include <string>
#include <tuple>
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

/// The run-context form (settings(), a Result, lead and follow taking the RunContext) without follow.
struct LackingInContext {
  struct Result {
    struct {
      int warnings = 0;
      double runqueue_share_max = 0.0;
      int runqueue_rank = 0;
      double runqueue_wait_s = 0.0;
    } summary;
    auto fields() { return std::tie(summary.warnings); }
  };
  lat::RunSettings settings() const { return {}; }
  std::string check(lat::MeasurementFrame &) { return ""; }
  std::vector<lat::Shared> shared() const { return {}; }
  lat::Members members(lat::MeasurementFrame &) { return lat::Members::every_rank(0); }
  std::string allocate(bool) { return ""; }
  Result lead(lat::RunContext &) { return {}; }
#ifdef LAT_TEST_COMPLETE
  void follow(lat::RunContext &) {}
#endif
};

}  // namespace

int measure_lacking(MPI_Comm comm) {
  Lacking cap;
  return lat::run_measurement(comm, 0.0, cap);
}

int measure_lacking_in_context(MPI_Comm comm) {
  LackingInContext cap;
  return lat::run_measurement(comm, 0.0, cap).summary.warnings;
}
