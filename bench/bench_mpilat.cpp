// bench_mpilat: what one clock read costs, and what the statistics of a 2^25-trial run cost in time and
// memory (target: < 0.5 s and < 64 MiB here). Run: build/bench/bench_mpilat (one process, no mpiexec).
#include <benchmark/benchmark.h>
#include <mpi.h>
#include <sys/resource.h>

#include <random>
#include <vector>

#include "clock.hpp"
#include "stats.hpp"
#include "tally.hpp"

namespace {

template <class Clock>
void BM_clock_read(benchmark::State &state) {
  Clock clock;
  for (auto _ : state) benchmark::DoNotOptimize(clock.now());
}
BENCHMARK_TEMPLATE(BM_clock_read, lat::MpiWtimeClock)->Name("clock_read/mpi_wtime");
BENCHMARK_TEMPLATE(BM_clock_read, lat::MonotonicRawClock)->Name("clock_read/monotonic_raw");

void BM_clock_read_tsc(benchmark::State &state) {
  if (!lat::timer_available(LAT_TIMER_TSC)) {
    state.SkipWithError("no invariant TSC");
    return;
  }
  lat::TscClock clock;
  for (auto _ : state) benchmark::DoNotOptimize(clock.now());
}
BENCHMARK(BM_clock_read_tsc)->Name("clock_read/tsc");

// 2^25 ping-pong times as a timer gives them: multiples of a 1 ns tick around 1.3 us with a long tail,
// divided like a run with npp = 18. Generated once, outside the timed region.
const std::vector<double> &samples() {
  static const std::vector<double> s = [] {
    std::vector<double> v(size_t{1} << 25);
    std::mt19937_64 rng(42);
    std::lognormal_distribution<double> body(std::log(47.0e-6), 0.02);
    std::exponential_distribution<double> tail(1.0 / 200e-6);
    for (size_t i = 0; i < v.size(); ++i) {
      double t = (rng() % 1000 == 0) ? 47e-6 + tail(rng) : body(rng);
      v[i] = std::round(t * 1e9) * 1e-9;  // a 1 ns clock
    }
    return v;
  }();
  return s;
}

// The whole statistics path of lat_pingpong_stats for 2^25 trials: tally (what the trial loop does per
// trial), the distribution in microseconds, the statistics of all trials, the filter, the filtered ones.
void BM_statistics_2pow25(benchmark::State &state) {
  const std::vector<double> &v = samples();
  size_t table_bytes = 0, distinct = 0;
  for (auto _ : state) {
    lat::Tally tally;
    for (double x : v) tally.add(x);
    const lat::Distribution d = lat::distribution_of(tally, [](double s) { return (s * 1e6 - 0.03) / 36.0; });
    const lat_stats all = lat::describe(d, 8);
    const lat_stats kept = lat::describe(lat::at_most(d, 2.0 * all.median_us), 8);
    benchmark::DoNotOptimize(kept);
    table_bytes = tally.bytes_used() + d.values.size() * 16;
    distinct = tally.distinct();
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["distinct_values"] = static_cast<double>(distinct);
  state.counters["statistics_MiB"] = static_cast<double>(table_bytes) / (1 << 20);
  state.counters["process_peak_RSS_MiB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
  state.counters["samples_input_MiB"] = static_cast<double>(v.size() * sizeof(double)) / (1 << 20);
}
BENCHMARK(BM_statistics_2pow25)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);  // MPI_Wtime is defined only between MPI_Init and MPI_Finalize
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
