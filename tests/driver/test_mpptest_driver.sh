#!/bin/bash
# test_mpptest_driver.sh MPPTEST "MPIEXEC [flags]"
# The mpptest driver as a user runs it: the five files and their layout (mpptest's gnuplot columns, CSV
# header, JSON fields, a real PNG), each pattern, mpptest's one-dash options, and bad input that gets a
# message naming the value, exit status 2 and no file. Never a timing value.
set -u
mpptest=$1 mpiexec=$2
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

$mpiexec -n 2 "$mpptest" -quick -auto -noprogress -fname quick > quick.out 2> quick.err || bad "quick run exited $? ($(cat quick.err))"
for ext in gpl gcm csv json png; do
  [ -s "quick.$ext" ] && ok || bad "quick.$ext missing"
done
ls -a | grep -q '^\.mpilat-' && bad "temporary files left behind" || ok
# mpptest's data columns: length time rate min max, then median and mean; '#' comments above.
awk '!/^#/ && NF != 7 { exit 1 }' quick.gpl && ok || bad "gpl rows must have 7 columns"
awk '!/^#/ && ($2 != $4 || $2 > $5 || $6 < $4 || $6 > $5) { exit 1 }' quick.gpl && ok || bad "gpl: time is the min, min <= median <= max"
awk '!/^#/ { if (seen && $1 <= last) exit 1; last = $1; seen = 1 }' quick.gpl && ok || bad "gpl sizes ascending"
grep -q '^# columns: 1 message size (bytes), 2 time' quick.gpl && ok || bad "gpl column comment"
[ "$(head -1 quick.csv)" = "bytes,samples,n_avg,min_us,median_us,mean_us,max_us,stddev_us,rate_mbs,compute_us,refined,rerun,anomalous" ] \
  && ok || bad "csv header"
[ "$(grep -vc '^#' quick.gpl)" = "$(($(wc -l < quick.csv) - 1))" ] && ok || bad "gpl and csv have the same sizes"
grep -q '^plot datafile using 1:5' quick.gcm && grep -q "outfile = 'quick.png'" quick.gcm && ok || bad "gcm commands"
[ "$(head -c 8 quick.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] && ok || bad "png signature"
python3 - quick.json <<'PY' && ok || bad "json fields"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "mpilat-sweep"
assert j["pattern"]["name"] == "pingpong" and j["options"]["adaptive"] is True
assert j["run"]["nprocs"] == 2 and j["run"]["end"] in ("stable", "reps", "budget")
assert j["timer"]["name"] == "mpi_wtime" and j["timer"]["res_timing_us"] >= 0
assert all(len(p["samples_us"]) == p["samples"] and min(p["samples_us"]) == p["min_us"] for p in j["points"])
sizes = [p["bytes"] for p in j["points"]]
assert sizes == sorted(sizes) and sizes[0] == 0 and sizes[-1] == 1024
assert all(t["below_bytes"] < t["above_bytes"] for t in j["thresholds"])
PY
grep -Eq '^# +bytes +time\(us\) +rate\(MB/s\) +median\(us\)' quick.out && ok || bad "table on standard output"
# (gnuplot can redraw the plot from the files alone)
gnuplot quick.gcm 2> gp.err && [ -s quick.png ] && ok || bad "gnuplot quick.gcm: $(cat gp.err)"

# Each pattern with mpptest's option names, a size list, verification.
for pattern in -roundtrip -async -head "-overlap -overlapmsgsize 512" "-cachesize 1048576"; do
  # shellcheck disable=SC2086
  if $mpiexec -n 2 "$mpptest" $pattern -sizelist 0,8,4096 -reps 3 -n_stable 0 -verify -nr 4096 -noplot -noprogress \
      -fname p > p.out 2> p.err; then
    [ "$(grep -vc '^#' p.gpl)" = 3 ] && ok || bad "$pattern: 3 sizes"
  else
    bad "$pattern exited $? ($(cat p.err))"
  fi
done
python3 -c "import json; j = json.load(open('p.json')); assert j['pattern']['cachesize'] == 1048576 and j['pattern']['verify']" \
  && ok || bad "cache-cold run's json"
$mpiexec -n 2 "$mpptest" -overlap -sizelist 0,100000 -reps 2 -n_stable 0 -nr 4096 -noplot -noprogress -fname ov > /dev/null 2>&1 \
  && awk -F, 'NR == 3 && $10 > 0 { found = 1 } END { exit !found }' ov.csv && ok || bad "overlap: computation alone reported"
$mpiexec -n 2 "$mpptest" -bisect -sizelist 0,64 -reps 2 -n_stable 0 -nr 4096 -noplot -noprogress -fname bi > /dev/null 2>&1 \
  && grep -q '"bisect": true' bi.json && ok || bad "bisect run"
$mpiexec -n 2 "$mpptest" -help > help.out 2>&1 && grep -q -- '--autodx' help.out && ok || bad "-help"
# The defaults shown are the library's (lat_*_defaults), not copies typed into the help text.
grep -Eq -- '--reps INT=50 ' help.out && grep -Eq -- '--autorel FLOAT=0.02 ' help.out && ok || bad "-help: the library's defaults"

# Bad input: exit 2, a message naming the value, and no file (in a fresh directory).
expect_bad() {
  local want=$1
  shift
  rm -rf bad && mkdir bad
  $mpiexec -n 2 "$mpptest" -noprogress -outdir bad "$@" > bad.out 2> bad.err
  local rc=$?
  [ "$rc" = 2 ] && ok || bad "$* exited $rc, not 2"
  grep -q -- "$want" bad.err && ok || bad "$*: message lacks '$want': $(cat bad.err)"
  [ -z "$(ls -A bad)" ] && ok || bad "$*: files written: $(ls -A bad)"
}
expect_bad "size_stride must be >= 1, got 0" -size 0 100 0
expect_bad "size_last must be >= size_first (10), got 5" -size 10 5 1
expect_bad "size_first must be >= 0, got -4" -size -4 100 4
expect_bad "dest must be a rank in 0..1 (or -1: the last), got 5" -dest 5
expect_bad "-fname 'a/b'" -fname a/b
expect_bad "-timer nope" -timer nope
expect_bad "reps must be >= 1, got 0" -reps 0
expect_bad "autorel must be a finite number > 0" -autorel -1
expect_bad "distinct and ascending" -sizelist 64,8
expect_bad "bogus" -bogus
expect_bad "size" -size 1 2
expect_bad "cachesize must be in" -cachesize -1
$mpiexec -n 2 "$mpptest" -noprogress -outdir "$work/none/such" > /dev/null 2> dir.err
[ $? = 2 ] && grep -q "none/such" dir.err && ok || bad "missing -outdir: $(cat dir.err)"

finish_checks "mpptest driver"
