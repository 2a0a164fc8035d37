#!/bin/bash
# sweep_adaptive.sh BUILD_DIR [ROUNDS] [FIXED_LIMIT_S]: what the adaptive sweep of 0..64 KiB costs here against
# a fixed 4-byte grid that cannot miss a step, and which steps each finds (docs/performance.md). The two run
# alternately (A B A B ...), so the host's phases hit both alike; read the spread, not one row. The fixed
# grid measures all 16385 sizes in every pass: FIXED_LIMIT_S (default 900, mpptest's -max_run_time) ends it
# with the passes it has (exit status 3, "end": "budget").
set -euo pipefail
build=$1 rounds=${2:-3} fixed_limit=${3:-900}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary() {  # sizes, samples, sweep seconds, steps (below-above) from the JSON
  python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
steps = " ".join(f"{t['below_bytes']}-{t['above_bytes']}" for t in j["thresholds"])
print(f"{len(j['points']):6d} sizes {j['run']['passes']:3d} passes {j['run']['measurements']:8d} samples "
      f"{j['run']['wall_s']:8.3f} s ({j['run']['end']})  steps: {steps}")
PY
}
printf '%-5s %-9s %s\n' round sweep "result"
for r in $(seq "$rounds"); do
  for kind in adaptive fixed; do
    if [ "$kind" = adaptive ]; then
      args=(-size 0 65536 8192 -auto -autodx 4)
    else
      args=(-size 0 65536 4 -max_sizes 16385 -max_run_time "$fixed_limit")
    fi
    start=$EPOCHREALTIME
    mpiexec -n 2 "$build/drivers/mpptest" "${args[@]}" -noprogress -noplot -outdir "$work" -outbase "$kind" > /dev/null \
      2> "$work/err" || [ $? = 3 ]  # 3: the time limit ended it, with its files
    end=$EPOCHREALTIME
    printf '%-5s %-9s %s (program %s s)\n' "$r" "$kind" "$(summary "$work/$kind.json")" \
      "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
  done
done
