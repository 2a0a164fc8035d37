// harness.hpp: the sequence every measurement runs, owned here. A capability gives its plan (check, shared
// values, members, buffers), its run context's settings and its leader's and followers' bodies; the harness
// calls them in order, makes the run context and the result (docs/architecture.md, "The measurement harness").
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "common/agreement.hpp"
#include "common/bytes.hpp"
#include "common/disturbance.hpp"
#include "common/frame.hpp"
#include "common/run_context.hpp"

namespace lat {

/// Who measures, decided on every rank after the verdict (Capability::members).
struct Members {
  /// Every rank measures, on the library's communicator itself (the capability's own messages pair them).
  static Members every_rank(int leader) { return {{}, leader, 0, Kind::every_rank}; }
  /// These ranks of the library's communicator measure on a communicator of their own, in this order.
  static Members some(std::vector<int> ranks, int leader, int tag) { return {std::move(ranks), leader, tag, Kind::some}; }
  /// Nothing is measured (a run stopped before its timed part): every rank takes a default Result.
  static Members nobody() { return {{}, 0, 0, Kind::nobody}; }

  enum class Kind { every_rank, some, nobody };
  std::vector<int> ranks;
  int leader;
  int tag;
  Kind kind;

  bool includes(int rank) const {
    return kind == Kind::every_rank || (kind == Kind::some && std::find(ranks.begin(), ranks.end(), rank) != ranks.end());
  }
};

/// What a capability's check gives: this rank's complaint ("" where none) and its plan, what the later steps
/// read (shared values, members, buffers, bodies). The harness hands the plan to each: nothing can read it
/// before check made it, and no step depends on the order in which members were set.
template <class Plan>
struct Checked {
  std::string complaint;
  Plan plan{};
};

namespace harness_detail {

/// The leader's result before it is shared, where the result travels as bytes: nothing.
struct NoResult {};

/// The disturbance travels behind the leader's bytes: three doubles, appended there and taken off everywhere.
constexpr size_t kDisturbanceBytes = 3 * sizeof(double);
inline void append_disturbance(std::vector<char> &bytes, const Disturbance &d) {
  const double v[3] = {d.runqueue_share_max, static_cast<double>(d.rank), d.waited_s};
  const char *p = reinterpret_cast<const char *>(v);
  bytes.insert(bytes.end(), p, p + kDisturbanceBytes);
}
inline Disturbance take_disturbance(std::vector<char> &bytes) {
  Disturbance d;
  if (bytes.size() < kDisturbanceBytes) return d;
  double v[3];
  std::memcpy(v, bytes.data() + bytes.size() - kDisturbanceBytes, kDisturbanceBytes);
  bytes.resize(bytes.size() - kDisturbanceBytes);
  d.runqueue_share_max = v[0];
  d.rank = static_cast<int>(v[1]);
  d.waited_s = v[2];
  return d;
}
/// The contract of a Capability (run_measurement's comment), detected member by member so that a missing or
/// mistyped one is a static_assert naming it at the capability, not an error deep inside a template.
#define LAT_HARNESS_DETECT(name, expr)                                    \
  template <class C, class = void>                                        \
  struct name : std::false_type {};                                       \
  template <class C>                                                      \
  struct name<C, std::void_t<decltype(expr)>> : std::true_type {};
LAT_HARNESS_DETECT(has_settings, RunSettings(std::declval<const C &>().settings(std::declval<const typename C::Plan &>())))
LAT_HARNESS_DETECT(has_plan, typename C::Plan{})
LAT_HARNESS_DETECT(has_check, Checked<typename C::Plan>(std::declval<C &>().check(std::declval<MeasurementFrame &>())))
LAT_HARNESS_DETECT(has_shared, std::vector<Shared>(std::declval<C &>().shared(std::declval<const typename C::Plan &>())))
LAT_HARNESS_DETECT(has_members, Members(std::declval<C &>().members(std::declval<MeasurementFrame &>(),
                                                                    std::declval<const typename C::Plan &>())))
LAT_HARNESS_DETECT(has_allocate, std::string(std::declval<C &>().allocate(std::declval<const typename C::Plan &>(), true)))
LAT_HARNESS_DETECT(has_lead, typename C::Result(std::declval<C &>().lead(std::declval<RunContext &>(),
                                                                         std::declval<const typename C::Plan &>())))
LAT_HARNESS_DETECT(has_follow, std::declval<C &>().follow(std::declval<RunContext &>(), std::declval<const typename C::Plan &>()))
LAT_HARNESS_DETECT(has_fields, std::declval<typename C::Result &>().fields())
LAT_HARNESS_DETECT(has_summary_warnings, std::declval<C &>().summary.warnings |= LAT_WARN_DISTURBED)
// Optional: void complete(Result &), what stays on the rank that measured it.
LAT_HARNESS_DETECT(has_complete, std::declval<C &>().complete(std::declval<typename C::Result &>()))
// Optional: Result share(MeasurementFrame &, Result, int leader, bool measuring), a result that travels with
// more than its fields (the ping-pong's distribution, the calibration's).
LAT_HARNESS_DETECT(has_share,
                   typename C::Result(std::declval<C &>().share(std::declval<MeasurementFrame &>(), std::declval<typename C::Result>(),
                                                                0, true)))
#undef LAT_HARNESS_DETECT

/// The result made from the leader's bytes: read into C::Result, the disturbance into its summary (and
/// LAT_WARN_DISTURBED into its warnings, where it has them).
template <class Result>
Result result_of_bytes(std::vector<char> bytes, const Disturbance &d) {
  Result r;
  if (!bytes.empty()) from_bytes(bytes, r.fields());
  set_disturbance(r.summary, d);
  if constexpr (has_summary_warnings<Result>::value) {
    if (d.disturbed()) r.summary.warnings |= LAT_WARN_DISTURBED;
  }
  return r;
}

template <class C>
constexpr bool check_capability() {
  static_assert(has_plan<C>::value, "a Capability needs a type Plan (default-constructible): what its check plans");
  static_assert(has_settings<C>::value,
                "a Capability needs RunSettings settings(const Plan &) const: what its run context is");
  static_assert(has_check<C>::value, "a Capability needs Checked<Plan> check(MeasurementFrame &): its complaint and plan");
  static_assert(has_shared<C>::value,
                "a Capability needs std::vector<Shared> shared(const Plan &): the values every rank shares");
  static_assert(has_members<C>::value, "a Capability needs Members members(MeasurementFrame &, const Plan &): who measures");
  static_assert(has_allocate<C>::value, "a Capability needs std::string allocate(const Plan &, bool measuring): its buffers");
  static_assert(has_lead<C>::value,
                "a Capability needs a type Result and Result lead(RunContext &, const Plan &): the leader's body");
  static_assert(has_follow<C>::value,
                "a Capability needs void follow(RunContext &, const Plan &): the other measuring ranks' body");
  if constexpr (!has_share<C>::value)
    static_assert(has_fields<C>::value, "a Capability's Result needs fields() and a summary (or the Capability its own share)");
  return true;
}
}  // namespace harness_detail

/**
 * The measurement on every rank of user_comm. A Capability is an object with:
 * - a type `Plan` and `Checked<Plan> check(MeasurementFrame &)`: this rank's complaint ("" where none), from
 *   the function its `lat_<x>_check` calls, the memory a run needs included, and the plan the later steps
 *   read; every rank calls it, so it may be collective;
 * - `RunSettings settings(const Plan &) const`: what its run context is (timeout, clock, progress, phase,
 *   wait mode);
 * - `std::vector<Shared> shared(const Plan &) const`: the values every rank must share;
 * - `Members members(MeasurementFrame &, const Plan &)`: every rank's part after the verdict (places, a sizing
 *   run) and who measures;
 * - `std::string allocate(const Plan &, bool measuring)`: the buffers, "" or why they could not be had;
 * - a type `Result` (with `fields()`, what travels, and a `summary`), `Result lead(RunContext &, const Plan &)`,
 *   the leader's body, and `void follow(RunContext &, const Plan &)`, the other measuring ranks' body
 *   (lib/common/run_context.hpp: the context is made here, once, on every measuring rank);
 * - optionally `void complete(Result &)`, called on every rank after the result is made: what does not travel
 *   (the pair matrix's matrices, kept on its root);
 * - optionally `Result share(MeasurementFrame &, Result mine, int leader, bool measuring)`, a result that
 *   travels with more than its fields (the ping-pong's distribution): `mine` is the leader's (a default one
 *   elsewhere), and no disturbance is gathered.
 * The harness gives them the library's own communicator (a duplicate: the caller's messages are never
 * disturbed), the agreed verdict on the arguments and on the buffers (one bad value or one rank short of
 * memory is an error on every rank, never a deadlock), the measuring ranks' communicator and their run
 * context, a failure on a measuring rank told to every other rank (which would otherwise wait for ever) and
 * rethrown, and every rank's result from the leader's: measuring ranks wait for it within the timeout, the
 * others without a limit (a measurement may take hours) until it or a failure note arrives. Each measuring
 * rank's share of its body's wall clock spent waiting for a processor (RunQueueMeter) is gathered to the
 * leader after the body, and the largest travels with the leader's bytes into the result's summary.
 */
template <class Capability>
auto run_measurement(MPI_Comm user_comm, double timeout_s, Capability &cap) {
  static_assert(harness_detail::check_capability<Capability>());
  using Result = typename Capability::Result;
  // A result that travels its own way (with a distribution) is kept whole: no bytes, no disturbance appended
  // (its result has no summary to hold one).
  constexpr bool kOwnShare = harness_detail::has_share<Capability>::value;
  MeasurementFrame frame(user_comm, timeout_s);
  const Checked<typename Capability::Plan> checked = cap.check(frame);
  const typename Capability::Plan &plan = checked.plan;
  frame.agree(checked.complaint, cap.shared(plan));
  const Members m = cap.members(frame, plan);
  const int rank = frame.rank();
  const bool measuring = m.includes(rank);
  agree_on_failure(frame.comm(), cap.allocate(plan, measuring), Fault::nomem);
  std::vector<char> bytes;
  // kOwnShare: the leader's result, which share() turns into every rank's; otherwise the bytes travel.
  std::conditional_t<kOwnShare, Result, harness_detail::NoResult> mine{};
  Result shared{};
  // The leader's rank in the measuring ranks' communicator.
  const int leader = m.kind == Members::Kind::some
                         ? static_cast<int>(std::find(m.ranks.begin(), m.ranks.end(), m.leader) - m.ranks.begin())
                         : m.leader;
  const auto body = [&](MPI_Comm comm) {
    RunQueueMeter meter;
    RunContext run(comm, leader, rank, cap.settings(plan), &frame.listener(), frame.place_found());
    // The context's setup (places, hwloc, names) is not the measurement's: with more ranks than processors
    // its start alone made a short nodecomm run "disturbed".
    meter.restart();
    if (run.leads()) {
      if constexpr (kOwnShare)
        mine = cap.lead(run, plan);
      else
        bytes = to_bytes(cap.lead(run, plan).fields());
    } else {
      cap.follow(run, plan);
    }
    if constexpr (!kOwnShare) {
      const Disturbance d = gather_disturbance(comm, leader, rank, meter,
                                               frame.result_wait(true, "phase 'result': the ranks' disturbance"),
                                               &frame.listener());
      if (rank == m.leader) harness_detail::append_disturbance(bytes, d);
    }
  };
  const auto share = [&](bool measuring_here) {
    if constexpr (kOwnShare)
      shared = cap.share(frame, std::move(mine), m.leader, measuring_here);
    else
      bytes = frame.share_result(std::move(bytes), m.leader, measuring_here);
  };
  switch (m.kind) {
    case Members::Kind::every_rank:
      frame.telling_failures([&] {
        body(frame.comm().get());
        share(true);
      });
      break;
    case Members::Kind::some:
      if (measuring) frame.run_member(m.ranks, m.tag, body);
      share(measuring);
      break;
    case Members::Kind::nobody:
      break;
  }
  if constexpr (!kOwnShare) {
    const Disturbance d = m.kind != Members::Kind::nobody ? harness_detail::take_disturbance(bytes) : Disturbance{};
    shared = harness_detail::result_of_bytes<Result>(std::move(bytes), d);
  }
  if constexpr (harness_detail::has_complete<Capability>::value) cap.complete(shared);
  return shared;
}

}  // namespace lat
