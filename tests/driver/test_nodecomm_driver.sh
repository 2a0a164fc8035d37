#!/bin/bash
# test_nodecomm_driver.sh NODECOMM DATA_DIR "MPIEXEC [flags]" FAKESSH
# nodecomm as a user runs it: on 2 and 4 ranks of this one machine (intra-node, said in every file), the
# files and their layout, the fit of its own table read back, the fit of a table in the original format
# (the paper's Table 1 for Blue Waters, in seconds) giving back Table 1, and bad input (exit 2, a message
# naming the value or the line, no file), and with MPICH two "nodes" through fakessh. Never a timing value.
set -u
nodecomm=$1 data=$2 mpiexec=$3 fakessh=$4
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

mkdir two
$mpiexec -n 2 "$nodecomm" --quick --noprogress --outdir two > two.out 2> two.err || bad "2 ranks: exit $? ($(cat two.err))"
for f in nodecomm.txt nodecomm_fit.txt nodecomm.csv nodecomm.json; do [ -s "two/$f" ] && ok || bad "2 ranks: $f missing"; done
# Figures 1 and 2 for every model, each a script, a PNG and an SVG.
for m in maxrate4 maxrate maxpostal postal_1pair postal_kpairs postal_all; do
  for f in bw err; do
    for x in gp png svg; do [ -s "two/nodecomm_${f}_$m.$x" ] && ok || bad "2 ranks: nodecomm_${f}_$m.$x missing"; done
  done
  # 2 ranks: K = 1, and one pair cannot identify k* (issue 31): the figure says so instead of a number.
  grep -q "k\*: not identifiable from one pair (K = 1)" "two/nodecomm_bw_$m.gp" && ok || bad "K = 1: k* said unidentifiable on the $m figure"
done
ls -a two | grep -q '^\.mpilat-' && bad "temporary files left behind" || ok
grep -q 'INTRA-NODE' two/nodecomm.txt && grep -q 'INTRA-NODE' two/nodecomm_fit.txt && grep -q 'INTRA-NODE' two.out \
  && ok || bad "intra-node not said"
[ "$(sed -n 2p two/nodecomm.txt)" = "$(printf 'len\t1')" ] && ok || bad "table header: $(sed -n 2p two/nodecomm.txt)"
awk -F'\t' 'NR > 2 && (NF != 2 || $1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9]$/) { exit 1 }' two/nodecomm.txt \
  && ok || bad "table rows: len and one time"
grep -q '^Table 1: max-rate 3-parameter model parameters' two/nodecomm_fit.txt && grep -q '^Table 2: relative error sums' \
  two/nodecomm_fit.txt && ok || bad "tables 1 and 2"
json_fields two/nodecomm.json
python3 - two/nodecomm.json <<'PY' && ok || bad "json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "mpilat-nodecomm" and j["run"]["measured"] and j["measurement"]["intra_node"] is True
assert j["measurement"]["kmax"] == 1 and j["measurement"]["reps"] == 3
assert all(p["reps"] == 3 and p["min_us"] <= p["median_us"] <= p["max_us"] for p in j["points"])
assert len(j["observations"]) == len(j["points"]) and len(j["fit"]["regimes"]) == j["fit"]["regimes"].__len__() >= 1
for r in j["fit"]["regimes"]:
    assert set(r["models"]) == {"postal (1 pair)", "postal (K pairs)", "postal (all pairs)", "max-rate 3-parameter",
                                "max-rate 4-parameter", "modified (5)"}
    assert r["models"]["max-rate 3-parameter"]["method"].startswith("exact")
    assert r["models"]["modified (5)"]["certified"] is False
PY
[ "$(head -1 two/nodecomm.csv)" = "k,bytes,time_us,regime,err_postal_1pair,err_postal_kpairs,err_postal_all,err_maxrate,err_maxrate4,err_maxpostal" ] \
  && ok || bad "csv header"

mkdir four
$mpiexec -n 4 "$nodecomm" --sizes 0,1024,8192,16384,32768,65536 --reps 2 --noprogress --noplot --outdir four \
  > four.out 2> four.err || bad "4 ranks: exit $? ($(cat four.err))"
[ "$(sed -n 2p four/nodecomm.txt)" = "$(printf 'len\t1\t2')" ] && ok || bad "4 ranks: a column per k = 1, 2"
[ "$(tail -n +3 four/nodecomm.txt | wc -l)" = 6 ] && ok || bad "4 ranks: a row per size"
[ ! -e four/nodecomm_bw_maxrate.png ] && [ -s four/nodecomm_bw_maxrate.gp ] && ok || bad "--noplot drew"
grep -q "k\* (the network limits from this many pairs)" four/nodecomm_bw_maxrate.gp && ok || bad "K = 2: k* on the figure"
grep -q "K = 1: one pair cannot tell" four/nodecomm_fit.txt && bad "K = 2 said K = 1" || ok
grep -q "K = 1: one pair cannot tell the network's rate from a core's" two/nodecomm_fit.txt two.out && ok || bad "K = 1: not said"
python3 -c "
import json; m = json.load(open('two/nodecomm.json'))
fits = [f for g in m['fit']['regimes'] for n, f in g['models'].items() if n.startswith('max-rate') or n.startswith('modified')]
assert len(fits) >= 3 and all(f['rn_mbs'] == 'n/a' and f['k_star'] == 'n/a' for f in fits), fits
assert any(f['rc_mbs'] != 'n/a' for f in fits), fits" && ok || bad "K = 1: RN and k* in the JSON"
grep -q "WARNING: ranks outnumber processors: 4 ranks" four.err && ok || bad "4 ranks on 2 cores: no warning"
grep -q "WARNING: ranks outnumber" two.err && bad "2 ranks on 2 cores: warned" || ok

# --sides socket on this one-package machine: its halves, and every file says so (not two sockets).
mkdir socket
$mpiexec -n 2 "$nodecomm" --quick --sides socket --noprogress --noplot --outdir socket > socket.out 2> socket.err \
  || bad "--sides socket: exit $? ($(cat socket.err))"
grep -q 'one socket, or sockets unknown: its two halves, not two sockets' socket.out \
  && grep -q 'one socket, or sockets unknown' socket/nodecomm.txt && ok || bad "--sides socket: one socket not said"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["measurement"]; assert m["sides"]=="halves" and m["sides_asked"]=="socket"' \
  socket/nodecomm.json && ok || bad "--sides socket: json"

# The fit of the table just written, read back without MPI: the same regimes.
mkdir refit
"$nodecomm" --fit four/nodecomm.txt --noplot --outdir refit > refit.out 2> refit.err || bad "--fit its own table: $(cat refit.err)"
[ "$(grep '^Regimes' refit/nodecomm_fit.txt | sed 's/ K = .*//')" = "$(grep '^Regimes' four/nodecomm_fit.txt | sed 's/ K = .*//')" ] \
  && ok || bad "refit: other regimes"
grep -q '"measured": false' refit/nodecomm.json && ok || bad "refit json says measured"
# Read back, a nodecomm table is still of round trips: each rate per round trip and per direction, as measured.
python3 -c '
import json, sys
a, b = (json.load(open(f))["fit"]["regimes"][-1]["models"]["max-rate 3-parameter"] for f in sys.argv[1:])
assert b["rates_are"].startswith("per round trip") and a["rates_are"] == b["rates_are"], b["rates_are"]
assert abs(b["rc_per_direction_mbs"] - 2 * b["rc_mbs"]) <= 1e-9 * b["rc_mbs"], b' four/nodecomm.json refit/nodecomm.json \
  && grep -q "rates in MB/s as 'per round trip / per direction'" refit/nodecomm_fit.txt && ok || bad "refit: rates not per round trip and direction"

# A partial table (cells '-', points not measured) is read: the cells skipped and counted on stderr.
mkdir partial
sed '5s/\t[0-9.]*$/\t-/' four/nodecomm.txt > partial.txt
"$nodecomm" --fit partial.txt --noplot --outdir partial > partial.out 2> partial.err \
  && grep -q "partial.txt: 1 cell(s) '-' (not measured) skipped" partial.err && ok || bad "partial table: $(cat partial.err)"

# The original nodecomm's rows (tab-separated, seconds), made from the paper's Table 1: Table 1 comes back.
mkdir table1
"$nodecomm" --fit "$data/nodecomm/bluewaters_table1.tsv" --time-unit s --thresholds 1024,32768 --noplot --outdir table1 \
  > table1.out 2> table1.err || bad "--fit Table 1: $(cat table1.err)"
# RN infinite is reported with the bound the data give (RN >= the largest aggregate rate), k* none; the
# four-parameter fit is certified (a gap in the last column).
grep -Eq '^short +4 +inf \(>=630 / 1260\) +630 / 1260 +-18 / -36 +none +[0-9.e+-]+ +[-0-9.]+ +[0-9.]+ +fits$' table1.out && ok ||
  bad "Table 1 short: $(grep '^short' table1.out | head -1)"
# The verdict first: the paper's data follow the four-parameter model, which fits every regime; the
# three-parameter one leaves systematic errors in each (docs/method.md, "Does the model fit?").
grep -q '^Verdict (does the model describe the data?.*): max-rate 4-parameter: short fits, eager fits, rendezvous fits; max-rate 3-parameter: short DOES NOT FIT, eager DOES NOT FIT, rendezvous DOES NOT FIT;' \
  table1.out && ok || bad "Table 1 verdict: $(grep '^Verdict' table1.out)"
grep -Eq '^eager +11 +inf \(>=2630 / 5260\) +1700 / 3400 +62 / 124 +none ' table1.out && ok || bad "Table 1 eager: $(grep '^eager' table1.out | head -1)"
grep -Eq '^rendezvous +20 +5500 / 1\.1e\+04 +3600 / 7200 +610 / 1220 +4\.11' table1.out && ok || bad "Table 1 rendezvous: $(grep '^rendezvous' table1.out | head -1)"
grep -q 'max-rate 4-parameter, short: no point is network-bound; the data only say RN >= 630 MB/s' table1.out && ok \
  || bad "RN not reported as a bound"
grep -Eq '^Table 2.*' table1.out && grep -Eq '^phase +max-rate 4p +max-rate 3p +modified \(5\)' table1.out && ok || bad "Table 2 without model (5)"

# The same table without --thresholds: the segmented regression finds Table 1's three regimes itself (the
# switch to rendezvous is a drop in the 1-pair curve, which a search for rises missed).
mkdir table1auto
"$nodecomm" --fit "$data/nodecomm/bluewaters_table1.tsv" --time-unit s --noplot --outdir table1auto > table1auto.out 2>&1
grep -q 'short 0..1024 bytes, eager 4096..32768 bytes, rendezvous 65536..4194304 bytes' table1auto.out && ok \
  || bad "regimes found without being told: $(grep '^Regimes' table1auto.out)"
grep -Eq '^rendezvous +20 +5500 / 1\.1e\+04 +3600 / 7200 +610 / 1220 +4\.11' table1auto.out && ok || bad "Table 1 without thresholds"

# Bad input: exit 2, a message naming the value or the line, no file.
expect_bad() {
  local want=$1 np=$2
  shift 2
  rm -rf bad && mkdir bad
  if [ "$np" = 0 ]; then "$nodecomm" --outdir bad "$@" > bad.out 2> bad.err
  else $mpiexec -n "$np" "$nodecomm" --noprogress --outdir bad "$@" > bad.out 2> bad.err; fi
  local rc=$?
  [ "$rc" = 2 ] && ok || bad "$* exited $rc, not 2"
  grep -q -- "$want" bad.err && ok || bad "$*: message lacks '$want': $(cat bad.err)"
  [ -z "$(ls -A bad)" ] && ok || bad "$*: files written: $(ls -A bad)"
}
expect_bad "reps must be >= 1, got 0" 2 --reps 0
expect_bad "sizes must ascend, got 64 then 8" 2 --sizes 64,8,128
expect_bad "--sizes '8,64': the fit needs at least 3 message sizes, got 2" 2 --sizes 8,64
expect_bad "thresholds must ascend, got 5 and 2" 2 --thresholds 5,2
expect_bad "--thresholds '1,2,3,4': at most 3 sizes" 0 --fit x --thresholds 1,2,3,4
expect_bad "max_pairs must be >= 0 (0: as many as possible), got -1" 2 --max-pairs -1
expect_bad "--sides 'chip': must be node or socket" 2 --sides chip
expect_bad "nodecomm needs two processes on a node" 1
# The fit's bounds (its time grows with the square of the sizes), before measuring and on a table read back.
many=$(python3 -c "print(','.join(str(8 * k) for k in range(4097)))")
expect_bad "the fit takes at most 4096 message sizes, got 4097 (K = 1: fewer pairs with max_pairs, or fewer sizes)" 2 --sizes "$many"
python3 -c "print('\n'.join(f'{8 * k} 1.5 2.5' for k in range(4097)))" > many.tsv
expect_bad "many.tsv:4097: expected at most 4096 rows and 65536 times in all" 0 --fit many.tsv
# A run the library refuses leaves no --outdir it made (the one above was made by this test).
$mpiexec -n 2 "$nodecomm" --noprogress --outdir made/here --sizes "$many" > /dev/null 2> made.err
[ $? = 2 ] && [ ! -e made ] && ok || bad "a refused run left its --outdir: $(ls -R made 2>&1 | head -3)"
# Sizes given beyond the size sweep's own 256 are all measured (they were refused: "max_sizes must be >= ...").
$mpiexec -n 2 "$nodecomm" --noprogress --noplot --reps 1 --outdir sizes300 --sizes "$(python3 -c "print(','.join(str(8 * k) for k in range(300)))")" \
  > sizes300.out 2> sizes300.err \
  && python3 -c "import json, sys; sys.exit(json.load(open('sizes300/nodecomm.json'))['measurement']['nsizes'] != 300)" && ok \
  || bad "300 sizes given: $(tail -2 sizes300.err)"
expect_bad "--time-unit 'ms'" 0 --fit "$data/nodecomm/bluewaters_table1.tsv" --time-unit ms
expect_bad "cannot open nothere.tsv" 0 --fit nothere.tsv
printf 'len\t1\t2\n0\t1.5\t2.5\n64\t1.75\n' > missing.tsv
expect_bad "missing.tsv:3: expected 3 columns" 0 --fit missing.tsv
printf '0\t1.5\n64\tslow\n128\t2\n' > words.tsv
expect_bad "words.tsv:2: expected times that are numbers > 0 or '-' (column 2 is 'slow')" 0 --fit words.tsv
# A table of binary garbage is refused without its raw bytes reaching the terminal.
printf '\001\002\377\376 \033[31mred\033[0m 7\n' > garbage.tsv
expect_bad "garbage.tsv:1: expected" 0 --fit garbage.tsv
grep -q 'that is not text' bad.err && [ "$(LC_ALL=C tr -d '[:print:]\n\t' < bad.err | wc -c)" = 0 ] && ok \
  || bad "garbage: raw bytes echoed"
# MPICH only: two "nodes" (tests/tools/fakessh: hostnames of their own): the pairs cross between them.
if $mpiexec --version 2>&1 | grep -q HYDRA; then
  mkdir nodes
  (timeout -k 5 120 $mpiexec -launcher ssh -launcher-exec "$fakessh" -hosts nodeA:2,nodeB:2 -n 4 "$nodecomm" \
     --sizes 0,1024,8192,65536 --reps 2 --noprogress --noplot --outdir nodes > nodes.out 2> nodes.err) \
    || bad "two nodes: exit $? ($(cat nodes.err))"
  python3 - nodes/nodecomm.json <<'PY' && ok || bad "two nodes: json"
import json, sys
m = json.load(open(sys.argv[1]))["measurement"]
assert m["intra_node"] is False and m["host_a"] == "nodeA" and m["host_b"] == "nodeB", m
assert m["kmax"] == 2 and m["ranks_a"] == 2 and m["ranks_b"] == 2, m
PY
  grep -q 'INTRA-NODE' nodes.out && bad "two nodes said intra-node" || ok
else
  echo "two-node case skipped: the launcher is not MPICH's hydra"
fi
# ---- Stopped as Slurm stops a job (SIGTERM, then SIGCONT and SIGTERM 10 ms later: one request): the points
# measured, marked partial, exit 3.
mkdir stopped
$mpiexec -n 2 "$nodecomm" --sizes 8,64,512 --reps 1000000 --noadaptive --noplot --noprogress --outdir stopped \
  > stop.out 2> stop.err &
job=$!
sleep 4
slurm_stop nodecomm "--reps 1000000"
wait $job; rc=$?
[ "$rc" = 3 ] && ok || bad "SIGTERM burst: exit $rc, not 3 ($(cat stop.err))"
grep -q 'stopped by signal 15' stop.err && ok || bad "SIGTERM burst: stderr does not say why ($(cat stop.err))"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['run']['partial'] is True and j['points'], j['run']" \
  stopped/nodecomm.json && ok || bad "SIGTERM burst: nodecomm.json not partial with points"
ls -a stopped | grep -q '^\.mpilat-' && bad "SIGTERM burst: temporary files left behind" || ok

"$nodecomm" --fit x --help > help.out 2>&1 && grep -q -- '--thresholds' help.out && ok || bad "--help"
# The defaults shown are the library's (lat_*_defaults), not copies typed into the help text.
grep -Eq -- '--size-last INT=1048576 ' help.out && grep -Eq -- '--reps INT=5 ' help.out && ok || bad "--help: the library's defaults"
finish_checks driver_nodecomm
