#!/bin/bash
# test_queuelat_driver.sh QUEUELAT "MPIEXEC [flags]"
# The queuelat driver as a user runs it: the five files and their layout (a table readable at a glance,
# CSV, JSON, a gnuplot script that draws the PNG on its own), both modes, and bad input that gets a
# message naming the value, exit status 2 and no file. Never a timing value.
set -u
queuelat=$1 mpiexec=$2
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

mkdir posted
$mpiexec -n 2 "$queuelat" --quick --iters 5 --noprogress --outdir posted > posted.out 2> posted.err \
  || bad "posted run exited $? ($(cat posted.err))"
for ext in txt csv json gp png; do [ -s "posted/queuelat.$ext" ] && ok || bad "queuelat.$ext missing"; done
ls -a posted | grep -q '^\.mpilat-' && bad "temporary files left behind" || ok
# The table: a row per length (0:1000:250), a column per fraction (0,50,100), then the fitted slope.
grep -Eq '^ +posted +0% +50% +100%$' posted/queuelat.txt && ok || bad "table header row"
[ "$(grep -Ec '^ +(0|250|500|750|1000)( +[0-9]+\.[0-9]{3}){3}$' posted/queuelat.txt)" = 5 ] && ok || bad "table rows"
grep -Eq '^latency added per traversed entry: -?[0-9]+\.[0-9]{5} us' posted/queuelat.txt && ok || bad "slope line"
grep -q '^messages left unmatched after the sweep: 0$' posted/queuelat.txt && ok || bad "queues not emptied"
cmp -s posted.out posted/queuelat.txt && ok || bad "stdout is not the table"
[ "$(head -1 posted/queuelat.csv)" = "mode,length,traversed,fraction_percent,bytes,measurements,paper_us,min_us,median_us,mean_us,max_us,stddev_us" ] \
  && ok || bad "csv header"
[ "$(tail -n +2 posted/queuelat.csv | wc -l)" = 15 ] && ok || bad "csv: 15 points"
awk -F, 'NR > 1 && $3 != int($2 * $4 / 100 + 0.5) { exit 1 }' posted/queuelat.csv && ok || bad "csv: traversed = length x fraction"
json_fields posted/queuelat.json
python3 - posted/queuelat.json <<'PY' && ok || bad "json fields"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "mpilat-queue" and j["mode"] == "posted" and j["any_source"] is False
assert j["run"]["leftover_messages"] == 0 and j["run"]["partial"] is False
assert len(j["points"]) == 15 and all(p["measurements"] == 3 for p in j["points"])
assert j["options"]["iters"] == 5 and "slope_us_per_entry" in j["fit"]
# The line through the 100 % curve's minima: 5 points, a residual each, the line's own arithmetic.
f = j["fit"]
assert f["of"] == "minima" and f["curve"] == "100%" and f["points"] == 5 and len(f["residuals_us"]) == 5
line = [p for p in j["points"] if p["fraction_percent"] == 100]
for p, res in zip(line, f["residuals_us"]):
    assert abs(p["min_us"] - (f["intercept_us"] + f["slope_us_per_entry"] * p["traversed"]) - res) < 1e-9
assert max(abs(r) for r in f["residuals_us"]) == f["residual_max_us"] or abs(max(abs(r) for r in f["residuals_us"]) - f["residual_max_us"]) < 1e-12
assert 0.0 <= f["r2"] <= 1.0 and isinstance(f["warnings"], list)
PY
(cd posted && rm queuelat.png && gnuplot queuelat.gp 2> ../gp.err && [ -s queuelat.png ]) && ok || bad "gnuplot queuelat.gp: $(cat gp.err)"
[ "$(grep -c '^\$c[0-9]* << EOD$' posted/queuelat.gp)" = 3 ] && ok || bad "gp: one curve per fraction"

mkdir unexpected
$mpiexec -n 2 "$queuelat" --mode unexpected --lengths 0,20,40 --sizes 0,64 --iters 5 --reps 2 --any-source --noplot \
  --noprogress --outdir unexpected > unexpected.out 2> unexpected.err || bad "unexpected run exited $? ($(cat unexpected.err))"
grep -Eq '^ *unexpected +0B +64B$' unexpected/queuelat.txt && ok || bad "unexpected: a column per size"
[ ! -e unexpected/queuelat.png ] && ok || bad "--noplot drew a plot"
grep -q '"any_source": true' unexpected/queuelat.json && ok || bad "--any-source not recorded"
$mpiexec -n 2 "$queuelat" --help > help.out 2>&1 && grep -q -- '--any-source' help.out && ok || bad "--help"
# The defaults shown are the library's (lat_*_defaults), not copies typed into the help text.
grep -Eq -- '--iters INT=1000 ' help.out && grep -Eq -- '--reps INT=5 ' help.out && ok || bad "--help: the library's defaults"

# Bad input: exit 2, a message naming the value, no file.
expect_bad() {
  local want=$1
  shift
  rm -rf bad && mkdir bad
  $mpiexec -n 2 "$queuelat" --noprogress --outdir bad "$@" > bad.out 2> bad.err
  local rc=$?
  [ "$rc" = 2 ] && ok || bad "$* exited $rc, not 2"
  grep -q -- "$want" bad.err && ok || bad "$*: message lacks '$want': $(cat bad.err)"
  [ -z "$(ls -A bad)" ] && ok || bad "$*: files written: $(ls -A bad)"
}
expect_bad "lengths\\[1\\] must be in 0..100000, got -5" --lengths=0,-5
expect_bad "fractions_percent\\[1\\] must be in 0..100, got 120" --fractions 50,120
expect_bad "source and dest must differ, both are 0" --source 0 --dest 0
expect_bad "dest must be a rank in 0..1 (or -1: the last), got 9" --dest 9
expect_bad "--mode 'foo'" --mode foo
expect_bad "iters must be >= 1, got 0" --iters 0
expect_bad "expected first:last:step" --lengths 0:10
expect_bad "'x' is not a number" --sizes 8,x
expect_bad "--timer 'nope'" --timer nope
expect_bad "bogus" --bogus
touch "$work/none.txt"
$mpiexec -n 2 "$queuelat" --noprogress --outdir "$work/none.txt/such" > /dev/null 2> dir.err
[ $? = 2 ] && grep -q "none.txt/such" dir.err && ok || bad "--outdir under a file: $(cat dir.err)"

finish_checks "queuelat driver"
