// frame.hpp: the steps of the measurement harness (harness.hpp, which calls them in order): the library's
// communicator, the verdict, the members' communicator, failures told, the result shared
// (docs/architecture.md, "The measurement harness").
#pragma once

#include <mpi.h>

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/failure_notes.hpp"
#include "common/placement.hpp"
#include "common/waits.hpp"

namespace lat {

/**
 * The steps every measurement takes on every rank of the caller's communicator:
 * 1. the library's own communicator (a duplicate, MPI_ERRORS_RETURN): the application's messages are never
 *    disturbed;
 * 2. the arguments checked on every rank and the verdict agreed, with the values every rank must share
 *    (buffers allocated before the verdict, so a rank that cannot have them is an error everywhere);
 * 3. the measuring ranks' own communicator, for their barriers and messages;
 * 4. the leader and its followers; a failure on a measuring rank is told to every other rank, which would
 *    otherwise wait for ever, then rethrown;
 * 5. the result shared from the leader: measuring ranks wait within the timeout, the others without a limit
 *    (a measurement may take hours) until the result or a failure note arrives.
 */
class MeasurementFrame {
 public:
  MeasurementFrame(MPI_Comm user_comm, double timeout_s);
  MeasurementFrame(const MeasurementFrame &) = delete;
  MeasurementFrame &operator=(const MeasurementFrame &) = delete;

  const LibComm &comm() const { return comm_; }
  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }

  /// Step 2: throws on every rank when any rank has a complaint ("" where none) or a shared value differs.
  void agree(const std::string &complaint, const std::vector<Shared> &shared) const {
    agree_arguments(comm_, complaint, shared);
  }

  /// Steps 3 and 4 on a measuring rank: part(member_comm) with the communicator of `members` (ranks of the
  /// library's communicator, in that order; freed afterwards). tag keeps concurrent creations apart.
  template <class Part>
  void run_member(const std::vector<int> &members, int tag, Part &&part) {
    telling_failures([&] {
      MemberComm member(comm_.get(), members, tag);
      part(member.get());
    });
  }

  /// Step 4 for a part every rank takes: part(), a failure told to every other rank and rethrown.
  template <class Part>
  decltype(auto) telling_failures(Part &&part) {
    try {
      return std::forward<Part>(part)();
    } catch (...) {
      report_current_failure(comm_.get(), others_);
    }
  }

  /// Step 5's wait: within the timeout on a measuring rank, without a limit elsewhere.
  Waiting result_wait(bool measuring, const char *what) const;

  /// The receive of the measuring ranks' failure notes (made on first use, cancelled at the end).
  FailureListener &listener();

  /// Step 5: the leader's bytes on every rank.
  std::vector<char> share_result(std::vector<char> bytes, int leader, bool measuring);

  /// The other ranks: whom a failure is told.
  const std::vector<int> &others() const { return others_; }

  /// This rank's place, its nodes numbered among every rank of the library's communicator: found on first
  /// call (collective: every rank asks at the same step of check or members) and kept; the run context then
  /// takes it instead of finding it again (placement is found once a run).
  const LocalPlace &place() {
    if (!place_) place_ = place_of_this_rank(comm_.get(), comm_.rank());
    return *place_;
  }
  /// The place if check or members asked for it, else null.
  const LocalPlace *place_found() const { return place_ ? &*place_ : nullptr; }

 private:
  /// The members' communicator, freed on scope exit, but kept when a failure leaves it: a message of the
  /// failed run may be left unreceived on it, and Open MPI 4.1 then never completes the next communicator
  /// made in the process (its context id reused; harness_mpi_np3 under Open MPI). One communicator per failed
  /// measurement.
  class MemberComm {
   public:
    MemberComm(MPI_Comm comm, const std::vector<int> &members, int tag)
        : comm_(create_member_comm(comm, members, tag)), exceptions_(std::uncaught_exceptions()) {}
    ~MemberComm() {
      if (comm_ != MPI_COMM_NULL && std::uncaught_exceptions() == exceptions_) MPI_Comm_free(&comm_);
    }
    MemberComm(const MemberComm &) = delete;
    MemberComm &operator=(const MemberComm &) = delete;
    MPI_Comm get() const { return comm_; }

   private:
    MPI_Comm comm_;
    int exceptions_;  // std::uncaught_exceptions() when made: more at its end is a failure unwinding
  };

  LibComm comm_;
  std::vector<int> others_;
  std::unique_ptr<FailureListener> listener_;  // declared after comm_: cancelled before the communicator goes
  std::optional<LocalPlace> place_;
};

}  // namespace lat
