#!/bin/bash
# test_latency_state_change.sh LATENCY "MPIEXEC [flags]": a real change of state seen and placed. Two CPU
# hogs on this 2-core machine for 2 s in the middle of 6 s of trials: the run says so on stderr, in
# latency.output and in latency.json, with a state change at the hogs' time: they slow what the ranks do
# between the timed loops, so the trials per second fall (or the times rise). Every chunk lasts ~0.25 s of
# wall clock (at most twice that, unless one trial alone is longer). The verdict needs the machine to
# itself besides the hogs: ctest runs this through tests/tools/judge_if_quiet.py (label quiet).
set -u
latency=$1 mpiexec=$2
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

mkdir hog
# The hogs run at a higher priority (nice -10), so they take the cores from the ranks even where other work
# already shares them.
hog() { timeout 2 nice -n -10 sh -c 'while :; do :; done'; }
( sleep 2; date +%s.%N > hog/start; hog & hog & wait
  date +%s.%N > hog/end ) &
hogs=$!
$mpiexec -n 2 "$latency" --quick --minutes 0.1 --noplot --outdir hog > hog.out 2> hog.err || bad "hog run: $(cat hog.err)"
wait $hogs
grep -q 'latency: WARNING: the run changed state at' hog.err && ok || bad "hog: no state change on stderr: $(cat hog.err)"
grep -q '^WARNING: the run changed state at' hog/latency.output && ok || bad "hog: no state change in latency.output"
# stderr's warnings are latency.output's, worded and formatted as the files have them (they were Fortran's
# list-directed numbers: ".1540 us", "from 63251. to 34768. (.55x)").
python3 - hog.err hog/latency.output <<'PY' && ok || bad "hog: stderr's warnings are not latency.output's: $(grep WARNING hog.err)"
import sys
err = [l for l in open(sys.argv[1]).read().splitlines() if 'WARNING' in l]
files = ['latency: ' + l for l in open(sys.argv[2]).read().splitlines() if l.startswith('WARNING')]
assert err and err == files, (err, files)
PY
python3 - "$(cat hog/start)" "$(cat hog/end)" <<'PY' && ok || bad "hog: no state change at the hogs' time in latency.json"
import json, sys
hog_start, hog_end = float(sys.argv[1]), float(sys.argv[2])
j = json.load(open("hog/latency.json"))
t = j["run_over_time"]
t0 = t["trials_start_unix_s"]
changes = t["state_changes"]
assert changes and any(w.startswith("WARNING: the run changed state at") for w in j["warnings"])
def slower(c):
    return c["after"] < c["before"] if c["quantity"] == "trials per second" else c["after"] > c["before"]
# A change to a slower state that begins within a second of the hogs' start and lasts into their time, or
# (when the run was already slow before them, as under a sanitizer or in the host's slow phase) a change to a
# faster state within a second of their end.
def at(c, when):
    return abs(t0 + c["start_s"] - when) < 1.0
hits = [c for c in changes if (slower(c) and at(c, hog_start) and t0 + c["end_s"] > hog_start + 0.5)
        or (not slower(c) and at(c, hog_end))]
assert hits, (hog_start - t0, hog_end - t0, changes)
for c in changes:
    assert set(c) == {"start_s", "end_s", "quantity", "before", "after", "unit"}, c
cols = t["chunks"]["columns"]
rows = t["chunks"]["rows"]
assert cols[2:4] == ["start_s", "end_s"] and "trials_per_s" in cols and "p99_us" in cols
npp = j["npp"]["used"]
for r in rows:
    longest_trial_s = r[cols.index("max_us")] * 2 * npp * 1e-6
    assert r[3] - r[2] <= 2 * t["chunk_target_s"] + longest_trial_s, r
assert 5.4 <= rows[-1][3] <= 6.6, rows[-1][3]  # --minutes 0.1: 6 s of trials +- 10 %
PY

finish_checks "latency state change"
