#!/bin/bash
# test_latency_driver.sh LATENCY DATA_DIR "MPIEXEC [flags]" SWAP_AFTER_STAT_SO
# The latency driver as a user runs it: the three files, the summary's labels in Appendix C's order,
# latency.output's parts, valid JSON, a namelist file, and bad input that leaves no file behind.
# Never a timing value.
set -u
latency=$1 data=$2 mpiexec=$3 swap=$4
here=$(cd "$(dirname "$0")" && pwd)  # before checks.sh moves to its scratch directory
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

$mpiexec -n 2 "$latency" --quick --no-progress > run.out 2> run.err || bad "quick run exited $? ($(cat run.err))"
for f in latency.output latency.summary.output latency.json latency.png latency.svg; do
  [ -s "$f" ] && ok || bad "$f missing"
done
ls -a | grep -q '^\.mpilat-' && bad "temporary files left behind" || ok

# The summary's labels (text before ' = ') in the order of Appendix C, then our TIMER USED block.
grep -v '^$' latency.summary.output | sed -E 's/ = .*/ =/' | head -n "$(wc -l < "$data/appendix_c.labels")" > labels
diff -u "$data/appendix_c.labels" labels > labels.diff && ok || { bad "summary labels differ from Appendix C"; cat labels.diff; }
grep -q '^TIMER USED$' latency.summary.output && ok || bad "summary lacks the timer used"
grep -Eq '^variance = [0-9]\.[0-9]{4}E[+-][0-9]{2}$' latency.summary.output && ok || bad "variance not in E format"
grep -Eq '^minimum time = [0-9]+\.[0-9]{4}$' latency.summary.output && ok || bad "times not with 4 decimals"
grep -Eq '^program time in minutes = 0\.[0-9]{4}E[+-][0-9]{2}$' latency.summary.output && ok || bad "program time"
grep -q '^ntrial = 32768$' latency.summary.output && ok || bad "--quick ntrial"

# latency.output: every part, Appendix A's 50 bins (last open-ended), both frequency tables.
for part in "PART 1:" "PART 2:" "PART 3:" "PART 4:" "PART 5:" \
    "DISTRIBUTION OF TIMES FROM THE TIMER OVERHEAD MEASUREMENTS IN PART 1:" \
    "FREQUENCY OF TIMES FROM THE TIMER OVERHEAD MEASUREMENTS IN PART 1:" \
    "MEASURED TIMINGS AND THEIR FREQUENCY IN MICROSECONDS"; do
  grep -q "^$part" latency.output && ok || bad "latency.output lacks '$part'"
done
[ "$(grep -Ec '^[0-9]+\.[0-9]{2} <= times < [0-9]+\.[0-9]{2} with count = [0-9]+$' latency.output)" = 49 ] && ok || bad "49 closed bins"
grep -Eq '^9\.80 <= times with count = [0-9]+$' latency.output && ok || bad "open last bin"
grep -Eq '^time = [0-9]+\.[0-9]{3} with frequency = [0-9]+$' latency.output && ok || bad "frequency rows"
# The percentiles are times of the run: printed with at least the decimals of the Part 4 table (its step's).
python3 - <<'PY' && ok || bad "percentiles not printed at the clock's step"
import re
text = open("latency.output").read()
table = [len(m) for m in re.findall(r"^time = [0-9]+\.([0-9]+) with frequency", text, re.M)]
pct = [len(m) for m in re.findall(r"^p[0-9.]+ = [0-9]+\.([0-9]+)$", text, re.M)]
assert pct and table and min(pct) >= max(4, max(table)), (pct[:3], table[-3:])
PY
# Tables keyed on clock ticks: every printed time once, in each table (Part 1's and Part 4's).
for part in "FREQUENCY OF TIMES FROM THE TIMER" "MEASURED TIMINGS AND THEIR FREQUENCY"; do
  sed -n "/^$part/,/^PART/p" latency.output | grep '^time = ' | awk '{print $3}' | sort | uniq -d > dups
  [ ! -s dups ] && ok || bad "'$part' prints $(wc -l < dups) times more than once"
done
# Percentiles of all and of the filtered trials, with the intervals; where the ranks ran.
[ "$(grep -Ec '^p(1|5|10|25|50|75|90|95|99|99\.9|99\.99) = [0-9]+\.[0-9]{4,}$' latency.output)" = 22 ] && ok || bad "22 percentile lines"
[ "$(grep -c '^95 % confidence interval of the median = ' latency.output)" = 2 ] && ok || bad "median intervals"
grep -q '^WHERE THE RANKS RAN$' latency.output && ok || bad "latency.output lacks where the ranks ran"
grep -Eq '^source = rank 0, host .+, processors .+, core .+, socket .+, numa node .+, node 0$' latency.output && ok || bad "source's place"
grep -q '^share a node = yes$' latency.output && ok || bad "share a node"
grep -q '^first trial of a chunk over the chunk' latency.output && ok || bad "first-trial ratio"
# The picture is a PNG and an SVG.
head -c 8 latency.png | od -An -c | grep -q 'P   N   G' && ok || bad "latency.png is not a PNG"
grep -q '<svg' latency.svg && ok || bad "latency.svg is not an SVG"

# JSON: parses, and holds what the issue names.
json_fields latency.json
python3 - <<'PY' && ok || bad "latency.json content"
import json
j = json.load(open("latency.json"))
assert j["format"] == "mpilat-latency"
for k in ("date_utc", "command_line", "mpilat_version", "mpi_library_version", "nprocs", "partial"):
    assert k in j["run"], k
assert j["source"]["host"] and j["dest"]["host"] and j["timer"]["name"] == "mpi_wtime"
assert j["pingpong"]["all"]["count"] == 32768 == j["run"]["ntrial_done"]
assert j["filtered"]["kept"] + j["filtered"]["removed"] == 32768
assert sum(c for _, c in j["pingpong"]["frequencies"]) == 32768
assert len(j["timer"]["bins"]) == 50 and j["timer"]["bins"][-1]["upper_us"] is None
# The run over time: chunks covering every trial in order, their levels sharing all the trials, the warnings.
t = j["run_over_time"]
rows = t["chunks"]["rows"]
assert t["chunks"]["columns"] == ["first_trial", "trials", "start_s", "end_s", "min_us", "median_us", "first_us", "p90_us",
                                  "p99_us", "mean_us", "max_us", "trials_per_s"]
assert all(r[4] <= r[5] <= r[7] <= r[8] <= r[10] and r[4] <= r[9] <= r[10] and r[11] > 0 for r in rows)
assert t["first_trial_over_median"] > 0
assert len(rows) == t["nchunks"] >= 1 and sum(r[1] for r in rows) == 32768
assert all(rows[i][0] + rows[i][1] == rows[i + 1][0] for i in range(len(rows) - 1))
assert all(r[4] <= r[5] for r in rows)
assert 1 <= len(t["levels"]) <= 4 and abs(sum(l["share"] for l in t["levels"]) - 1) < 1e-9
assert isinstance(j["warnings"], list) and all(w.startswith("WARNING: ") for w in j["warnings"])
# The warnings follow the rules: levels when more than one, the filter above 5 %.
assert (len(t["levels"]) > 1) == any("machine changed state" in w for w in j["warnings"])
assert (len(t["state_changes"]) > 0) == any("run changed state" in w for w in j["warnings"])
assert (20 * j["filtered"]["removed"] > 32768) == any("filter removed" in w for w in j["warnings"])
# Percentiles and intervals, before and after the filter; the clock's unit; Part 2; the places.
for q in (j["pingpong"]["quantiles"], j["filtered"]["quantiles"]):
    p = q["percentiles_us"]
    keys = ["p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "p99.9", "p99.99"]
    assert sorted(p) == sorted(keys) and all(p[a] <= p[b] for a, b in zip(keys, keys[1:])), p
    lo, hi = q["median_ci95_us"]
    assert lo <= p["p50"] <= hi
assert j["pingpong"]["clock_unit_us"] == 0.001 and j["timer"]["unit_us"] == 0.001
assert j["npp"]["estimate_ran"] is True and j["npp"]["calculated"] == j["npp"]["used"] >= 1
assert j["source"]["rank"] == 0 and j["dest"]["rank"] == 1 and j["shared"]["node"] is True
for side in ("source", "dest"):
    assert set(j[side]) >= {"host", "node", "processors", "core", "socket", "numa"}, j[side]
PY
grep -q '^THE RUN OVER TIME' latency.output && ok || bad "latency.output lacks the run over time"

# A namelist file; the command line overrides it; --outdir.
mkdir out
printf '&latency ntrial=300, npp=2, n=4 /\n' > params.nml
$mpiexec -n 2 "$latency" --quick --input params.nml --n 2 --outdir out > /dev/null 2>&1 || bad "namelist run failed"
grep -q '^ntrial = 300$' out/latency.summary.output && ok || bad "namelist ntrial not used"
grep -q '^value of npp used = 2$' out/latency.summary.output && ok || bad "namelist npp not used"
grep -q '^Message size(# of 8-bytes els) = 2$' out/latency.summary.output && ok || bad "--n does not override the namelist"

# --npp with Part 2 still run (the paper's advice checked against the rule); --no-estimate skips it, and
# the summary's number fields stay numbers.
mkdir given skipped
$mpiexec -n 2 "$latency" --quick --npp 5 --noplot --outdir given > /dev/null 2>&1 || bad "--npp run failed"
grep -Eq '^calculated value of npp = [1-9][0-9]*$' given/latency.summary.output && ok || bad "--npp: the rule's npp not reported"
grep -q '^value of npp used = 5$' given/latency.summary.output && ok || bad "--npp: npp used"
[ ! -e given/latency.png ] && ok || bad "--noplot drew latency.png"
$mpiexec -n 2 "$latency" --quick --npp 5 --no-estimate --noplot --outdir skipped > /dev/null 2>&1 || bad "--no-estimate run failed"
grep -q '^calculated value of npp = 0$' skipped/latency.summary.output && ok || bad "--no-estimate: calculated npp is not 0"
grep -q '^npptrial = 0$' skipped/latency.summary.output && ok || bad "--no-estimate: npptrial is not 0"
python3 -c "import json; n = json.load(open('skipped/latency.json'))['npp']; assert not n['estimate_ran'] and 'no-estimate' in n['estimate_skipped_because']" \
  && ok || bad "--no-estimate: the JSON does not say why"
# --minutes: the trials run that long by the wall clock (0.6 s here, the least allowed, within 10 %).
mkdir minutes
$mpiexec -n 2 "$latency" --quick --minutes 0.01 --noplot --outdir minutes > /dev/null 2>&1 || bad "--minutes run failed"
grep -q 'chosen for about 0.01 minutes' minutes/latency.output && ok || bad "--minutes: ntrial not chosen"
python3 -c "
import json; rows = json.load(open('minutes/latency.json'))['run_over_time']['chunks']['rows']
assert 0.54 <= rows[-1][3] <= 0.66, rows[-1][3]" && ok || bad "--minutes 0.01: the trials did not last 0.6 s +- 10 %"

# --precision P: the trials end once the median's 95 % interval within this launch (8 batch medians,
# docs/method.md, "Precision") is within +-P % of the median and the run over time is quiet (8 chunks of
# 0.25 s at least, one level, no state change), else at ntrial or the time limit (--quick: 6 s), saying which,
# with PRECISION NOT MET on stdout and exit status 4. A launch claims only what it saw: no interval "between
# launches", the lines' placement a diagnostic, never an end ("unreachable" is gone). The interval is computed
# again here from the run's own chunks (the rule written out: t(0.975, 7) x sd x sqrt(9/8)), and npp is held at
# the power of two at or above the rule's unrounded value. A busy machine may not reach 20 %: the files must
# then say why; either way the rule is checked against the run's own figures.
cp "$here/batch_rule.py" .  # the rule written out once for the driver tests
# precision_status DIR RC: the exit status and stdout's line agree with the run's end (0 when met, else 4).
precision_status() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d, rc = sys.argv[1], int(sys.argv[2])
j = json.load(open(d + '/latency.json')); out = open(d + '.stdout').read()
met = j['run']['ended_by'] == 'precision'
assert j['precision']['met'] == met and rc == (0 if met else 4), (rc, j['run'], j['precision'])
assert ('latency: PRECISION NOT MET' in out) != met, out
assert j['run']['ended_by'] != 'unreachable', j['run']
PY
}
mkdir precise
# --res_npp 150: the rule's unrounded value lands between powers of two (a few here), where held and rule differ.
$mpiexec -n 2 "$latency" --quick --precision 20 --ntrial 1500000 --res_npp 150 --noplot --outdir precise > precise.stdout 2>&1
precision_status precise $? && ok || bad "--precision 20: exit status or stdout against the end"
python3 - precise/latency.json precise/latency.output <<'PY' && ok || bad "--precision 20: the end does not follow the rule"
import json, math, sys
from batch_rule import half_pct, held_npp
j = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
p, run = j['precision'], j['run']
assert p['asked_pct'] == 20 and p['min_chunks'] == 8 and p['batches'] == 8 and p['limit_s'] == 6, p
assert p['interval'].startswith('within this launch'), p
assert 'interval between launches' not in text, [l for l in text.splitlines() if 'between launches' in l]
quiet = j['run_over_time']['nchunks'] >= 8 and len(j['run_over_time']['levels']) == 1 and not j['run_over_time']['state_changes']
assert p['run_quiet'] == quiet, (p, quiet)
half = half_pct(j)
assert math.isclose(half, p['median_ci_half_pct'], rel_tol=1e-6, abs_tol=1e-9), (half, p)
# The interval with end points is the one the text states: the median +- the half-width.
m = j['pingpong']['all']['median_us']
if half <= 100:
    assert not p['unbounded'] and math.isclose(p['interval_us'][0], m * (1 - half / 100)) \
        and math.isclose(p['interval_us'][1], m * (1 + half / 100)), p
else:  # a busy run's batch medians more than 100 % apart, or fewer chunks than batches: no end points
    assert p['unbounded'] and p['interval_us'] is None, p
# Source and dest share this node: the probe measured every line, a diagnostic the text gives with its figure.
pl = p['placement']
if pl['lines'] == 64:
    assert pl['sd_pct'] > 0 and f"through 64 lines of shared memory spread {pl['sd_pct']:.1f} % here" in text, text[:3000]
else:
    assert pl['lines'] == 0 and 'the placement probe did not run (its pair did not answer within its second' in text, (pl, text[:3000])
    print('machine busy: the placement probe did not run')
assert j['npp']['used'] == held_npp(j), j['npp']
assert j['npp']['held_for_precision'] == (j['npp']['used'] != j['npp']['calculated']), j['npp']
if j['npp']['held_for_precision']:
    assert f"npp is held at {j['npp']['used']} for --precision" in text
else:
    print(f"npp: the rule's {j['npp']['calculated']} is the held value too (not a test of the hold)")
if run['ended_by'] == 'precision':
    assert half <= 20 and quiet and run['ntrial_done'] < 1500000, (p, run)
    assert f"the trials ended on --precision 20: the median's 95 % interval within this launch (from 8 batch medians) is +-{half:.3f} %" in text, text[:2000]
else:
    assert not (half <= 20 and quiet), (p, run)
    if run['ended_by'] == 'trials':
        assert run['ntrial_done'] == 1500000 and 'the trials ended at ntrial before --precision 20 was met (PRECISION NOT MET)' in text, run
    else:
        assert run['ended_by'] == 'time' and 'the trials ended at the time limit (6 s: --precision-limit) before --precision 20 was met' in text, run
    print(f"machine busy: --precision 20 ended by {run['ended_by']} (+-{p['median_ci_half_pct']} %, quiet: {quiet})")
PY
# A precision below the placement's spread (1 %: 1.96 x the lines' sd was 4.9-15 % here) no longer ends the
# trials early as "unreachable": a launch is held to its own interval, which more trials do narrow.
mkdir tight
$mpiexec -n 2 "$latency" --quick --precision 1 --noplot --outdir tight > tight.stdout 2>&1
precision_status tight $? && ok || bad "--precision 1: exit status or stdout against the end"
python3 - tight <<'PY' && ok || bad "--precision 1: the end not as the rule gives it"
import json, sys
from batch_rule import half_pct
d = sys.argv[1]
j = json.load(open(d + '/latency.json'))
run, p, chunks = j['run'], j['precision'], j['run_over_time']['nchunks']
assert run['ended_by'] in ('precision', 'time'), run
assert (run['ended_by'] == 'precision') == (half_pct(j) <= 1 and p['run_quiet']), (run, p)
assert run['ended_by'] == 'precision' or chunks > 16, (run, chunks)  # not cut at 16 chunks
PY
# A precision the run cannot show: no run is quiet before 8 chunks of 0.25 s, and 2000 trials take about 0.1 s
# here, so the trials end at ntrial and the files say so with the precision reached (none: fewer chunks than
# batches, an interval printed as unbounded, no end points).
mkdir imprecise
$mpiexec -n 2 "$latency" --quick --precision 0.000001 --ntrial 2000 --noplot --outdir imprecise > imprecise.stdout 2>&1
precision_status imprecise $? && ok || bad "--precision 0.000001: exit status or stdout against the end"
python3 - imprecise <<'PY' && ok || bad "--precision 0.000001: the end not said as the rule gives it"
import json, sys
d = sys.argv[1]
j = json.load(open(d + '/latency.json'))
run, p, chunks = j['run'], j['precision'], j['run_over_time']['nchunks']
out, summary = open(d + '/latency.output').read(), open(d + '/latency.summary.output').read()
if chunks >= 8:  # 2000 trials took 2 s: a machine 20 times slower than here
    print(f'machine slow: 2000 trials took {chunks} chunks (ended by {run["ended_by"]})')
    sys.exit(0)
assert run['ended_by'] == 'trials' and run['ntrial_done'] == 2000, (run, p)
assert p['median_ci_half_pct'] is None and p['unbounded'] and p['interval_us'] is None and not p['run_quiet'], p
line = ("the trials ended at ntrial before --precision 1e-06 was met (PRECISION NOT MET): the median's 95 % interval within "
        "this launch (from 8 batch medians) is unbounded")
assert line in out and line in summary, (line, [l for l in out.splitlines() if 'trials ended' in l])
PY
# Every precision run has a time limit: a precision no run reaches ends at --precision-limit (1 s here), saying
# so, with the interval the run reached; the trials' last chunk ends by then (+ one chunk).
mkdir limited
$mpiexec -n 2 "$latency" --quick --precision 0.000001 --precision-limit 1 --noplot --outdir limited > limited.stdout 2>&1
precision_status limited $? && ok || bad "--precision-limit 1: exit status or stdout against the end"
python3 - limited <<'PY' && ok || bad "--precision-limit 1: the trials did not end at the limit, saying so"
import json, math, sys
from batch_rule import half_pct
d = sys.argv[1]
j = json.load(open(d + '/latency.json'))
run, p, rows = j['run'], j['precision'], j['run_over_time']['chunks']['rows']
out = open(d + '/latency.output').read()
assert run['ended_by'] == 'time' and p['limit_s'] == 1, (run, p)
assert rows[-1][3] <= 1.3, rows[-1][3]
assert 'the trials ended at the time limit (1 s: --precision-limit) before --precision 1e-06 was met' in out, out[:3000]
assert (p['median_ci_half_pct'] is None) == math.isinf(half_pct(j)), p
PY
grep -q "trials ended" latency.output && bad "a run without --precision speaks of it" || ok

# A real change of state (CPU hogs in the middle of the trials): test_latency_state_change.sh, judged only
# on a quiet machine (docs/testing.md).

# --progress covers the timer calibration too (a line every 2 s: 150M pairs take a few seconds).
mkdir calib
$mpiexec -n 2 "$latency" --nr 150000000 --npptrial 100 --ntrial 100 --progress --noplot --outdir calib > /dev/null 2> calib.err ||
  bad "calibration progress run failed"
grep -q 'timer calibration .*%' calib.err && ok || bad "no progress line of the timer calibration ($(head -3 calib.err))"
# The npp study: every value, --ntrial trials each, the files and the plot.
mkdir study
$mpiexec -n 2 "$latency" --quick --ntrial 300 --npp-study 1,9,18 --outdir study > study.out 2>&1 || bad "--npp-study failed ($(cat study.out))"
for f in latency.npp.txt latency.npp.csv latency.npp.json latency.npp.png latency.npp.svg; do
  [ -s "study/$f" ] && ok || bad "study: $f missing"
done
[ ! -e study/latency.output ] && ok || bad "a study wrote latency.output"
python3 - <<'PY' && ok || bad "latency.npp.json content"
import csv, json
j = json.load(open("study/latency.npp.json"))
assert j["format"] == "mpilat-npp-study" and [v["npp"] for v in j["values"]] == [1, 9, 18]
assert all(v["stats"]["count"] == 300 and "p99" in v["quantiles"]["percentiles_us"] for v in j["values"])
rows = list(csv.DictReader(open("study/latency.npp.csv")))
assert [r["npp"] for r in rows] == ["1", "9", "18"] and all(r["trials"] == "300" for r in rows)
# The paper's tables have the variance; every value's span covers the run (its chunks, interleaved to the end).
assert all(float(r["variance_us2"]) >= 0 and float(r["start_s"]) <= float(r["end_s"]) for r in rows)
assert all(len(v["span_s"]) == 2 and v["extra_trials"] == 0 for v in j["values"])
PY
grep -Eq '^ +18 +- +300 ' study/latency.npp.txt && ok || bad "latency.npp.txt row"
mkdir rstudy
$mpiexec -n 2 "$latency" --quick --ntrial 100 --res-npp-study 25,400 --noplot --outdir rstudy > /dev/null 2>&1 || bad "--res-npp-study failed"
python3 -c "import json; j = json.load(open('rstudy/latency.npp.json')); assert [v['res_npp'] for v in j['values']] == [25, 400] and j['part2']" \
  && ok || bad "res_npp study values"

# Bad input: a message naming the value, exit status 2, no files, no hang.
expect_error() {  # expected-text nprocs args...
  local text=$1 np=$2
  shift 2
  rm -rf bad && mkdir bad
  timeout 60 $mpiexec -n "$np" "$latency" --quick --outdir bad "$@" > bad.out 2> bad.err
  local rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && ok || bad "'$*' exited $rc"
  grep -qF -- "$text" bad.err && ok || { bad "'$*' did not say '$text'"; cat bad.err; }
  [ -z "$(ls -A bad)" ] && ok || bad "'$*' left files: $(ls -A bad)"
}
expect_error "source and dest must differ, both are 1" 2 --source 1 --dest 1
expect_error "dest must be a rank in 0..1 (or -1: the last), got 5" 2 --dest 5
expect_error "source must be a rank in 0..1, got -2" 2 --source -2
expect_error "at least 2 MPI processes, got 1" 1
expect_error "npp must be >= 0 (0: calculate), got -1" 2 --npp -1
expect_error "ntrial must be >= 1, got 0" 2 --ntrial 0
expect_error "n must be >= 0, got -1" 2 --n -1
expect_error "--ntrial expects an integer, got \"lots\"" 2 --ntrial lots
expect_error "--cut_coef expects a number, got \"two\"" 2 --cut_coef two
expect_error "cannot read the namelist file" 2 --input /nonexistent/params.nml
printf '&latency ntrial=many /\n' > broken.nml
expect_error "has no valid &latency group" 2 --input broken.nml
# A key given twice is refused however it is written: its '=' on the next line, or after another group whose
# name begins with "latency" (both slipped past the rule; gfortran takes the last value silently).
printf '&latency ntrial=300,\n ntrial\n= 400 /\n' > split.nml
expect_error 'the namelist file "split.nml" gives ntrial twice (lines 1 and 2)' 2 --input split.nml
printf '&latencyx ntrial=5 /\n&latency ntrial=300, ntrial=400 /\n' > other_group.nml
expect_error 'the namelist file "other_group.nml" gives ntrial twice (lines 2 and 2)' 2 --input other_group.nml
# A path that ends in a blank: Fortran's strings would drop it and write into another directory.
timeout 60 $mpiexec -n 2 "$latency" --quick --outdir 'res ' > bad.out 2> bad.err
rc=$?
[ "$rc" = 2 ] && grep -qF -- "--outdir 'res ': a path that ends in a blank cannot be kept" bad.err && [ ! -e res ] && [ ! -e 'res ' ] \
  && ok || bad "--outdir 'res ': exit $rc, $(ls -d res* 2>&1) ($(cat bad.err))"
# The namelist file swapped for a FIFO right after its check (swap_after_stat, every time; issue 45: 5 of 100
# runs hung in gfortran's open): what was opened is read, through a private copy, so the swap is refused.
printf '&latency n = 100 /\n' > swapped.nml
mkfifo swapped.fifo
rm -rf bad && mkdir bad
LD_PRELOAD=$swap ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 SWAP_AFTER_STAT=swapped.nml SWAP_WITH=swapped.fifo \
  timeout -k 5 60 $mpiexec -n 2 "$latency" --quick --outdir bad --input swapped.nml > bad.out 2> bad.err
rc=$?
[ "$rc" = 2 ] && [ -p swapped.nml ] && grep -qF 'cannot read the namelist file: swapped.nml: not a regular file any more (replaced after it was checked)' bad.err \
  && [ -z "$(ls -A bad)" ] && ok || bad "--input swapped for a FIFO after its check: exit $rc ($(cat bad.err))"
expect_error 'unknown option "--bogus"' 2 --bogus
expect_error "timer must be mpi_wtime, monotonic_raw or tsc, got 'sundial'" 2 --timer sundial
expect_error "--outdir is given twice: give each option once" 2 --outdir /nonexistent/dir
timeout 60 $mpiexec -n 2 "$latency" --quick --outdir /proc/nonexistent/dir > bad.out 2> bad.err
[ $? = 2 ] && grep -qF "cannot make output directory /proc/nonexistent/dir" bad.err && ok || bad "--outdir /proc/nonexistent/dir: $(cat bad.err)"
expect_error "the npp study has the value 9 twice" 2 --npp-study 1,9,9
expect_error "the npp study values must be in 1..1000000000, got 0" 2 --npp-study 0,4
expect_error "the res_npp study values must be in 1..1000000000, got -5" 2 --res-npp-study 25,-5
expect_error '--npp-study expects a list of integers such as 1,9,18, got "1,,2"' 2 --npp-study 1,,2
expect_error "--npp cannot be given with an npp study, which sets npp per value (got --npp 4)" 2 --npp 4 --npp-study 1,2
expect_error "--no-estimate cannot be given with an npp study" 2 --no-estimate --npp-study 1,2
expect_error "--cut_coef cannot be given with an npp study" 2 --cut_coef 3 --res-npp-study 25,50
expect_error '--minutes must be a number of minutes > 0, got "0"' 2 --minutes 0
expect_error '--minutes must be a number of minutes > 0, got "-1"' 2 --minutes -1
expect_error "minutes needs Part 2" 2 --minutes 1 --npp 3 --no-estimate
expect_error "--no-estimate needs --npp N (with npp 0, the default, Part 2 calculates npp and must run)" 2 --no-estimate
expect_error "--no-estimate needs --npp N" 2 --no-estimate --npp 0
expect_error "precision_pct must be a finite number >= 0 (0: off), got -1" 2 --precision -1
expect_error "precision_pct must be <= 50 (percent of the median), got 60" 2 --precision 60
expect_error '--precision expects a number, got "abc"' 2 --precision abc
expect_error "precision_limit_s must be a finite number >= 0 (0: LAT_PRECISION_LIMIT_S), got -1" 2 --precision 1 --precision-limit -1
expect_error '--precision-limit expects a number, got "x"' 2 --precision 1 --precision-limit x
expect_error "--precision cannot be given with an npp study" 2 --precision 1 --npp-study 1,2

# Help.
$mpiexec -n 1 "$latency" --help > help.out
grep -q -- "--npp_init" help.out && ok || bad "--help lists the options"
# The defaults shown are the library's (lat_pingpong_defaults), which are Appendix C's.
grep -Eq -- '^  --ntrial N .*\(default 8388608\)$' help.out && ok || bad "--help: ntrial's default"
grep -Eq -- '^  --cut_coef X .*\(default 2.0\)$' help.out && ok || bad "--help: cut_coef's default"

finish_checks "driver_latency"
