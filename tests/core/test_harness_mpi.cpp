// test_harness_mpi.cpp: the measurement harness (lib/common/harness.hpp) with capabilities of the test's own:
// the sequence it calls on every rank, the member communicator and its order, the leader's result everywhere
// (from its fields' bytes, or by the capability's own share), a complaint or a rank short of memory refused
// on every rank before anything is measured, a leader's failure told to the ranks that wait, a run with
// nobody measuring; the run context (the wait mode, the hosts, the stop and the words agreed between chunks, the
// waits' words and their processor time). On 3 ranks.
#include <mpi.h>

#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include <sched.h>
#include <time.h>

extern "C" {
#include <cmocka.h>
}

#include "common/error.hpp"
#include "common/harness.hpp"
#include "mpilat.h"

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/// Ranks 2 and 1 measure, in that order (2 leads): the follower sends 1000 + its rank in the member
/// communicator, the leader returns that, its own member rank and the members' count as the result.
struct ToyResult {
  struct {
    int warnings = 0;
    double runqueue_share_max = 0.0;
    int runqueue_rank = -2;
    double runqueue_wait_s = 0.0;
  } summary;
  std::vector<int> v;
  auto fields() { return std::tie(v); }
};

struct Toy {
  using Result = ToyResult;
  /// check's plan: this rank, and a token every later step must see.
  struct Plan {
    int rank = -1;
    int token = 0;
  };
  enum class Who { some, every_rank, nobody } who = Who::some;
  int complain_on = -1, short_of_memory_on = -1;
  bool leader_fails = false;
  std::string trace;
  int tokens_seen = 0;  // steps that got check's plan (shared, members, allocate; settings and the body where measuring)

  void saw(const Plan &plan) { tokens_seen += plan.token == 4242 ? 1 : 0; }
  lat::RunSettings settings(const Plan &plan) const {
    const_cast<Toy *>(this)->saw(plan);
    return {30.0, LAT_TIMER_MPI_WTIME, false, "toy"};
  }
  lat::Checked<Plan> check(lat::MeasurementFrame &frame) {
    trace += "check ";
    const Plan plan{frame.rank(), 4242};
    return {plan.rank == complain_on ? "the toy's value must be >= 1, got 0" : "", plan};
  }
  std::vector<lat::Shared> shared(const Plan &plan) const {
    const_cast<Toy *>(this)->trace += "shared ";
    const_cast<Toy *>(this)->saw(plan);
    return {lat::Shared::integer("toy shape", static_cast<int64_t>(who))};
  }
  lat::Members members(lat::MeasurementFrame &, const Plan &plan) {
    trace += "members ";
    saw(plan);
    if (who == Who::every_rank) return lat::Members::every_rank(0);
    if (who == Who::nobody) return lat::Members::nobody();
    return lat::Members::some({2, 1}, 2, 77);
  }
  std::string allocate(const Plan &plan, bool measuring) {
    trace += measuring ? "allocate(measuring) " : "allocate ";
    saw(plan);
    return plan.rank == short_of_memory_on ? "cannot allocate the toy's 10 TB" : "";
  }
  ToyResult lead(lat::RunContext &run, const Plan &plan) {
    trace += "lead ";
    saw(plan);
    if (leader_fails) throw lat::DataError("the toy's leader read a wrong byte");
    int me = run.rank(), got = 0;
    if (who == Who::every_rank) {
      MPI_Reduce(MPI_IN_PLACE, &me, 1, MPI_INT, MPI_SUM, 0, run.comm());  // leader 0: the sum of every member rank
      got = me, me = 0;
    } else {
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 5, run.comm(), MPI_STATUS_IGNORE);
    }
    ToyResult r;
    r.v = {got, me, run.size()};
    return r;
  }
  void follow(lat::RunContext &run, const Plan &plan) {
    trace += "follow ";
    saw(plan);
    int me = run.rank();
    if (who == Who::every_rank) {
      MPI_Reduce(&me, nullptr, 1, MPI_INT, MPI_SUM, 0, run.comm());
    } else {
      const int v = 1000 + me;
      MPI_Send(&v, 1, MPI_INT, 0, 5, run.comm());
    }
  }
  void complete(ToyResult &) { trace += "complete"; }
};

/// The same with its own share (a result that travels with more than its fields, as the ping-pong's): the
/// leader's result reaches it whole on the leader, a default one elsewhere; what it returns is every rank's,
/// and no disturbance is gathered.
struct SharingToy : Toy {
  std::vector<int> mine_seen;
  ToyResult share(lat::MeasurementFrame &frame, ToyResult mine, int leader, bool measuring) {
    trace += measuring ? "share(measuring) " : "share ";
    mine_seen = mine.v;
    int n = static_cast<int>(mine.v.size());
    MPI_Bcast(&n, 1, MPI_INT, leader, frame.comm().get());
    mine.v.resize(static_cast<size_t>(n));
    MPI_Bcast(mine.v.data(), n, MPI_INT, leader, frame.comm().get());
    return mine;
  }
};

void members_in_order_and_the_result_everywhere(void **) {
  Toy toy;
  const ToyResult res = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  const std::vector<int> &r = res.v;
  // The member communicator is {2, 1}: the leader is its rank 0, the follower (world rank 1) its rank 1.
  assert_int_equal(r.size(), 3);
  assert_int_equal(r[0], 1001);
  assert_int_equal(r[1], 0);
  assert_int_equal(r[2], 2);
  const char *expected[] = {"check shared members allocate complete",
                            "check shared members allocate(measuring) follow complete",
                            "check shared members allocate(measuring) lead complete"};
  assert_string_equal(toy.trace.c_str(), expected[world_rank()]);
  // check's plan reached every later step: shared, members, allocate, and on a measuring rank settings and
  // its body.
  assert_int_equal(toy.tokens_seen, world_rank() == 0 ? 3 : 5);
  // The measuring ranks' disturbance in the summary: one of them (world rank 1 or 2), or -1 where not known.
  assert_true(res.summary.runqueue_rank == -1 || res.summary.runqueue_rank == 1 || res.summary.runqueue_rank == 2);
}

void a_result_with_its_own_share(void **) {
  SharingToy toy;
  const ToyResult res = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  const std::vector<int> want = {1001, 0, 2};
  assert_true(res.v == want);
  // share() got the leader's result whole on the leader (world rank 2), nothing elsewhere.
  assert_true(world_rank() == 2 ? toy.mine_seen == want : toy.mine_seen.empty());
  assert_int_equal(res.summary.runqueue_rank, -2);  // no disturbance gathered: the summary as it was made
  const char *expected[] = {"check shared members allocate share complete",
                            "check shared members allocate(measuring) follow share(measuring) complete",
                            "check shared members allocate(measuring) lead share(measuring) complete"};
  assert_string_equal(toy.trace.c_str(), expected[world_rank()]);
}

void every_rank_on_the_library_communicator(void **) {
  Toy toy;
  toy.who = Toy::Who::every_rank;
  const std::vector<int> r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy).v;
  assert_int_equal(r.size(), 3);
  assert_int_equal(r[0], 0 + 1 + 2);
  assert_int_equal(r[2], 3);  // the library's duplicate: every rank, in the caller's order
  assert_string_equal(toy.trace.c_str(), world_rank() == 0 ? "check shared members allocate(measuring) lead complete"
                                                           : "check shared members allocate(measuring) follow complete");
}

void nobody_measures(void **) {
  Toy toy;
  toy.who = Toy::Who::nobody;
  const ToyResult r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  assert_true(r.v.empty());
  assert_int_equal(r.summary.runqueue_rank, -1);  // nobody measured: no disturbance known
  assert_string_equal(toy.trace.c_str(), "check shared members allocate complete");
}

/// A capability that reads its run context: every rank measures; the leader's result carries what each rank's
/// context said (the stop agreed, the wait mode, its host), and the harness makes the result everywhere.
/// What the harness writes into every summary: the measuring ranks' disturbance.
struct DisturbanceFields {
  int warnings = 0;
  double runqueue_share_max = 0.0;
  int runqueue_rank = -2;
  double runqueue_wait_s = 0.0;
};

struct ContextToy {
  struct Summary : DisturbanceFields {
    int64_t ranks = 0, stops_seen = 0, yields = 0, hosts_right = 0, timed = 0, completed_ranks_seen = 0, peers_named = 0;
  };
  struct Result {
    Summary summary{};
    auto fields() { return std::tie(summary); }
  };
  bool stop_on_rank1 = false;
  int wait = LAT_WAIT_AUTO;          // the caller's wait mode
  int completed_on = -1;             // complete(): this rank, set after the result is made

  struct Plan {};
  lat::RunSettings settings(const Plan &) const { return {30.0, LAT_TIMER_MPI_WTIME, false, "context toy", nullptr, wait}; }
  /// What stays on the rank that measured it: here, which rank completed its result.
  void complete(Result &r) {
    completed_on = world_rank();
    r.summary.completed_ranks_seen = r.summary.ranks;  // complete() sees the result made from the bytes
  }
  lat::Checked<Plan> check(lat::MeasurementFrame &) { return {}; }
  std::vector<lat::Shared> shared(const Plan &) const { return {}; }
  lat::Members members(lat::MeasurementFrame &, const Plan &) { return lat::Members::every_rank(0); }
  std::string allocate(const Plan &, bool) { return ""; }
  /// Every rank: what its context says, summed on the leader.
  int64_t seen[6] = {0, 0, 0, 0, 0, 0};
  void body(lat::RunContext &run) {
    if (stop_on_rank1 && run.rank() == 1) lat_request_stop();
    const bool stop = run.stop_agreed();
    lat_clear_stop();
    char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int len = 0;
    MPI_Get_processor_name(name, &len);
    run.meet();
    const int64_t timed = run.timed(0, [] { return int64_t{1}; });
    // A wait's message names the other ranks (library ranks 0..2 here, every rank measuring).
    std::string others;
    for (int r = 0; r < run.size(); ++r)
      if (r != run.rank()) others += (others.empty() ? "ranks " : ", ") + std::to_string(r);
    int64_t mine[6] = {1, stop ? 1 : 0, run.yield() ? 1 : 0,
                       static_cast<int64_t>(run.hosts().size()) == run.size() && run.hosts()[static_cast<size_t>(run.rank())] == name,
                       timed, others == run.waiting("x").peers ? 1 : 0};
    MPI_Reduce(mine, seen, 6, MPI_INT64_T, MPI_SUM, run.leader(), run.comm());
  }
  Result lead(lat::RunContext &run, const Plan &) {
    body(run);
    Result r;
    r.summary.ranks = seen[0], r.summary.stops_seen = seen[1], r.summary.yields = seen[2];
    r.summary.hosts_right = seen[3], r.summary.timed = seen[4], r.summary.peers_named = seen[5];
    return r;
  }
  void follow(lat::RunContext &run, const Plan &) { body(run); }
};

/// Whether this machine holds more ranks of the job than this rank may run on (the wait mode's rule, asked
/// here without the library: the ranks sharing memory against the processors of this rank's affinity).
bool oversubscribed_here() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int on_node = 0;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  int any = on_node > CPU_COUNT(&set) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any != 0;
}

void the_run_context_on_every_rank(void **) {
  ContextToy toy;
  const ContextToy::Result r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  assert_int_equal(r.summary.ranks, 3);       // the leader's result on every rank
  assert_int_equal(r.summary.stops_seen, 0);  // no stop asked
  assert_int_equal(r.summary.hosts_right, 3); // every rank's name, in the communicator's order
  assert_int_equal(r.summary.peers_named, 3); // "ranks 1, 2" on rank 0, and so on
  assert_int_equal(r.summary.timed, 3);       // timed() gives the body's value
  // The wait mode decided once, alike on every rank: yield exactly where a machine holds more ranks than
  // processors (3 ranks on this 2-processor machine: yes).
  assert_int_equal(r.summary.yields, oversubscribed_here() ? 3 : 0);
  // The harness made the result: the disturbance in its summary (a measuring rank, or -1 where not known).
  assert_true(r.summary.runqueue_rank >= -1 && r.summary.runqueue_rank <= 2);
  assert_true((r.summary.warnings & ~LAT_WARN_DISTURBED) == 0);
  assert_true(((r.summary.warnings & LAT_WARN_DISTURBED) != 0) ==
              lat::is_disturbed(r.summary.runqueue_share_max, r.summary.runqueue_wait_s));
  // complete() ran on every rank, after the result was made from the leader's bytes.
  assert_int_equal(toy.completed_on, world_rank());
  assert_int_equal(r.summary.completed_ranks_seen, 3);
}

/// The caller's wait mode (LAT_WAIT_SPIN, LAT_WAIT_YIELD) is the run's, whatever the places say.
void the_callers_wait_mode_kept(void **) {
  for (int wait : {LAT_WAIT_SPIN, LAT_WAIT_YIELD}) {
    ContextToy toy;
    toy.wait = wait;
    const ContextToy::Result r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
    assert_int_equal(r.summary.yields, wait == LAT_WAIT_YIELD ? 3 : 0);
  }
}

void a_stop_on_one_rank_agreed_by_every_rank(void **) {
  ContextToy toy;
  toy.stop_on_rank1 = true;
  const ContextToy::Result r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  assert_int_equal(r.summary.stops_seen, 3);
}

/// The run context's one agreement between chunks (agree_chunk): the stop and the words in one exchange, a
/// word combined by maximum (every rank's, or the leader's alone where the others say kNoWord); and its
/// waits: in a spinning run a waiting rank spins, but the first agreement, which spans the leader's timer
/// calibration (extra_s > 0), sleeps. The leader stays away kAwayS before each of the two; every other rank
/// reports the processor time it spent waiting.
struct AgreementToy {
  static constexpr double kAwayS = 0.5;
  struct Summary : DisturbanceFields {
    int64_t words_right = 0, stops_seen = 0;
    double spin_cpu_min_s = 0.0, sleep_cpu_max_s = 0.0;
  };
  struct Result {
    Summary summary{};
    auto fields() { return std::tie(summary); }
  };
  struct Plan {};
  lat::RunSettings settings(const Plan &) const { return {30.0, LAT_TIMER_MPI_WTIME, false, "agreement toy", nullptr, LAT_WAIT_SPIN}; }
  lat::Checked<Plan> check(lat::MeasurementFrame &) { return {}; }
  std::vector<lat::Shared> shared(const Plan &) const { return {}; }
  lat::Members members(lat::MeasurementFrame &, const Plan &) { return lat::Members::every_rank(0); }
  std::string allocate(const Plan &, bool) { return ""; }

  static double cpu_s() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  }
  /// [words right, a stop seen, processor time spinning] by minimum over the ranks, [processor time
  /// sleeping] by maximum (the leader, which never waits, says 1e9 and 0).
  double seen[4] = {0.0, 0.0, 0.0, 0.0};
  void body(lat::RunContext &run) {
    double words[3] = {static_cast<double>(run.rank() + 1), run.leads() ? 42.0 : lat::RunContext::kNoWord,
                       lat::RunContext::kNoWord};
    if (run.rank() == 2) lat_request_stop();
    const bool stop = run.agree_chunk(words, 3);
    lat_clear_stop();
    double mine[4] = {words[0] == run.size() && words[1] == 42.0 && words[2] == lat::RunContext::kNoWord ? 1.0 : 0.0,
                      stop ? 1.0 : 0.0, 1e9, 0.0};
    for (const double extra_s : {0.0, 10.0}) {
      if (run.leads()) {
        struct timespec away = {0, static_cast<long>(kAwayS * 1e9)};
        nanosleep(&away, nullptr);
        run.stop_agreed(extra_s);
      } else {
        const double before = cpu_s();
        run.stop_agreed(extra_s);
        mine[extra_s > 0.0 ? 3 : 2] = cpu_s() - before;
      }
    }
    MPI_Allreduce(mine, seen, 3, MPI_DOUBLE, MPI_MIN, run.comm());
    MPI_Allreduce(&mine[3], &seen[3], 1, MPI_DOUBLE, MPI_MAX, run.comm());
  }
  Result lead(lat::RunContext &run, const Plan &) {
    body(run);
    Result r;
    r.summary.words_right = static_cast<int64_t>(seen[0]);
    r.summary.stops_seen = static_cast<int64_t>(seen[1]);
    r.summary.spin_cpu_min_s = seen[2];
    r.summary.sleep_cpu_max_s = seen[3];
    return r;
  }
  void follow(lat::RunContext &run, const Plan &) { body(run); }
};

void the_agreement_between_chunks(void **) {
  AgreementToy toy;
  const AgreementToy::Result r = lat::run_measurement(MPI_COMM_WORLD, 30.0, toy);
  assert_int_equal(r.summary.words_right, 1);  // on every rank (the minimum): 1 + 2 + 3 -> 3, 42, kNoWord
  assert_int_equal(r.summary.stops_seen, 1);   // rank 2's stop, on every rank
  // Spinning, a rank waits on its processor (on 2 processors with the leader asleep: most of kAwayS);
  // sleeping, it hardly uses one.
  const double spin_min = r.summary.spin_cpu_min_s;
  print_message("waiting %.2f s: spinning took %.3f s of a processor at least, sleeping %.3f s at most\n",
                AgreementToy::kAwayS, spin_min, r.summary.sleep_cpu_max_s);
  assert_true(spin_min >= 0.3 * AgreementToy::kAwayS);
  assert_true(r.summary.sleep_cpu_max_s <= 0.15 * AgreementToy::kAwayS);
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
      cmocka_unit_test(a_result_with_its_own_share),
      cmocka_unit_test(every_rank_on_the_library_communicator),
      cmocka_unit_test(nobody_measures),
      cmocka_unit_test(one_complaint_refused_everywhere),
      cmocka_unit_test(a_different_shared_value_refused_everywhere),
      cmocka_unit_test(one_rank_short_of_memory_refused_everywhere),
      // Before measurements that make communicators: under Open MPI 4.1, freeing the members' communicator
      // with the follower's message unreceived on the failed leader hung every communicator made after it
      // (ompi_comm_nextcid); the harness keeps that communicator (frame.hpp, MemberComm).
      cmocka_unit_test(a_leaders_failure_told_to_every_rank),
      cmocka_unit_test(the_run_context_on_every_rank),
      cmocka_unit_test(a_stop_on_one_rank_agreed_by_every_rank),
      cmocka_unit_test(the_callers_wait_mode_kept),
      cmocka_unit_test(the_agreement_between_chunks),
  };
  const int failed = cmocka_run_group_tests(tests, nullptr, nullptr);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
