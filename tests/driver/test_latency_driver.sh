#!/bin/bash
# test_latency_driver.sh LATENCY DATA_DIR "MPIEXEC [flags]"
# The latency driver as a user runs it: the three files, the summary's labels in Appendix C's order,
# latency.output's parts, valid JSON, a namelist file, and bad input that leaves no file behind.
# Never a timing value.
set -u
latency=$1 data=$2 mpiexec=$3
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

$mpiexec -n 2 "$latency" --quick --no-progress > run.out 2> run.err || bad "quick run exited $? ($(cat run.err))"
for f in latency.output latency.summary.output latency.json; do
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

# JSON: parses, and holds what the issue names.
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
assert t["chunks"]["columns"] == ["first_trial", "trials", "start_s", "end_s", "min_us", "median_us"]
assert len(rows) == t["nchunks"] >= 1 and sum(r[1] for r in rows) == 32768
assert all(rows[i][0] + rows[i][1] == rows[i + 1][0] for i in range(len(rows) - 1))
assert all(r[4] <= r[5] for r in rows)
assert 1 <= len(t["levels"]) <= 4 and abs(sum(l["share"] for l in t["levels"]) - 1) < 1e-9
assert isinstance(j["warnings"], list) and all(w.startswith("WARNING: ") for w in j["warnings"])
# The warnings follow the rules: levels when more than one, the filter above 5 %.
assert (len(t["levels"]) > 1) == any("changed state" in w for w in j["warnings"])
assert (20 * j["filtered"]["removed"] > 32768) == any("filter removed" in w for w in j["warnings"])
PY
grep -q '^THE RUN OVER TIME' latency.output && ok || bad "latency.output lacks the run over time"

# A namelist file; the command line overrides it; --outdir.
mkdir out
printf '&latency ntrial=300, npp=2, n=4 /\n' > params.nml
$mpiexec -n 2 "$latency" --quick --input params.nml --n 2 --outdir out > /dev/null 2>&1 || bad "namelist run failed"
grep -q '^ntrial = 300$' out/latency.summary.output && ok || bad "namelist ntrial not used"
grep -q '^value of npp used = 2$' out/latency.summary.output && ok || bad "namelist npp not used"
grep -q '^Message size(# of 8-bytes els) = 2$' out/latency.summary.output && ok || bad "--n does not override the namelist"

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
expect_error 'unknown option "--bogus"' 2 --bogus
expect_error "timer must be mpi_wtime, monotonic_raw or tsc, got 'sundial'" 2 --timer sundial
expect_error "cannot use output directory" 2 --outdir /nonexistent/dir

# Help.
$mpiexec -n 1 "$latency" --help > help.out
grep -q -- "--npp_init" help.out && ok || bad "--help lists the options"
# The defaults shown are the library's (lat_pingpong_defaults), which are Appendix C's.
grep -Eq -- '^  --ntrial N .*\(default 8388608\)$' help.out && ok || bad "--help: ntrial's default"
grep -Eq -- '^  --cut_coef X .*\(default 2.0\)$' help.out && ok || bad "--help: cut_coef's default"

finish_checks "driver_latency"
