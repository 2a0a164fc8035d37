// run_context.hpp: what every measuring rank's body needs, made once by the harness and handed to a
// capability's lead and follow (docs/architecture.md, "The measurement harness"): the measuring ranks'
// communicator, the wait mode decided once (yield where a node holds more ranks than processors), every
// rank's processor name exchanged once, one watchdog, one progress line, one way to agree a stop, the clock
// chosen once. A capability's body then reads "for each planned point: agree the stop, meet, time the body".
#pragma once

#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.hpp"
#include "common/placement.hpp"
#include "common/progress.hpp"
#include "common/waits.hpp"
#include "common/watchdog.hpp"

namespace lat {

class FailureListener;

/// What a capability asks of its run context (`RunSettings settings(const Plan &) const`), from its options.
struct RunSettings {
  double timeout_s = 0.0;           // the watchdog's and every wait's limit; 0: none
  int timer = LAT_TIMER_MPI_WTIME;  // the clock with_clock gives
  bool progress = false;            // progress lines on the leader's stderr
  const char *phase = "";           // the measurement's name: the progress line's phase
  const char *timed = nullptr;      // what the watchdog says of a timed region ("phase 'queues': the timed
                                    // ping-pong"); default "phase '<phase>'"
  int wait = LAT_WAIT_AUTO;         // the caller's lat_wait_mode: LAT_WAIT_AUTO decides from the places
};

class RunContext {
 public:
  /// Up to this many other ranks, a wait's message names them ("ranks 1, 2, 3"); beyond, it counts them.
  static constexpr int kNamedPeers = 16;

  /// Collective over comm (the measuring ranks' communicator): the wait mode and the processor names.
  /// leader: its rank in comm; lib_rank: this rank in the library's communicator (for messages). found:
  /// this rank's place where the capability had the frame find it (its nodes numbered among all the
  /// library's ranks), else null: it is found here, on comm; either way the busiest node counts comm's ranks.
  RunContext(MPI_Comm comm, int leader, int lib_rank, const RunSettings &settings, FailureListener *listener,
             const LocalPlace *found = nullptr);
  RunContext(const RunContext &) = delete;
  RunContext &operator=(const RunContext &) = delete;

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }  // in comm
  int size() const { return size_; }
  int leader() const { return leader_; }
  bool leads() const { return rank_ == leader_; }
  /// Waiting ranks yield (a node holds more ranks than processors, or the caller asked) or spin.
  bool yield() const { return yield_; }
  /// The node with the most ranks per processor, and whether it holds more ranks than processors (whatever
  /// the wait mode the caller chose).
  const NodeLoad &busiest_node() const { return busiest_; }
  bool oversubscribed() const { return busiest_.oversubscribed(); }
  /// Failure notes from other ranks end this run's waits.
  FailureListener *listener() const { return listener_; }
  /// This rank's place (host, node, processors), found once for the run.
  const LocalPlace &place() const { return place_; }
  /// Every measuring rank's place, in comm's order (exchanged with the names).
  const std::vector<lat_rank_place> &places() const { return places_; }
  double timeout_s() const { return settings_.timeout_s; }
  /// Every rank's processor name, and its rank in the library's communicator, in comm's order.
  const std::vector<std::string> &hosts() const { return hosts_; }
  const std::vector<int> &lib_ranks() const { return lib_ranks_; }
  /// A wait of this run, for messages: "rank 0 ... (phase '<what>')"; extra_s: longer than the timeout (a
  /// wait that spans another rank's timer calibration).
  Waiting waiting(const char *what, double extra_s = 0.0) const {
    return {lib_rank_, peers_.c_str(), what, settings_.timeout_s > 0.0 ? settings_.timeout_s + extra_s : 0.0};
  }
  /// A wait of this run outside a timed region: in its wait mode, within w's timeout, a failure note ending it.
  void wait(MPI_Request &req, const Waiting &w) const;

  /// f(clock) with the run's clock (the clock classes are types: the timed loops are templates over them).
  template <class F>
  decltype(auto) with_clock(F &&f) const {
    return lat::with_clock(settings_.timer, std::forward<F>(f));
  }
  /// A word no rank has to say in agree_chunk: the maximum over the ranks is then the others'.
  static constexpr double kNoWord = -HUGE_VAL;
  /// The one agreement between chunks, on every rank: whether a stop was asked on any rank, and in the same
  /// exchange (one MPI_Iallreduce) `n` words combined over the ranks by maximum: the leader's word for the
  /// next chunk (its count, its end) where the others put kNoWord, or each rank's time of the chunk just
  /// done, of which the slowest is kept. Waited for in the run's wait mode within the timeout; extra_s > 0
  /// (the first agreement, while the leader calibrates its timer) adds that much and yields, as there is no
  /// timed region to spoil and the processor may be shared. Never inside a timed region.
  /// what: the wait's words in a timeout's message.
  bool agree_chunk(double *words, int n, double extra_s = 0.0, const char *what = "the stop agreed between chunks");
  /// agree_chunk with no words: the stop alone.
  bool stop_agreed(double extra_s = 0.0, const char *what = "the stop agreed between chunks") {
    return agree_chunk(nullptr, 0, extra_s, what);
  }
  /// The ranks meet before a timed region: every rank awake before any reads its clock
  /// (barrier_before_timing in the run's wait mode). what: the wait's words in a timeout's message.
  void meet(const char *what = "the meeting before a timed region");
  /// body() as step `step` of the timed regions, under the watchdog: a rank that stops answering inside it
  /// ends the job with a message after the timeout.
  template <class F>
  decltype(auto) timed(int64_t step, F &&body) {
    struct Leave {
      StallWatch &w;
      int64_t s;
      ~Leave() { w.leave(s); }
    } leave{*watch_, step};
    watch_->enter(step);
    return std::forward<F>(body)();
  }
  /// The same with `peer` (its rank in the library's communicator) the rank waited for: measurements that
  /// change partners.
  template <class F>
  decltype(auto) timed(int64_t step, int peer, F &&body) {
    watch_->set_peer(peer);
    return timed(step, std::forward<F>(body));
  }
  /// A measurement in parts (the ping-pong's npp estimate, then its trials): from now on the progress line
  /// is that of `phase` (the leader's, where asked), and the watchdog's limit inside a timed region is
  /// limit_s, its message naming `timed` ("phase 'trials'"). Outside any timed region.
  void begin_phase(const char *phase, const std::string &timed, double limit_s);
  /// The progress line alone starts again: its estimate of the time left counts from now (the part of a run
  /// whose steps it counts, after a setup it does not).
  void begin_progress(const char *phase);
  /// The rank the watchdog names, from now on: -1 for "the other ranks of the collective call", where every
  /// rank takes part in each timed call (by default, with two ranks, the other one).
  void watch_peer(int peer);
  /// The watchdog itself, for code that counts its own steps (the collective's clock exchanges): a step's
  /// number must be unique within a phase.
  StallWatch &watch() { return *watch_; }
  /// The progress line (the leader's, where asked): done of total; finish once at the end of each phase.
  void progress(int64_t done, int64_t total) { progress_.update(done, total); }
  void progress_finish(int64_t done, int64_t total) { progress_.finish(done, total); }
  Progress &progress_line() { return progress_; }

 private:
  MPI_Comm comm_;
  int leader_, lib_rank_, rank_ = 0, size_ = 1;
  RunSettings settings_;
  FailureListener *listener_;
  std::string peers_;
  bool yield_ = false;
  NodeLoad busiest_;
  LocalPlace place_;
  std::vector<std::string> hosts_;
  std::vector<int> lib_ranks_;
  std::vector<lat_rank_place> places_;
  int watched_peer_ = -1;
  std::optional<StallWatch> watch_;  // one per phase: its limit and words are fixed when it starts
  Progress progress_;
};

}  // namespace lat
