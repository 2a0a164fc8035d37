// line_placement.cpp: the placement probe of --precision (line_placement.hpp).
#include "line_placement.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "common/communicator.hpp"
#include "common/stats.hpp"

namespace lat {

namespace {

constexpr int kSamplesPerLine = 200;
constexpr int kRoundTripsPerSample = 16;  // the clock's cost spread over 16 round trips
constexpr std::size_t kPage = 4096, kLineBytes = 64;
constexpr int kDeadlineEvery = 4096;  // spins between looks at the clock (or at the leader's word)

using Clock = std::chrono::steady_clock;

Clock::time_point after(double limit_s) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s));
}

int64_t load(const int64_t *at) { return __atomic_load_n(at, __ATOMIC_ACQUIRE); }
void store(int64_t *at, int64_t v) { __atomic_store_n(at, v, __ATOMIC_RELEASE); }

/// The flag of line b: a page of its own (page 0 holds the leader's word to give up), at an offset of its own.
int64_t *line(char *pages, int b) {
  return reinterpret_cast<int64_t *>(pages + static_cast<std::size_t>(b + 1) * kPage +
                                     (static_cast<std::size_t>(b) * 37 % (kPage / kLineBytes)) * kLineBytes);
}

/// Leader: every line's samples, or an empty list once limit_s has passed (the other is told to give up).
std::vector<double> lead_lines(char *pages, double limit_s) {
  int64_t *give_up = reinterpret_cast<int64_t *>(pages);
  const Clock::time_point deadline = after(limit_s);
  std::vector<double> levels, samples(kSamplesPerLine);
  for (int b = 0; b < kPlacementLines; ++b) {
    int64_t *flag = line(pages, b);
    int64_t k = 0;
    for (double &sample : samples) {
      const Clock::time_point t0 = Clock::now();
      for (int j = 0; j < kRoundTripsPerSample; ++j, ++k) {
        store(flag, 2 * k + 1);
        for (int spins = 1; load(flag) != 2 * k + 2; ++spins)
          if (spins % kDeadlineEvery == 0 && Clock::now() > deadline) {
            store(give_up, 1);
            return {};
          }
      }
      sample = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / (2.0 * kRoundTripsPerSample);
    }
    levels.push_back(median_in_place(samples));
  }
  return levels;
}

/// The other rank: answers every round trip until the last, the leader's word to give up, or its own limit.
void answer_lines(char *pages, double limit_s) {
  const int64_t *give_up = reinterpret_cast<int64_t *>(pages);
  const Clock::time_point deadline = after(limit_s);
  for (int b = 0; b < kPlacementLines; ++b) {
    int64_t *flag = line(pages, b);
    for (int64_t k = 0; k < int64_t{kSamplesPerLine} * kRoundTripsPerSample; ++k) {
      for (int spins = 1; load(flag) != 2 * k + 1; ++spins)
        if (spins % kDeadlineEvery == 0 && (load(give_up) != 0 || Clock::now() > deadline)) return;
      store(flag, 2 * k + 2);
    }
  }
}

}  // namespace

double LinePlacement::sd_pct() const {
  const MeanSd m = mean_and_sd(level_us);
  return m.mean > 0.0 ? 100.0 * m.sd / m.mean : 0.0;
}

double placement_half_pct(double sd_pct) { return 1.96 * sd_pct; }

std::string placement_term_text(int lines, double sd_pct) {
  return fmt::format("+-{:.3f} % (1.96 x the sd of a one-way time through {} lines of shared memory, {:.3f} % of their mean)",
                     placement_half_pct(sd_pct), lines, sd_pct);
}

double between_launches_half_pct(double batch_half_pct, double placement_half) {
  return std::hypot(batch_half_pct, placement_half);
}

LinePlacement measure_line_placement(MPI_Comm comm, bool leader, double limit_s) {
  LinePlacement out;
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type (placement)");
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  out.one_node = node_size == 2;
  if (!out.one_node) {
    MPI_Comm_free(&node);
    return out;
  }
  // The leader's segment: page 0 for the word to give up, a page a line, one more to align to a page.
  const MPI_Aint bytes = leader ? static_cast<MPI_Aint>((kPlacementLines + 2) * kPage) : 0;
  char *mine = nullptr, *theirs = nullptr;
  MPI_Win win = MPI_WIN_NULL;
  const int rc = MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, node, &mine, &win);
  if (rc != MPI_SUCCESS) {
    MPI_Comm_free(&node);
    check_mpi(rc, "MPI_Win_allocate_shared (placement)");
  }
  MPI_Aint size = 0;
  int unit = 0;
  // MPI_PROC_NULL: the first segment that is not empty, the leader's.
  check_mpi(MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &unit, &theirs), "MPI_Win_shared_query (placement)");
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  const auto at = reinterpret_cast<std::uintptr_t>(theirs);
  char *pages = theirs + ((kPage - at % kPage) % kPage);
  if (leader) std::memset(pages, 0, (kPlacementLines + 1) * kPage);
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);
  if (leader)
    out.level_us = lead_lines(pages, limit_s);
  else
    answer_lines(pages, limit_s);
  out.ended_in_time = !out.level_us.empty();
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);  // collective: the other waits here for the leader's last line
  MPI_Comm_free(&node);
  return out;
}

}  // namespace lat
