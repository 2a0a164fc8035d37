#!/bin/bash
# cache_cold.sh BUILD_DIR [ROUNDS] [CACHESIZE]: what mpptest's -cachesize walk does to 1 MiB ping-pongs here:
# the same sweep with and without it (docs/performance.md), alternated (warm cold warm cold ...) so the host's
# phases hit both alike; prints each pair, the median of the cold/warm ratios, and n_avg and samples.
set -euo pipefail
build=$1 rounds=${2:-5} cachesize=${3:-268435456}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
value() {  # min_us median_us n_avg samples of the one point
  python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['points'][0]; print(p['min_us'], p['median_us'], p['n_avg'], p['samples'])" "$1"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratios=() mratios=()
printf '%-5s %10s %10s %6s   %10s %10s %6s   (n_avg, samples: warm / cold)\n' round warm_min cold_min ratio \
  warm_med cold_med ratio
for r in $(seq "$rounds"); do
  mpiexec -n 2 "$build/drivers/mpptest" -size 1048576 1048576 1 -noprogress -noplot -outdir "$work" -outbase warm > /dev/null
  mpiexec -n 2 "$build/drivers/mpptest" -size 1048576 1048576 1 -cachesize "$cachesize" -noprogress -noplot \
    -outdir "$work" -outbase cold > /dev/null
  read -r w wm wn ws <<< "$(value "$work/warm.json")"
  read -r c cm cn cs <<< "$(value "$work/cold.json")"
  ratio=$(awk -v a="$w" -v b="$c" 'BEGIN { printf "%.2f", b / a }')
  mratio=$(awk -v a="$wm" -v b="$cm" 'BEGIN { printf "%.2f", b / a }')
  ratios+=("$ratio")
  mratios+=("$mratio")
  printf '%-5s %10.1f %10.1f %6s   %10.1f %10.1f %6s   (%s, %s / %s, %s)\n' "$r" "$w" "$c" "$ratio" "$wm" "$cm" "$mratio" \
    "$wn" "$ws" "$cn" "$cs"
done
printf 'median cold/warm ratio of the minima (the reported time): %s\n' "$(printf '%s\n' "${ratios[@]}" | median)"
printf 'median cold/warm ratio of the medians: %s\n' "$(printf '%s\n' "${mratios[@]}" | median)"
