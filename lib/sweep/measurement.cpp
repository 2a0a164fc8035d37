#include "sweep/measurement.hpp"

#include "sweep/compute.hpp"
#include "sweep/options.hpp"
#include "sweep/walk.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <new>
#include <type_traits>
#include <vector>

#include "timer/calibration.hpp"
#include "common/placement.hpp"
#include "common/clock.hpp"
#include "common/agreement.hpp"
#include "common/communicator.hpp"
#include "common/bytes.hpp"
#include "common/harness.hpp"
#include "common/c_string.hpp"
#include "common/waits.hpp"
#include "common/error.hpp"
#include "common/stop.hpp"

namespace lat {

namespace {

enum Tag { kTagOp = 21, kTagCommand = 22, kTagMembers = 23, kTagWarm = 24 };
enum Kind : int64_t { kWarmup = 1, kMeasure = 2, kEnd = 3 };

/// What the leading rank tells the others to do next: one sample, the warm-up, or the end.
struct Command {
  int64_t kind = 0, size = 0, n_avg = 0, seed = 0;
};

constexpr int kWarmupTrips = 10;
constexpr int kMaxHaloPartners = 8;
constexpr int kProbeSamples = 3;

volatile double g_compute_sink = 0.0;


/// Operations a time per operation covers, to turn a 1-operation sample into its duration.
double messages_per_operation(int pattern) {
  return pattern == LAT_SWEEP_PINGPONG || pattern == LAT_SWEEP_NONBLOCKING || pattern == LAT_SWEEP_PERSISTENT ? 2.0 : 1.0;
}

/// Who communicates with whom: pairs of library ranks (initiator, responder); members are the ranks of
/// the work communicator, the leader (who runs the engine and times pair 0) first.
struct Layout {
  std::vector<std::pair<int, int>> pairs;
  std::vector<int> members;
  int leader() const { return pairs.front().first; }
};

Layout layout_of(const lat_sweep_options &o, int size) {
  Layout l;
  if (o.bisect) {
    for (const auto &pair : bisection_pairs(size, o.bisect_distance)) l.pairs.push_back(pair);
    for (const auto &pair : l.pairs) l.members.push_back(pair.first), l.members.push_back(pair.second);
    std::sort(l.members.begin(), l.members.end());  // rank 0 leads the first pair: the leader first
  } else if (o.pattern == LAT_SWEEP_HALO) {
    // Every rank, in order (a rank of work is the library's); the first pair names rank 0's first partner.
    for (int i = 0; i < size; ++i) l.members.push_back(i);
    for (int partner : halo_partner_ranks(0, size, o.halo_partners, o.halo_periodic != 0))
      if (partner != MPI_PROC_NULL) {
        l.pairs.emplace_back(0, partner);
        break;
      }
  } else if (o.pattern == LAT_SWEEP_GOP) {
    for (int i = 0; i < size; ++i) l.members.push_back(i);  // every rank, in order; rank 1 names the partner
    l.pairs.emplace_back(0, 1);
  } else if (o.pattern == LAT_SWEEP_MEMCPY) {
    l.pairs.emplace_back(o.source, o.source);  // one rank, its own partner: no message
    l.members = {o.source};
  } else {
    const int dest = o.dest == LAT_LAST_RANK ? size - 1 : o.dest;
    l.pairs.emplace_back(o.source, dest);
    l.members = {o.source, dest};
  }
  return l;
}

/// One rank of a communicating pair.
struct Participant {
  MPI_Comm work = MPI_COMM_NULL;
  int lib_rank = 0, peer_lib = 0, peer_work = 0;
  bool initiator = false;
  int pattern = LAT_SWEEP_PINGPONG;
  int64_t overlap_bytes = 0;
  bool verify = false;
  std::vector<unsigned char> send, recv;
  int64_t slot_bytes = kSlotAlign;
  SlotWalk walk;  // the cache-cold walk: continues across samples and passes
  double timeout_s = 0.0;
  RunContext *run = nullptr;  // the run's wait mode, watchdog, meeting, clock and progress line
  MPI_Request persistent[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};  // LAT_SWEEP_PERSISTENT: receive, send
  int vector_stride = 0, vector_type = 0;  // LAT_SWEEP_PINGPONG's strided messages (lat_sweep_options)
  MPI_Datatype type = MPI_BYTE;           // a sample's message type (MessageType)
  std::vector<int> halo;  // LAT_SWEEP_HALO: the partners (ranks of work, the same as the library's; or MPI_PROC_NULL)
  int gop = LAT_SWEEP_GOP_SYNC, nranks = 0;  // LAT_SWEEP_GOP: the operation, the ranks of work

  Waiting waiting(const char *phase, const char *who, double extra_s = 0.0) const {
    return {lib_rank, who, phase, timeout_s > 0.0 ? timeout_s + extra_s : 0.0};
  }
  void wait(MPI_Request &req, const Waiting &w) const { run->wait(req, w); }
};

template <int Pattern, bool Initiator>
inline int one_operation(unsigned char *s, unsigned char *r, int count, MPI_Datatype type, int peer, MPI_Comm comm, int64_t work,
                         double &acc, MPI_Request *persistent) {
  int failed = MPI_SUCCESS;
  if constexpr (Pattern == LAT_SWEEP_PINGPONG) {
    if constexpr (Initiator) {
      failed |= MPI_Send(s, count, type, peer, kTagOp, comm);
      failed |= MPI_Recv(s, count, type, peer, kTagOp, comm, MPI_STATUS_IGNORE);
    } else {
      failed |= MPI_Recv(s, count, type, peer, kTagOp, comm, MPI_STATUS_IGNORE);
      failed |= MPI_Send(s, count, type, peer, kTagOp, comm);
    }
  } else if constexpr (Pattern == LAT_SWEEP_NONBLOCKING) {
    MPI_Request req[2];
    if constexpr (Initiator) {
      failed |= MPI_Irecv(r, count, MPI_BYTE, peer, kTagOp, comm, &req[0]);
      failed |= MPI_Isend(s, count, MPI_BYTE, peer, kTagOp, comm, &req[1]);
      failed |= MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else {
      failed |= MPI_Irecv(r, count, MPI_BYTE, peer, kTagOp, comm, &req[0]);
      failed |= MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      failed |= MPI_Isend(r, count, MPI_BYTE, peer, kTagOp, comm, &req[1]);
      failed |= MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    }
  } else if constexpr (Pattern == LAT_SWEEP_PERSISTENT) {
    // The non-blocking ping-pong's steps on requests made once a sample (PersistentRequests): the initiator
    // sends s and receives into r, the responder receives into r and sends it back.
    if constexpr (Initiator) {
      failed |= MPI_Start(&persistent[0]);
      failed |= MPI_Start(&persistent[1]);
      failed |= MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
    } else {
      failed |= MPI_Start(&persistent[0]);
      failed |= MPI_Wait(&persistent[0], MPI_STATUS_IGNORE);
      failed |= MPI_Start(&persistent[1]);
      failed |= MPI_Wait(&persistent[1], MPI_STATUS_IGNORE);
    }
  } else if constexpr (Pattern == LAT_SWEEP_MEMCPY) {
    // The original's -memcpy: the copy alone (only an initiator exists). The last byte read back into acc
    // (stored in a volatile at the sample's end) keeps the copy the compiler's to make.
    std::memcpy(r, s, static_cast<size_t>(count));
    if (count > 0) acc += r[count - 1];
  } else if constexpr (Pattern == LAT_SWEEP_OVERLAP_ROUNDTRIP && !Initiator) {
    // The original's round trip: the reply goes out as soon as the message is in, then this rank computes
    // while the reply travels and the next message comes (its MPI_Irecv is posted after the computation:
    // the message waits as an unexpected one, as in the original's MPI_ANY_SOURCE receive).
    MPI_Request reply;
    failed |= MPI_Recv(r, count, MPI_BYTE, peer, kTagOp, comm, MPI_STATUS_IGNORE);
    failed |= MPI_Isend(s, count, MPI_BYTE, peer, kTagOp, comm, &reply);
    acc += overlap_compute(work);
    failed |= MPI_Wait(&reply, MPI_STATUS_IGNORE);
  } else {
    // The exchange, and the overlap patterns' initiator: the receive posted, the message sent, the
    // computation (the overlap patterns), then both waits.
    MPI_Request req[2];
    failed |= MPI_Irecv(r, count, MPI_BYTE, peer, kTagOp, comm, &req[0]);
    failed |= MPI_Isend(s, count, MPI_BYTE, peer, kTagOp, comm, &req[1]);
    if constexpr (Pattern == LAT_SWEEP_OVERLAP || Pattern == LAT_SWEEP_OVERLAP_ROUNDTRIP) acc += overlap_compute(work);
    failed |= MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  return failed;
}

/// n operations, each on the next slot of the buffers (one slot unless the walk is cache-cold); the walk
/// goes on where the previous sample left it.
template <int Pattern, bool Initiator>
int operations(Participant &p, int count, int64_t work, int64_t n, double &acc) {
  int failed = MPI_SUCCESS;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t at = p.walk.next() * p.slot_bytes;
    failed |= one_operation<Pattern, Initiator>(p.send.data() + at, p.recv.data() + at, count, p.type, p.peer_work, p.work,
                                                work, acc, p.persistent);
  }
  return failed;
}

template <bool Initiator>
int run_operations(Participant &p, int count, int64_t work, int64_t n, double &acc) {
  switch (p.pattern) {
    case LAT_SWEEP_PINGPONG: return operations<LAT_SWEEP_PINGPONG, Initiator>(p, count, work, n, acc);
    case LAT_SWEEP_NONBLOCKING: return operations<LAT_SWEEP_NONBLOCKING, Initiator>(p, count, work, n, acc);
    case LAT_SWEEP_HEAD_TO_HEAD: return operations<LAT_SWEEP_HEAD_TO_HEAD, Initiator>(p, count, work, n, acc);
    case LAT_SWEEP_OVERLAP_ROUNDTRIP: return operations<LAT_SWEEP_OVERLAP_ROUNDTRIP, Initiator>(p, count, work, n, acc);
    case LAT_SWEEP_PERSISTENT: return operations<LAT_SWEEP_PERSISTENT, Initiator>(p, count, work, n, acc);
    case LAT_SWEEP_MEMCPY: return operations<LAT_SWEEP_MEMCPY, Initiator>(p, count, work, n, acc);
    default: return operations<LAT_SWEEP_OVERLAP, Initiator>(p, count, work, n, acc);
  }
}

/// Verification mode: a received message against the pattern sender put in it; a difference is a
/// DataError naming the rank it came from (from), the byte, the size, the sample and the operation.
void check_message(const Participant &p, const unsigned char *got, int count, uint64_t seed, int sender, int from,
                   int64_t sample, int64_t i, int64_t n) {
  const int64_t bad = first_mismatch(got, static_cast<size_t>(count), seed, sender);
  if (bad < 0) return;
  std::vector<unsigned char> want(static_cast<size_t>(bad) + 1);
  fill_pattern(want.data(), want.size(), seed, sender);
  char text[400];
  std::snprintf(text, sizeof text,
                "rank %d: data check failed: a %d-byte %s message from rank %d differs at byte %lld "
                "(got 0x%02x, expected 0x%02x; size %d, sample %lld, operation %lld of %lld)",
                p.lib_rank, count, pattern_label(p.pattern), from, static_cast<long long>(bad), got[bad],
                want.back(), count, static_cast<long long>(sample), static_cast<long long>(i + 1),
                static_cast<long long>(n));
  throw DataError(text);
}

/// LAT_SWEEP_HALO's one exchange: count bytes with every partner at once, an MPI_Irecv and an MPI_Isend to
/// each (partner j's two messages at j x count in the slot), one MPI_Waitall.
inline int halo_exchange(const Participant &p, unsigned char *s, unsigned char *r, int count) {
  MPI_Request req[2 * kMaxHaloPartners];
  const int partners = static_cast<int>(p.halo.size());
  int failed = MPI_SUCCESS;
  for (int j = 0; j < partners; ++j) {
    failed |= MPI_Irecv(r + j * count, count, MPI_BYTE, p.halo[j], kTagOp, p.work, &req[2 * j]);
    failed |= MPI_Isend(s + j * count, count, MPI_BYTE, p.halo[j], kTagOp, p.work, &req[2 * j + 1]);
  }
  return failed | MPI_Waitall(2 * partners, req, MPI_STATUSES_IGNORE);
}

/// The every-rank patterns' timed loop: op(send, receive, i) for i = 0..n-1 on successive slots of the walk,
/// the loop timed whole into seconds (nothing else between the clock reads).
template <class Clock, class Op>
int slot_loop(const Clock &clock, Participant &p, int64_t n, double &seconds, Op &&op) {
  int failed = MPI_SUCCESS;
  const double t1 = clock.now();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t at = p.walk.next() * p.slot_bytes;
    failed |= op(p.send.data() + at, p.recv.data() + at, i);
  }
  seconds = clock.now() - t1;
  return failed;
}

/// LAT_SWEEP_HALO: n exchanges on successive slots, the loop timed whole into seconds.
template <class Clock>
int halo_operations(const Clock &clock, Participant &p, int count, int64_t n, double &seconds) {
  return slot_loop(clock, p, n, seconds,
                   [&](unsigned char *s, unsigned char *r, int64_t) { return halo_exchange(p, s, r, count); });
}

/// The same verified: every message filled before and checked after its exchange, outside the clock, as
/// verified_operations does; only the exchanges are timed into seconds.
template <class Clock>
int verified_halo_operations(const Clock &clock, Participant &p, int count, int64_t n, int64_t sample,
                             double &seconds) {
  const int partners = static_cast<int>(p.halo.size());
  int failed = MPI_SUCCESS;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t at = p.walk.next() * p.slot_bytes;
    unsigned char *s = p.send.data() + at, *r = p.recv.data() + at;
    const uint64_t seed = message_seed(sample, i);
    for (int j = 0; j < partners; ++j) fill_pattern(s + j * count, static_cast<size_t>(count), seed, p.lib_rank);
    const double t1 = clock.now();
    failed |= halo_exchange(p, s, r, count);
    seconds += clock.now() - t1;
    for (int j = 0; j < partners; ++j)
      if (p.halo[j] != MPI_PROC_NULL) check_message(p, r + j * count, count, seed, p.halo[j], p.halo[j], sample, i, n);
  }
  return failed;
}

/// LAT_SWEEP_GOP's call i of a sample: operation Op on count bytes of buffer s (r: the sums' results); the
/// broadcast's root turns from rank 0 call after call, as the original's. A template, so that the choice of
/// operation is made once, outside the timed loop (for_gop).
template <int Op>
inline int gop_call(const Participant &p, unsigned char *s, unsigned char *r, int count, int64_t i) {
  if constexpr (Op == LAT_SWEEP_GOP_DSUM)
    return MPI_Allreduce(s, r, count / static_cast<int>(sizeof(double)), MPI_DOUBLE, MPI_SUM, p.work);
  else if constexpr (Op == LAT_SWEEP_GOP_ISUM)
    return MPI_Allreduce(s, r, count / static_cast<int>(sizeof(int)), MPI_INT, MPI_SUM, p.work);
  else if constexpr (Op == LAT_SWEEP_GOP_BCAST)
    return MPI_Bcast(s, count, MPI_BYTE, static_cast<int>(i % p.nranks), p.work);
  else
    return MPI_Barrier(p.work);
}

/// body(std::integral_constant<int, Op>) for the operation gop names.
template <class Body>
int for_gop(int gop, Body &&body) {
  switch (gop) {
    case LAT_SWEEP_GOP_DSUM: return body(std::integral_constant<int, LAT_SWEEP_GOP_DSUM>{});
    case LAT_SWEEP_GOP_ISUM: return body(std::integral_constant<int, LAT_SWEEP_GOP_ISUM>{});
    case LAT_SWEEP_GOP_BCAST: return body(std::integral_constant<int, LAT_SWEEP_GOP_BCAST>{});
    default: return body(std::integral_constant<int, LAT_SWEEP_GOP_SYNC>{});
  }
}

/// LAT_SWEEP_GOP: n calls on successive slots, the loop timed whole into seconds.
template <class Clock>
int gop_operations(const Clock &clock, Participant &p, int count, int64_t n, double &seconds) {
  return for_gop(p.gop, [&](auto op) {
    return slot_loop(clock, p, n, seconds, [&](unsigned char *s, unsigned char *r, int64_t i) {
      return gop_call<decltype(op)::value>(p, s, r, count, i);
    });
  });
}

/// A sum's element k from rank `rank` in operation `seed`: small integers, so that every sum is exact.
inline int64_t gop_term(int rank, size_t k, uint64_t seed) { return rank + 1 + static_cast<int64_t>((k + seed) % 1000); }

/// The same verified: each rank's terms (or the root's pattern) written before the call and the result checked
/// after it, outside the clock; only the calls are timed into seconds.
template <class Clock>
int verified_gop_operations(const Clock &clock, Participant &p, int count, int64_t n, int64_t sample, double &seconds) {
  return for_gop(p.gop, [&](auto op) {
    int failed = MPI_SUCCESS;
    const int64_t ranks = p.nranks, all_ranks_sum = ranks * (ranks + 1) / 2;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = p.walk.next() * p.slot_bytes;
      unsigned char *s = p.send.data() + at, *r = p.recv.data() + at;
      const uint64_t seed = message_seed(sample, i);
      const int root = static_cast<int>(i % ranks);
      const size_t doubles = static_cast<size_t>(count) / sizeof(double), ints = static_cast<size_t>(count) / sizeof(int);
      if (p.gop == LAT_SWEEP_GOP_DSUM)
        for (size_t k = 0; k < doubles; ++k) reinterpret_cast<double *>(s)[k] = static_cast<double>(gop_term(p.lib_rank, k, seed));
      if (p.gop == LAT_SWEEP_GOP_ISUM)
        for (size_t k = 0; k < ints; ++k) reinterpret_cast<int *>(s)[k] = static_cast<int>(gop_term(p.lib_rank, k, seed));
      if (p.gop == LAT_SWEEP_GOP_BCAST && p.lib_rank == root) fill_pattern(s, static_cast<size_t>(count), seed, root);
      const double t1 = clock.now();
      failed |= gop_call<decltype(op)::value>(p, s, r, count, i);
      seconds += clock.now() - t1;
      if (p.gop == LAT_SWEEP_GOP_BCAST && p.lib_rank != root) check_message(p, s, count, seed, root, root, sample, i, n);
      const size_t elements = p.gop == LAT_SWEEP_GOP_DSUM ? doubles : p.gop == LAT_SWEEP_GOP_ISUM ? ints : 0;
      for (size_t k = 0; k < elements; ++k) {
        // Every rank's term at k: (rank + 1) + (k + seed) % 1000, so the sum is P (P + 1) / 2 + P ((k + seed) % 1000).
        const int64_t want = all_ranks_sum + ranks * static_cast<int64_t>((k + seed) % 1000);
        const int64_t got = p.gop == LAT_SWEEP_GOP_DSUM ? static_cast<int64_t>(reinterpret_cast<const double *>(r)[k])
                                                        : reinterpret_cast<const int *>(r)[k];
        if (got != want)
          throw DataError("rank " + std::to_string(p.lib_rank) + ": the " + gop_name(p.gop) + " of " +
                          std::to_string(count) + " bytes gave " + std::to_string(got) + " at element " +
                          std::to_string(k) + ", not " + std::to_string(want) + " (sample " + std::to_string(sample) +
                          ", call " + std::to_string(i + 1) + " of " + std::to_string(n) + ")");
      }
    }
    return failed;
  });
}

/// Verification mode (peril 8, the original's stress): every operation's message carries a pattern of its
/// own (the sample, the operation and the sender decide it, and with them the kind of bit pattern), and
/// every received message is checked right after its operation, inside the timed loop.
/// Only the operations themselves are timed (into seconds): the filling and checking stay outside the
/// clock reads, so a verified sample's time is its messages'.
template <int Pattern, bool Initiator, class Clock>
int verified_operations(const Clock &clock, Participant &p, int count, int64_t work, int64_t n, double &acc,
                        int64_t sample, double &seconds) {
  constexpr bool echoed = Pattern == LAT_SWEEP_PINGPONG || Pattern == LAT_SWEEP_NONBLOCKING || Pattern == LAT_SWEEP_PERSISTENT;
  constexpr bool sends_own = Initiator || !echoed;
  const int sender = echoed ? (Initiator ? p.lib_rank : p.peer_lib) : p.peer_lib;
  int failed = MPI_SUCCESS;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t at = p.walk.next() * p.slot_bytes;
    unsigned char *s = p.send.data() + at, *r = p.recv.data() + at;
    const uint64_t seed = message_seed(sample, i);
    if (sends_own) fill_pattern(s, static_cast<size_t>(count), seed, p.lib_rank);
    const double t1 = clock.now();
    failed |= one_operation<Pattern, Initiator>(s, r, count, p.type, p.peer_work, p.work, work, acc, p.persistent);
    seconds += clock.now() - t1;
    const unsigned char *got = Pattern == LAT_SWEEP_PINGPONG ? s : r;
    check_message(p, got, count, seed, sender, sender == p.lib_rank ? p.peer_lib : sender, sample, i, n);
  }
  return failed;
}

template <bool Initiator, class Clock>
int run_verified(const Clock &clock, Participant &p, int count, int64_t work, int64_t n, double &acc, int64_t sample,
                 double &seconds) {
  switch (p.pattern) {
    case LAT_SWEEP_PINGPONG:
      return verified_operations<LAT_SWEEP_PINGPONG, Initiator>(clock, p, count, work, n, acc, sample, seconds);
    case LAT_SWEEP_NONBLOCKING:
      return verified_operations<LAT_SWEEP_NONBLOCKING, Initiator>(clock, p, count, work, n, acc, sample, seconds);
    case LAT_SWEEP_HEAD_TO_HEAD:
      return verified_operations<LAT_SWEEP_HEAD_TO_HEAD, Initiator>(clock, p, count, work, n, acc, sample, seconds);
    case LAT_SWEEP_OVERLAP_ROUNDTRIP:
      return verified_operations<LAT_SWEEP_OVERLAP_ROUNDTRIP, Initiator>(clock, p, count, work, n, acc, sample, seconds);
    case LAT_SWEEP_PERSISTENT:
      return verified_operations<LAT_SWEEP_PERSISTENT, Initiator>(clock, p, count, work, n, acc, sample, seconds);
    case LAT_SWEEP_MEMCPY:
      return verified_operations<LAT_SWEEP_MEMCPY, Initiator>(clock, p, count, work, n, acc, sample, seconds);
    default: return verified_operations<LAT_SWEEP_OVERLAP, Initiator>(clock, p, count, work, n, acc, sample, seconds);
  }
}

/// LAT_SWEEP_PERSISTENT's two requests for one sample's size, on the one pair of buffers (cachesize is 0),
/// made before the barrier and freed when the sample ends, however it ends.
class PersistentRequests {
 public:
  PersistentRequests(Participant &p, int count) : p_(p) {
    if (p.pattern != LAT_SWEEP_PERSISTENT) return;
    unsigned char *echo_or_own = p.initiator ? p.send.data() : p.recv.data();
    check_mpi(MPI_Recv_init(p.recv.data(), count, MPI_BYTE, p.peer_work, kTagOp, p.work, &p.persistent[0]),
              "MPI_Recv_init");
    check_mpi(MPI_Send_init(echo_or_own, count, MPI_BYTE, p.peer_work, kTagOp, p.work, &p.persistent[1]),
              "MPI_Send_init");
  }
  ~PersistentRequests() {
    for (MPI_Request &r : p_.persistent)
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }
  PersistentRequests(const PersistentRequests &) = delete;
  PersistentRequests &operator=(const PersistentRequests &) = delete;

 private:
  Participant &p_;
};

/// A sample's message type: MPI_BYTE and size bytes, or with vector_stride the original's strided doubles
/// (vector_message_type), made before the barrier and freed when the sample ends, however it ends.
class MessageType {
 public:
  MessageType(Participant &p, int64_t size) : p_(p), count_(static_cast<int>(size)) {
    p.type = MPI_BYTE;
    if (p.vector_stride <= 0 || p.pattern != LAT_SWEEP_PINGPONG) return;
    count_ = vector_message_type(size, p.vector_stride, p.vector_type != 0, &p.type);
  }
  ~MessageType() {
    if (p_.type != MPI_BYTE) MPI_Type_free(&p_.type);
    p_.type = MPI_BYTE;
  }
  MessageType(const MessageType &) = delete;
  MessageType &operator=(const MessageType &) = delete;
  int count() const { return count_; }

 private:
  Participant &p_;
  int count_;
};

/// One sample on any participant: the work communicator's barrier so all pairs start together, then
/// n_avg operations, timed on initiators. Returns the time per operation in us (0 on responders).
template <class Clock>
double sample(const Clock &clock, Participant &p, const Command &c) {
  const MessageType message(p, c.size);
  const int count = static_cast<int>(is_overlap(p.pattern) ? p.overlap_bytes : message.count());
  const int64_t work = is_overlap(p.pattern) ? c.size : 0;
  const PersistentRequests persistent(p, count);
  p.run->meet("phase 'sweep': the barrier before a sample");
  double acc = 1.0, per_op = 0.0;
  int failed = MPI_SUCCESS;
  double seconds = 0.0;
  p.run->timed(c.seed, p.peer_lib, [&] {
    if (p.pattern == LAT_SWEEP_HALO) {
      failed = p.verify ? verified_halo_operations(clock, p, count, c.n_avg, c.seed, seconds)
                        : halo_operations(clock, p, count, c.n_avg, seconds);
    } else if (p.pattern == LAT_SWEEP_GOP) {
      failed = p.verify ? verified_gop_operations(clock, p, count, c.n_avg, c.seed, seconds)
                        : gop_operations(clock, p, count, c.n_avg, seconds);
    } else if (p.verify) {
      failed = p.initiator ? run_verified<true>(clock, p, count, work, c.n_avg, acc, c.seed, seconds)
                           : run_verified<false>(clock, p, count, work, c.n_avg, acc, c.seed, seconds);
    } else if (p.initiator) {
      const double t1 = clock.now();
      failed = run_operations<true>(p, count, work, c.n_avg, acc);
      seconds = clock.now() - t1;
    } else {
      failed = run_operations<false>(p, count, work, c.n_avg, acc);
    }
  });
  if (p.initiator) per_op = seconds * 1e6 / (static_cast<double>(c.n_avg) * messages_per_operation(p.pattern));
  g_compute_sink = acc;
  if (failed != MPI_SUCCESS) check_mpi(MPI_ERR_OTHER, "the operations of a sample (MPI_Send/MPI_Recv/MPI_Isend/MPI_Irecv/MPI_Start/MPI_Wait)");
  return per_op;
}

/// The warm-up of peril 1: round trips of 0 bytes and of the largest message before anything is timed.
template <class Clock>
void warm_up(const Clock &clock, Participant &p, int64_t largest) {
  const int count = static_cast<int>(largest);
  if (p.pattern == LAT_SWEEP_HALO) {  // every rank with its partners: exchanges of 0 bytes and of the largest
    double unused = 0.0;
    for (int bytes : {0, count})
      if (halo_operations(clock, p, bytes, kWarmupTrips, unused) != MPI_SUCCESS)
        check_mpi(MPI_ERR_OTHER, "MPI_Irecv/MPI_Isend/MPI_Waitall (halo warm-up)");
    return;
  }
  if (p.pattern == LAT_SWEEP_GOP) {  // every rank: calls of 0 bytes and of the largest
    double unused = 0.0;
    for (int bytes : {0, count})
      if (gop_operations(clock, p, bytes, kWarmupTrips, unused) != MPI_SUCCESS)
        check_mpi(MPI_ERR_OTHER, "the collective operation (gop warm-up)");
    return;
  }
  if (p.pattern == LAT_SWEEP_MEMCPY) {  // no partner: the copies alone
    for (int k = 0; k < kWarmupTrips; ++k) std::memcpy(p.recv.data(), p.send.data(), static_cast<size_t>(count));
    return;
  }
  for (int bytes : {0, count})
    for (int k = 0; k < kWarmupTrips; ++k) {
      if (p.initiator) {
        check_mpi(MPI_Send(p.send.data(), bytes, MPI_BYTE, p.peer_work, kTagWarm, p.work), "MPI_Send (warm-up)");
        check_mpi(MPI_Recv(p.send.data(), bytes, MPI_BYTE, p.peer_work, kTagWarm, p.work, MPI_STATUS_IGNORE),
                  "MPI_Recv (warm-up)");
      } else {
        check_mpi(MPI_Recv(p.send.data(), bytes, MPI_BYTE, p.peer_work, kTagWarm, p.work, MPI_STATUS_IGNORE),
                  "MPI_Recv (warm-up)");
        check_mpi(MPI_Send(p.send.data(), bytes, MPI_BYTE, p.peer_work, kTagWarm, p.work), "MPI_Send (warm-up)");
      }
    }
}

/// The ranks of the work communicator other than the leader: obey commands until the end.
template <class Clock>
void follow_sweep(const Clock &clock, Participant &p, int64_t largest, double first_extra_s) {
  double extra_s = first_extra_s;
  for (;;) {
    Command c;
    MPI_Request req;
    check_mpi(MPI_Irecv(&c, 4, MPI_INT64_T, 0, kTagCommand, p.work, &req), "MPI_Irecv (command)");
    p.wait(req, p.waiting("phase 'sweep': the leading rank's next command", "the leading rank", extra_s));
    extra_s = 0.0;
    if (c.kind == kEnd) return;
    if (c.kind == kWarmup) {
      warm_up(clock, p, largest);
      continue;
    }
    // The sample handed in and the stop agreed in the run's one agreement; the leader then ends the sweep.
    double t = sample(clock, p, c);
    p.run->agree_chunk(&t, 1, 0.0, "phase 'sweep': handing in a sample");
  }
}

/// Operations per sample (section 3.1; peril 9): fixed by n_avg; or, with tgoal_s, enough that a sample of
/// this size lasts about tgoal_s; or else the same for every size (neighbouring sizes must not differ by
/// their loop length): at least n_avg_min (mpptest's 50, so a sample's barrier and clock reads are averaged
/// away) and enough that res_factor x the clock's measured error fits in the shortest sample, the first
/// size's (common_n_avg, 0 until then). The clock's own overhead is not subtracted. operation_us(n,
/// samples): this size's operation timed in the fastest of `samples` samples of n operations. With tgoal_s
/// the single-operation estimate is checked by one sample of about half the goal: a sample of one operation
/// also holds the partner's wake-up from the barrier (on an oversubscribed node a time slice: 27x the
/// operation under ASan on 3 ranks), which would leave samples far shorter than the goal.
template <class Probe>
int64_t operations_per_sample(const lat_sweep_options &opts, double clock_error_us, int64_t &common_n_avg,
                              Probe &&operation_us) {
  int64_t n_avg;
  if (opts.n_avg > 0) {
    n_avg = opts.n_avg;
  } else if (opts.tgoal_s > 0.0) {
    auto for_goal = [&](double duration_us) {
      return duration_us > 0.0 ? std::clamp<double>(opts.tgoal_s * 1e6 / duration_us, 1.0, LAT_NPP_MAX)
                               : static_cast<double>(LAT_NPP_MAX);
    };
    double duration = operation_us(1, kProbeSamples);
    const auto half_goal = static_cast<int64_t>(std::llround(for_goal(duration) / 2.0));
    if (half_goal > 1) duration = std::min(duration, operation_us(half_goal, 1));
    n_avg = static_cast<int64_t>(std::llround(for_goal(duration)));
  } else {
    if (common_n_avg == 0) {
      const double duration = operation_us(1, kProbeSamples);
      const double want = static_cast<double>(opts.res_factor) * clock_error_us;
      const int64_t for_clock = duration > 0.0 ? static_cast<int64_t>(std::ceil(want / duration)) : LAT_NPP_MAX;
      common_n_avg = std::max(opts.n_avg_min, for_clock);
    }
    n_avg = common_n_avg;
  }
  return std::clamp<int64_t>(n_avg, 1, LAT_NPP_MAX);
}

/// The leading rank: runs the engine, whose every sample is a command to all participants.
template <class Clock>
SweepOutcome lead(const Clock &clock, Participant &p, const lat_sweep_options &opts, const SweepPlan &plan,
                  const lat_timer_result &cal, int nmembers, std::map<int64_t, SizeExtras> &extras) {
  int64_t seed = 0;
  bool agreed_stop = false;
  auto command_all = [&](const Command &c) {
    for (int m = 1; m < nmembers; ++m)
      check_mpi(MPI_Send(&c, 4, MPI_INT64_T, m, kTagCommand, p.work), "MPI_Send (command)");
  };
  auto run = [&](int64_t size, int64_t n) {
    const Command c{kMeasure, size, n, ++seed};
    command_all(c);
    // The slowest pair's sample, and a stop asked on any rank (the run's one agreement between chunks).
    double t = sample(clock, p, c);
    agreed_stop = p.run->agree_chunk(&t, 1, 0.0, "phase 'sweep': the samples of the other pairs") || agreed_stop;
    return t;
  };
  command_all({kWarmup, 0, 0, 0});
  warm_up(clock, p, largest_message(opts, plan.sizes));

  const double clock_error_us = std::max(cal.res_timing_us, cal.min_ov_us);
  int64_t common_n_avg = 0;
  auto operation_us = [&](int64_t size, int64_t n, int samples) {
    double fastest = run(size, n);
    for (int k = 1; k < samples; ++k) fastest = std::min(fastest, run(size, n));
    return fastest * messages_per_operation(opts.pattern);
  };
  auto measure = [&](int64_t size) {
    auto found = extras.find(size);
    if (found == extras.end()) {
      SizeExtras e;
      e.n_avg = operations_per_sample(opts, clock_error_us, common_n_avg,
                                      [&](int64_t n, int samples) { return operation_us(size, n, samples); });
      e.compute_us = -1.0;
      found = extras.emplace(size, e).first;
    }
    SizeExtras &e = found->second;
    const double t = run(size, e.n_avg);
    if (is_overlap(opts.pattern)) {
      // The computation alone, to show how much of it the communication hid: each call timed by itself, the
      // fastest kept (a window of n_avg calls catches more of a disturbed machine the longer the computation:
      // 1.6-2.8x too slow at 200,000 multiply-adds under load), and a window of n_avg calls in a row as the
      // exchange is timed, whose excess over the single calls says the windows were disturbed.
      double acc = 1.0, single = HUGE_VAL;
      for (int64_t k = 0; k < e.n_avg; ++k) {
        const double t1 = clock.now();
        acc += overlap_compute(size);
        single = std::min(single, clock.now() - t1);
      }
      const double w1 = clock.now();
      for (int64_t k = 0; k < e.n_avg; ++k) acc += overlap_compute(size);
      const double w2 = clock.now();
      g_compute_sink = acc;
      const double window = (w2 - w1) * 1e6 / static_cast<double>(e.n_avg);
      e.compute_us = e.compute_us < 0.0 ? single * 1e6 : std::min(e.compute_us, single * 1e6);
      e.compute_window_us = e.compute_window_us <= 0.0 ? window : std::min(e.compute_window_us, window);
    }
    return t;
  };
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  auto stop = [&] { return stop_requested() || agreed_stop; };
  auto report = [&](int64_t done, int64_t total) { p.run->progress(done, total); };
  SweepOutcome out = run_sweep(plan, measure, elapsed, stop, report);
  p.run->progress_finish(out.measurements, out.measurements);
  command_all({kEnd, 0, 0, 0});
  for (auto &e : extras)
    if (e.second.compute_us < 0.0) e.second.compute_us = 0.0;
  return out;
}


uint64_t pattern_base(uint64_t seed, int sender) {
  return seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(sender + 1) * 0xBF58476D1CE4E5B9ull;
}

inline unsigned char mixed_byte(uint64_t base, size_t k) {
  uint64_t v = base + static_cast<uint64_t>(k) * 0x94D049BB133111EBull;
  v ^= v >> 31;
  return static_cast<unsigned char>((v * 0xD6E8FEB86659FD93ull) >> 56);
}

/// Byte k of the pattern: the kind of bit pattern changes with the seed (all ones, all zeros, alternating
/// bits, a walking one, or pseudo-random bytes, as the original's stress program sent), and the first 8
/// bytes of every kind depend on the seed and the sender, so stale data or another rank's are caught too.
inline unsigned char pattern_byte(uint64_t seed, uint64_t base, size_t k) {
  if (k < 8) return mixed_byte(base, k);
  switch (seed % 5) {
    case 0: return 0xFF;
    case 1: return 0x00;
    case 2: return k % 2 ? 0x55 : 0xAA;
    case 3: return static_cast<unsigned char>(1u << (k % 8));
    default: return mixed_byte(base, k);
  }
}

/// A member's message buffers (the cache walk's slots), before the verdict: "" or why they cannot be had.
std::string allocate_buffers(Participant &p, const lat_sweep_options &opts, const SweepPlan &plan) {
  p.slot_bytes = slot_bytes_of(opts, plan.sizes);
  p.walk = SlotWalk(slots_for(opts.cachesize, p.slot_bytes));
  const int64_t bytes = p.walk.slots() * p.slot_bytes;  // within MemAvailable: check_size_sweep_options
  try {
    p.send.assign(static_cast<size_t>(bytes), 0);
    p.recv.assign(static_cast<size_t>(bytes), 0);
  } catch (const std::bad_alloc &) {
    return "cannot allocate 2 x " + std::to_string(bytes) + " bytes of message buffers";
  }
  return "";
}

/// The member's rank of lib_rank in the work communicator (the members in layout order).
int work_index(const Layout &layout, int lib_rank) {
  return static_cast<int>(std::find(layout.members.begin(), layout.members.end(), lib_rank) - layout.members.begin());
}

/// A member's place in its pair and the pattern's settings.
void join_pair(Participant &p, const Layout &layout, int rank, const lat_sweep_options &opts, RunContext &run) {
  p.work = run.comm();
  p.run = &run;
  for (const auto &pair : layout.pairs) {
    if (pair.first == rank || pair.second == rank) {
      p.initiator = pair.first == rank;
      p.peer_lib = p.initiator ? pair.second : pair.first;
    }
  }
  p.lib_rank = rank;
  if (opts.pattern == LAT_SWEEP_HALO) {  // every rank times its exchanges; the slowest rank's time is kept
    p.initiator = true;
    p.halo = halo_partner_ranks(rank, static_cast<int>(layout.members.size()), opts.halo_partners,
                                opts.halo_periodic != 0);
    p.peer_lib = 0;  // named in a stall's message: the first partner, else the leading rank
    for (int partner : p.halo)
      if (partner != MPI_PROC_NULL) {
        p.peer_lib = partner;
        break;
      }
  }
  if (opts.pattern == LAT_SWEEP_GOP) {  // every rank times its calls; the slowest rank's time is kept
    p.initiator = true;
    p.peer_lib = rank == 0 ? 1 : 0;  // named in a stall's message
    p.gop = opts.gop;
    p.nranks = static_cast<int>(layout.members.size());
  }
  p.peer_work = work_index(layout, p.peer_lib);
  p.pattern = opts.pattern;
  p.vector_stride = opts.vector_stride;
  p.vector_type = opts.vector_type;
  p.overlap_bytes = opts.overlap_bytes;
  p.verify = opts.verify != 0;
  p.timeout_s = opts.timeout_s;
  if (is_overlap(p.pattern)) g_compute_sink = overlap_compute(0);  // its arrays made before any clock read
}

/// The leading rank's sweep: its partner's name, the calibration (a stop there ends every follower), the
/// engine, and the result with where it ran.
SweepResult lead_sweep(Participant &p, const Layout &layout, const lat_sweep_options &opts, const SweepPlan &plan,
                       const lat_timer_result *calibration) {
  const int leader = layout.leader(), first_partner = layout.pairs.front().second;
  // The processor names, exchanged by the run context (memcpy: the partner is this rank).
  const std::string &name = p.run->hosts()[static_cast<size_t>(p.run->rank())];
  const std::string &partner_name = p.run->hosts()[static_cast<size_t>(work_index(layout, first_partner))];
  const Calibration c = leader_calibration(calibration, opts.timer, opts.nr, leader, opts.progress != 0);
  const lat_timer_result &cal = c.result;
  std::map<int64_t, SizeExtras> extras;
  SweepOutcome out;
  if (c.interrupted) {
    for (int m = 1; m < static_cast<int>(layout.members.size()); ++m) {
      const Command end{kEnd, 0, 0, 0};
      check_mpi(MPI_Send(&end, 4, MPI_INT64_T, m, kTagCommand, p.work), "MPI_Send (command)");
    }
    out.end = SweepEnd::kStopped;
  } else {
    out = p.run->with_clock([&](const auto &clock) {
      return lead(clock, p, opts, plan, cal, static_cast<int>(layout.members.size()), extras);
    });
  }
  const bool halo = opts.pattern == LAT_SWEEP_HALO;
  const int nmembers = static_cast<int>(layout.members.size());
  int64_t halo_partners = 0;  // the most partners of any rank: the original's rate scale
  for (int r = 0; halo && r < nmembers; ++r) {
    const std::vector<int> partners = halo_partner_ranks(r, nmembers, opts.halo_partners, opts.halo_periodic != 0);
    halo_partners = std::max<int64_t>(halo_partners, std::count_if(partners.begin(), partners.end(),
                                                                   [](int q) { return q != MPI_PROC_NULL; }));
  }
  SweepResult r = result_of(out, opts, extras,
                            every_rank_pattern(opts.pattern) ? nmembers : static_cast<int64_t>(layout.pairs.size()),
                            halo_partners);
  r.summary.res_timing_us = cal.res_timing_us;
  r.summary.min_ov_us = cal.min_ov_us;
  r.summary.source = leader;
  r.summary.dest = first_partner;
  copy_c_string(r.summary.source_host, name.c_str());
  copy_c_string(r.summary.dest_host, partner_name.c_str());
  return r;
}

}  // namespace

int vector_message_type(int64_t size, int stride, bool as_vector, MPI_Datatype *type) {
  const int doubles = static_cast<int>(size / static_cast<int64_t>(sizeof(double)));
  int count = 1;
  if (as_vector) {
    check_mpi(MPI_Type_vector(doubles, 1, stride, MPI_DOUBLE, type), "MPI_Type_vector");
  } else {
    check_mpi(MPI_Type_create_resized(MPI_DOUBLE, 0, static_cast<MPI_Aint>(stride) * sizeof(double), type),
              "MPI_Type_create_resized");
    count = doubles;
  }
  check_mpi(MPI_Type_commit(type), "MPI_Type_commit");
  return count;
}

std::vector<int> halo_partner_ranks(int rank, int size, int partners, bool periodic) {
  std::vector<int> out;
  if (partners == 1) {  // ranks 2i and 2i + 1
    out.push_back(rank % 2 == 0 ? rank + 1 : rank - 1);
  } else {
    const int s = static_cast<int>(std::sqrt(static_cast<double>(size)));
    std::vector<int> offsets = {1, -1, s, -s};
    if (s > 2) offsets.insert(offsets.end(), {s + 1, s - 1, -s + 1, -s - 1});
    else offsets.insert(offsets.end(), {3, 4, -4, -3});  // s == 2 (partners 8 needs P >= 4)
    offsets.resize(static_cast<size_t>(std::min<int>(partners, static_cast<int>(offsets.size()))));
    for (int offset : offsets) out.push_back(rank + offset);
  }
  for (int &q : out)
    if (periodic) q = ((q % size) + size) % size;
    else if (q < 0 || q >= size) q = MPI_PROC_NULL;
  return out;
}

std::vector<std::pair<int, int>> bisection_pairs(int size, int distance) {
  std::vector<std::pair<int, int>> pairs;
  if (distance == 0) {
    for (int i = 0; i < size / 2; ++i) pairs.emplace_back(i, i + size / 2);
    return pairs;
  }
  // The original's BisectChange on its default ring: rank after rank, a pair where both are still free.
  std::vector<bool> taken(static_cast<size_t>(size), false);
  for (int i = 0; i < size; ++i) {
    const int partner = (i + distance) % size;
    if (partner == i || taken[static_cast<size_t>(i)] || taken[static_cast<size_t>(partner)]) continue;
    taken[static_cast<size_t>(i)] = taken[static_cast<size_t>(partner)] = true;
    pairs.emplace_back(i, partner);
  }
  return pairs;
}

uint64_t message_seed(int64_t sample, int64_t operation) {
  return static_cast<uint64_t>(sample) * 1000003ull + static_cast<uint64_t>(operation);
}

void fill_pattern(unsigned char *buf, size_t n, uint64_t seed, int sender) {
  const uint64_t base = pattern_base(seed, sender);
  for (size_t k = 0; k < n; ++k) buf[k] = pattern_byte(seed, base, k);
}

int64_t first_mismatch(const unsigned char *buf, size_t n, uint64_t seed, int sender) {
  const uint64_t base = pattern_base(seed, sender);
  for (size_t k = 0; k < n; ++k)
    if (buf[k] != pattern_byte(seed, base, k)) return static_cast<int64_t>(k);
  return -1;
}

namespace {

/// The size sweep's parts of the measurement harness (lib/common/harness.hpp): the
/// leading rank runs the engine, whose every sample is a command to the other members.
class SizeSweep {
 public:
  using Result = SweepResult;

  SizeSweep(const lat_sweep_options &opts, int64_t nsizes, const int64_t *sizes, const lat_timer_result *calibration)
      : opts_(opts), nsizes_(nsizes), sizes_(sizes), calibration_(calibration) {}

  /// This rank, the ranks' count, who pairs with whom and the engine's plan of sizes.
  struct Plan {
    int rank = 0, size = 0;
    Layout layout;
    SweepPlan sweep;
  };

  /// Waiting ranks yield where many pairs or every rank take part (perhaps more ranks than cores), else spin.
  RunSettings settings(const Plan &plan) const {
    const bool many = (opts_.bisect != 0 || every_rank_pattern(opts_.pattern)) && plan.layout.members.size() > 2;
    return {opts_.timeout_s, opts_.timer, opts_.progress != 0, "size sweep", "phase 'sweep': the operations of a sample",
            many ? LAT_WAIT_YIELD : LAT_WAIT_SPIN};
  }

  Checked<Plan> check(MeasurementFrame &frame) const {
    Checked<Plan> c;
    Plan &plan = c.plan;
    plan.rank = frame.rank();
    plan.size = frame.size();
    c.complaint = check_size_sweep_options(opts_, nsizes_, sizes_, plan.size, plan.rank, calibration_);
    if (c.complaint.empty()) {
      plan.layout = layout_of(opts_, plan.size);
      plan.sweep = plan_of(opts_, nsizes_, sizes_);
    }
    return c;
  }

  std::vector<Shared> shared(const Plan &plan) const {
    std::vector<Shared> s = sweep_shared_values(opts_, nsizes_);
    // The size list itself must agree too: its length does; a checksum of the values does the rest.
    s.push_back(Shared::weighted_sum("sizes (weighted sum)", plan.sweep.sizes.data(), plan.sweep.sizes.size()));
    return s;
  }

  Members members(MeasurementFrame &, const Plan &plan) {
    return Members::some(plan.layout.members, plan.layout.leader(), kTagMembers);
  }

  std::string allocate(const Plan &plan, bool measuring) {
    return measuring ? allocate_buffers(p_, opts_, plan.sweep) : "";
  }

  SweepResult lead(RunContext &run, const Plan &plan) {
    join_pair(p_, plan.layout, plan.rank, opts_, run);
    SweepResult r = lead_sweep(p_, plan.layout, opts_, plan.sweep, calibration_);
    r.summary.nprocs = plan.size;
    r.summary.llc_bytes = last_level_cache_bytes();  // after the timing: hwloc's topology costs tens of ms
    return r;
  }

  void follow(RunContext &run, const Plan &plan) {
    join_pair(p_, plan.layout, plan.rank, opts_, run);
    run.with_clock([&](const auto &clock) {
      follow_sweep(clock, p_, largest_message(opts_, plan.sweep.sizes), follower_first_wait_s(calibration_, opts_.nr));
    });
  }

 private:
  const lat_sweep_options &opts_;
  int64_t nsizes_;
  const int64_t *sizes_;
  const lat_timer_result *calibration_;
  Participant p_;
};

}  // namespace

SweepResult size_sweep(MPI_Comm user_comm, const lat_sweep_options &opts, int64_t nsizes, const int64_t *sizes,
                       const lat_timer_result *calibration) {
  SizeSweep sweep(opts, nsizes, sizes, calibration);
  return run_measurement(user_comm, opts.timeout_s, sweep);
}

}  // namespace lat
