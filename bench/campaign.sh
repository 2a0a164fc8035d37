#!/bin/bash
# campaign.sh BUILD_DIR [CAMPAIGNS] [LAUNCHES] [KEEP_DIR] [DRIVERS] [INTERVAL]: whether mpilat-campaign's interval over
# launches holds (issue 59): CAMPAIGNS campaigns (default 20) of LAUNCHES launches (default 10) of
# `latency --quick` and of `mpilat-coll --quick --ops allreduce,bcast --sizes 8` on 2 ranks, the drivers
# alternated campaign by campaign (A B A B). Then bench/campaign_coverage.py: the share of campaigns whose 95 %
# interval holds the pooled median of the other campaigns' launches (target >= 85 %), the median half-width
# against the smallest that would have held it (calibration: not more than 2x), and from the pooled launches
# the launches and wall time ±5 % and ±2 % need. DRIVERS: "latency coll" (default) or one of them; INTERVAL:
# the campaigns' --interval (seconds between launch starts; default 0, back to back). Run it on
# a quiet machine. KEEP_DIR (new or empty): the campaigns are kept there.
set -euo pipefail
build=$1 campaigns=${2:-20} launches=${3:-10} keep=${4:-} drivers=${5:-latency coll} interval=${6:-0}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=work_dir.sh
. "$here/work_dir.sh"
bench_work_dir campaign.sh "$keep"
trap bench_work_cleanup EXIT
for c in $(seq "$campaigns"); do
  for d in $drivers; do
    case $d in
      latency) cmd=(mpiexec -n 2 "$build/drivers/latency" --noplot --no-progress) ;;
      coll) cmd=(mpiexec -n 2 "$build/drivers/mpilat-coll" --ops allreduce,bcast --sizes 8 --noplot --noprogress) ;;
      *) echo "campaign.sh: unknown driver $d" >&2; exit 2 ;;
    esac
    t0=$(date +%s.%N)
    "$build/drivers/mpilat-campaign" --launches "$launches" --interval "$interval" --noplot --no-progress --outdir "$work/$d-$c" -- "${cmd[@]}" \
      > /dev/null 2> "$work/$d-$c.err" || echo "campaign $d-$c: exit $?" >&2
    t1=$(date +%s.%N)
    echo "$d campaign $c: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
  done
done
for d in $drivers; do python3 "$here/campaign_coverage.py" "$d" "$work"/"$d"-*/campaign.json; done
