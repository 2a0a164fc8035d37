#!/bin/bash
# test_mmpi_driver.sh MMPI MMPI2MAT DATA_DIR "MPIEXEC [flags]" FAKESSH
# mmpi and mmpi2mat as a user runs them: the log's exact layout and name, the JSON, both schedules (5 ranks:
# a rank rests in each round), every pair measured `repeats` times, mmpi2mat's matrices, CSV and heat map,
# logs of the 2009 program (dotted hosts, wide rank fields), broken logs, bad input (exit 2, a message
# naming the value, no file), a stop by SIGTERM, and, with MPICH, two "nodes" on this machine (fakessh:
# hostnames of their own) and ranks bound to cores. Never a timing value.
set -u
mmpi=$1 mmpi2mat=$2 data=$3 mpiexec=$4 fakessh=$5
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# ---- 4 ranks, sequential schedule, the default name
$mpiexec -n 4 "$mmpi" --quick --noprogress > seq.out 2> seq.err || bad "sequential run exited $? ($(cat seq.err))"
log=ammpi_4_64_10.dat
[ -s $log ] && [ -s ammpi_4_64_10.json ] && ok || bad "default names: $(ls)"
ls -a | grep -q '^\.mpilat-' && bad "temporary files left behind" || ok
grep -Eq '^# Testing Hostname: [^ ]+$' <(sed -n 1p $log) && ok || bad "line 1: $(sed -n 1p $log)"
[ "$(sed -n 2p $log)" = "# Processors: 4 MsgLen 64 Repeats: 10" ] && ok || bad "line 2: $(sed -n 2p $log)"
[ "$(sed -n 3p $log)" = "# ProcName1:rank ProcName2:rank AvgCommTime(usecs) StdDev" ] && ok || bad "line 3"
# 4 ranks on this 2-processor machine: waiting ranks yield, and both the log's header and stderr say so.
grep -q '^# yield mode: waiting ranks yielded their processor' $log && ok || bad "log: yield mode not said"
grep -q '^mmpi: yield mode: more ranks than processors on a node' seq.err && ok || bad "stderr: yield mode not said ($(cat seq.err))"
# The comments before the pairs: the layout's 3, the yield mode's, and where the run was disturbed (4 ranks on 2
# processors usually are: docs/method.md, "A disturbed run") its WARNING, first after the layout's three.
hdr=$(awk '/^#/ { n++; next } { exit } END { print n }' $log)
{ [ "$hdr" = 4 ] || { [ "$hdr" = 5 ] && sed -n 4p $log | grep -q '^# WARNING: the machine disturbed the run: rank '; }; } &&
  ok || bad "the comments before the pairs: $hdr ($(sed -n 4,5p $log))"
[ "$(grep -vc '^#' $log)" = 10 ] && [ "$(wc -l < $log)" = $((hdr + 10)) ] && ok || bad "10 pair lines (i <= j) after $hdr header lines expected: $(wc -l < $log) lines"
# One line per pair i <= j in mmpi's order, ranks as %03d, times with 2 decimals, the diagonal 0.00 0.00.
awk 'NR > 3 && !/^#/ { if ($0 !~ /^[^ ]+ [0-9][0-9][0-9] [^ ]+ [0-9][0-9][0-9] [0-9]+\.[0-9][0-9] [0-9]+\.[0-9][0-9]$/) exit 1
              want_j++; if (want_j == 4) { want_i++; want_j = want_i }
              if ($2 + 0 != want_i || $4 + 0 != want_j) exit 2
              if ($2 == $4 && ($5 != "0.00" || $6 != "0.00")) exit 3 }' want_i=0 want_j=-1 $log && ok || bad "pair lines ($?)"
json_fields ammpi_4_64_10.json
python3 - ammpi_4_64_10.json <<'PY' && ok || bad "json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "mpilat-pairs" and j["run"]["nprocs"] == 4 and j["run"]["partial"] is False
m = j["method"]
assert m["schedule"] == "sequential" and m["pairs"] == 6 and m["steps"] == 60 and m["round_trips"] == 60
c = j["matrices"]["count"]
assert all(c[i][k] == (0 if i == k else 10) for i in range(4) for k in range(4))
for name in ("mean_us", "stddev_us", "stderr_us", "min_us", "median_us", "max_us"):
    a = j["matrices"][name]
    assert all(a[i][k] == a[k][i] for i in range(4) for k in range(4)) and all(a[i][i] == 0 for i in range(4))
assert [r["rank"] for r in j["ranks"]] == [0, 1, 2, 3] and all(r["host"] for r in j["ranks"])
PY
grep -q "mean round trip per pair" seq.out && ok || bad "summary on stdout"
grep -q "^mmpi: 4 ranks, 6 pairs" seq.err && ok || bad "start line on stderr"

# ---- -o is a path by design: a symlink there is replaced by the log, never written through (rename).
echo "victim" > victim.txt
ln -s "$PWD/victim.txt" linked.dat
$mpiexec -n 2 "$mmpi" --repeats 3 --noprogress -o linked.dat > /dev/null 2> link.err || bad "-o linked.dat: $(cat link.err)"
[ "$(cat victim.txt)" = victim ] && [ -f linked.dat ] && [ ! -L linked.dat ] && grep -q '^# Processors: 2' linked.dat \
  && ok || bad "-o through a symlink: victim '$(head -c 80 victim.txt)', $(ls -l linked.dat)"

# ---- 5 ranks, rounds, -o into a directory
mkdir sub
$mpiexec -n 5 "$mmpi" --schedule rounds --repeats 3 --noprogress -o sub/r.dat > rounds.out 2> rounds.err \
  || bad "rounds run exited $? ($(cat rounds.err))"
[ -s sub/r.dat ] && [ -s sub/r.json ] && ok || bad "-o sub/r.dat: $(ls sub)"
python3 - sub/r.json <<'PY' && ok || bad "rounds json"
import json, sys
j = json.load(open(sys.argv[1]))
m = j["method"]
assert m["schedule"] == "rounds" and m["steps_per_repeat"] == 5 and m["steps"] == 15 and m["round_trips"] == 30
c = j["matrices"]["count"]
assert all(c[i][k] == (0 if i == k else 3) for i in range(5) for k in range(5))
PY

# ---- a pair matrix's JSON too large to parse under the memory limit (ulimit -v): refused before parsing,
# exit 1, naming the file and the limit, nothing written (issue 45: nlohmann-json's std::bad_alloc aborted,
# exit 134); the same limit reads the JSON of the run above.
python3 -c "open('dense.json', 'w').write('{\"format\": \"mpilat-pairs\", \"junk\": [' + ','.join(['0'] * 4_000_000) + ']}')"
mkdir dense_out && cd dense_out
( ulimit -v 200000; $mmpi2mat ../dense.json > ../dense.out 2> ../dense.err ); status=$?
cd ..
[ "$status" = 1 ] && grep -q "mmpi2mat: .*dense.json: reading its [0-9]* bytes may take up to .* more than the memory limit leaves" dense.err \
  && [ -z "$(ls -A dense_out)" ] && ok || bad "memory limit: mmpi2mat exit $status ($(cat dense.err); $(ls -A dense_out))"
rm -f dense.json
# ---- mmpi2mat on that log: matrices equal to the log's numbers, CSV, heat map
$mmpi2mat $log > m2m.out 2> m2m.err || bad "mmpi2mat exited $? ($(cat m2m.err))"
for f in ammpi_4_64_10_comm.dat ammpi_4_64_10_var.dat ammpi_4_64_10.csv ammpi_4_64_10_heatmap.gp \
         ammpi_4_64_10_heatmap.png ammpi_4_64_10_heatmap.svg; do [ -s $f ] && ok || bad "$f missing"; done
[ -s m2m.err ] && bad "mmpi2mat wrote on stderr: $(cat m2m.err)" || ok
python3 - $log ammpi_4_64_10_comm.dat ammpi_4_64_10_var.dat <<'PY' && ok || bad "matrices against the log"
import sys
mean, var = [[float(x) for x in l.split()] for l in open(sys.argv[2])], [[float(x) for x in l.split()] for l in open(sys.argv[3])]
assert len(mean) == 4 and all(len(r) == 4 for r in mean + var)
for line in open(sys.argv[1]):
    if line.startswith("#"): continue
    f = line.split(); i, k = int(f[1]), int(f[3])
    assert mean[i][k] == mean[k][i] == float(f[4]) and var[i][k] == var[k][i] == float(f[5])
PY
head -c 8 ammpi_4_64_10_heatmap.png | od -An -c | grep -q 'P   N   G' && ok || bad "not a PNG"
grep -q '<svg' ammpi_4_64_10_heatmap.svg && grep -q 'µs' ammpi_4_64_10_heatmap.svg && ok || bad "svg, colour bar in µs"
(rm ammpi_4_64_10_heatmap.png && gnuplot ammpi_4_64_10_heatmap.gp 2> gp.err && [ -s ammpi_4_64_10_heatmap.png ]) \
  && ok || bad "gnuplot heatmap.gp by itself: $(cat gp.err)"
[ "$(wc -l < ammpi_4_64_10.csv)" = 7 ] && ok || bad "csv: header and 6 pairs"
# A log holds the mean and standard deviation only: the CSV has those columns and no empty ones; the heat map
# is of the mean, on a logarithmic colour scale, and its title says so.
[ "$(head -1 ammpi_4_64_10.csv)" = "rank_i,host_i,node_i,rank_j,host_j,node_j,mean_us,stddev_us" ] && ok || bad "csv header: $(head -1 ammpi_4_64_10.csv)"
! grep -q ',,\|,$' ammpi_4_64_10.csv && ok || bad "csv: empty columns"
grep -q "mean round trip (log colour scale)" ammpi_4_64_10_heatmap.gp && grep -q '^set logscale cb' ammpi_4_64_10_heatmap.gp && ok ||
  bad "heat map of the log: not the mean on a log scale"
# Our JSON: every statistic, the median's heat map by default, the mean's with --mean.
mkdir fromjson
$mmpi2mat --noplot --outdir fromjson ammpi_4_64_10.json > j.out 2> j.err || bad "mmpi2mat on the JSON: $(cat j.err)"
[ "$(head -1 fromjson/ammpi_4_64_10.csv)" = "rank_i,host_i,node_i,rank_j,host_j,node_j,mean_us,stddev_us,stderr_us,min_us,median_us,max_us,count" ] \
  && ok || bad "csv from the JSON: $(head -1 fromjson/ammpi_4_64_10.csv)"
grep -q "median round trip (log colour scale)" fromjson/ammpi_4_64_10_heatmap.gp && ok || bad "heat map from the JSON: not the median"
python3 - <<'PY' && ok || bad "the median's heat map holds the JSON's medians"
import json
j = json.load(open("ammpi_4_64_10.json"))
rows = open("fromjson/ammpi_4_64_10_heatmap.gp").read().split("$mean << EOD\n")[1].split("EOD")[0].split("\n")[:4]
m = [[float(x) for x in r.split()] for r in rows]
assert all(abs(m[i][k] - j["matrices"]["median_us"][i][k]) < 1e-6 for i in range(4) for k in range(4) if i != k), m
PY
$mmpi2mat --noplot --mean --outdir fromjson ammpi_4_64_10.json > /dev/null 2>&1 && grep -q "mean round trip" fromjson/ammpi_4_64_10_heatmap.gp \
  && ok || bad "mmpi2mat --mean"
echo '{"format": "mpilat-latency"}' > notpairs.json
# A log's host names reach the heat map's gnuplot script quoted: a quote and system(...) run nothing.
mkdir hostile
sed "s|tg-login4|x'; system('touch $(pwd)/PWNED'); y='|" \
  "$data/mmpi/paper_example.dat" > hostile/hostile.dat
(cd hostile && $mmpi2mat hostile.dat > ../hostile.out 2> ../hostile.err) || bad "mmpi2mat on hostile host names: $(cat hostile.err)"
[ ! -e PWNED ] && ok || bad "a host name in a log ran a command through gnuplot"
[ -s hostile/hostile_heatmap.png ] && ok || bad "hostile host names: no heat map ($(ls hostile))"
$mmpi2mat --base "$(printf 'a\nb')" "$data/mmpi/paper_example.dat" > /dev/null 2> nl.err; rc=$?
[ "$rc" = 2 ] && grep -q "\-\-base 'a.x0ab': must not hold control characters" nl.err && ok || bad "--base with a newline: exit $rc ($(cat nl.err))"
$mmpi2mat --base .. "$data/mmpi/paper_example.dat" > /dev/null 2> dots.err; rc=$?
[ "$rc" = 2 ] && grep -q "\-\-base '..': must be a file name" dots.err && ok || bad "--base ..: exit $rc ($(cat dots.err))"

$mmpi2mat notpairs.json > b.out 2> b.err; rc=$?
[ "$rc" = 2 ] && grep -q "notpairs.json: not the JSON of a pair matrix" b.err && ok || bad "another JSON: rc $rc $(cat b.err)"
# A NUL byte ends nlohmann-json's input: a pair JSON with one and bytes behind it is refused, not read to the NUL.
(cat ammpi_4_64_10.json; printf '\0{"rest": "never read"}') > nul.json
$mmpi2mat --noplot nul.json > nul.out 2> nul.err; rc=$?
[ "$rc" = 2 ] && grep -q "nul.json: not the JSON of a pair matrix" nul.err && [ ! -e nul.csv ] && ok || bad "a NUL byte: rc $rc $(cat nul.err)"

# ---- logs of the 2009 program: the paper's sample (tabs, header over two lines)
cp "$data/mmpi/paper_example.dat" .
$mmpi2mat --noplot --base paper paper_example.dat > p.out 2> p.err || bad "paper sample: $(cat p.err)"
[ "$(head -1 paper_comm.dat)" = "0 10.44 20.07 24.34" ] && ok || bad "paper sample row 1: $(head -1 paper_comm.dat)"
grep -q '4 ranks on 2 host(s)' p.out && ok || bad "paper sample: hosts as nodes"
[ ! -e paper_heatmap.png ] && [ -s paper_heatmap.gp ] && ok || bad "--noplot"
# 1001 ranks: the rank fields grow to 4 digits past 999, as %03d does.
awk 'BEGIN { n = 1001; print "# Testing Hostname: login1.frontera.tacc.utexas.edu"
             printf "# Processors: %d MsgLen 64 Repeats: 100\n", n
             print "# ProcName1:rank ProcName2:rank AvgCommTime(usecs) StdDev"
             for (i = 0; i < n; i++) for (j = i; j < n; j++)
               printf "c%03d.frontera.tacc.utexas.edu %03d c%03d.frontera.tacc.utexas.edu %03d %.2f %.2f\n", \
                 int(i / 56), i, int(j / 56), j, (i == j ? 0 : (int(i / 56) == int(j / 56) ? 1.5 : 4.25)), (i == j ? 0 : 0.1) }' \
  > wide.dat
$mmpi2mat --noplot wide.dat > w.out 2> w.err || bad "1001 ranks: $(cat w.err)"
grep -q '1001 ranks on 18 host(s)' w.out && ok || bad "1001 ranks: $(cat w.out)"
awk 'END { if (NR != 1001 || NF != 1001) exit 1 } NR == 1001 { if ($1 != 4.25 || $1000 != 1.5 || $1001 != 0) exit 2 }' \
  wide_comm.dat && ok || bad "1001 x 1001 matrix ($?)"
[ "$(grep -c '^set arrow' wide_heatmap.gp)" = 34 ] && ok || bad "node boundaries: 17 x 2 arrows"

# ---- broken logs: exit 2, the line named, nothing written
head -n $((hdr + 4)) $log > broken.dat
$mmpi2mat broken.dat > b.out 2> b.err; rc=$?
[ "$rc" = 2 ] && ok || bad "truncated log exited $rc"
grep -q "broken.dat:$((hdr + 4)): the log ends without the pair (1, 2)" b.err && ok || bad "truncated log: $(cat b.err)"
ls broken_* > /dev/null 2>&1 && bad "files written for a broken log" || ok
awk -v at=$((hdr + 1)) 'NR == at { $5 = "fast" } { print }' $log > broken2.dat
$mmpi2mat broken2.dat > b.out 2> b.err; rc=$?
[ "$rc" = 2 ] && grep -q "broken2.dat:$((hdr + 1)): expected '<host> <rank> <host> <rank> <AvgCommTime> <StdDev>'" b.err \
  && ok || bad "bad number: rc $rc $(cat b.err)"
$mmpi2mat nothere.dat > b.out 2> b.err; rc=$?
[ "$rc" = 2 ] && grep -q "cannot open nothere.dat" b.err && ok || bad "missing log: rc $rc $(cat b.err)"
$mmpi2mat --outdir /proc/nonexistent $log > b.out 2> b.err; rc=$?
[ "$rc" = 2 ] && grep -q -- "--outdir '/proc/nonexistent'" b.err && ok || bad "mmpi2mat --outdir: rc $rc $(cat b.err)"
$mmpi2mat > b.out 2> b.err; [ $? = 2 ] && grep -q "log is required" b.err && ok || bad "mmpi2mat without a log"

# ---- mmpi: bad input
expect_bad() {
  local want=$1 np=$2
  shift 2
  rm -rf bad && mkdir bad
  (cd bad && $mpiexec -n "$np" "$mmpi" --noprogress "$@" > ../bad.out 2> ../bad.err)
  local rc=$?
  [ "$rc" = 2 ] && ok || bad "$* exited $rc, not 2"
  grep -q -- "$want" bad.err && ok || bad "$*: message lacks '$want': $(cat bad.err)"
  [ -z "$(ls -A bad)" ] && ok || bad "$*: files written: $(ls -A bad)"
}
expect_bad "msg_bytes must be in 0..2147483647, got -1" 2 --msglen -1
expect_bad "repeats must be >= 1, got 0" 2 --repeats 0
expect_bad "--schedule 'fast': must be sequential or rounds" 2 --schedule fast
expect_bad "--wait 'sometimes'" 2 --wait sometimes
expect_bad "a pair matrix needs at least 2 processes, the communicator has 1" 1
expect_bad "-o 'out/': must name a file" 2 -o out/
expect_bad "'/proc/nonexistent'" 2 --outdir /proc/nonexistent
expect_bad "--timer 'sundial'" 2 --timer sundial
$mpiexec -n 2 "$mmpi" --help > help.out 2>&1 && grep -q -- '--schedule' help.out && ok || bad "--help"
# The defaults shown are the library's (lat_*_defaults), not copies typed into the help text.
grep -Eq -- '--msglen INT=64 ' help.out && grep -Eq -- '--repeats INT=100 ' help.out && ok || bad "--help: the library's defaults"

# ---- SIGTERM to the ranks: the round trips so far, marked partial, exit 3
mkdir stopped
(cd stopped && exec $mpiexec -n 2 "$mmpi" --repeats 100000000 --noprogress > ../stop.out 2> ../stop.err) &
job=$!
sleep 3
# To the ranks, as a batch system's time limit does (MPICH's mpiexec, signalled itself, exits 0 whatever
# the ranks return).
# As Slurm sends it: SIGTERM, then SIGCONT and SIGTERM 10 ms later; one request to stop. A process of the same
# name and command line that this test did not start (another user's run; here sleep named mmpi, its command
# line holding the pattern, parented elsewhere) is not touched: the test signals its own processes only.
mkdir decoy && cp "$(command -v sleep)" decoy/mmpi
(setsid bash -c 'exec -a "mmpi --repeats 100000000 decoy" "$0" 30' "$PWD/decoy/mmpi" < /dev/null > /dev/null 2>&1 &)
sleep 0.2
decoy=$(pgrep -f -- "^mmpi --repeats 100000000 decoy 30$")
slurm_stop mmpi "--repeats 100000000"
wait $job; rc=$?
# Alive, not a zombie (an orphan's parent may reap it late).
[ -n "$decoy" ] && [ "$(awk '/^State:/ {print $2}' "/proc/$decoy/status" 2> /dev/null)" = S ] && ok \
  || bad "slurm_stop signalled a process this test did not start"
[ -n "$decoy" ] && kill "$decoy"  # by its id
[ "$rc" = 3 ] && ok || bad "SIGTERM: exit $rc, not 3 ($(cat stop.err))"
grep -q '^# PARTIAL' stopped/ammpi_2_64_100000000.dat && ok || bad "log not marked partial"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['run']['partial'] and 0 < j['matrices']['count'][0][1] < 100000000" \
  stopped/ammpi_2_64_100000000.json && ok || bad "json partial with the count"

# ---- MPICH only: two "nodes" (fakessh: each host its own hostname), ranks bound to cores
if $mpiexec --version 2>&1 | grep -q HYDRA; then
  mkdir nodes
  # FAKESSH_IPC is left off: with separate IPC namespaces the ranks talk over UCX's TCP transport, whose
  # MPI_Finalize hangs now and then (openucx/ucx#8738). Node grouping needs only the hostnames.
  (cd nodes && timeout -k 5 120 $mpiexec -launcher ssh -launcher-exec "$fakessh" -hosts nodeA:2,nodeB:2 -n 4 "$mmpi" \
     --quick --noprogress > ../nodes.out 2> ../nodes.err) || bad "two nodes: exit $? ($(cat nodes.err))"
  python3 - nodes/ammpi_4_64_10.json <<'PY' && ok || bad "two nodes: json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["run"]["nnodes"] == 2 and j["run"]["testing_host"] == "nodeA"
assert [(r["host"], r["node"], r["node_rank"]) for r in j["ranks"]] == [("nodeA", 0, 0), ("nodeA", 0, 1), ("nodeB", 1, 0), ("nodeB", 1, 1)]
assert j["method"]["wait"] == "yield"  # 4 ranks on one kernel with 2 processors
PY
  grep -q 'nodeA 001 nodeB 002' nodes/ammpi_4_64_10.dat && ok || bad "two nodes: hostnames in the log"
  $mmpi2mat nodes/ammpi_4_64_10.dat > n.out 2> n.err && grep -q '4 ranks on 2 host(s)' n.out && ok || bad "two nodes: mmpi2mat"
  [ "$(grep -c '^set arrow from 1.5' nodes/ammpi_4_64_10_heatmap.gp)" = 1 ] && grep -q "x2tics ('nodeA' 0.5, 'nodeB' 2.5)" \
    nodes/ammpi_4_64_10_heatmap.gp && ok || bad "two nodes: boundary at 1.5 and host labels"
  mkdir bound
  (cd bound && $mpiexec -bind-to core -n 2 "$mmpi" --quick --noprogress > ../bound.out 2> ../bound.err) || bad "bound run"
  python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['ranks']
assert all(isinstance(x['core'], int) and isinstance(x['socket'], int) for x in r) and r[0]['core'] != r[1]['core']" \
    bound/ammpi_2_64_10.json && ok || bad "-bind-to core: socket and core known"
else
  echo "two-node and binding cases skipped: the launcher is not MPICH's hydra"
fi
finish_checks driver_mmpi
