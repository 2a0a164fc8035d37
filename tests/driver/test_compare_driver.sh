#!/bin/bash
# test_compare_driver.sh MPILAT_COMPARE LATENCY "MPIEXEC [flags]" SWAP_AFTER_STAT_SO
# mpilat-compare on synthetic groups whose answer is known (latency.json files made here: launch medians
# drawn with 1 % spread between launches, 10,000 trials each on a 1 ns / 2 npp grid), on real files of every
# kind, and bad inputs that exit 2 naming the file and write nothing. Never a timing value of this machine.
set -u
compare=$1 latency=$2 mpiexec=$3 swap=$4
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# make_group PREFIX COUNT SCALE SEED [MEDIANS...]: COUNT latency.json files PREFIX1.json ... whose trials are
# lognormal (sd 5 %) around a launch median of 0.2 us x SCALE x (1 + 1 % noise), or the given medians.
make_group() {
  python3 - "$@" <<'PY'
import json, math, random, sys
prefix, count, scale, seed = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
given = [float(x) for x in sys.argv[5:]]
rng = random.Random(seed)
step = 0.001 / 6  # one ns over 2 npp (npp = 3)
for i in range(count):
    m = given[i] if given else 0.2 * scale * (1 + rng.gauss(0, 0.01))
    table = {}
    for _ in range(10000):
        t = round(m * math.exp(rng.gauss(0, 0.05)) / step) * step
        table[t] = table.get(t, 0) + 1
    rows = sorted(table.items())
    j = {"format": "mpilat-latency", "format_version": 1,
         "run": {"mpi_library_version": "synthetic", "partial": False},
         "message": {"bytes": 8}, "timer": {"name": "mpi_wtime"}, "npp": {"used": 3},
         "pingpong": {"all": {"median_us": m}, "frequencies": [[v, c] for v, c in rows]}}
    json.dump(j, open(f"{prefix}{i + 1}.json", "w"))
PY
}
make_group a 5 1.00 1
make_group same 5 1.00 2
make_group slow 5 1.05 3
make_group bimodal 6 1 4 0.2 0.2 0.2 0.6 0.6 0.6

verdict_of() {  # compare.json's verdict and interval of the median: "verdict low high"
  python3 -c "
import json; c = json.load(open('$1/compare.json'))['comparisons'][0]
assert c['quantity'] == 'latency median (us)' and c['method'] == 'exact ranks over launches', c
print(c['verdict'].replace(' ', '_'), c['ratio_interval'][0], c['ratio_interval'][1])"
}

# The same distribution resampled: no difference.
mkdir same_out
"$compare" a*.json -- same*.json --outdir same_out > same.out 2> same.err || bad "same: exit $? ($(cat same.err))"
read -r v lo hi < <(verdict_of same_out)
[ "$v" = "no_difference_resolvable_at_this_noise" ] && ok || bad "same distribution: verdict $v [$lo, $hi]"
python3 -c "assert $lo <= 1 <= $hi" && ok || bad "same distribution: interval [$lo, $hi] misses 1"
# Shifted by 5 %: B slower, with an interval that covers 1.05.
mkdir slow_out
"$compare" a*.json -- slow*.json --outdir slow_out --noplot > slow.out 2> slow.err || bad "slow: exit $?"
read -r v lo hi < <(verdict_of slow_out)
[ "$v" = "B_slower" ] && ok || bad "5 % slower: verdict $v [$lo, $hi]"
python3 -c "assert 1 < $lo <= 1.05 <= $hi" && ok || bad "5 % slower: interval [$lo, $hi] does not cover 1.05 above 1"
grep -q '^latency median (us) .* B slower (exact ranks over launches)$' slow.out && ok || bad "the table's row ($(cat slow.out))"
# A reader that closes the pipe before the first line (`| true`; `| head -1` closes it after one): the files are written all the same, and the exit
# status and stderr say standard output failed (before: killed by SIGPIPE, status 141, no compare.json).
mkdir pipe_out
( sleep 0.2; "$compare" a*.json -- slow*.json --outdir pipe_out --noplot 2> pipe.err; echo $? > pipe.status ) | true
[ -s pipe_out/compare.json ] && [ -s pipe_out/compare.csv ] && ok || bad "closed pipe: files missing ($(ls -A pipe_out | tr '\n' ' '))"
[ "$(cat pipe.status)" = 1 ] && grep -q "mpilat-compare: writing to standard output: Broken pipe" pipe.err && ok \
  || bad "closed pipe: exit $(cat pipe.status), $(cat pipe.err)"
# A JSON of a format it does not read: exit 2, the formats it reads named (spec/json.toml's, generated).
printf '{"format": "mpilat-toy", "format_version": 1}' > toy1.json
cp toy1.json toy2.json
"$compare" toy1.json toy2.json --outdir toy_out --noplot > toy.out 2> toy.err; status=$?
[ "$status" = 2 ] && grep -qF 'toy1.json: not an mpilat result this program reads ("format" must be one of mpilat-latency, mpilat-sweep, mpilat-queue, mpilat-pairs, mpilat-nodecomm, mpilat-coll)' toy.err \
  && [ ! -e toy_out ] && ok || bad "unknown format: exit $status ($(cat toy.err))"
# Under a memory limit (ulimit -v) too small to parse the files (issue 45: std::bad_alloc while nlohmann-json
# unwound made it abort, exit 134): refused before parsing, exit 1, naming the file and the limit; nothing
# written. The same limit compares ordinary files.
python3 -c "
import sys
for name in ('dense1.json', 'dense2.json'):
    open(name, 'w').write('{\"format\": \"mpilat-latency\", \"junk\": [' + ','.join(['0'] * 4_000_000) + ']}')
"
( ulimit -v 200000; "$compare" dense1.json dense2.json --outdir dense_out --noplot > dense.out 2> dense.err ); status=$?
[ "$status" = 1 ] && grep -q "mpilat-compare: error: dense1.json: reading its [0-9]* bytes may take up to .* more than the memory limit leaves" dense.err \
  && [ ! -e dense_out ] && ok || bad "memory limit: exit $status ($(cat dense.err))"
( ulimit -v 200000; "$compare" a*.json -- slow*.json --outdir limited_out --noplot > limited.out 2> limited.err ); status=$?
[ "$status" = 0 ] && [ -s limited_out/compare.json ] && ok || bad "memory limit, ordinary files: exit $status ($(cat limited.err))"
rm -f dense1.json dense2.json
# Bytes that are not UTF-8 and values that are not what they should be (issue 45): a Latin-1 file name
# (before: abort, exit 134), a library name cut at 40 bytes inside a two-byte character (the same), a list
# nested 100,000 deep where a string belongs (before: a stack overflow, exit 139).
latin1=$(printf 'a\xe9.json')
cp a1.json "$latin1"
python3 - <<'PY'
import json
j = json.load(open("a2.json"))
j["run"]["mpi_library_version"] = "x" * 39 + "\u00e9 and more"
json.dump(j, open("cut.json", "w"))
j["timer"]["name"] = "DEEP"
open("deep.json", "w").write(json.dumps(j).replace('"DEEP"', "[" * 100000 + "]" * 100000))
PY
mkdir bytes_out
"$compare" "$latin1" cut.json a3.json -- same*.json --outdir bytes_out --noplot > bytes.out 2> bytes.err && ok \
  || bad "Latin-1 name and a cut character: exit $? ($(tail -c 300 bytes.err))"
python3 -c "
import json; j = json.load(open('bytes_out/compare.json'))
assert any('\ufffd' in f for f in j['group_a']), j['group_a']" 2> /dev/null && ok || bad "Latin-1 name: not in compare.json as U+FFFD"
"$compare" deep.json a3.json a4.json -- same*.json --outdir deep_out --noplot > deep.out 2> deep.err
[ $? = 2 ] && grep -q "deep.json: not an mpilat JSON result (nested deeper than 64 levels)" deep.err && ok \
  || bad "a list nested 100,000 deep: $(tail -c 300 deep.err)"
# And the other way round: B faster.
"$compare" slow*.json -- a*.json --outdir slow_out --noplot > fast.out 2>&1
grep -q 'B faster (exact ranks over launches)' fast.out && ok || bad "5 % faster not found ($(cat fast.out))"
# The files: JSON, CSV, the picture (PNG and SVG) unless --noplot.
for f in compare.json compare.csv compare.png compare.svg; do [ -s "same_out/$f" ] && ok || bad "$f missing"; done
[ ! -e slow_out/compare.png ] && ok || bad "--noplot drew compare.png"
head -1 same_out/compare.csv | grep -q '^quantity,a,b,ratio,ratio_low,ratio_high,confidence,verdict,method,a_count,b_count$' && ok ||
  bad "compare.csv header"
# --confidence changes the interval: 99 % is wider than 50 % (5 and 5 launches reach 99.2 %).
width() {  # the width of the median's interval in compare.json of $1
  python3 -c "import json; c = json.load(open('$1/compare.json'))['comparisons'][0]; print(c['ratio_interval'][1] - c['ratio_interval'][0])"
}
mkdir c50 c99
"$compare" a*.json -- same*.json --outdir c50 --noplot --confidence 0.5 > /dev/null 2>&1
"$compare" a*.json -- same*.json --outdir c99 --noplot --confidence 0.99 > /dev/null 2>&1
python3 -c "assert $(width c50) < $(width same_out) < $(width c99)" && ok || bad "--confidence does not change the interval"
# 3 and 3 launches reach 90 % at most (1 - 2/20): 95 % is refused saying so, 90 % is kept.
mkdir three_out
"$compare" a1.json a2.json a3.json -- slow1.json slow2.json slow3.json --outdir three_out --noplot > three.out 2> three.err
[ $? -eq 2 ] && ok || bad "3 and 3 launches at 95 %: not refused"
grep -q 'with 3 and 3 launches the exact rank interval over launches reaches at most 90.0 % confidence' three.err && ok ||
  bad "3 and 3 at 95 %: $(cat three.err)"
[ -z "$(ls -A three_out)" ] && ok || bad "3 and 3 at 95 %: files written"
"$compare" a1.json a2.json a3.json -- slow1.json slow2.json slow3.json --outdir three_out --noplot --confidence 0.9 > three.out 2>&1 &&
  ok || bad "3 and 3 at 90 %: $(cat three.out)"
python3 -c "import json; assert json.load(open('c99/compare.json'))['options']['confidence'] == 0.99" && ok || bad "--confidence not recorded"

# One launch a group: over the trials, with the warning that one launch cannot show the spread between launches.
mkdir one_out
"$compare" a1.json -- slow1.json --outdir one_out --noplot > one.out 2> one.err || bad "one launch: exit $?"
grep -q 'fewer than 3 launches in a group' one.err && ok || bad "one launch: no warning ($(cat one.err))"
grep -q 'none: within-launch interval only (take 3 launches or more a group) (order statistics over trials, within launches only)' one.out \
  && ok || bad "one launch: a verdict from pooled trials ($(cat one.out))"

# One group: the spread. Bimodal launches (0.2 and 0.6 us): between launches dominates; steady ones: within.
mkdir spread_out
"$compare" bimodal*.json --outdir spread_out --noplot > bimodal.out 2>&1 || bad "spread: exit $?"
grep -Eq '^latency median \(us\) .* between launches +\[[0-9.]+, [0-9.]+\] 71.4 %$' bimodal.out && ok || bad "bimodal: between does not dominate ($(cat bimodal.out))"
python3 -c "
import json; s = json.load(open('spread_out/compare.json'))['spread'][0]
assert s['dominates'] == 'between launches' and s['between_launches_rel'] > 1 and len(s['launch_values']) == 6, s" && ok ||
  bad "bimodal: compare.json spread"
# Where the next launch falls (distribution-free): of 6 launches, [min, max] holds one more with 5/7; at 95 %
# that is short, and a note says 39 launches are needed. At --confidence 0.4: [x_(2), x_(5)], 3/7.
python3 -c "
import json; s = json.load(open('spread_out/compare.json'))['spread'][0]; v = sorted(s['launch_values'])
assert s['next_launch'] == {'low': v[0], 'high': v[-1], 'coverage': 5 / 7}, s" && grep -q 'NOTE: the next launch: 6 launches put it within their \[min, max\] with 71.4 % only, not the 95 % asked (--confidence): that needs 39 launches or more' bimodal.out \
  && ok || bad "bimodal: the next launch's interval ($(cat bimodal.out))"
mkdir spread40
"$compare" bimodal*.json --outdir spread40 --noplot --confidence 0.4 > spread40.out 2>&1 || bad "spread at 0.4: exit $?"
python3 -c "
import json; s = json.load(open('spread40/compare.json'))['spread'][0]; v = sorted(s['launch_values'])
assert s['next_launch'] == {'low': v[1], 'high': v[4], 'coverage': 3 / 7}, s" && ! grep -q 'NOTE: the next launch' spread40.out \
  && ok || bad "spread at 0.4: the next launch's interval ($(cat spread40.out))"

# Refusals: unlike kinds or message sizes, a missing file, another format version, garbage, binary garbage.
# Each exits 2, names the file, and writes nothing.
python3 -c "
import json; j = json.load(open('a1.json')); j['message']['bytes'] = 64; json.dump(j, open('big.json', 'w'))
j['format_version'] = 2; json.dump(j, open('v2.json', 'w'))
json.dump({'format': 'mpilat-queue', 'format_version': 1, 'mode': 'posted', 'points': [
  {'length': 8, 'traversed': 8, 'bytes': 0, 'measurements': 10, 'paper_us': 1.5}]}, open('queue.json', 'w'))"
echo 'not json at all' > garbage.json
head -c 2000 /dev/urandom > binary.json
expect_refusal() {  # expected-text args...
  local text=$1
  shift
  rm -rf refused && mkdir refused
  "$compare" "$@" --outdir refused > refused.out 2> refused.err
  local rc=$?
  [ $rc -eq 2 ] && ok || bad "'$*' exited $rc, expected 2"
  grep -qF -- "$text" refused.err && ok || { bad "'$*' did not say '$text'"; cat refused.err; }
  [ -z "$(ls -A refused)" ] && ok || bad "'$*' wrote $(ls -A refused)"
}
expect_refusal "refusing to compare unlike results: a1.json is mpilat-latency, queue.json is mpilat-queue" a1.json -- queue.json
expect_refusal "refusing to compare unlike results: message bytes is 8 in a1.json but 64 in big.json" a1.json a2.json -- big.json
expect_refusal "cannot open missing.json: No such file or directory" a1.json -- missing.json
expect_refusal "v2.json: mpilat-latency format_version 2, this mpilat-compare reads version 1" v2.json
expect_refusal "garbage.json: not an mpilat JSON result" garbage.json -- a1.json
expect_refusal "binary.json: not an mpilat JSON result" a1.json -- binary.json
# A NUL byte ends nlohmann-json's input: a result with one and garbage behind it was read up to the NUL.
(cat a1.json; printf '\0garbage{') > nul.json
expect_refusal "nul.json: not an mpilat JSON result (a NUL byte at byte $(wc -c < a1.json))" nul.json -- a1.json
[ "$(wc -c < refused.err)" -lt 300 ] && ok || bad "binary garbage echoed to the terminal"
# A FIFO swapped in for the checked file (issue 45: 2 of 150 reads hung): swap_after_stat renames a FIFO over
# race.json right after the library's check (the 2nd stat of the name: the driver's own list of files is the
# 1st), every time. What was opened is checked: refused at once, exit 2.
cp a1.json race.json
mkfifo race.fifo
LD_PRELOAD=$swap ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 SWAP_AFTER_STAT=race.json SWAP_AT=2 SWAP_WITH=race.fifo \
  timeout -k 5 10 "$compare" race.json a2.json a3.json --noplot --outdir race_out > /dev/null 2> race.err
rc=$?
[ "$rc" = 2 ] && [ -p race.json ] && grep -q 'race.json: not a regular file any more (replaced after it was checked)' race.err && ok \
  || bad "a FIFO swapped in after the check: exit $rc ($(cat race.err))"
# A file that grows after its size was checked, past what an input may hold (1 GiB): the read is bounded by the
# bytes it has read, not by the size checked (a sparse 1 GiB + 64 KiB, grown right after the check).
cp a1.json grown.json
LD_PRELOAD=$swap ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 SWAP_AFTER_STAT=grown.json SWAP_AT=2 \
  SWAP_GROW_TO=$((1073741824 + 65536)) timeout -k 5 60 "$compare" grown.json a2.json a3.json --noplot --outdir grown_out \
  > /dev/null 2> grown.err
rc=$?
[ "$rc" = 2 ] && [ "$(stat -c %s grown.json)" -gt 1073741824 ] \
  && grep -q 'grown.json: grew beyond what an input may hold (1073741824 bytes) while it was read' grown.err && ok \
  || bad "a file grown past 1 GiB after its check: exit $rc ($(head -c 300 grown.err))"
rm -f grown.json
# A frequency table's bad rows, each refused naming the row as it was written: the rows are taken out of the
# parse as it reads them (a row of a time and a count as two numbers, any other element as its JSON, in its
# place: docs/performance.md, "Large files"), with the words the whole tree gave.
bad_table() {  # NAME ROWS: a1.json with its frequencies replaced by ROWS (JSON)
  python3 -c "import json, sys; j = json.load(open('a1.json')); j['pingpong']['frequencies'] = json.loads(sys.argv[2]); json.dump(j, open(sys.argv[1], 'w'))" "$1" "$2"
}
bad_table descending.json '[[0.2, 10], [0.1, 5]]'
expect_refusal "descending.json: mpilat-latency frequencies row 1: expected [time >= 0, ascending; count in 1..2^53], got (a JSON array)" descending.json -- a1.json
bad_table whole_time.json '[[0.2, 10], [1, 0]]'
expect_refusal "whole_time.json: mpilat-latency frequencies row 1: expected [time >= 0, ascending; count in 1..2^53], got (a JSON array)" whole_time.json -- a1.json
bad_table word.json '[[0.2, 10], "x", [0.3, 1]]'
expect_refusal "word.json: mpilat-latency lacks what it should hold (a field of the wrong type" word.json -- a1.json
bad_table fraction_count.json '[[0.2, 10], [0.3, 1.5]]'
expect_refusal "fraction_count.json: mpilat-latency lacks what it should hold (a field of the wrong type" fraction_count.json -- a1.json
# The project's own partial latency file: stopped before its first timing trial (its statistics null) it is
# refused saying so (it was "a field of the wrong type"); stopped after some trials it is compared.
python3 -c "
import json; j = json.load(open('a1.json')); j['run']['partial'] = True; json.dump(j, open('partial_some.json', 'w'))
j['pingpong'].pop('frequencies', None); j['pingpong']['all']['median_us'] = None
json.dump(j, open('partial_none.json', 'w'))"
expect_refusal "partial_none.json: a partial mpilat-latency run stopped before its first measured value: nothing to compare (leave it out)" partial_none.json -- a1.json
# The same file not marked partial holds no value either: refused alike, in its own words.
python3 -c "
import json; j = json.load(open('partial_none.json')); j['run']['partial'] = False; json.dump(j, open('none.json', 'w'))"
expect_refusal "none.json: mpilat-latency holds no measured value: nothing to compare (leave it out)" none.json -- a1.json
"$compare" partial_some.json -- a2.json --noplot --outdir partial_out > partial.out 2> partial.err && ok \
  || bad "a partial latency run with trials: $(tail -2 partial.err)"
# A partial mpptest file: the points it never reached (null, "statistics of nothing") are left out, not a
# "field of the wrong type"; with no point reached it is refused like the latency file above.
python3 - "$(dirname "$0")/../fuzz/corpus/compare_json/sweep.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j['run']['partial'] = True
for p in j['points'][1:]:
    p['min_us'] = p['median_us'] = None
    p.pop('samples_us', None)
json.dump(j, open('sweep_partial1.json', 'w'))
json.dump(j, open('sweep_partial2.json', 'w'))
for p in j['points']:
    p['min_us'] = p['median_us'] = None
    p.pop('samples_us', None)
json.dump(j, open('sweep_nothing.json', 'w'))
PY
"$compare" sweep_partial1.json -- sweep_partial2.json --noplot --outdir sweep_out > sweep.out 2> sweep.err \
  && grep -q '^median (us) at 0 B' sweep.out && ! grep -q 'at 8 B\|at 64 B' sweep.out && ok \
  || bad "a partial mpptest file: $(tail -3 sweep.err) $(head -3 sweep.out)"
expect_refusal "sweep_nothing.json: a partial mpilat-sweep run stopped before its first measured value: nothing to compare" sweep_nothing.json -- sweep_partial1.json
expect_refusal 'no files after "--"' a1.json --
expect_refusal 'no files after "--vs" (group B)' a1.json a2.json --vs  # was taken for one group (issue 45)
expect_refusal "confidence must be in (0, 1), got 1" a1.json --confidence 1
expect_refusal "The following argument was not expected: --seed" a1.json --seed 3  # the bootstrap's options are gone with it (API 8)

# Real files of this machine: two latency runs and a one-group spread (the kind, the layout, never the numbers).
for i in 1 2 3; do
  mkdir "run$i"
  $mpiexec -n 2 "$latency" --quick --noplot --outdir "run$i" > /dev/null 2>&1 || bad "latency run $i failed"
done
"$compare" run1/latency.json run2/latency.json -- run3/latency.json --noplot --outdir . > real.out 2>&1 || bad "real files: exit $?"
grep -q '^latency p99 (us) ' real.out && ok || bad "real files: no p99 row ($(cat real.out))"

finish_checks "driver_compare"
