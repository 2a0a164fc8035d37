// harness.hpp: the sequence every measurement runs, owned here. A capability gives its plan (check, shared
// values, members, buffers), its leader's and followers' bodies and its result; the harness calls them in
// order (docs/architecture.md, "The measurement harness").
#pragma once

#include <mpi.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/agreement.hpp"
#include "common/frame.hpp"

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
 *   measuring)`, where the result travels otherwise than as the frame's bytes.
 * The harness gives them the library's own communicator (a duplicate: the caller's messages are never
 * disturbed), the agreed verdict on the arguments and on the buffers (one bad value or one rank short of
 * memory is an error on every rank, never a deadlock), the measuring ranks' communicator, a failure on a
 * measuring rank told to every other rank (which would otherwise wait for ever) and rethrown, and the
 * leader's bytes on every rank: measuring ranks wait for them within the timeout, the others without a
 * limit (a measurement may take hours) until they or a failure note arrive.
 */
template <class Capability>
auto run_measurement(MPI_Comm user_comm, double timeout_s, Capability &cap) {
  MeasurementFrame frame(user_comm, timeout_s);
  const std::string complaint = cap.check(frame);
  frame.agree(complaint, cap.shared());
  const Members m = cap.members(frame);
  const int rank = frame.rank();
  const bool measuring = m.includes(rank);
  agree_on_failure(frame.comm(), cap.allocate(measuring), Fault::nomem);
  std::vector<char> bytes;
  const auto body = [&](MPI_Comm comm) {
    if (rank == m.leader)
      bytes = cap.lead(comm);
    else
      cap.follow(comm);
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
  return cap.result(std::move(bytes));
}

}  // namespace lat
