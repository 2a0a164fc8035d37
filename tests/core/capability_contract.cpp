// capability_contract.cpp: capabilities that lack a member of the harness's contract, handed to
// run_measurement. Compiled by tests/tools/check_capability_contract.sh: one without follow is refused at the
// capability with the harness's static_assert ("a Capability needs void follow(RunContext &, const Plan &)"),
// one without settings (the form before the run context) with "a Capability needs RunSettings
// settings(const Plan &) const", one whose check returns a complaint alone (the form before the plan) with
// "a Capability needs Checked<Plan> check"; with LAT_TEST_COMPLETE (the members given) all compile.
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

struct Plan {
  int rank = 0;
};

/// Everything but follow.
struct LackingFollow {
  using Result = ::Result;
  using Plan = ::Plan;
  lat::RunSettings settings(const Plan &) const { return {}; }
  lat::Checked<Plan> check(lat::MeasurementFrame &) { return {}; }
  std::vector<lat::Shared> shared(const Plan &) const { return {}; }
  lat::Members members(lat::MeasurementFrame &, const Plan &) { return lat::Members::every_rank(0); }
  std::string allocate(const Plan &, bool) { return ""; }
  Result lead(lat::RunContext &, const Plan &) { return {}; }
#ifdef LAT_TEST_COMPLETE
  void follow(lat::RunContext &, const Plan &) {}
#endif
};

/// Everything but settings(): the form before the run context.
struct LackingSettings {
  using Result = ::Result;
  using Plan = ::Plan;
#ifdef LAT_TEST_COMPLETE
  lat::RunSettings settings(const Plan &) const { return {}; }
#endif
  lat::Checked<Plan> check(lat::MeasurementFrame &) { return {}; }
  std::vector<lat::Shared> shared(const Plan &) const { return {}; }
  lat::Members members(lat::MeasurementFrame &, const Plan &) { return lat::Members::every_rank(0); }
  std::string allocate(const Plan &, bool) { return ""; }
  Result lead(lat::RunContext &, const Plan &) { return {}; }
  void follow(lat::RunContext &, const Plan &) {}
};

/// A check that returns a complaint alone (the form before the plan): lead then cannot be given one.
struct CheckWithoutPlan {
  using Result = ::Result;
  using Plan = ::Plan;
  lat::RunSettings settings(const Plan &) const { return {}; }
#ifdef LAT_TEST_COMPLETE
  lat::Checked<Plan> check(lat::MeasurementFrame &) { return {}; }
#else
  std::string check(lat::MeasurementFrame &) { return ""; }
#endif
  std::vector<lat::Shared> shared(const Plan &) const { return {}; }
  lat::Members members(lat::MeasurementFrame &, const Plan &) { return lat::Members::every_rank(0); }
  std::string allocate(const Plan &, bool) { return ""; }
  Result lead(lat::RunContext &, const Plan &) { return {}; }
  void follow(lat::RunContext &, const Plan &) {}
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

int measure_check_without_plan(MPI_Comm comm) {
  CheckWithoutPlan cap;
  return lat::run_measurement(comm, 0.0, cap).summary.warnings;
}
