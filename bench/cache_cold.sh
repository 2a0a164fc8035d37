#!/bin/bash
# cache_cold.sh BUILD_DIR [ROUNDS] [CACHESIZE]: what mpptest's -cachesize walk does to 1 MiB ping-pongs here:
# the same sweep with and without it (docs/performance.md), and beside it the same walk in a bare loop
# (bench/bare_cache_walk.c: no library), alternated (mpptest warm, cold, bare warm, cold, ...) so the host's
# phases hit all alike; prints each round, the medians of the cold/warm ratios, and n_avg and samples. When
# mpptest's ratio and the bare loop's agree, the walk is one and the ratio is the machine's.
set -euo pipefail
build=$1 rounds=${2:-5} cachesize=${3:-268435456}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
value() {  # min_us median_us n_avg samples of the one point
  python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['points'][0]; print(p['min_us'], p['median_us'], p['n_avg'], p['samples'])" "$1"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratios=() mratios=() bratios=() bmratios=()
printf '%-5s %10s %10s %6s   %10s %10s %6s   (n_avg, samples: warm / cold)\n' round warm_min cold_min ratio \
  warm_med cold_med ratio
for r in $(seq "$rounds"); do
  mpiexec -n 2 "$build/drivers/mpptest" -size 1048576 1048576 1 -noprogress -noplot -outdir "$work" -outbase warm > /dev/null
  mpiexec -n 2 "$build/drivers/mpptest" -size 1048576 1048576 1 -cachesize "$cachesize" -noprogress -noplot \
    -outdir "$work" -outbase cold > /dev/null
  read -r bw bwm <<< "$(mpiexec -n 2 "$build/bench/bare_cache_walk" 1048576 0 50 50)"
  read -r bc bcm <<< "$(mpiexec -n 2 "$build/bench/bare_cache_walk" 1048576 "$cachesize" 50 50)"
  bratios+=("$(awk -v a="$bw" -v b="$bc" 'BEGIN { printf "%.2f", b / a }')")
  bmratios+=("$(awk -v a="$bwm" -v b="$bcm" 'BEGIN { printf "%.2f", b / a }')")
  read -r w wm wn ws <<< "$(value "$work/warm.json")"
  read -r c cm cn cs <<< "$(value "$work/cold.json")"
  ratio=$(awk -v a="$w" -v b="$c" 'BEGIN { printf "%.2f", b / a }')
  mratio=$(awk -v a="$wm" -v b="$cm" 'BEGIN { printf "%.2f", b / a }')
  ratios+=("$ratio")
  mratios+=("$mratio")
  printf '%-5s %10.1f %10.1f %6s   %10.1f %10.1f %6s   (%s, %s / %s, %s)   bare: %8.1f %8.1f %5s  %8.1f %8.1f %5s\n' \
    "$r" "$w" "$c" "$ratio" "$wm" "$cm" "$mratio" "$wn" "$ws" "$cn" "$cs" "$bw" "$bc" "${bratios[-1]}" "$bwm" "$bcm" \
    "${bmratios[-1]}"
done
printf 'median cold/warm ratio of the minima (the reported time): %s\n' "$(printf '%s\n' "${ratios[@]}" | median)"
printf 'median cold/warm ratio of the medians: %s\n' "$(printf '%s\n' "${mratios[@]}" | median)"
printf 'bare loop (50 samples of 50 operations): median cold/warm ratio of the minima %s, of the medians %s\n' \
  "$(printf '%s\n' "${bratios[@]}" | median)" "$(printf '%s\n' "${bmratios[@]}" | median)"
