#!/bin/bash
# precision.sh BUILD_DIR [RUNS] [P] [KEEP_DIR]: whether --precision's intervals hold between launches (issue 44): runs
# `latency --quick --precision P` and `mpilat-coll --quick --precision P` (allreduce and bcast, 8 bytes, every
# mode) in turn RUNS times (default 20; P default 0.5); prints each launch's wall clock (the whole command: MPI
# start, Parts 1 and 2, the trials), what ended it, the half-width of the interval between launches reached,
# the trials or rounds and the median; then bench/precision_coverage.py's counts: how many launches' intervals hold the pooled median of the
# other launches (the target: at least 80 %, docs/performance.md, "--precision"), and how many first halves'
# intervals hold their second half's median. Run it on a quiet machine: nothing else running. KEEP_DIR (new or
# empty): the launches' files are kept there.
set -euo pipefail
build=$1 runs=${2:-20} precision=${3:-0.5} keep=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=work_dir.sh
. "$here/work_dir.sh"
bench_work_dir precision.sh "$keep"
trap bench_work_cleanup EXIT
now() { date +%s.%N; }
printf '%-12s %4s %8s %-10s %10s %10s %12s\n' program run wall_s ended_by half_pct trials median_us
for r in $(seq "$runs"); do
  t0=$(now)
  mpiexec -n 2 "$build/drivers/latency" --quick --precision "$precision" --noplot --no-progress --outdir "$work/latency-$r" > /dev/null 2>&1 || [ $? = 4 ]
  t1=$(now)
  read -r end half n med <<< "$(python3 -c "
import json, sys; j = json.load(open(sys.argv[1]))
print(j['run']['ended_by'], j['precision']['placement']['bound_half_pct'], j['run']['ntrial_done'], j['pingpong']['all']['median_us'])" "$work/latency-$r/latency.json")"
  printf '%-12s %4s %8.2f %-10s %10.3f %10s %12.4f\n' latency "$r" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
    "$end" "$half" "$n" "$med"
  t0=$(now)
  mpiexec -n 2 "$build/drivers/mpilat-coll" --quick --precision "$precision" --ops allreduce,bcast --sizes 8 --noplot \
    --noprogress --outdir "$work/coll-$r" > /dev/null || [ $? = 4 ]
  t1=$(now)
  read -r end half n med <<< "$(python3 -c "
import json, sys; j = json.load(open(sys.argv[1]))
p = [q for q in j['points'] if q['operation'] == 'allreduce' and q['mode'] == 'sync'][0]
print(j['run']['ended_by'], j['run']['precision']['placement']['bound_half_pct_max'], j['run']['rounds'], p['stats']['median_us'])" \
    "$work/coll-$r/mpilat-coll.json")"
  printf '%-12s %4s %8.2f %-10s %10.3f %10s %12.4f   (6 points; median: allreduce sync)\n' mpilat-coll "$r" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$end" "$half" "$n" "$med"
done
python3 "$here/precision_coverage.py" "$work"
