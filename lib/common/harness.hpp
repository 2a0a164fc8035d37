// harness.hpp: the sequence every measurement runs, owned here. A capability gives its plan (check, shared
// values, members, buffers), its leader's and followers' bodies and its result; the harness calls them in
// order (docs/architecture.md, "The measurement harness").
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
  /// Nothing is measured (a run stopped before its timed part): every rank takes result({}).
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

namespace harness_detail {
/// The result's bytes from the leader: the capability's own share where it has one (a result that travels
/// with more than bytes, as the ping-pong's distribution), else the frame's.
template <class Capability>
auto share(Capability &cap, MeasurementFrame &frame, std::vector<char> bytes, int leader, bool measuring, int)
    -> decltype(cap.share(frame, std::move(bytes), leader, measuring)) {
  return cap.share(frame, std::move(bytes), leader, measuring);
}
template <class Capability>
std::vector<char> share(Capability &, MeasurementFrame &frame, std::vector<char> bytes, int leader, bool measuring,
                        long) {
  return frame.share_result(std::move(bytes), leader, measuring);
}

/// Whether the capability takes the measuring ranks' disturbance (`void note_disturbance(const Disturbance &)`).
template <class Capability, class = void>
struct notes_disturbance : std::false_type {};
template <class Capability>
struct notes_disturbance<Capability, std::void_t<decltype(std::declval<Capability &>().note_disturbance(Disturbance{}))>>
    : std::true_type {};

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
LAT_HARNESS_DETECT(has_check, std::string(std::declval<C &>().check(std::declval<MeasurementFrame &>())))
LAT_HARNESS_DETECT(has_shared, std::vector<Shared>(std::declval<C &>().shared()))
LAT_HARNESS_DETECT(has_members, Members(std::declval<C &>().members(std::declval<MeasurementFrame &>())))
LAT_HARNESS_DETECT(has_allocate, std::string(std::declval<C &>().allocate(true)))
LAT_HARNESS_DETECT(has_lead, std::vector<char>(std::declval<C &>().lead(std::declval<MPI_Comm>())))
LAT_HARNESS_DETECT(has_follow, std::declval<C &>().follow(std::declval<MPI_Comm>()))
LAT_HARNESS_DETECT(has_result, std::declval<C &>().result(std::declval<std::vector<char>>()))
// The run-context form: settings() and a Result type; lead(RunContext &) returns the Result, follow(RunContext &).
LAT_HARNESS_DETECT(has_settings, RunSettings(std::declval<const C &>().settings()))
LAT_HARNESS_DETECT(has_context_lead, typename C::Result(std::declval<C &>().lead(std::declval<RunContext &>())))
LAT_HARNESS_DETECT(has_context_follow, std::declval<C &>().follow(std::declval<RunContext &>()))
LAT_HARNESS_DETECT(has_summary_warnings, std::declval<C &>().summary.warnings |= LAT_WARN_DISTURBED)
// Optional in the run-context form: void complete(Result &), what stays on the rank that measured it.
LAT_HARNESS_DETECT(has_complete, std::declval<C &>().complete(std::declval<typename C::Result &>()))
#undef LAT_HARNESS_DETECT

/// A capability in the run-context form: its bodies take the RunContext, and its result is made here.
template <class C>
constexpr bool uses_context() {
  return has_settings<C>::value;
}

/// The result of the run-context form: the leader's bytes read into C::Result, the disturbance into its summary
/// (and LAT_WARN_DISTURBED into its warnings, where it has them).
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
constexpr bool check_context_capability() {
  static_assert(has_check<C>::value, "a Capability needs std::string check(MeasurementFrame &): its complaint");
  static_assert(has_shared<C>::value, "a Capability needs std::vector<Shared> shared(): the values every rank shares");
  static_assert(has_members<C>::value, "a Capability needs Members members(MeasurementFrame &): who measures");
  static_assert(has_allocate<C>::value, "a Capability needs std::string allocate(bool measuring): its buffers");
  static_assert(has_context_lead<C>::value,
                "a Capability with settings() needs a type Result (with fields() and summary) and Result "
                "lead(RunContext &): the leader's body");
  static_assert(has_context_follow<C>::value, "a Capability with settings() needs void follow(RunContext &): the other measuring ranks' body");
  return true;
}

template <class C>
constexpr bool check_capability() {
  if constexpr (uses_context<C>()) {
    return check_context_capability<C>();
  } else {
    static_assert(has_check<C>::value, "a Capability needs std::string check(MeasurementFrame &): its complaint");
    static_assert(has_shared<C>::value, "a Capability needs std::vector<Shared> shared(): the values every rank shares");
    static_assert(has_members<C>::value, "a Capability needs Members members(MeasurementFrame &): who measures");
    static_assert(has_allocate<C>::value, "a Capability needs std::string allocate(bool measuring): its buffers");
    static_assert(has_lead<C>::value, "a Capability needs std::vector<char> lead(MPI_Comm): the leader's body");
    static_assert(has_follow<C>::value, "a Capability needs void follow(MPI_Comm): the other measuring ranks' body");
    static_assert(has_result<C>::value, "a Capability needs result(std::vector<char>): every rank's result");
    return true;
  }
}
}  // namespace harness_detail

/**
 * The measurement on every rank of user_comm. A Capability is an object with:
 * - `std::string check(MeasurementFrame &)`: this rank's complaint ("" where none): the function its
 *   `lat_<x>_check` calls, the memory a run needs included; every rank calls it, so it may be collective;
 * - `std::vector<Shared> shared() const`: the values every rank must share (after check);
 * - `Members members(MeasurementFrame &)`: every rank's part after the verdict (places, a sizing run) and who
 *   measures;
 * - `std::string allocate(bool measuring)`: the buffers, "" or why they could not be had;
 * - `std::vector<char> lead(MPI_Comm)`: the leader's body; returns the result's bytes;
 * - `void follow(MPI_Comm)`: the other measuring ranks' body;
 * - `Result result(std::vector<char>)`: every rank's result from the leader's bytes (empty with nobody);
 * - optionally `std::vector<char> share(MeasurementFrame &, std::vector<char> bytes, int leader, bool
 *   measuring)`, where the result travels otherwise than as the frame's bytes;
 * - optionally `void note_disturbance(const Disturbance &)`, called on every rank before `result`: then each
 *   measuring rank's share of its body's wall clock spent waiting for a processor (RunQueueMeter) is
 *   gathered to the leader after the body, and the largest travels with the leader's bytes.
 * Or, in the run-context form (lib/common/run_context.hpp): `RunSettings settings() const`, a type `Result`
 * (with `fields()` and a `summary`), `Result lead(RunContext &)` and `void follow(RunContext &)`; the bodies
 * get the run's context, and every rank's Result is made here (its bytes, the disturbance): no `result`;
 * optionally `void complete(Result &)`, called on every rank after: what does not travel (the pair matrix's
 * matrices, kept on its root).
 * The harness gives them the library's own communicator (a duplicate: the caller's messages are never
 * disturbed), the agreed verdict on the arguments and on the buffers (one bad value or one rank short of
 * memory is an error on every rank, never a deadlock), the measuring ranks' communicator, a failure on a
 * measuring rank told to every other rank (which would otherwise wait for ever) and rethrown, and the
 * leader's bytes on every rank: measuring ranks wait for them within the timeout, the others without a
 * limit (a measurement may take hours) until they or a failure note arrive.
 */
template <class Capability>
auto run_measurement(MPI_Comm user_comm, double timeout_s, Capability &cap) {
  static_assert(harness_detail::check_capability<Capability>());
  MeasurementFrame frame(user_comm, timeout_s);
  const std::string complaint = cap.check(frame);
  frame.agree(complaint, cap.shared());
  const Members m = cap.members(frame);
  const int rank = frame.rank();
  const bool measuring = m.includes(rank);
  agree_on_failure(frame.comm(), cap.allocate(measuring), Fault::nomem);
  std::vector<char> bytes;
  constexpr bool kContext = harness_detail::uses_context<Capability>();
  constexpr bool kNotes = kContext || harness_detail::notes_disturbance<Capability>::value;
  // The leader's rank in the measuring ranks' communicator.
  const int leader = m.kind == Members::Kind::some
                         ? static_cast<int>(std::find(m.ranks.begin(), m.ranks.end(), m.leader) - m.ranks.begin())
                         : m.leader;
  const auto body = [&](MPI_Comm comm) {
    RunQueueMeter meter;
    if constexpr (kContext) {
      RunContext run(comm, leader, rank, cap.settings(), &frame.listener());
      // The context's setup (places, hwloc, names) is not the measurement's: with more ranks than processors
      // its start alone made a short nodecomm run "disturbed".
      meter.restart();
      if (run.leads()) {
        auto r = cap.lead(run);
        bytes = to_bytes(r.fields());
      } else {
        cap.follow(run);
      }
    } else {
      if (rank == m.leader)
        bytes = cap.lead(comm);
      else
        cap.follow(comm);
    }
    if constexpr (kNotes) {
      const Disturbance d = gather_disturbance(comm, leader, rank, meter,
                                               frame.result_wait(true, "phase 'result': the ranks' disturbance"),
                                               &frame.listener());
      if (rank == m.leader) harness_detail::append_disturbance(bytes, d);
    }
  };
  switch (m.kind) {
    case Members::Kind::every_rank:
      frame.telling_failures([&] {
        body(frame.comm().get());
        bytes = harness_detail::share(cap, frame, std::move(bytes), m.leader, true, 0);
      });
      break;
    case Members::Kind::some:
      if (measuring) frame.run_member(m.ranks, m.tag, body);
      bytes = harness_detail::share(cap, frame, std::move(bytes), m.leader, measuring, 0);
      break;
    case Members::Kind::nobody:
      break;
  }
  if constexpr (kContext) {
    const Disturbance d = m.kind != Members::Kind::nobody ? harness_detail::take_disturbance(bytes) : Disturbance{};
    auto r = harness_detail::result_of_bytes<typename Capability::Result>(std::move(bytes), d);
    if constexpr (harness_detail::has_complete<Capability>::value) cap.complete(r);
    return r;
  } else {
    if constexpr (kNotes) {
      if (m.kind != Members::Kind::nobody) cap.note_disturbance(harness_detail::take_disturbance(bytes));
    }
    return cap.result(std::move(bytes));
  }
}

}  // namespace lat
