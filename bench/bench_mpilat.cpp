// bench_mpilat: what one clock read costs, what the statistics of a 2^25-trial run cost in time and
// memory (target: < 150 ms and < 16 MiB of tables here), and the max-rate fit of 10,000 observations. Run: build/bench/bench_mpilat (one process, no mpiexec).
#include <benchmark/benchmark.h>
#include <mpi.h>
#include <sys/resource.h>

#include <limits>
#include <random>
#include <vector>

#include "common/clock.hpp"
#include "maxrate/fit.hpp"
#include "common/stats.hpp"
#include "common/tally.hpp"

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

// 2^25 timing loops as a 1 ns clock gives them, in ticks: around 1.7 us (npp = 18, ~47 ns one way) with a
// long tail. Generated once, outside the timed region.
const std::vector<int64_t> &samples() {
  static const std::vector<int64_t> s = [] {
    std::vector<int64_t> v(size_t{1} << 25);
    std::mt19937_64 rng(42);
    std::lognormal_distribution<double> body(std::log(1.7e3), 0.02);
    std::exponential_distribution<double> tail(1.0 / 200e3);
    for (size_t i = 0; i < v.size(); ++i) v[i] = std::llround((rng() % 1000 == 0) ? 1.7e3 + tail(rng) : body(rng));
    return v;
  }();
  return s;
}

// The whole statistics path of lat_pingpong_stats for 2^25 trials: the tally in clock ticks (what the trial
// loop does per trial), the distribution in microseconds, the statistics of all trials, their percentiles
// and order-statistic intervals, the filter, and the same of the filtered ones. Target (issue 16): under
// 150 ms and 16 MiB for the tables.
void BM_statistics_2pow25(benchmark::State &state) {
  const std::vector<int64_t> &v = samples();
  size_t table_bytes = 0, distinct = 0;
  for (auto _ : state) {
    lat::Tally tally;
    for (int64_t ticks : v) tally.add(ticks);
    const lat::Distribution d = lat::distribution_of(tally, [](int64_t t) { return (static_cast<double>(t) * 1e-3 - 0.03) / 36.0; });
    const lat_stats all = lat::describe(d, 8);
    const lat_quantiles all_q = lat::quantiles_of(d);
    const lat::Distribution kept_d = lat::at_most(d, 2.0 * all.median_us);
    const lat_stats kept = lat::describe(kept_d, 8);
    const lat_quantiles kept_q = lat::quantiles_of(kept_d);
    benchmark::DoNotOptimize(kept);
    benchmark::DoNotOptimize(all_q);
    benchmark::DoNotOptimize(kept_q);
    table_bytes = tally.bytes_used() + (d.values.size() + kept_d.values.size()) * 16;
    distinct = tally.distinct();
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["distinct_values"] = static_cast<double>(distinct);
  state.counters["statistics_MiB"] = static_cast<double>(table_bytes) / (1 << 20);
  state.counters["process_peak_RSS_MiB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
  state.counters["samples_input_MiB"] = static_cast<double>(v.size() * sizeof(int64_t)) / (1 << 20);
}
BENCHMARK(BM_statistics_2pow25)->Unit(benchmark::kMillisecond)->Iterations(3);

// lat_fit_maxrate on 10,000 observations: K = 16 pairs x 625 sizes in three regimes (the paper's Table 1
// with 2 % noise), every model in every regime, the four-parameter certificate included; the thresholds
// given (range 0) or found by the segmented regression (range 1). Target: under 50 ms (issue 15).
void BM_fit_maxrate_10000(benchmark::State &state) {
  struct P {
    double alpha, rn, rcb, rci;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const P regime[3] = {{4.0, inf, 630.0, -18.0}, {11.0, inf, 1700.0, 62.0}, {20.0, 5500.0, 3600.0, 610.0}};
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> noise(-0.02, 0.02);
  std::vector<lat_maxrate_obs> obs;
  for (int i = 0; i < 625; ++i) {
    const int g = i < 200 ? 0 : i < 400 ? 1 : 2;
    const int64_t n = g == 0 ? 8 * i : g == 1 ? 2048 + 256 * (i - 200) : 65536 + 8192 * (i - 400);
    for (int64_t k = 1; k <= 16; ++k) {
      const P &p = regime[g];
      const double t = p.alpha + static_cast<double>(k * n) / std::min(p.rn, p.rcb + static_cast<double>(k - 1) * p.rci);
      obs.push_back({k, n, t * (1.0 + noise(rng))});
    }
  }
  lat_fit_options o;
  lat_fit_defaults(&o);
  if (state.range(0) == 0) {
    o.nthresholds = 2;
    o.thresholds[0] = 8 * 199;
    o.thresholds[1] = 2048 + 256 * 199;
  }
  lat::MaxrateFit f;
  for (auto _ : state) {
    f = lat::fit_maxrate(o, obs);
    benchmark::DoNotOptimize(f.models.data());
  }
  state.counters["observations"] = static_cast<double>(obs.size());
  state.counters["regimes"] = static_cast<double>(f.summary.nregimes);
  int certified = 0;
  for (const lat_model_fit &m : f.models) certified += m.model == LAT_MODEL_MAXRATE4 && m.certified;
  state.counters["certified_4p"] = certified;
}
BENCHMARK(BM_fit_maxrate_10000)->ArgName("detect")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);  // MPI_Wtime is defined only between MPI_Init and MPI_Finalize
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
