// test_harness_mpi.cpp: the measurement harness (lib/common/harness.hpp) with a capability of the test's own:
// the sequence it calls on every rank, the member communicator and its order, the leader's bytes everywhere,
// a complaint or a rank short of memory refused on every rank before anything is measured, a leader's
// failure told to the ranks that wait, and a run with nobody measuring. Run on 3 ranks.
#include <mpi.h>

#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "common/error.hpp"
#include "common/harness.hpp"

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/// Ranks 2 and 1 measure, in that order (2 leads): the follower sends 1000 + its rank in the member
/// communicator, the leader returns that and its own member rank as the result's bytes.
struct Toy {
  enum class Who { some, every_rank, nobody } who = Who::some;
  int complain_on = -1, short_of_memory_on = -1;
  bool leader_fails = false;
  std::string trace;
  int rank = -1;

  std::string check(lat::MeasurementFrame &frame) {
    trace += "check ";
    rank = frame.rank();
    return rank == complain_on ? "the toy's value must be >= 1, got 0" : "";
  }
  std::vector<lat::Shared> shared() const {
    const_cast<Toy *>(this)->trace += "shared ";
    return {lat::Shared::integer("toy shape", static_cast<int64_t>(who))};
  }
  lat::Members members(lat::MeasurementFrame &) {
    trace += "members ";
    if (who == Who::every_rank) return lat::Members::every_rank(0);
    if (who == Who::nobody) return lat::Members::nobody();
    return lat::Members::some({2, 1}, 2, 77);
  }
  std::string allocate(bool measuring) {
    trace += measuring ? "allocate(measuring) " : "allocate ";
    return rank == short_of_memory_on ? "cannot allocate the toy's 10 TB" : "";
  }
  std::vector<char> lead(MPI_Comm comm) {
    trace += "lead ";
    if (leader_fails) throw lat::DataError("the toy's leader read a wrong byte");
    int me = -1, n = 0, got = 0;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    if (who == Who::every_rank) {
      MPI_Reduce(MPI_IN_PLACE, &me, 1, MPI_INT, MPI_SUM, 0, comm);  // leader 0: the sum of every member rank
      got = me, me = 0;
    } else {
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 5, comm, MPI_STATUS_IGNORE);
    }
    std::vector<char> bytes(3 * sizeof(int));
    const int v[3] = {got, me, n};
    std::memcpy(bytes.data(), v, sizeof v);
    return bytes;
  }
  void follow(MPI_Comm comm) {
    trace += "follow ";
    int me = -1;
    MPI_Comm_rank(comm, &me);
    if (who == Who::every_rank) {
      MPI_Reduce(&me, nullptr, 1, MPI_INT, MPI_SUM, 0, comm);
    } else {
      const int v = 1000 + me;
      MPI_Send(&v, 1, MPI_INT, 0, 5, comm);
    }
  }
  std::vector<int> result(std::vector<char> bytes) {
    trace += "result";
    std::vector<int> v(bytes.size() / sizeof(int));
    if (!bytes.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
  }
};

void members_in_order_and_the_result_everywhere(void **) {
  Toy toy;
  const std::vector<int> r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  // The member communicator is {2, 1}: the leader is its rank 0, the follower (world rank 1) its rank 1.
  assert_int_equal(r.size(), 3);
  assert_int_equal(r[0], 1001);
  assert_int_equal(r[1], 0);
  assert_int_equal(r[2], 2);
  const char *expected[] = {"check shared members allocate result",
                            "check shared members allocate(measuring) follow result",
                            "check shared members allocate(measuring) lead result"};
  assert_string_equal(toy.trace.c_str(), expected[world_rank()]);
}

void every_rank_on_the_library_communicator(void **) {
  Toy toy;
  toy.who = Toy::Who::every_rank;
  const std::vector<int> r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  assert_int_equal(r.size(), 3);
  assert_int_equal(r[0], 0 + 1 + 2);
  assert_int_equal(r[2], 3);  // the library's duplicate: every rank, in the caller's order
  assert_string_equal(toy.trace.c_str(), world_rank() == 0 ? "check shared members allocate(measuring) lead result"
                                                           : "check shared members allocate(measuring) follow result");
}

void nobody_measures(void **) {
  Toy toy;
  toy.who = Toy::Who::nobody;
  const std::vector<int> r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  assert_true(r.empty());
  assert_string_equal(toy.trace.c_str(), "check shared members allocate result");
}

/// fn() on every rank: it must throw E, whose message contains `words`.
template <class E, class Fn>
void expect_thrown(Fn &&fn, const char *words) {
  try {
    fn();
  } catch (const E &e) {
    if (std::strstr(e.what(), words) == nullptr) fail_msg("rank %d: got \"%s\"", world_rank(), e.what());
    return;
  }
  fail_msg("rank %d: nothing (or another kind) thrown", world_rank());
}

void one_complaint_refused_everywhere(void **) {
  Toy toy;
  toy.complain_on = 1;
  expect_thrown<lat::ArgError>([&] { lat::run_measurement(MPI_COMM_WORLD, 30.0, toy); },
                               "rank 1: the toy's value must be >= 1, got 0");
  assert_string_equal(toy.trace.c_str(), "check shared ");  // nothing after the verdict
}

void a_different_shared_value_refused_everywhere(void **) {
  Toy toy;
  toy.who = world_rank() == 2 ? Toy::Who::nobody : Toy::Who::some;
  expect_thrown<lat::ArgError>([&] { lat::run_measurement(MPI_COMM_WORLD, 30.0, toy); },
                               "toy shape must be the same on all ranks");
  assert_string_equal(toy.trace.c_str(), "check shared ");
}

void one_rank_short_of_memory_refused_everywhere(void **) {
  Toy toy;
  toy.short_of_memory_on = 0;  // a rank that does not measure: its memory is agreed on all the same
  expect_thrown<lat::NoMemError>([&] { lat::run_measurement(MPI_COMM_WORLD, 30.0, toy); },
                                 "rank 0: cannot allocate the toy's 10 TB");
  const std::string t = toy.trace;
  assert_true(t.find("lead") == std::string::npos && t.find("follow") == std::string::npos);
}

void a_leaders_failure_told_to_every_rank(void **) {
  Toy toy;
  toy.leader_fails = true;
  expect_thrown<lat::DataError>([&] { lat::run_measurement(MPI_COMM_WORLD, 30.0, toy); },
                                "the toy's leader read a wrong byte");
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  setenv("CMOCKA_TEST_ABORT", "1", 1);  // a failing rank must not leave the others waiting
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    std::fprintf(stderr, "test_harness_mpi runs on 3 ranks, got %d\n", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(members_in_order_and_the_result_everywhere),
      cmocka_unit_test(every_rank_on_the_library_communicator),
      cmocka_unit_test(nobody_measures),
      cmocka_unit_test(one_complaint_refused_everywhere),
      cmocka_unit_test(a_different_shared_value_refused_everywhere),
      cmocka_unit_test(one_rank_short_of_memory_refused_everywhere),
      cmocka_unit_test(a_leaders_failure_told_to_every_rank),
  };
  const int failed = cmocka_run_group_tests(tests, nullptr, nullptr);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
