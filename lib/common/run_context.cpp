#include "common/run_context.hpp"

#include <stdexcept>

#include "common/error.hpp"
#include "common/placement.hpp"
#include "common/stop.hpp"

namespace lat {

namespace {

int rank_in(MPI_Comm comm) {
  int r = 0;
  check_mpi(MPI_Comm_rank(comm, &r), "MPI_Comm_rank");
  return r;
}

std::string watch_phase(const RunSettings &s) { return s.timed ? s.timed : std::string("phase '") + s.phase + "'"; }

}  // namespace

RunContext::RunContext(MPI_Comm comm, int leader, int lib_rank, const RunSettings &settings, FailureListener *listener,
                       const LocalPlace *found)
    : comm_(comm), leader_(leader), lib_rank_(lib_rank), rank_(rank_in(comm)), settings_(settings),
      listener_(listener), progress_(settings.progress && rank_ == leader, settings.phase) {
  check_mpi(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
  peers_ = size_ == 2 ? "the other rank" : "the other " + std::to_string(size_ - 1) + " ranks";
  place_ = found != nullptr ? *found : place_of_this_rank(comm, lib_rank_);
  // Every rank's processor name, rank in the library's communicator, place and machine, once for the run, in
  // one exchange (a report names the hosts and places; the watchdog's messages the ranks; the machines' load
  // decides the wait mode). Waited for yielding, as the wait mode is not known yet: no timed region follows
  // before the ranks meet.
  struct Who {
    int lib_rank;
    MachineShare machine;
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    lat_rank_place place;
  } mine{lib_rank_, {place_.kernel_color, place_.processors}, {}, place_.place};
  int len = 0;
  check_mpi(MPI_Get_processor_name(mine.name, &len), "MPI_Get_processor_name");
  std::vector<Who> all(static_cast<size_t>(size_));
  MPI_Request req;
  const int bytes = static_cast<int>(sizeof mine);
  check_mpi(MPI_Iallgather(&mine, bytes, MPI_BYTE, all.data(), bytes, MPI_BYTE, comm, &req), "MPI_Iallgather");
  wait_yielding(req, waiting("the processor names, ranks and places"), listener);
  std::vector<MachineShare> machines;
  for (const Who &w : all) {
    hosts_.emplace_back(w.name);
    lib_ranks_.push_back(w.lib_rank);
    places_.push_back(w.place);
    machines.push_back(w.machine);
  }
  busiest_ = lat::busiest_node(machines);
  yield_ = settings.wait == LAT_WAIT_AUTO ? busiest_.oversubscribed() : settings.wait == LAT_WAIT_YIELD;
  // Two ranks: the watchdog names the one waited for (more: "the other ranks of the collective call").
  if (size_ == 2) watched_peer_ = lib_ranks_[static_cast<size_t>(1 - rank_)];
  watch_.emplace(settings.timeout_s, lib_rank_, watched_peer_, watch_phase(settings).c_str());
  // A barrier cannot tell which rank is missing: a wait's message names the others, up to kNamedPeers.
  if (size_ - 1 <= kNamedPeers) {
    std::string others;
    for (int r = 0; r < size_; ++r)
      if (r != rank_) others += (others.empty() ? "" : ", ") + std::to_string(lib_ranks_[static_cast<size_t>(r)]);
    peers_ = (size_ == 2 ? "rank " : "ranks ") + others;
  }
}

void RunContext::begin_phase(const char *phase, const std::string &timed, double limit_s) {
  watch_.reset();  // its thread ends before the next one starts
  watch_.emplace(limit_s, lib_rank_, watched_peer_, timed.c_str());
  begin_progress(phase);
}

void RunContext::begin_progress(const char *phase) { progress_ = Progress(settings_.progress && rank_ == leader_, phase); }

void RunContext::watch_peer(int peer) {
  watched_peer_ = peer;
  watch_->set_peer(peer);
}

void RunContext::wait(MPI_Request &req, const Waiting &w) const { wait_as(yield_, req, w, listener_); }

bool RunContext::agree_chunk(double *words, int n, double extra_s, const char *what) {
  // At most a handful of words: the stop first, then the words, in one message.
  constexpr int kMostWords = 7;
  if (n < 0 || n > kMostWords) throw std::logic_error("agree_chunk: up to 7 words");
  double all[kMostWords + 1];
  all[0] = stop_requested() ? 1.0 : 0.0;
  for (int k = 0; k < n; ++k) all[k + 1] = words[k];
  MPI_Request req;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, all, n + 1, MPI_DOUBLE, MPI_MAX, comm_, &req), "MPI_Iallreduce");
  Waiting w = waiting(what);
  if (w.timeout_s > 0.0) w.timeout_s += extra_s;
  wait_as(yield_ || extra_s > 0.0, req, w, listener_);
  for (int k = 0; k < n; ++k) words[k] = all[k + 1];
  return all[0] != 0.0;
}

void RunContext::meet(const char *what) { barrier_before_timing(comm_, yield_, waiting(what), listener_); }

}  // namespace lat
