#!/bin/bash
# precision.sh BUILD_DIR [RUNS] [P]: --precision's target (issue 34): the 8-byte median to +-P % (default 0.5)
# in at most 10 s of wall clock on 2 ranks. Runs `latency --quick --precision P` and `mpilat-coll --quick
# --precision P` (allreduce and bcast, 8 bytes, every mode) in turn RUNS times (default 5); prints each run's
# wall clock (the whole command: MPI start, Parts 1 and 2, the trials), what ended it, the interval reached,
# the trials or rounds and the median; then the medians' spread between runs, which the interval of one run
# does not cover (the host's phases: docs/performance.md, "--precision").
set -euo pipefail
build=$1 runs=${2:-5} precision=${3:-0.5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
printf '%-12s %4s %8s %-10s %10s %10s %12s\n' program run wall_s ended_by half_pct trials median_us
lat_medians=()
for r in $(seq "$runs"); do
  t0=$(now)
  mpiexec -n 2 "$build/drivers/latency" --quick --precision "$precision" --noplot --no-progress --outdir "$work" > /dev/null
  t1=$(now)
  read -r end half n med <<< "$(python3 -c "
import json, sys; j = json.load(open(sys.argv[1]))
print(j['run']['ended_by'], j['precision']['median_ci_half_pct'], j['run']['ntrial_done'], j['pingpong']['all']['median_us'])" "$work/latency.json")"
  lat_medians+=("$med")
  printf '%-12s %4s %8.2f %-10s %10.3f %10s %12.4f\n' latency "$r" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
    "$end" "$half" "$n" "$med"
  t0=$(now)
  mpiexec -n 2 "$build/drivers/mpilat-coll" --quick --precision "$precision" --ops allreduce,bcast --sizes 8 --noplot \
    --noprogress --outdir "$work" > /dev/null
  t1=$(now)
  read -r end half n med <<< "$(python3 -c "
import json, sys; j = json.load(open(sys.argv[1]))
p = [q for q in j['points'] if q['operation'] == 'allreduce' and q['mode'] == 'sync'][0]
print(j['run']['ended_by'], j['run']['precision']['median_ci_half_pct_max'], j['run']['rounds'], p['stats']['median_us'])" \
    "$work/mpilat-coll.json")"
  printf '%-12s %4s %8.2f %-10s %10.3f %10s %12.4f   (6 points; median: allreduce sync)\n' mpilat-coll "$r" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$end" "$half" "$n" "$med"
done
printf '%s\n' "${lat_medians[@]}" | sort -n | awk '{ v[NR] = $1 } END {
  printf "latency medians over the runs: %.4f .. %.4f us, spread (max - min) / min = %.2f %%\n", v[1], v[NR], 100 * (v[NR] - v[1]) / v[1] }'
