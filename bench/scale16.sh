#!/bin/bash
# bench/scale16.sh [BUILD_DIR] [LOG]: issue 31's checks on a machine of 16 cores (one socket), as users run:
# every rank bound to a core (NP ranks, default 16; NP=4 tries the script on a small machine), figures to LOG
# (default scale16.log) and to stdout. On a machine without MPI, pack the build first
# (../shared/tools/device-bundle.sh BUILD_DIR) and `source .device/env.sh` before running this.
#   1. nodecomm's k pairs against a bare k-pair loop (bench/bare_kpairs.c, the same n_avg), k = 1..NP/2 at
#      0, 8, 1024 and 65536 bytes, alternated A B A B ROUNDS times (default 5): the median ratio per (k, size)
#      (target: within 10 % everywhere);
#   2. mpilat-coll's sync mode against a bare one-call-at-a-time loop (bench/bare_allreduce.c), allreduce of
#      8 bytes at 2, 4, 8 and 16 ranks (up to NP), alternated 3 times (target: within 10 %);
#   3. mmpi at NP ranks (--quick): its wall time and the median of its matrix;
#   4. as root, two namespaced nodes of NP/2 ranks (scripts/cluster.sh) through links shaped to 1000 and
#      250 MB/s (tbf, a 2 MB bucket: k pairs keep the link busy), nodecomm k = 1..NP/2 at 16 KiB..1 MiB: the
#      fitted RN (max-rate 3-parameter model, upper regime) against the rate set (target: within 10 %).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-build}")
log=$(realpath -m "${2:-scale16.log}")
np=${NP:-16}
rounds=${ROUNDS:-5}
mpiexec=${MPIEXEC:-mpiexec}
bind=${BIND-"-bind-to core"}
half=$((np / 2))
work=$(mktemp -d)
cleanup() {
  [ "$(id -u)" = 0 ] && bash "$here/scripts/cluster.sh" down
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
say() { echo "$*" | tee -a "$log"; }
: > "$log"
say "# bench/scale16.sh on $(hostname): $(nproc) processors, NP=$np, $(date -u +%FT%TZ)"
say "# $(lscpu 2> /dev/null | grep -m1 'Model name' | sed 's/  */ /g')"

# ---- 1. nodecomm against the bare k-pair loop --------------------------------------------------------------
say ""
say "## 1. nodecomm (A) against bare_kpairs (B), full ping-pong of the slowest pair, min of 10 reps, us"
declare -A ratios
for r in $(seq "$rounds"); do
  rm -rf nc && mkdir nc
  $mpiexec $bind -n "$np" "$build/drivers/nodecomm" --sizes 0,8,1024,65536 --reps 10 --noplot --noprogress \
    --outdir nc > nc.out 2> nc.err || { say "nodecomm failed: $(tail -3 nc.err)"; exit 1; }
  navg=$(python3 -c "import json; print(json.load(open('nc/nodecomm.json'))['points'][0]['n_avg'])")
  $mpiexec $bind -n "$np" "$build/bench/bare_kpairs" "$navg" 10 0 8 1024 65536 > bare.txt || exit 1
  while read -r k bytes a b; do
    ratios[$k,$bytes]+="$(python3 -c "print(f'{$a / $b:.4f}')") "
    say "round $r: k $k, $bytes B: nodecomm $a, bare $b (n_avg $navg)"
  done < <(python3 - nc/nodecomm.json bare.txt <<'PY'
import json, sys
nc = {(p["k"], p["bytes"]): p["min_us"] for p in json.load(open(sys.argv[1]))["points"]}
for line in open(sys.argv[2]):
    k, b, us = line.split()
    print(k, b, f'{nc[(int(k), int(b))]:.4f}', us)
PY
)
done
say "median ratio nodecomm / bare per (k, bytes):"
for key in $(printf '%s\n' "${!ratios[@]}" | sort -t, -k2n -k1n); do
  say "  k ${key%,*}, ${key#*,} B: $(python3 -c "import statistics, sys; print(f'{statistics.median(map(float, sys.argv[1:])):.3f}')" ${ratios[$key]}) (${ratios[$key]})"
done

# ---- 2. mpilat-coll sync against the bare allreduce loop -----------------------------------------------------
say ""
say "## 2. mpilat-coll --modes sync (A) against bare_allreduce (B), allreduce 8 B, median us"
for n in 2 4 8 16; do
  [ "$n" -le "$np" ] || continue
  rs=()
  for r in 1 2 3; do
    $mpiexec $bind -n "$n" "$build/drivers/mpilat-coll" --ops allreduce --modes sync --sizes 8 --reps 5000 --noplot \
      --noprogress > /dev/null 2> coll.err || { say "mpilat-coll failed: $(tail -3 coll.err)"; exit 1; }
    a=$(python3 -c "
import json; j = json.load(open('mpilat-coll.json')); p = j['points'][0]
print(p['stats']['median_us'] if not p['withheld'] else 'nan', p['late'], j['clocks']['error_bound_us'], p['withheld'])")
    b=$($mpiexec $bind -n "$n" "$build/bench/bare_allreduce" 5000 | awk '{print $(NF-4)}')
    rs+=("$(python3 -c "print(f'{${a%% *} / $b:.4f}')")")
    say "$n ranks, round $r: sync ${a%% *} us (late, error bound, withheld: ${a#* }), bare $b us"
  done
  say "$n ranks: median ratio $(python3 -c "import statistics, sys; print(f'{statistics.median(map(float, sys.argv[1:])):.3f}')" "${rs[@]}")"
done

# ---- 3. mmpi at NP ranks ----------------------------------------------------------------------------------------
say ""
say "## 3. mmpi --quick at $np ranks"
start=$(date +%s.%N)
$mpiexec $bind -n "$np" "$build/drivers/mmpi" --quick --noprogress > mmpi.out 2> mmpi.err || say "mmpi failed: $(tail -3 mmpi.err)"
say "wall $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s; $(python3 -c "
import glob, json, statistics
j = json.load(open(glob.glob('ammpi_*.json')[0])); m = j['matrices']
key = 'avg_us' if 'avg_us' in m else 'mean_us'
v = [x for i, row in enumerate(m[key]) for k, x in enumerate(row) if k > i and x is not None]
print(f'{len(v)} pairs, median {statistics.median(v):.3f} us, min {min(v):.3f}, max {max(v):.3f}')")"

# ---- 4. two namespaced nodes through shaped links: RN against the rate set ------------------------------------
say ""
say "## 4. nodecomm between two namespaced nodes of $half ranks, links shaped by tbf: fitted RN"
if [ "$(id -u)" != 0 ]; then
  say "skipped: needs root (network namespaces)"
  exit 0
fi
for rate in 1000 250; do
  bash "$here/scripts/cluster.sh" up 2 "$rate" 2mb || { say "cluster.sh up failed"; exit 1; }
  eval "$(bash "$here/scripts/cluster.sh" env)"
  rm -rf two && mkdir two
  # shellcheck disable=SC2086
  timeout -k 5 600 $mpiexec $MPILAT_CLUSTER_LAUNCH $bind -hosts "node0:$half,node1:$half" -n "$np" "$build/drivers/nodecomm" \
    --sizes 16384,32768,65536,131072,262144,524288,1048576 --reps 3 --noplot --noprogress --outdir two > two.out 2> two.err \
    || { say "nodecomm between nodes failed ($?): $(tail -3 two.err)"; continue; }
  say "rate $rate MB/s: $(python3 - two/nodecomm.json "$rate" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
reg = j["fit"]["regimes"][-1]["models"]["max-rate 3-parameter"]
rn = reg["rn_mbs"]
ratio = f"{rn / float(sys.argv[2]):.3f}" if isinstance(rn, (int, float)) else "n/a"
print(f"K = {j['fit']['kmax']}, upper regime RN {rn} MB/s (RN / rate {ratio}), RC {reg['rc_mbs']} MB/s, k* {reg['k_star']}")
PY
)"
done
