#!/bin/bash
# test_mpptest_driver.sh MPPTEST "MPIEXEC [flags]"
# The mpptest driver as a user runs it: the files and their layout (mpptest's gnuplot columns with
# -gnuplot, the table in -fname, CSV header, JSON fields, a real PNG), every size in every pass, the loop
# length, the time limit's partial result, each pattern, mpptest's one-dash options with the original's
# meanings, and bad input that gets a message naming the value, exit status 2 and no file. Never a
# timing value.
set -u
mpptest=$1 mpiexec=$2
data=$(cd "$(dirname "$0")/../data" && pwd)  # before checks.sh moves to its scratch directory
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

$mpiexec -n 2 "$mpptest" -quick -auto -gnuplot -noprogress -outbase quick -fname quick.txt > quick.out 2> quick.err \
  || bad "quick run exited $? ($(cat quick.err))"
for ext in gpl gcm csv json png; do
  [ -s "quick.$ext" ] && ok || bad "quick.$ext missing"
done
ls -a | grep -q '^\.mpilat-' && bad "temporary files left behind" || ok
# -fname: the table goes to that file (the original's), not to standard output.
grep -Eq '^# +bytes +time\(us\) +rate\(MB/s\) +median\(us\)' quick.txt && ok || bad "-fname: table in the file"
grep -q 'time(us)' quick.out && bad "-fname: the table went to stdout as well" || ok
# -fname's directory checked before anything is measured (issue 45): a file in its place is refused at once;
# a missing directory is made.
touch afile
timeout 60 $mpiexec -n 2 "$mpptest" -size 0 1024 256 -reps 100000 -noplot -noprogress -fname afile/t.txt > /dev/null 2> fname_file.err
[ $? = 2 ] && grep -q "mpptest: -fname: .*afile" fname_file.err && ok || bad "-fname in a file's place: $(cat fname_file.err)"
# -fname naming one of the run's own files under another spelling (the CSV as ./spelt/../mppout.csv): refused
# at once, naming both, before a sweep that would outlast the timeout.
mkdir spelt
timeout 60 $mpiexec -n 2 "$mpptest" -size 0 1048576 4096 -reps 100000 -noplot -noprogress -fname ./spelt/../mppout.csv > /dev/null 2> spelt.err
[ $? = 2 ] && grep -q "mpptest: -fname: 'mppout.csv' and './spelt/../mppout.csv' are one file" spelt.err && [ ! -e mppout.csv ] && ok \
  || bad "-fname as the CSV under another spelling: $(cat spelt.err)"
$mpiexec -n 2 "$mpptest" -size 0 64 32 -reps 3 -n_stable 0 -noplot -noprogress -outbase made -fname made_dir/t.txt > /dev/null 2> made.err \
  && grep -q 'time(us)' made_dir/t.txt && ok || bad "-fname in a missing directory: $(cat made.err)"
grep -q '^# startup and rate' quick.txt && grep -Eq '^# bytes [0-9]+\.\.[0-9]+ \([0-9]+ sizes\): startup = [0-9.]+ us, rate = ' quick.txt \
  && ok || bad "startup and rate lines"
# mpptest's data columns, tab-separated, as the original's DataoutGraph writes them: proc1 proc2 distance len,
# the time (%f us) and the rate (%.2f bytes/s, len over the time); with -givedy mean, rate, min, max. One
# checker for the original's layout, run on files made by hand from the original's code
# (tests/data/mpptest_original*.gpl) and on ours: what passes there must pass here.
cat > gpl_layout.py <<'PY'
import re, sys
def rows(path, givedy):
    out = []
    for line in open(path):
        if not line.strip() or line.startswith('#'):
            continue
        f = line.rstrip('\n').split('\t')
        assert len(f) == (8 if givedy else 6), (path, line)
        assert all(re.fullmatch(r'-?[0-9]+', x) for x in f[:4]), (path, line)
        assert re.fullmatch(r'[0-9]+\.[0-9]{6}', f[4]) and re.fullmatch(r'[0-9]+\.[0-9]{2}', f[5]), (path, line)
        if givedy:
            assert all(re.fullmatch(r'[0-9]+\.[0-9]{6}', x) for x in f[6:]), (path, line)
        time = float(f[6] if givedy else f[4])  # the reported time: column 7 with -givedy, else 5
        rate = float(f[5])
        assert abs(rate - int(f[3]) / (time * 1e-6)) <= 0.01 + 1e-4 * rate, (path, line, int(f[3]) / (time * 1e-6))
        if givedy:
            assert float(f[6]) <= float(f[4]) <= float(f[7]), (path, line)  # min <= mean <= max
        out.append(f)
    assert out, path
    return out
if __name__ == '__main__':
    rows(sys.argv[1], sys.argv[2] == 'givedy')
PY
python3 gpl_layout.py "$data/mpptest_original.gpl" plain && python3 gpl_layout.py "$data/mpptest_original_givedy.gpl" givedy &&
  ! python3 gpl_layout.py "$data/mpptest_original_givedy.gpl" plain 2> /dev/null && ok ||
  bad "the layout checker does not hold the original's files made by hand"
awk -F'\t' '!/^#/ && NF && (NF != 6 || $1 != 0 || $2 != 1 || $3 != 1) { exit 1 }' quick.gpl && ok ||
  bad "gpl rows must be proc1 0, proc2 1, distance 1 and 6 tab-separated columns"
python3 - quick.gpl quick.csv <<'PY' && ok || bad "gpl rows are not the original's layout with the csv's sizes, minima and rates"
import csv, sys
from gpl_layout import rows
got = rows(sys.argv[1], False)
table = list(csv.DictReader(open(sys.argv[2])))
assert len(got) == len(table), (len(got), len(table))
for r, c in zip(got, table):
    assert int(r[3]) == int(c['bytes']) and abs(float(r[4]) - float(c['min_us'])) < 1e-6, (r, c)
    assert abs(float(r[5]) - 1e6 * float(c['rate_mbs'])) <= 1e-6 * float(r[5]) + 0.006, (r, c)  # bytes/s, as the original
PY
grep -q '^# columns: 1 proc1, 2 proc2, 3 distance (ranks), 4 message size (bytes), 5 time' quick.gpl && ok || bad "gpl column comment"
[ "$(head -1 quick.csv)" = "bytes,samples,n_avg,min_us,median_us,mean_us,max_us,stddev_us,rate_mbs,compute_us,refined,rerun,anomalous,low" ] \
  && ok || bad "csv header"
[ "$(grep -vc '^#' quick.gpl)" = "$(($(wc -l < quick.csv) - 1))" ] && ok || bad "gpl and csv have the same sizes"
grep -q '^plot datafile using 4:5 ' quick.gcm && grep -q "outfile = 'quick.png'" quick.gcm && grep -q '^set logscale y$' quick.gcm \
  && ok || bad "gcm commands"
grep -q '^plot datafile every ::1 using 1:7 ' quick.gp && ok || bad "the picture's script reads the csv's max"
# -givedy: the original's eight columns (mean, rate, min, max after len), and -gnuplot with it.
$mpiexec -n 2 "$mpptest" -sizelist 0,64,1024 -sample_reps 3 -n_stable 0 -nr 4096 -givedy -noplot -noprogress -outbase dy \
  -fname dy.txt > /dev/null 2> dy.err || bad "-givedy run: $(cat dy.err)"
python3 - dy.gpl dy.csv <<'PY' && ok || bad "-givedy: not the original's 8 columns with the csv's mean, min and max"
import csv, sys
from gpl_layout import rows
got = rows(sys.argv[1], True)
table = list(csv.DictReader(open(sys.argv[2])))
assert len(got) == 3, got
for r, c in zip(got, table):
    assert [int(r[3]), float(r[4]), float(r[6]), float(r[7])] == \
        [int(c['bytes']), float(c['mean_us']), float(c['min_us']), float(c['max_us'])], (r, c)
PY
grep -q "using 4:5:7:8 with errorbars .*title 'mean (bar: min to max)'" dy.gcm && grep -q "using 4:7 with linespoints .*title 'time (min)'" dy.gcm &&
  ok || bad "-givedy: gcm does not plot the original's errorbars and the minimum"
[ "$(head -c 8 quick.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] && ok || bad "png signature"
json_fields quick.json
python3 - quick.json <<'PY' && ok || bad "json fields"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "mpilat-sweep"
assert j["pattern"]["name"] == "pingpong" and j["options"]["adaptive"] is True
assert j["options"]["n_stable"] == 5 and j["options"]["n_avg_min"] == 5  # the original's -quick
assert j["run"]["nprocs"] == 2 and j["run"]["end"] in ("stable", "reps")
assert j["timer"]["name"] == "mpi_wtime" and j["timer"]["res_timing_us"] >= 0
assert all(len(p["samples_us"]) == p["samples"] + p["rerun_samples"] and min(p["samples_us"]) == p["min_us"]
           for p in j["points"])
sizes = [p["bytes"] for p in j["points"]]
assert sizes == sorted(sizes) and sizes[0] == 0 and sizes[-1] == 1024
assert all(t["below_bytes"] < t["above_bytes"] for t in j["thresholds"])
lines = j["startup_rate"]["lines"]
assert 1 <= len(lines) <= len(j["thresholds"]) + 1
assert all(0 <= l["first_bytes"] < l["last_bytes"] <= 1024 and l["npoints"] >= 2 for l in lines)
assert "one line does not describe the whole curve" in j["startup_rate"]["caveat"]
PY
# (gnuplot can redraw the plot from the files alone)
gnuplot quick.gcm 2> gp.err && [ -s quick.png ] && ok || bad "gnuplot quick.gcm: $(cat gp.err)"

# The default run: the table on stdout, no gnuplot files without -gnuplot; on a fixed grid every size was
# in every pass (the same number of samples), with at least 50 operations a sample (the original's n_avg).
mkdir plain
$mpiexec -n 2 "$mpptest" -size 0 1024 256 -noprogress -noplot -outdir plain > plain.out 2> plain.err || bad "plain run: $(cat plain.err)"
grep -Eq '^# +bytes +time\(us\)' plain.out && ok || bad "table on standard output"
[ "$(ls plain)" = "$(printf 'mppout.csv\nmppout.json')" ] && ok || bad "without -gnuplot: csv and json only, got $(ls plain)"
python3 - plain/mppout.json <<'PY' && ok || bad "every size in every pass, n_avg >= 50"
import json, sys
j = json.load(open(sys.argv[1]))
counts = {p["samples"] for p in j["points"]}
assert len(counts) == 1 and counts.pop() == j["run"]["passes"], j["points"]
assert all(p["n_avg"] >= 50 for p in j["points"]) and len({p["n_avg"] for p in j["points"]}) == 1
PY

# -n_avg_min sets the fewest operations of the automatic loop length (far above what the clock asks here).
mkdir minavg
$mpiexec -n 2 "$mpptest" -sizelist 0,64,1024 -sample_reps 2 -n_stable 0 -n_avg_min 120 -noprogress -noplot -outdir minavg \
  > /dev/null 2> minavg.err || bad "-n_avg_min run: $(cat minavg.err)"
python3 -c "import json; assert {p['n_avg'] for p in json.load(open('minavg/mppout.json'))['points']} == {120}" && ok \
  || bad "-n_avg_min 120: not every sample was 120 operations"

# -logscale: the sizes are the first, the powers of two from 4 above it (the original's 0, 4, 8, ...), and the
# last; the JSON echoes it; plotted log-log.
mkdir logscale
$mpiexec -n 2 "$mpptest" -logscale -size 0 300 7 -sample_reps 2 -n_stable 0 -nr 4096 -noprogress -noplot -gnuplot \
  -outdir logscale > /dev/null 2> logscale.err || bad "-logscale run: $(cat logscale.err)"
python3 -c "
import json; j = json.load(open('logscale/mppout.json'))
assert [p['bytes'] for p in j['points']] == [0, 4, 8, 16, 32, 64, 128, 256, 300], j['points']
assert j['options']['logscale'] is True" && ok || bad "-logscale: not the sizes 0, 4, 8, ..., 256, 300"
grep -q '^set logscale xy$' logscale/mppout.gcm && ok || bad "-logscale: gcm not log-log"

# -max_run_time ends the sweep in a clean partial result: exit 3, the files written and marked.
mkdir limited
$mpiexec -n 2 "$mpptest" -size 0 1024 64 -sample_reps 1000000 -n_stable 0 -max_run_time 0.3 -noprogress -noplot \
  -outdir limited > limited.out 2> limited.err
[ $? = 3 ] && ok || bad "-max_run_time: exit status $? ($(cat limited.err))"
grep -q 'time limit' limited.err && grep -q 'TIME LIMIT REACHED' limited.out && ok || bad "-max_run_time: said"
grep -q '"end": "budget"' limited/mppout.json && grep -q '"partial": true' limited/mppout.json && ok || bad "-max_run_time: json"

# Each pattern with mpptest's option names, a size list, verification.
for pattern in -roundtrip -async -head "-overlap -overlapmsgsize 512" "-overlap -head -overlapmsgsize 512" \
               -persistant "-cachesize 1048576"; do
  # shellcheck disable=SC2086
  if $mpiexec -n 2 "$mpptest" $pattern -sizelist 0,8,4096 -sample_reps 3 -n_stable 0 -reps 3 -verify -nr 4096 -noplot \
      -noprogress -gnuplot -outbase p > p.out 2> p.err; then
    [ "$(grep -vc '^#' p.gpl)" = 3 ] && ok || bad "$pattern: 3 sizes"
    grep -q '"n_avg": 3,' p.json && ok || bad "$pattern: -reps is the operations per sample (the original's)"
    python3 -c "import json; assert all(p['samples'] == 3 for p in json.load(open('p.json'))['points'])" && ok \
      || bad "$pattern: -sample_reps 3 is three passes, a sample of each size in each"
  else
    bad "$pattern exited $? ($(cat p.err))"
  fi
done
python3 -c "import json; j = json.load(open('p.json')); assert j['pattern']['cachesize'] == 1048576 and j['pattern']['verify']" \
  && ok || bad "cache-cold run's json"
# 1 MiB against the last-level cache hwloc reports (lscpu's, read here through sysfs): below 4 times it the
# table warns and the JSON says so; a machine whose cache is not known gets no claim.
llc=$(for d in /sys/devices/system/cpu/cpu0/cache/index*; do echo "$(cat "$d/level") $(cat "$d/size")"; done 2> /dev/null |
      sort -n | tail -1 | awk '{ s = $2; m = 1; if (s ~ /K$/) m = 1024; if (s ~ /M$/) m = 1048576; sub(/[KM]$/, "", s); print s * m }')
python3 - p.json p.out "${llc:-0}" <<'PY' && ok || bad "-cachesize 1048576 against the last-level cache (${llc:-unknown} bytes)"
import json, sys
j = json.load(open(sys.argv[1])); out = open(sys.argv[2]).read(); llc = int(sys.argv[3])
p = j['pattern']
if llc == 0:
    print('no cache size in sysfs: not judged'); sys.exit(0)
assert p['llc_bytes'] == llc, (p['llc_bytes'], llc)
assert p['cachesize_below_llc_factor'] == (1048576 < 4 * llc), p
assert (f'# WARNING: -cachesize 1048576 bytes is less than 4 times the last-level cache ({llc} bytes, hwloc)' in out) == (1048576 < 4 * llc), out[:600]
PY
# -overlap is the original's round trip, -overlap -head the exchange: each labelled in the JSON and the table,
# the computation alone beside it, and an operation that holds a computation takes about as long as it at
# least: half of it, since the two minima come from different moments of this machine's phases (0.8 over 2
# samples failed once, 2d8ecbf's run); a computation outside the operation (~1 us against ~500 us) or
# deleted (compute_us 0) still fails.
for form in "roundtrip:" "exchange:-head"; do
  name=${form%%:*} head=${form#*:}
  # shellcheck disable=SC2086
  $mpiexec -n 2 "$mpptest" -overlap $head -sizelist 0,1000000 -sample_reps 4 -n_stable 0 -nr 4096 -noplot -noprogress \
    -outbase "ov_$name" > "ov_$name.out" 2>&1 \
    && awk -F, 'NR == 3 && $10 > 0 { found = 1 } END { exit !found }' "ov_$name.csv" && ok || bad "overlap $name: computation alone reported"
  python3 - "ov_$name.json" "$name" << 'PY' && ok || bad "overlap $name: labels or times ($(head -3 "ov_$name.out"))"
import json, sys
j = json.load(open(sys.argv[1]))
want = {"roundtrip": ("overlap_roundtrip", "time per round trip (us)"), "exchange": ("overlap", "time per exchange (us)")}
assert (j["pattern"]["name"], j["pattern"]["time_unit"]) == want[sys.argv[2]], j["pattern"]
big = j["points"][-1]
assert big["bytes"] == 1000000 and big["min_us"] >= 0.5 * big["compute_us"] > 0, big
PY
done
grep -q '^# mpptest (mpilat .*): overlap (round trip),' ov_roundtrip.out && grep -q '^# mpptest (mpilat .*): overlap (exchange),' ov_exchange.out \
  && ok || bad "overlap: the table's first line names the form"
$mpiexec -n 2 "$mpptest" -bisect -sizelist 0,64 -sample_reps 2 -n_stable 0 -nr 4096 -noplot -noprogress -outbase bi > /dev/null 2>&1 \
  && grep -q '"bisect": true' bi.json && ok || bad "bisect run"
# -memcpy: the copy alone, on one process; its time grows with the length (a removed copy would read ~0.01 us
# at every size): 4 MiB take at least 8x 64 KiB, and no core copies 100 GB/s.
$mpiexec -n 1 "$mpptest" -memcpy -sizelist 0,65536,4194304 -sample_reps 3 -n_stable 0 -nr 4096 -noplot -noprogress \
  -outbase mc > mc.out 2>&1 && grep -q '^# mpptest (mpilat .*): memcpy (no communication), rank 0 (.*) alone, 3 sizes' mc.out && ok ||
  bad "-memcpy on one process ($(head -3 mc.out))"
python3 - mc.json << 'PY' && ok || bad "-memcpy: name, unit or times ($(head -6 mc.out))"
import json, sys
j = json.load(open(sys.argv[1]))
assert (j["pattern"]["name"], j["pattern"]["time_unit"]) == ("memcpy", "time per copy (us)"), j["pattern"]
t = {p["bytes"]: p["min_us"] for p in j["points"]}
assert t[4194304] >= 4194304 / 1e5 and t[4194304] > 8 * t[65536], t
PY
# -auto starts from the original's points: first..last in 8 steps, -size's stride not used.
$mpiexec -n 2 "$mpptest" -auto -size 0 1024 32 -sample_reps 4 -n_stable 0 -nr 4096 -noplot -noprogress -outbase auto \
  > auto.out 2>&1 && python3 - auto.json << 'PY' && ok || bad "-auto: the starting points ($(head -3 auto.out))"
import json, sys
points = json.load(open(sys.argv[1]))["points"]
start = [p["bytes"] for p in points if not p["refined"]]
assert start == list(range(0, 1025, 128)), start
PY
# -vector and -vectortype: the strided message (stride 10 unless -vstride), said in the header and the JSON.
for form in "-vector:MPI_DOUBLE resized:false:10" "-vectortype -vstride 4:MPI_Type_vector:true:4"; do
  IFS=: read -r flags words as_type stride <<< "$form"
  # shellcheck disable=SC2086
  $mpiexec -n 2 "$mpptest" $flags -sizelist 0,800 -sample_reps 2 -n_stable 0 -nr 4096 -noplot -noprogress -outbase vec \
    > vec.out 2>&1 && grep -q "^# mpptest (mpilat .*): ping-pong, strided: doubles $stride apart ($words), ranks 0 " vec.out &&
    grep -q "\"vector_stride\": $stride" vec.json && grep -q "\"vector_type\": $as_type" vec.json && ok ||
    bad "$flags ($(head -3 vec.out))"
done
# -rate: the .gcm plots the .gpl's rate (column 6), not the time.
$mpiexec -n 2 "$mpptest" -rate -gnuplot -noplot -sizelist 0,1024 -sample_reps 2 -n_stable 0 -nr 4096 -noprogress \
  -outbase rate > rate.out 2>&1 && grep -q "using 4:6 .*title 'rate'" rate.gcm && ! grep -q "using 4:5" rate.gcm &&
  grep -q "set ylabel 'rate (bytes/s" rate.gcm && ok || bad "-rate: the .gcm ($(head -3 rate.out))"
# -halo: every rank with its -npartner partners; on 2 ranks periodic, rank 1 is both of rank 0's (+1 and -1).
$mpiexec -n 2 "$mpptest" -halo -npartner 2 -periodic -sizelist 0,1024 -sample_reps 2 -n_stable 0 -nr 4096 -noplot \
  -noprogress -verify -outbase halo > halo.out 2>&1 &&
  grep -q '^# mpptest (mpilat .*): halo exchange, 2 ranks, up to 2 partners each (2 asked, periodic), rank 0 ' halo.out && ok ||
  bad "-halo -npartner 2 -periodic ($(head -3 halo.out))"
python3 - halo.json << 'PY' && ok || bad "-halo: JSON ($(head -6 halo.out))"
import json, sys
j = json.load(open(sys.argv[1]))
p = j["pattern"]
assert (p["name"], p["halo_partners"], p["halo_periodic"], p["pairs"]) == ("halo", 2, True, 2), p
big = j["points"][-1]
assert big["bytes"] == 1024 and abs(big["rate_mbs"] - 2 * 1024 / big["min_us"]) <= 1e-6 * big["rate_mbs"], big
PY
# -gop -dsum: every rank's MPI_Allreduce of size/8 doubles, each sum checked (-verify), the rate size / time.
$mpiexec -n 2 "$mpptest" -gop -dsum -sizelist 0,64,4096 -sample_reps 2 -n_stable 0 -nr 4096 -noplot -noprogress \
  -verify -gnuplot -outbase gop > gop.out 2>&1 &&
  grep -q '^# mpptest (mpilat .*): collective operation (gop), dsum on 2 ranks, rank 0 ' gop.out && ok ||
  bad "-gop -dsum ($(head -3 gop.out))"
python3 - gop.json gop.gpl << 'PY' && ok || bad "-gop: JSON and .gpl ($(head -6 gop.out))"
import json, sys
j = json.load(open(sys.argv[1]))
p = j["pattern"]
assert (p["name"], p["gop"], p["pairs"]) == ("gop", "dsum", 2), p
big = j["points"][-1]
assert big["bytes"] == 4096 and abs(big["rate_mbs"] - 4096 / big["min_us"]) <= 1e-6 * big["rate_mbs"], big
rows = [l.split("\t") for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
assert [int(r[3]) for r in rows] == [0, 64, 4096], rows
PY
# Each of -gop's operations reaches the library (the JSON's pattern.gop); -scatter is -bcast's other name.
for op in sync:sync isum:isum bcast:bcast scatter:bcast; do
  $mpiexec -n 2 "$mpptest" -gop -${op%%:*} -sizelist 0,64 -sample_reps 2 -n_stable 0 -nr 4096 -noplot -noprogress \
    -verify -outbase gop_${op%%:*} > gop_${op%%:*}.out 2>&1 &&
    grep -q "\"gop\": \"${op#*:}\"" gop_${op%%:*}.json && ok || bad "-gop -${op%%:*} ($(head -3 gop_${op%%:*}.out))"
done
# -bisectdist d: the original's pairs (on 2 ranks, 0 with 1 at distance 1); out of 1..P-1 or without -bisect: refused.
$mpiexec -n 2 "$mpptest" -bisect -bisectdist 1 -sizelist 0,64 -sample_reps 2 -n_stable 0 -nr 4096 -noplot -noprogress \
  -outbase bid > bid.out 2>&1 && grep -q '"bisect_distance": 1' bid.json && grep -q '"pairs": 1' bid.json &&
  grep -q '^# mpptest (mpilat .*): ping-pong, bisection of 1 pairs at distance 1, ranks 0 (.*) and 1 ' bid.out && ok ||
  bad "-bisect -bisectdist 1 ($(head -3 bid.out))"
# The patterns' rules: exit 2, the library's words, nothing written.
for refused in "-halo -npartner 6:halo_partners must be 1, 2, 4 or 8 (with 6, the offsets" \
               "-npartner 4:halo_partners and halo_periodic are the halo pattern's (pattern = 7), got 4 and 0" \
               "-halo -head:-halo is a pattern of its own" \
               "-dsum:-sync, -dsum, -isum and -bcast are -gop's operations: give -gop" \
               "-gop -dsum -bcast:-sync, -dsum, -isum and -bcast: give one" \
               "-gop -halo:-gop is a pattern of its own (a collective operation): not with another" \
               "-gop -bisect:the gop pattern involves every rank: it cannot be a bisection" \
               "-bisect -bisectdist 2:bisect_distance must be 0 (rank i with i + P/2) or in 1..1 (the communicator's size less one), got 2" \
               "-bisectdist 1:bisect_distance is a bisection's (bisect = 1), got 1" \
               "-memcpy -head:-memcpy copies without communication: not with another pattern" \
               "-overlap -persistant:-overlap and -persistant are two patterns" \
               "-vstride 3:-vstride is -vector's and -vectortype's: give one" \
               "-vector -vectortype:-vector and -vectortype are two forms of the strided message: give one" \
               "-vector -head:vector_stride is the blocking ping-pong's (pattern 0, the original's -vector), got pattern 2" \
               "-persistant -cachesize 1048576:cachesize must be 0 with the persistent pattern (its requests are bound to one pair of buffers), got 1048576"; do
  mkdir refused && (cd refused && # shellcheck disable=SC2086
    $mpiexec -n 2 "$mpptest" ${refused%%:*} -noplot > out 2>&1; echo $? > rc)
  [ "$(cat refused/rc)" = 2 ] && grep -qF -- "${refused#*:}" refused/out && [ "$(ls refused)" = "$(printf 'out\nrc')" ] && ok ||
    bad "${refused%%:*}: not refused ($(head -3 refused/out))"
  rm -rf refused
done
$mpiexec -n 2 "$mpptest" -help > help.out 2>&1 && grep -q -- '--autodx' help.out && ok || bad "-help"
# What is left out is said, and refused by name.
grep -q "Not offered yet, refused as unknown options (docs/mpptest.md): the original's -halo variants" help.out && ok ||
  bad "-help does not list what is not offered"
$mpiexec -n 2 "$mpptest" -halo -waitany > waitany.out 2>&1
[ $? = 2 ] && grep -q 'waitany' waitany.out && ok || bad "-waitany not refused by name: $(head -3 waitany.out)"
# The defaults shown are the library's (lat_*_defaults), not copies typed into the help text.
grep -Eq -- '--sample_reps INT=50 ' help.out && grep -Eq -- '--autorel FLOAT=0.02 ' help.out && \
  grep -Eq -- '--n_avg_min INT:> 0=50 ' help.out && grep -Eq -- '--max_run_time,--budget FLOAT=900( |$)' help.out && ok \
  || bad "-help: the library's defaults"

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
expect_bad "-outbase 'a/b'" -outbase a/b
expect_bad "-timer nope" -timer nope
expect_bad "reps must be >= 1, got 0" -sample_reps 0
expect_bad "n_avg: must be a number > 0, got 0" -n_avg 0
expect_bad "n_avg: must be a number > 0, got 0" -reps 0
expect_bad "tgoal: must be a number > 0, got 0" -tgoal 0
expect_bad "tgoal: must be a number > 0, got -1" -tgoal -1
expect_bad "cachesize must hold at least two slots of the largest message (2 x 1024 bytes), got 100" -cachesize 100
expect_bad "cachesize 68719476736 needs" -cachesize 68719476736
expect_bad "autorel must be a finite number > 0" -autorel -1
expect_bad "distinct and ascending" -sizelist 64,8
expect_bad "bogus" -bogus
expect_bad "size" -size 1 2
expect_bad "cachesize must be in" -cachesize -1
expect_bad "-outbase '..': must be a file name" -outbase ..
expect_bad "-outbase '/tmp/x': must be a file name without '/'" -outbase /tmp/x
expect_bad "-outbase '../../x': must be a file name without '/'" -outbase ../../x
expect_bad "-outbase 'a.x0ab': must not hold control characters" -outbase "$(printf 'a\nb')"
expect_bad "-fname 'a.x09b': must not hold control characters" -fname "$(printf 'a\tb')"
$mpiexec -n 2 "$mpptest" -noprogress -outdir "$(printf 'bad\n_')" > /dev/null 2> nl.err
[ $? = 2 ] && grep -q "\-outdir 'bad.x0a_': must not hold control characters" nl.err && ok || bad "-outdir with a newline: $(cat nl.err)"

# ---- names that reach a gnuplot script: quoted, so that none runs a command ------------------------------------
mkdir quoted
hostile="q'; system('touch pwned'); x='"
$mpiexec -n 2 "$mpptest" -sizelist 0,64,128 -sample_reps 2 -n_stable 0 -nr 4096 -gnuplot -noprogress -outdir quoted \
  -outbase "$hostile" > quoted.out 2> quoted.err || bad "quoted -outbase: exit $? ($(cat quoted.err))"
[ -s "quoted/$hostile.png" ] && [ -s "quoted/$hostile.json" ] && [ -s "quoted/$hostile.gcm" ] && ok ||
  bad "quoted -outbase: files: $(ls quoted)"
# The original's gnuplot commands, run as a user runs them, name the data file quoted too.
(cd quoted && gnuplot "$hostile.gcm" > /dev/null 2>&1)
[ ! -e "$work/pwned" ] && [ ! -e quoted/pwned ] && ok || bad "an -outbase holding a quote and system(...) ran a command through gnuplot"

# ---- -fname (a path by design): written whole, never through a symlink swapped in during the run --------------
echo "victim's contents" > victim
rm -f table.txt
# (a run of 3 s, its time limit: exit 3 and the partial table, written as any other)
$mpiexec -n 2 "$mpptest" -size 0 65536 64 -max_sizes 2000 -sample_reps 200 -n_stable 0 -nr 4096 -noplot -noprogress \
  -max_run_time 3 -outdir swap -fname table.txt > swap.out 2> swap.err &
job=$!
mkdir -p swap
sleep 1
ln -s victim table.txt
wait $job
rc=$?
[ "$rc" = 3 ] && ok || bad "-fname with a symlink swapped in: exit $rc, not 3 (the time limit) ($(cat swap.err))"
[ "$(cat victim)" = "victim's contents" ] && ok || bad "-fname wrote through the symlink swapped in: $(head -2 victim)"
[ -f table.txt ] && [ ! -L table.txt ] && grep -q 'time(us)' table.txt && ok || bad "-fname: table.txt not the whole table"
ls -a | grep -q '^\.mpilat-' && bad "-fname: temporary files left beside it" || ok

# An -outdir that does not exist yet is made; one under a file cannot be.
$mpiexec -n 2 "$mpptest" -noprogress -sizelist 0 -sample_reps 2 -noplot -outdir "$work/none/such" > /dev/null 2> dir.err
[ $? = 0 ] && [ -f "$work/none/such/mppout.json" ] && ok || bad "missing -outdir not made: $(cat dir.err)"
$mpiexec -n 2 "$mpptest" -noprogress -outdir "$work/none/such/mppout.json/x" > /dev/null 2> dir.err
[ $? = 2 ] && grep -q "mppout.json/x" dir.err && ok || bad "-outdir under a file: $(cat dir.err)"

finish_checks "mpptest driver"
