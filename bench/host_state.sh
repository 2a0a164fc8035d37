#!/bin/bash
# host_state.sh BUILD_DIR [PAIRS] [KEEP_DIR]: does the host's slow state (the same ping-pong at 0.15 or 0.6 us
# for seconds to minutes, docs/performance.md) depend on anything the tool does, or only on the host's time?
# Alternates, PAIRS times (default 10), launches of `latency --quick` (calibration, Part 2, spinning waits,
# 32,768 trials), of `latency --quick --nr 1024 --npp 1 --no-estimate` (no long calibration, no estimate)
# and of the plainest ping-pong (bench/bare_pingpong.c, built here with mpicc: no library, 32,768 loops of
# one round trip), each on 2 ranks, and prints each launch's 8-byte median with the time since the start. If
# the state followed the tool, one kind of launch would land in it more often than the others beside it;
# if it follows the host, launches close in time share it whatever they are.
set -euo pipefail
build=$1 pairs=${2:-10} keep=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=work_dir.sh
. "$here/work_dir.sh"
bench_work_dir host_state.sh "$keep"
trap bench_work_cleanup EXIT
mpicc -O2 -I"$here" -o "$work/bare_pingpong" "$here/bare_pingpong.c"
median_of() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['pingpong']['all']['median_us'])" "$1"; }
t0=$(date +%s.%N)
since() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
printf '%4s %8s %-14s %10s\n' round t_s kind median_us
run_kind() {  # KIND PAIR: one launch, its line
  case $1 in
    latency)
      mpiexec -n 2 "$build/drivers/latency" --quick --noplot --no-progress --outdir "$work/full-$2" > /dev/null 2>&1
      printf '%4s %8s %-14s %10.4f\n' "$2" "$(since)" latency "$(median_of "$work/full-$2/latency.json")" ;;
    latency-short)
      mpiexec -n 2 "$build/drivers/latency" --quick --nr 1024 --npp 1 --no-estimate --noplot --no-progress \
        --outdir "$work/short-$2" > /dev/null 2>&1
      printf '%4s %8s %-14s %10.4f\n' "$2" "$(since)" latency-short "$(median_of "$work/short-$2/latency.json")" ;;
    bare)
      printf '%4s %8s %-14s %10s\n' "$2" "$(since)" bare \
        "$(mpiexec -n 2 "$work/bare_pingpong" 1 32768 | sed -n 's/.* median \([0-9.]*\) us.*/\1/p')" ;;
  esac
}
kinds=(latency latency-short bare)
# The order turns from one round to the next (ABC, BCA, CAB), so that no kind always follows another.
for p in $(seq "$pairs"); do
  for k in 0 1 2; do run_kind "${kinds[$(((p + k) % 3))]}" "$p"; done
done
