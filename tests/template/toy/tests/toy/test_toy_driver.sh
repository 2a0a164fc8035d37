#!/bin/bash
# test_toy_driver.sh DRIVER "MPIEXEC [flags]": the template capability's driver: a quick run's files and
# table, the JSON's fields (spec/json.toml), a bad value refused on every rank with exit 2, naming it, and no
# file written. Never a timing value.
set -u
driver=$1 mpiexec=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../driver/checks.sh
. "$here/../driver/checks.sh"

mkdir out
# shellcheck disable=SC2086
$mpiexec -n 2 "$driver" --reps 20 --iters 10 --noprogress --outdir out > run.log 2>&1
rc=$?
[ "$rc" = 0 ] && ok || bad "quick run: exit $rc: $(tail -c 300 run.log)"
[ "$(ls out | tr '\n' ' ')" = "toy.json toy.txt " ] && ok || bad "quick run's files: $(ls -A out | tr '\n' ' ')"
grep -q 'MPI_Barrier on 2 ranks' run.log && ok || bad "the table on stdout: $(head -c 300 run.log)"
python3 -c "
import json, sys; j = json.load(open(sys.argv[1])); b = j['barrier']
assert j['format'] == 'mpilat-toy' and b['reps'] == 20 and b['iters'] == 10 and b['nprocs'] == 2, b
assert 0 < b['min_us'] <= b['median_us'] <= b['max_us'] and j['run']['partial'] is False, b
assert j['options'] == {'iters': 10, 'reps': 20, 'timeout_s': 0.0}, j['options']" out/toy.json && ok || bad "toy.json's figures"
json_fields out/toy.json

# A bad value on one rank only (an MPMD launch): every rank exits 2, the message names it, no file.
mkdir bad
# shellcheck disable=SC2086
(cd bad && timeout -s KILL 60 $mpiexec -n 1 "$driver" --reps 5 : -n 1 "$driver" --reps 5 --iters 0 > ../bad.log 2>&1)
rc=$?
[ "$rc" = 2 ] && ok || bad "--iters 0 on one rank: exit $rc, not 2: $(tail -c 300 bad.log)"
grep -q 'iters must be >= 1, got 0' bad.log && ok || bad "--iters 0: the message: $(tail -c 300 bad.log)"
[ -z "$(ls -A bad)" ] && ok || bad "--iters 0: files written: $(ls -A bad)"
finish_checks "driver_toy"
