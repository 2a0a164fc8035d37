#!/bin/bash
# part2_cost.sh BUILD_DIR [ROUNDS]: what the npp estimate costs when npp is given (docs/performance.md).
# `latency --npp 36 --ntrial 100000` (Part 2 runs, only to report the rule's npp) against the same with
# --no-estimate, alternated A B A B ROUNDS times (the host's phases fall on both alike); prints each pair's
# wall times and the median ratio A/B. The target (issue 23): at most 1.5.
set -euo pipefail
build=$1 rounds=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wall() { local t0 t1; t0=$(date +%s.%N); mpiexec -n 2 "$build/drivers/latency" --npp 36 --ntrial 100000 --noplot "$@" \
           --outdir "$work" > /dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
ratios=()
printf '%-6s %-14s %-14s %s\n' round "estimate (s)" "--no-estimate" ratio
for r in $(seq "$rounds"); do
  a=$(wall) b=$(wall --no-estimate)
  ratio=$(echo "$a / $b" | bc -l)
  ratios+=("$ratio")
  printf '%-6s %-14.2f %-14.2f %.3f\n' "$r" "$a" "$b" "$ratio"
done
printf 'median ratio: %s\n' "$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{v[NR] = $1} END {printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')"
