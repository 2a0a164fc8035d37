// capability_contract.cpp: capabilities that lack a member of the harness's contract, handed to
// run_measurement. Compiled by tests/tools/check_capability_contract.sh: one without follow(RunContext &) is
// refused at the capability with the harness's static_assert ("a Capability needs void follow(RunContext &)"),
// one without settings() (the form of the harness before the run context) with "a Capability needs
// RunSettings settings() const"; with LAT_TEST_COMPLETE (the members given) both compile.
#include <mpi.h>

#include <string>
#include <tuple>
#include <vector>

#include "common/harness.hpp"

namespace {

struct Result {
  struct {
    int warnings = 0;
    double runqueue_share_max = 0.0;
    int runqueue_rank = 0;
    double runqueue_wait_s = 0.0;
  } summary;
  auto fields() { return std::tie(summary.warnings); }
};

/// Everything but follow.
struct LackingFollow {
  using Result = ::Result;
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

/// Everything but settings(): a body of the old form, on a bare communicator.
struct LackingSettings {
  using Result = ::Result;
#ifdef LAT_TEST_COMPLETE
  lat::RunSettings settings() const { return {}; }
#endif
  std::string check(lat::MeasurementFrame &) { return ""; }
  std::vector<lat::Shared> shared() const { return {}; }
  lat::Members members(lat::MeasurementFrame &) { return lat::Members::every_rank(0); }
  std::string allocate(bool) { return ""; }
  Result lead(lat::RunContext &) { return {}; }
  void follow(lat::RunContext &) {}
};

}  // namespace

int measure_lacking_follow(MPI_Comm comm) {
  LackingFollow cap;
  return lat::run_measurement(comm, 0.0, cap).summary.warnings;
}

int measure_lacking_settings(MPI_Comm comm) {
  LackingSettings cap;
  return lat::run_measurement(comm, 0.0, cap).summary.warnings;
}
