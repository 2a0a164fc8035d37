#!/bin/bash
# test_cluster.sh PROJECT DRIVERS_DIR MPIEXEC
# The drivers across nodes, checked against a truth made here (issue 31): scripts/cluster.sh brings up
# namespaced nodes (own hostname, IPC and network namespace; addresses from 198.18.0.0/15; MPI only on their
# veths, over TCP), with each link shaped to a known rate. Checked: latency between two nodes against within
# one (the files name both hosts), mmpi on 2 nodes x 2 ranks (the node blocks), nodecomm through a link of
# R MB/s (the large-message rate within 15 % of R; K = 1 pair: RN and k* said unidentifiable; K = 2 pairs
# through 60 MB/s: the fit's RN per direction within 15 %),
# mpilat-coll across two nodes, every MPI driver run to its exit between two nodes (none hangs in
# MPI_Finalize), and a node's link taken down mid-run (--timeout names the rank, partial files).
# MPICH's hydra only (the launcher that takes -launcher-exec); root (namespaces): otherwise skipped (77).
# The cluster comes down on any exit (trap), and no rank is left behind.
set -u
project=$1 drivers=$2 mpiexec=$3
# shellcheck source=../driver/checks.sh
. "$project/tests/driver/checks.sh"
cluster="bash $project/scripts/cluster.sh"
[ "$(id -u)" = 0 ] || { echo "skipped: needs root (network namespaces)"; exit 77; }
$mpiexec --version 2>&1 | grep -q HYDRA || { echo "skipped: the launcher is not MPICH's hydra"; exit 77; }

cleanup() {
  # Only what this test started (by id: its descendants; the ranks in its namespaces go with them in
  # `cluster.sh down`), never others' runs of the same build.
  local left
  left=$(descendants $$)
  [ -z "$left" ] || kill -9 $left 2> /dev/null
  $cluster down
  cd / && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

$cluster up 2 || { echo "FAIL: cluster.sh up"; exit 1; }
# Another process (another user's test, a second session) cannot tear this cluster down: its `up` and `down`
# are refused while this test lives, and the nodes stay (issue 45: `up` used to remove whatever was recorded).
bash -c "$cluster up 2; exit \$?" > other_up.err 2>&1  # a process of its own (no exec: the caller is not this test)
[ $? = 2 ] && grep -q "belongs to process $$, still running: not touched" other_up.err && ok \
  || bad "another process's cluster.sh up: $(cat other_up.err)"
bash -c "$cluster down; exit \$?" > other_down.err 2>&1
[ $? = 2 ] && ip netns list | grep -q '^mpi_node1\b' && ok || bad "another process's cluster.sh down: $(cat other_down.err)"
eval "$($cluster env)"
launch=($MPILAT_CLUSTER_LAUNCH)
# run NAME SECONDS HOSTS NP PROGRAM ARGS...: the program across the nodes, in directory NAME, its status in $rc.
run() {
  local name=$1 limit=$2 hosts=$3 np=$4
  shift 4
  mkdir -p "$name"
  (cd "$name" && timeout -k 5 "$limit" $mpiexec "${launch[@]}" -hosts "$hosts" -n "$np" "$@" > out 2> err)
  rc=$?
  [ "$rc" = 124 ] || [ "$rc" = 137 ] && echo "$name: still running after $limit s: $(tail -3 "$name/err")"
  return 0
}
# ended NAME: the run in NAME exited 0, also where its ranks left MPI_Finalize through the drivers' watch
# after UCX's TCP teardown hang (openucx/ucx#8738; the ranks say so): the watch finalizes PMI first, so
# MPICH's launcher reports the run's status (it reported 255, or 1, before). A hang fails by the time limit.
ended() {
  # 4: a complete latency run whose --precision was not met within its limit (stdout says so): its files whole.
  [ "$rc" = 0 ] || { [ "$rc" = 4 ] && grep -q 'PRECISION NOT MET' "$1/out"; } || return 1
  grep -q 'MPI_Finalize did not return within' "$1/err" && echo "$1: ended by the MPI_Finalize watch, status 0"
  return 0
}
veth_packets() { cat /sys/class/net/mlcv0/statistics/rx_packets; }

# ---- latency between two nodes, against within one: the files name both hosts, TCP is slower than memory -----
before=$(veth_packets)
# (--precision 50, 2 s at most: the placement probe needs a node shared by source and dest: not measured here,
# measured within)
run lat_between 120 node0:1,node1:1 2 "$drivers/latency" --quick --noplot --precision 50 --precision-limit 2
ended lat_between && ok || bad "latency between nodes: exit $rc ($(cat lat_between/err))"
[ $(($(veth_packets) - before)) -gt 1000 ] && ok || bad "latency between nodes: its messages did not cross the veth"
grep -q '^source = rank 0, host node0' lat_between/latency.output && grep -q '^dest = rank 1, host node1' lat_between/latency.output \
  && grep -q '^share a node = no' lat_between/latency.output && ok || bad "latency between nodes: hosts ($(grep -E '^(source|dest|share)' lat_between/latency.output))"
# Within node1, rank 0 idle on node0: the places number nodes among all the ranks (node1 is node 1), not
# among the pair's (where it would be node 0).
run lat_within 120 node0:1,node1:2 3 "$drivers/latency" --quick --noplot --source 1 --dest 2 --precision 50 --precision-limit 2
ended lat_within && ok || bad "latency within a node: exit $rc ($(cat lat_within/err))"
grep -q '^dest = rank 2, host node1' lat_within/latency.output && grep -q '^share a node = yes' lat_within/latency.output \
  && ok || bad "latency within a node: hosts"
python3 -c "import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if (j['source']['node'], j['dest']['node']) == (1, 1) else 1)" \
  lat_within/latency.json && ok || bad "latency within node1: nodes numbered among the pair, not all ranks"
placement() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['precision']['placement']['lines'])" "$1"; }
[ "$(placement lat_between/latency.json)" = 0 ] && grep -q 'the placement probe did not run (source and dest on two nodes)' \
  lat_between/latency.output && ok || bad "latency between nodes: the placement probe measured across nodes"
[ "$(placement lat_within/latency.json)" = 64 ] && ok || bad "latency within node1: the placement probe did not measure"
median() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['filtered']['stats']['median_us'])" "$1"; }
between=$(median lat_between/latency.json) within=$(median lat_within/latency.json)
echo "latency: median $between us between two nodes (TCP over veth), $within us within one (shared memory)"
python3 -c "import sys; b, w = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if b > 1.5 * w else 1)" "$between" "$within" \
  && ok || bad "latency: between nodes ($between us) not above within a node ($within us)"

# ---- mmpi on 2 nodes x 2 ranks: node blocks -----------------------------------------------------------------
run mmpi 180 node0:2,node1:2 4 "$drivers/mmpi" --quick --noprogress
ended mmpi && ok || bad "mmpi: exit $rc ($(cat mmpi/err))"
python3 - mmpi/ammpi_4_64_10.json <<'PY' && ok || bad "mmpi: node blocks"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["run"]["nnodes"] == 2, j["run"]
assert [(r["host"], r["node"]) for r in j["ranks"]] == [("node0", 0), ("node0", 0), ("node1", 1), ("node1", 1)], j["ranks"]
m = j["matrices"]["avg_us"] if "avg_us" in j["matrices"] else j["matrices"]["mean_us"]
# (4 ranks on 2 cores: within a node the pairs wait for the scheduler as much as for memory, so the two
# kinds of pair are shown, not compared)
print("mmpi: within a node", [m[0][1], m[2][3]], "us, across", [m[0][2], m[0][3], m[1][2], m[1][3]], "us")
PY
grep -q 'node0 001 node1 002' mmpi/ammpi_4_64_10.dat && ok || bad "mmpi: hostnames in the log"
"$drivers/mmpi2mat" mmpi/ammpi_4_64_10.dat > mmpi2mat.out 2>&1 && grep -q '4 ranks on 2 host(s)' mmpi2mat.out && ok \
  || bad "mmpi2mat: $(cat mmpi2mat.out)"
[ "$(grep -c '^set arrow from 1.5' mmpi/ammpi_4_64_10_heatmap.gp)" = 1 ] && grep -q "x2tics ('node0' 0.5, 'node1' 2.5)" \
  mmpi/ammpi_4_64_10_heatmap.gp && ok || bad "mmpi2mat: the node blocks' boundary at 1.5 and the host labels"

# ---- every other driver to its exit between two nodes ---------------------------------------------------------
run mpptest 180 node0:1,node1:1 2 "$drivers/mpptest" -sizelist 0,1024,65536 -sample_reps 3 -n_stable 0 -noplot -noprogress
ended mpptest && ok || bad "mpptest: exit $rc ($(cat mpptest/err))"
# A small grid (posted queues of 0, 50 and 100, all three fractions): --quick's lengths to 1000 took 31 s over
# the namespaces' TCP, and this checks the run to its end, not the figures.
run queuelat 180 node0:1,node1:1 2 "$drivers/queuelat" --lengths 0:100:50 --fractions 0,50,100 --iters 10 --reps 2 \
  --nr 4096 --noprogress --noplot
ended queuelat && ok || bad "queuelat: exit $rc ($(cat queuelat/err))"
run coll 180 node0:1,node1:1 2 "$drivers/mpilat-coll" --ops barrier,bcast,allreduce --sizes 8 --reps 200 --noprogress --noplot
ended coll && ok || bad "mpilat-coll: exit $rc ($(cat coll/err))"
python3 - coll/*.json <<'PY' && ok || bad "mpilat-coll: across two nodes"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["run"]["nnodes"] == 2 and j["run"]["root_host"] == "node0", j["run"]
assert j["run"]["rounds"] == 200 and not j["run"]["partial"], j["run"]
print("mpilat-coll: clocks across two nodes:", {k: j["clocks"][k] for k in ("error_bound_us", "residual_max_us", "rtt_min_us")})
PY

# ---- nodecomm through a link of R MB/s, K = 1: the large-message rate within 15 % of R -----------------------
# The slope between the large sizes (T/2 = alpha + n / rate): the shaper's burst and TCP's start-up are in
# alpha, not in the slope.
rate=100
$cluster shape node0 $rate && $cluster shape node1 $rate || bad "cluster.sh shape"
run nodecomm 300 node0:1,node1:1 2 "$drivers/nodecomm" --sizes 131072,262144,393216,524288 --reps 2 --noprogress --noplot
ended nodecomm && ok || bad "nodecomm between two nodes: exit $rc ($(cat nodecomm/err))"
python3 - nodecomm/nodecomm.json $rate <<'PY' && ok || bad "nodecomm: the rate of the shaped link"
import json, sys
j = json.load(open(sys.argv[1]))
r = float(sys.argv[2])
m = j["measurement"]
assert m["host_a"] == "node0" and m["host_b"] == "node1" and m["intra_node"] is False, m
pts = sorted((p["bytes"], p["min_us"]) for p in j["points"] if p["k"] == 1)
n = [b for b, _ in pts]
t = [us / 2 for _, us in pts]  # one way
mn, mt = sum(n) / len(n), sum(t) / len(t)
slope = sum((a - mn) * (b - mt) for a, b in zip(n, t)) / sum((a - mn) ** 2 for a in n)  # us per byte
measured = 1.0 / slope  # bytes per us = MB/s
print(f"nodecomm: large-message rate {measured:.1f} MB/s through a link shaped to {r:g} MB/s")
assert abs(measured - r) < 0.15 * r, measured
PY
grep -q "K = 1: one pair cannot tell the network's rate from a core's" nodecomm/out && ok || bad "nodecomm K = 1: not said"

# ---- nodecomm with K = 2 pairs through a link of 60 MB/s: the fit's RN per direction within 15 % of it -------
# Messages of 1 to 4.5 MiB: tbf lets a bucket of 64 KB through at once each time the idle direction refills,
# which puts an intercept of about -2 ms into every time (2 x 64 KB / 60 MB/s); the fit's alpha >= 0 then
# flattens the slope of messages of 128-768 KiB (RN per direction 67-72 MB/s through 60) and not of these.
# 8 sizes x 2 pairs: 16 observations, enough for a verdict. Both the table and the JSON say which rate is which.
rate=60
$cluster shape node0 $rate && $cluster shape node1 $rate || bad "cluster.sh shape"
run nodecomm2 300 node0:2,node1:2 4 "$drivers/nodecomm" --sizes 1048576:4718592:524288 --reps 3 --noprogress --noplot
ended nodecomm2 && ok || bad "nodecomm K = 2 between two nodes: exit $rc ($(cat nodecomm2/err))"
python3 - nodecomm2/nodecomm.json $rate <<'PY' && ok || bad "nodecomm K = 2: RN per direction against the shaped link"
import json, sys
j = json.load(open(sys.argv[1]))
r = float(sys.argv[2])
assert j["measurement"]["kmax"] == 2, j["measurement"]
# The best-supported regime: 4 ranks on 2 cores are noisy, and fresh runs have cut the range in two (5 + 3
# sizes; a CI run under other load gave 62 MB/s for the five and 74, "misfit", for the three). The figure
# checked is that of the regime with the most sizes, the larger sizes' on a tie.
regimes = j["fit"]["regimes"]
for g in regimes:
    x = g["models"]["max-rate 3-parameter"]
    print(f"nodecomm K = 2, {g['name']} {g['first_bytes']}..{g['last_bytes']}: RN {x['rn_mbs']} MB/s per round trip, "
          f"{x['rn_per_direction_mbs']} per direction, through a link shaped to {r:g} MB/s; verdict {x['verdict']}")
sizes = {p["bytes"] for p in j["points"]}
held = [sum(g["first_bytes"] <= n <= g["last_bytes"] for n in sizes) for g in regimes]
best = max(range(len(regimes)), key=lambda i: (held[i], i))
m = regimes[best]["models"]["max-rate 3-parameter"]
assert m["rates_are"].startswith("per round trip"), m["rates_are"]
rn = m["rn_per_direction_mbs"]
assert abs(m["rn_mbs"] * 2 - rn) < 1e-9 * rn
assert abs(rn - r) < 0.15 * r, rn
PY
grep -q "rates in MB/s as 'per round trip / per direction'" nodecomm2/nodecomm_fit.txt && grep -Eq '^RN rt / dir|RN rt / dir' nodecomm2/nodecomm_fit.txt \
  && ok || bad "nodecomm K = 2: Table 1 does not show both rates"
$cluster shape node0 0 && $cluster shape node1 0

# ---- a node's link taken down mid-run: the watchdog names the rank and the job ends -------------------------
# Once the watchdog has spoken the link comes back, as after a switch's restart: MPICH's launcher must reach
# node1's proxy to end the job (with the link down for good it waits for TCP to give up, 15 minutes). Where
# rank 0 was in a polled wait its timeout writes the trials measured, marked partial; where it was inside a
# blocking timed loop the job is ended at once and nothing is written: files, if any, are whole and partial.
mkdir -p cut
(cd cut && exec timeout -k 5 120 $mpiexec "${launch[@]}" -hosts node0:1,node1:1 -n 2 "$drivers/latency" --nr 1000 --npp 1 \
   --no-estimate --ntrial 200000000 --progress --timeout 2 --noplot > out 2> err) &
job=$!
for _ in $(seq 1 150); do grep -q 'ping-pong trials' cut/err 2> /dev/null && break; sleep 0.2; done
sleep 1
$cluster cut node1
cut_at=$(date +%s)
for _ in $(seq 1 100); do grep -q 'timeout: no answer' cut/err && break; sleep 0.2; done
$cluster mend node1
wait "$job"
rc=$?
echo "link cut: the job ended $(($(date +%s) - cut_at)) s after the cut, status $rc"
# (124 is also the watchdog's own status when it ends the job from inside a timed loop: the time says
# whether the outer timeout of 120 s did it)
[ "$rc" != 0 ] && ok || bad "link cut: exit $rc ($(tail -3 cut/err))"
[ $(($(date +%s) - cut_at)) -lt 30 ] && ok || bad "link cut: the job took $(($(date +%s) - cut_at)) s to end"
grep -Eq "rank 0: timeout: no answer from rank 1 within [0-9.]+ s" cut/err && ok || bad "link cut: rank not named ($(tail -5 cut/err))"
if [ -e cut/latency.summary.output ]; then
  grep -q 'PARTIAL RESULTS: the run was stopped (a peer did not answer' cut/latency.summary.output && ok \
    || bad "link cut: files not marked partial"
fi
ls -a cut | grep -q '^\.mpilat-' && bad "link cut: temporary files left" || ok

# `down --force` from another process removes the cluster all the same (by hand, for a cluster whose owner is
# stuck): the namespaces, the bridge and the record go.
bash -c "$cluster down --force; exit \$?" > forced.err 2>&1
[ $? = 0 ] && ! ip netns list | grep -q '^mpi_node[01]\b' && ! ip link show mlcbr0 > /dev/null 2>&1 \
  && [ ! -e /run/mpilat-cluster ] && ok || bad "cluster.sh down --force from another process: $(cat forced.err)"

finish_checks cluster
