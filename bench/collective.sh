#!/bin/bash
# bench/collective.sh [BUILD_DIR] [ROUNDS]: the targets of issue 25 on 2 ranks of this machine, as a driver
# run with its figures printed (docs/performance.md, "Collective latency"):
#   1. the clock synchronisation of 2 ranks: its time (target: at most 1 s) and the residual offset measured
#      after it (target: at most 0.1 us), from mpilat-coll.json, 5 runs;
#   2. the 8-byte allreduce median in sync mode against a bare hand-written loop timing one call at a time
#      (bench/bare_allreduce.c): the two alternated A B A B, ROUNDS times (default 5), the median ratio
#      (target: within 10 %);
#   3. the three modes side by side (one run with all three, interleaved by lat_collective), after each pair.
set -euo pipefail
build=${1:-build}
rounds=${2:-5}
coll=$(realpath "$build/drivers/mpilat-coll")
bare=$(realpath "$build/bench/bare_allreduce")
mpiexec=${MPIEXEC:-mpiexec}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
ratios=()
for k in $(seq "$rounds"); do
  # A: mpilat-coll, sync mode alone (as the target says); B: the bare loop.
  $mpiexec -n 2 "$coll" --ops allreduce --modes sync --sizes 8 --reps 10000 --noplot --noprogress > /dev/null 2> coll.err \
    || { cat coll.err; exit 1; }
  read -r sync_s residual bound coll_us < <(python3 -c "
import json; j = json.load(open('mpilat-coll.json')); c = j['clocks']
print(c['first_sync_s'], c['residual_max_us'], c['error_bound_us'], j['points'][0]['stats']['median_us'])")
  bare_us=$($mpiexec -n 2 "$bare" 10000 | awk '{print $(NF-4)}')
  ratio=$(python3 -c "print(f'{$coll_us / $bare_us:.4f}')")
  ratios+=("$ratio")
  # The three modes side by side, in one run.
  $mpiexec -n 2 "$coll" --ops allreduce --sizes 8 --reps 10000 --noplot --noprogress > /dev/null 2> coll.err \
    || { cat coll.err; exit 1; }
  read -r m_sync m_barrier m_loop < <(python3 -c "
import json; p = {x['mode']: x['stats']['median_us'] for x in json.load(open('mpilat-coll.json'))['points']}
print(p['sync'], p['barrier'], p['loop'])")
  printf 'pair %d: sync %.3f s, residual %.4f us, error bound %.3f us | allreduce 8 B: sync %.4f us, bare %.4f us, sync/bare %s | three modes: sync %.4f, barrier %.4f, loop %.4f us\n' \
    "$k" "$sync_s" "$residual" "$bound" "$coll_us" "$bare_us" "$ratio" "$m_sync" "$m_barrier" "$m_loop"
done
printf '%s\n' "${ratios[@]}" | sort -g | awk '{ r[NR] = $1 } END { printf "median sync/bare over %d alternated pairs: %s\n", NR, (NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2) }'
