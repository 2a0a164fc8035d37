#!/bin/bash
# stability.sh BUILD_DIR [ROUNDS]: how much the numbers move from run to run (docs/performance.md).
# Each round runs, back to back on the same 2 ranks: `latency --quick`, the bare ping-pong loop
# (bench/bare_pingpong.c, npp 1, 32768 trials) and NetPIPE (NPmpich2, 8 bytes), so that the host's
# phases hit all three alike. Prints one row per round; the spread is what to read, not a single value.
set -euo pipefail
build=$1 rounds=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
value() { grep -E "^$1 = " "$work/latency.summary.output" | head -1 | sed -E 's/.* = //'; }
printf '%-5s %-28s %-24s %-10s\n' round "latency min/median/average us" "bare min/median us" "NetPIPE us"
for r in $(seq "$rounds"); do
  mpiexec -n 2 "$build/drivers/latency" --quick --no-progress --outdir "$work" > /dev/null
  lat="$(value 'minimum time')/$(value 'median time')/$(value 'average time') (npp $(value 'value of npp used'))"
  bare=$(mpiexec -n 2 "$build/bench/bare_pingpong" 1 32768 | sed -E 's/.*median ([0-9.]+) us, minimum ([0-9.]+) us.*/\2\/\1/')
  (cd "$work" && mpiexec -n 2 NPmpich2 -l 8 -u 8 -p 0 -o np.out > /dev/null 2>&1)
  np=$(awk '{printf "%.4f", $3 * 1e6}' "$work/np.out")
  printf '%-5s %-28s %-24s %-10s\n' "$r" "$lat" "$bare" "$np"
done
