#!/bin/bash
# test_coll_driver.sh MPILAT_COLL MPILAT_COMPARE "MPIEXEC [flags]"
# mpilat-coll as a user runs it: every file whole, each mode labelled with its quantity in the table, the
# JSON (fields mpilat-compare reads, counts that add up), the CSVs, the pictures; 4 ranks on this 2-core
# machine (the oversubscription warning, yielding waits); the size-sweep engine; mpilat-compare reading the
# files; bad input (exit 2, a message naming the value, nothing written); a stop by SIGTERM as Slurm sends it
# (partial files, exit 3). Never a timing value.
set -u
coll=$1 compare=$2 mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)  # before checks.sh moves to its scratch directory
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# ---- 2 ranks, three operations, two sizes, every mode
$mpiexec -n 2 "$coll" --quick --ops allreduce,bcast,barrier --sizes 8,1024 --reps 20 --noprogress > run.out 2> run.err \
  || bad "run exited $? ($(cat run.err))"
for f in mpilat-coll.txt mpilat-coll.json mpilat-coll.csv mpilat-coll.samples.csv mpilat-coll.dist.gp mpilat-coll.size.gp \
         mpilat-coll.size.dat mpilat-coll.dist.png mpilat-coll.size.png; do [ -s $f ] && ok || bad "$f missing"; done
ls -a | grep -q '^\.mpilat-' && bad "temporary files left behind" || ok
cmp -s <(sed -n '/^files:/!p' run.out) mpilat-coll.txt && ok || bad "stdout is not the table"
# Each mode is labelled with the quantity it reports, in the table and the JSON.
grep -q '^  sync     last end - first start on the synchronised clock' mpilat-coll.txt && ok || bad "sync quantity not said"
grep -q '^  barrier  largest local time over the ranks' mpilat-coll.txt && ok || bad "barrier quantity not said"
grep -q '^  loop     mean over the ranks of each rank' mpilat-coll.txt && ok || bad "loop quantity not said"
grep -Eq '^clocks: HCA tree against rank 0, 1 synchronisation\(s\).*error bound [0-9.]+ us$' mpilat-coll.txt && ok \
  || bad "clock line: $(grep ^clocks mpilat-coll.txt)"
[ "$(grep -Ec '^(barrier|bcast|allreduce) +[0-9]+ (sync|barrier|loop) ' mpilat-coll.txt)" = 15 ] && ok || bad "15 rows expected"
json_fields mpilat-coll.json
python3 - mpilat-coll.json mpilat-coll.csv mpilat-coll.samples.csv <<'PY' && ok || bad "json and csv"
import csv, json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "mpilat-coll" and j["format_version"] == 1
r = j["run"]
assert r["nprocs"] == 2 and r["rounds"] == 20 and r["reps"] == 20 and r["partial"] is False
assert set(j["modes"]) == {"sync", "barrier", "loop"}
c = j["clocks"]
assert c["syncs"] == 1 and len(c["ranks"]) == 2 and c["ranks"][0]["offset_us"] == 0
# The bound: each rank's residual plus half the round trip of the exchange that measured it (issue 31), at
# the synchronisation and at the end (the ranks' end residuals are listed): never below any of them.
assert c["error_bound_us"] >= c["residual_max_us"] and c["error_bound_us"] > 0
assert all(c["error_bound_us"] >= abs(k["residual_end_us"]) + k["residual_rtt_us"] / 2 - 1e-9 for k in c["ranks"])
assert c["error_bound_rule"].startswith("max over ranks of |residual| + the residual exchange's round trip / 2")
pts = j["points"]
assert len(pts) == 15 and j["sizes"] == [8, 1024]
assert [(p["mode"], p["operation"], p["bytes"]) for p in pts[:5]] == [("sync", "barrier", 0), ("sync", "bcast", 8),
    ("sync", "bcast", 1024), ("sync", "allreduce", 8), ("sync", "allreduce", 1024)]
for p in pts:
    assert p["samples"] + p["late"] == 20 and p["quantity"] == j["modes"][p["mode"]]
    assert sum(k for _, k in p["frequencies"]) == p["samples"] == p["stats"]["count"]
    assert sum(x["last_count"] for x in p["ranks"]) == p["samples"]
    assert (p["window_us"] is None) == (p["mode"] != "sync")
    if p["samples"]:
        assert p["stats"]["min_us"] == p["frequencies"][0][0] and p["stats"]["max_us"] == p["frequencies"][-1][0]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 15 and all(int(x["samples"]) == p["samples"] for x, p in zip(rows, pts))
samples = list(csv.DictReader(open(sys.argv[3])))
assert len(samples) == sum(p["samples"] for p in pts)
PY

# ---- 4 ranks on 2 processors: the warning, and waiting ranks that yield
mkdir four
(cd four && exec $mpiexec -n 4 "$coll" --ops allreduce --modes sync,barrier --reps 10 --noplot --noprogress > ../four.out 2> ../four.err) \
  || bad "4 ranks exited $? ($(cat four.err))"
grep -q '^WARNING: 4 ranks share 2 processors on a node' four/mpilat-coll.txt && ok || bad "no oversubscription warning: $(grep WARN four/mpilat-coll.txt)"
grep -q 'waits yield$' four/mpilat-coll.txt && ok || bad "waits not yield"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['run']['oversubscribed'] and j['run']['wait']=='yield' and len(j['clocks']['ranks'])==4" \
  four/mpilat-coll.json && ok || bad "4-rank json"

# ---- the size-sweep engine chooses the sizes
mkdir engine
(cd engine && exec $mpiexec -n 2 "$coll" --ops allreduce --modes barrier --size-first 8 --size-last 8192 --adaptive --reps 3 \
   --noplot --noprogress > ../engine.out 2> ../engine.err) || bad "--adaptive exited $? ($(cat engine.err))"
python3 -c "
import json,sys; s=json.load(open(sys.argv[1]))['sizes']
assert s == sorted(set(s)) and all(x in s for x in [8,16,32,64,128,256,512,1024,2048,4096,8192]) and len(s) <= 64, s" \
  engine/mpilat-coll.json && ok || bad "engine sizes: $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['sizes'])" engine/mpilat-coll.json)"

# ---- mpilat-compare reads the files (a new kind)
for k in 1 2 3 4 5; do
  mkdir c$k
  (cd c$k && exec $mpiexec -n 2 "$coll" --ops allreduce --modes sync --sizes 8 --reps 30 --noplot --noprogress > /dev/null 2>&1) || bad "compare run $k"
done
"$compare" --noplot --confidence 0.9 --outdir . c1/mpilat-coll.json c2/mpilat-coll.json -- c3/mpilat-coll.json c4/mpilat-coll.json c5/mpilat-coll.json > cmp.out 2> cmp.err \
  && grep -q '^allreduce 8 B sync median (us) ' cmp.out && ok || bad "mpilat-compare: $(cat cmp.out cmp.err)"
"$compare" --noplot --outdir . c1/mpilat-coll.json four/mpilat-coll.json > /dev/null 2> mix.err
[ $? = 2 ] && grep -q 'ranks' mix.err && ok || bad "2 and 4 ranks compared: $(cat mix.err)"

# ---- --precision P: the rounds end once every point's median is within +-P % (its 95 % interval within this
# launch: 8 batch medians of its 0.25 s chunks, docs/method.md) and every point's run over time is quiet (8
# chunks of 0.25 s at least), else at --reps or the time limit (--quick: 5 s) with PRECISION NOT MET on stdout
# and exit status 4; either way the files say which and the rule holds for the run's own figures (computed
# again here from the samples; a busy machine may keep the run from being quiet). A launch claims only what it
# saw: no interval "between launches", the lines' placement a diagnostic that never ends the rounds.
cp "$here/batch_rule.py" .  # the rule written out once for the driver tests
# coll_status DIR RC: the exit status and stdout's line agree with the end (0 when met, else 4).
coll_status() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d, rc = sys.argv[1], int(sys.argv[2])
run = json.load(open(d + '/mpilat-coll.json'))['run']; out = open(d + '.out').read()
met = run['ended_by'] == 'precision'
assert run['precision']['met'] == met and rc == (0 if met else 4), (rc, run)
assert ('mpilat-coll: PRECISION NOT MET' in out) != met, out[-500:]
assert run['ended_by'] != 'unreachable' or 'kept no sample' in open(d + '/mpilat-coll.txt').read(), run
PY
}
mkdir precise
$mpiexec -n 2 "$coll" --quick --precision 20 --ops bcast --modes barrier,loop --sizes 8 --noplot --noprogress \
  --outdir precise > precise.out 2>&1
coll_status precise $? && ok || bad "--precision 20: exit status or stdout against the end: $(tail -3 precise.out)"
python3 - precise/mpilat-coll.json precise/mpilat-coll.txt precise/mpilat-coll.samples.csv <<'PY' && ok || bad "--precision 20: the end does not follow the rule"
import json, math, sys
from batch_rule import widest_half_pct
j = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
run, p = j['run'], j['run']['precision']
assert p['asked_pct'] == 20 and j['options']['precision_pct'] == 20, (p, j['options'])
assert p['interval'].startswith('within this launch') and p['batches'] == 8 and p['limit_s'] == 5, p
assert 'interval between launches' not in text, [l for l in text.splitlines() if 'between launches' in l]
# (the samples file's times have 6 decimals: a chunk's edge may move by a sample)
half = widest_half_pct(j, sys.argv[3])
assert math.isclose(half, p['median_ci_half_pct_max'], rel_tol=1e-4, abs_tol=1e-9), (half, p)
pl = p['placement']
if pl['lines'] == 64:
    assert pl['sd_pct'] > 0 and f"through 64 lines of shared memory of ranks 0 and 1 spread {pl['sd_pct']:.1f} % here" in text, text[:2000]
else:
    assert pl['lines'] == 0 and 'the placement probe did not run' in text, (pl, text[:2000])
    print('machine busy: the placement probe did not run')
quiet = all(pt['levels'] <= 1 and pt['state_changes'] == 0 for pt in j['points'])
if run['ended_by'] == 'precision':
    assert p['median_ci_half_pct_max'] <= 20 and quiet and run['rounds'] < 1000000, (p, run['rounds'])
    assert (f"the rounds ended on --precision 20: the widest median's 95 % interval within this launch (from its batch medians) "
            f"is +-{p['median_ci_half_pct_max']:.3f} %") in text, text[:2000]
elif run['ended_by'] == 'time':
    assert 'the rounds ended at the time limit (5 s: --precision-limit) before --precision 20 was met (PRECISION NOT MET)' in text, run
    print(f"machine busy: --precision 20 ended at the time limit (+-{p['median_ci_half_pct_max']} %, quiet: {quiet})")
else:
    assert run['ended_by'] == 'reps' and run['rounds'] == 1000000 and 'before --precision 20 was met' in text, run
    print('machine busy: --precision 20 ran to --reps (a point not quiet)')
PY
# A precision below the placement's spread (1 %: 1.96 x the lines' sd was 3.6-17 % here) no longer ends the
# rounds early as "unreachable": a launch is held to its own interval.
mkdir tight
$mpiexec -n 2 "$coll" --quick --precision 1 --ops bcast --modes loop --sizes 8 --noplot --noprogress \
  --outdir tight > tight.out 2>&1
coll_status tight $? && ok || bad "--precision 1: exit status or stdout against the end: $(tail -3 tight.out)"
python3 - tight/mpilat-coll.json <<'PY' && ok || bad "--precision 1: ended as 'unreachable'"
import json, sys
run = json.load(open(sys.argv[1]))['run']
assert run['ended_by'] in ('precision', 'time', 'reps'), run  # a fast loop point may reach its 10^6 rounds first
PY
# One fast point (a loop-mode barrier: 100,000 rounds took about 1.2 s, before its run over time had the 8
# chunks to be judged): without --reps the rounds go on to 10^6, so the time limit (2 s) or the precision ends
# them, never the reps.
mkdir fast
$mpiexec -n 2 "$coll" --quick --precision 0.000001 --precision-limit 2 --ops barrier --modes loop --sizes 0 --noplot \
  --noprogress --outdir fast > fast.out 2>&1
coll_status fast $? && ok || bad "--precision with one fast point: exit status: $(tail -3 fast.out)"
python3 - fast/mpilat-coll.json fast/mpilat-coll.txt <<'PY' && ok || bad "--precision with one fast point ended at reps"
import json, sys
j = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
run = j['run']
assert run['reps'] == 1000000 and run['rounds'] < 1000000 and run['ended_by'] == 'time', run
assert 'the rounds ended at the time limit (2 s: --precision-limit) before --precision 1e-06 was met' in text, text[:1500]
PY

# ---- bad input: exit 2, the value named, nothing written
mkdir badrun && cd badrun
try() {  # try NP TEXT ARGS...: exit 2, TEXT in the message, the directory left empty
  local np=$1 text=$2
  shift 2
  $mpiexec -n "$np" "$coll" --noprogress "$@" > out 2> err
  local rc=$?
  [ $rc = 2 ] && grep -qF -- "$text" err && ok || bad "$*: exit $rc, wanted 2 and '$text': $(head -c 300 err)"
  rm -f out err
  [ -z "$(ls -A)" ] && ok || bad "$*: wrote $(ls -A)"
}
try 2 "'allreduc' is not an operation" --ops allreduce,allreduc
try 2 "'sink' is not a mode" --modes sync,sink
try 2 "sizes[1] must be in 0..2147483647 bytes, got -8" --sizes 8,-8
try 2 "sizes must be distinct and ascending" --sizes 64,8
try 2 "root must be a rank in 0..1, got 2" --root 2
try 2 "root must be a rank in 0..1, got -1" --root -1
try 2 "of memory are available" --reps 1000000 --sizes 1:64:1
try 2 "window_us must be at least 10 x the synchronisation error bound" --window 0.001 --reps 5 --sizes 8
try 2 "window_us must be in 0..1000000" --window -1
try 2 "reps must be >= 1, got 0" --reps 0
try 2 "precision_pct must be <= 50 (percent of the median), got 60" --precision 60
try 2 "precision_pct must be a finite number >= 0 (0: off), got -1" --precision -1
try 2 "precision_limit_s must be a finite number >= 0 (0: LAT_PRECISION_LIMIT_S), got -2" --precision 1 --precision-limit -2
try 1 "a collective measurement needs at least 2 processes, the communicator has 1"
try 2 "give one or the other" --sizes 8 --size-last 64
try 2 "adaptive refines size_first..size_last" --sizes 8,16 --adaptive
try 2 "size_last must be >= size_first (64), got 8" --size-first 64 --size-last 8
try 2 "--base 'a/b': must be a file name" --base a/b
cd ..

# ---- SIGTERM to the ranks, as Slurm sends it: the rounds so far, marked partial, exit 3
mkdir stopped
(cd stopped && exec $mpiexec -n 2 "$coll" --ops allreduce --sizes 8 --reps 1000000 --noplot --noprogress > ../stop.out 2> ../stop.err) &
job=$!
sleep 4
slurm_stop mpilat-coll "--reps 1000000"
wait $job; rc=$?
[ "$rc" = 3 ] && ok || bad "SIGTERM: exit $rc, not 3 ($(cat stop.err))"
grep -q 'PARTIAL: stopped' stopped/mpilat-coll.txt && ok || bad "table not marked partial"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); r=j['run']; assert r['partial'] and 0 < r['rounds'] < 1000000" \
  stopped/mpilat-coll.json && ok || bad "json partial with the rounds"

# ---- A real disturbance: two CPU hogs (nice -10) on this 2-core machine for 2 s in the middle of ~6 s of
# rounds. Every point's run over time says the run changed state; a spinning rank preempted in its wait
# starts late, and such samples are discarded, not averaged in.
mkdir hog
hog() { timeout 2 nice -n -10 sh -c 'while :; do :; done'; }
( sleep 2; hog & hog & wait ) &
hogs=$!
(cd hog && exec $mpiexec -n 2 "$coll" --ops allreduce --modes sync,barrier --sizes 8 --reps 1000000 --noplot --noprogress \
   > ../hog.out 2> ../hog.err) &
job=$!
sleep 6.5
slurm_stop mpilat-coll "--reps 1000000"
wait $job
wait $hogs
# The sync point: preempted samples are discarded as late (issue 31), so what is kept may show no change;
# either the change or the discarded samples are said.
grep -Eq '^WARNING: allreduce 8 B sync: (the run changed state at|[0-9]+ of [0-9]+ synchronised samples had a rank start late)' \
  hog/mpilat-coll.txt && ok || bad "hog: the sync point says nothing: $(grep -c WARN hog/mpilat-coll.txt) warnings ($(cat hog.err))"
grep -q '^WARNING: allreduce 8 B barrier: the run changed state at' hog/mpilat-coll.txt && ok || bad "hog: no state change of the barrier point"
python3 -c "
import json,sys; j=json.load(open(sys.argv[1]))
assert j['run']['warning_bits'] & 4 and all(p['state_changes'] > 0 or p['warning_bits'] & 16 for p in j['points'])" \
  hog/mpilat-coll.json && ok || bad "hog: json"

# ---- --help shows the library's defaults
"$coll" --help > help.out 2>&1
grep -Eq -- '--reps INT=1000 ' help.out && grep -Eq -- '--loop-calls INT=100 ' help.out && ok || bad "--help: the library's defaults"

finish_checks driver_coll
