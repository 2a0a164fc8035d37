#!/bin/bash
# campaign_cluster.sh BUILD_DIR [CAMPAIGNS] [LAUNCHES] [KEEP_DIR]: bench/campaign.sh's question between two
# nodes: CAMPAIGNS campaigns (default 10) of LAUNCHES launches (default 10) of `latency --quick` between node0
# and node1 of the namespaced test cluster (scripts/cluster.sh, unshaped veths through a bridge, TCP), then
# bench/campaign_coverage.py. Needs root; the cluster is removed at the end.
set -euo pipefail
build=$1 campaigns=${2:-10} launches=${3:-10} keep=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
cluster="$here/../scripts/cluster.sh"
# shellcheck source=work_dir.sh
. "$here/work_dir.sh"
bench_work_dir campaign_cluster.sh "$keep"
trap 'bash "$cluster" down > /dev/null 2>&1 || true; bench_work_cleanup' EXIT
bash "$cluster" up 2
eval "$(bash "$cluster" env)"
read -r -a launch <<< "$MPILAT_CLUSTER_LAUNCH"
for c in $(seq "$campaigns"); do
  t0=$(date +%s.%N)
  "$build/drivers/mpilat-campaign" --launches "$launches" --noplot --no-progress --outdir "$work/cluster-$c" -- \
    mpiexec "${launch[@]}" -hosts node0:1,node1:1 -n 2 "$build/drivers/latency" --noplot --no-progress \
    > /dev/null 2> "$work/cluster-$c.err" || echo "campaign $c: exit $?" >&2
  echo "cluster campaign $c: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
done
python3 "$here/campaign_coverage.py" cluster "$work"/cluster-*/campaign.json
