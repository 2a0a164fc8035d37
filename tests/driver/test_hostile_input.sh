#!/bin/bash
# test_hostile_input.sh DRIVER_DIR DATA_DIR "MPIEXEC [flags]"
# Hostile input across all drivers (docs/hostile-input.md): every bad command-line value of hostile_cli.txt
# and, from the spec, the values just outside each option's range (range_refusals.py)
# (exit 2, the value named, no file), and the readers (mmpi2mat, nodecomm --fit, mpilat-compare, latency's
# &latency namelist) on the hostile files make_hostile_files.py makes of a good input (empty, truncated,
# binary, 100 MB, CRLF, UTF-16, NaN/inf, a 1 MB line) and on the other drivers' files: each read (CRLF, and
# a 100 MB namelist whose group ends before the repeated lines) or refused with exit 2 and the file named,
# never a crash, a hang or a file written.
set -u
bin=$1 data=$2 mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=checks.sh
. "$here/checks.sh"

# A good input of each reader.
python3 - <<'PY'
import json
j = {"format": "mpilat-latency", "format_version": 1, "run": {"mpi_library_version": "synthetic", "partial": False},
     "message": {"bytes": 8}, "timer": {"name": "mpi_wtime"}, "npp": {"used": 3},
     "pingpong": {"all": {"median_us": 0.25}, "frequencies": [[0.2, 10], [0.25, 30], [0.3, 5]]}}
json.dump(j, open("good.json", "w"), indent=1)
PY
cp "$data/mmpi/paper_example.dat" good.dat
cp "$data/nodecomm/bluewaters_table1.tsv" good.tsv
printf '&latency\n  source = 0, dest = 1,\n  ntrial = 1000, cut_coef = 2.5d0, timer = "mpi_wtime" ! comment\n/\n' > good.nml

# run_in DIR NP PROGRAM ARGS...: PROGRAM run in the empty directory DIR (under mpiexec unless NP is 0), its
# status in $rc, its stderr in err.txt; at most 120 s.
run_in() {
  local dir=$1 np=$2 program=$3
  shift 3
  rm -rf "$dir" && mkdir "$dir"
  if [ "$np" = 0 ]; then (cd "$dir" && timeout -s KILL 120 "$bin/$program" "$@" < /dev/null > ../out.txt 2> ../err.txt)
  else (cd "$dir" && timeout -s KILL 120 $mpiexec -n "$np" "$bin/$program" "$@" < /dev/null > ../out.txt 2> ../err.txt); fi
  rc=$?
}

# ---- Part 1: the command lines. MPILAT_HOSTILE_DRIVERS: only those drivers' lines, and Part 1 alone (the
# test template_capability, where only its driver is built); default: every driver, every part.
only=${MPILAT_HOSTILE_DRIVERS:-}
cases=0 one_process=0
while IFS= read -r line <&3; do
  case $line in '#'* | '') continue ;; esac
  eval "set -- $line"
  program=$1 np=$2 want=$3
  shift 3
  [ -z "$only" ] || [[ " $only " == *" $program "* ]] || continue
  args=()
  for a in "$@"; do
    case $a in LOG) args+=("$PWD/good.dat") ;; JSON) args+=("$PWD/good.json") ;; *) args+=("$a") ;; esac
  done
  cases=$((cases + 1))
  # A value refused before any message is sent is refused the same in one process (MPI's singleton start,
  # 0.02 s, against 0.1-2 s for a launch): tried there first; a case that needs its ranks runs under mpiexec.
  if [ "$np" != 0 ]; then
    run_in bad 0 "$program" "${args[@]}"
    if [ "$rc" = 2 ] && grep -qF -- "$want" err.txt && [ -z "$(ls -A bad)" ]; then
      ok && ok && ok
      one_process=$((one_process + 1))
      continue
    fi
  fi
  run_in bad "$np" "$program" "${args[@]}"
  [ "$rc" = 2 ] && ok || bad "$program ${args[*]} (np $np): exit $rc, not 2: $(head -c 300 err.txt)"
  grep -qF -- "$want" err.txt && ok || bad "$program ${args[*]}: the message lacks '$want': $(head -c 300 err.txt)"
  [ -z "$(ls -A bad)" ] && ok || bad "$program ${args[*]}: files written: $(ls -A bad)"
done 3< <(cat "$here/hostile_cli.txt"; python3 "$here/range_refusals.py" "$here/../.." "$bin" ||
           echo "range_refusals.py 0 'the ranges of the spec' failed")
echo "command lines tried: $cases ($one_process refused in one process, the others under mpiexec)"
if [ -n "$only" ]; then
  [ "$cases" -ge 1 ] && ok || bad "no hostile command line of $only"
  finish_checks "driver_hostile ($only: the command lines)"
fi
[ "$cases" -ge 80 ] && ok || bad "only $cases hostile command lines"

# ---- Part 2: the readers on hostile files.
for kind in json dat tsv nml; do python3 "$here/make_hostile_files.py" "good.$kind" "$kind"; done
# Another driver's file for each reader: each reader is given the good files of the others.
# reader KIND FILE: runs the reader of KIND on FILE (relative to here) in the empty directory out/.
reader() {
  local kind=$1 file=$PWD/$2
  case $kind in
    dat) run_in out 0 mmpi2mat "$file" --outdir . ;;
    tsv) run_in out 0 nodecomm --fit "$file" --noplot ;;
    json) run_in out 0 mpilat-compare "$file" ;;
    nml) run_in out 1 latency --input "$file" ;;  # read before the job's size is checked: 1 process
  esac
}
# expect_read KIND FILE: read as a good file: exit 0 and files (for the namelist: past the reading, to the
# check of the job's size, which a single process fails with its own message).
expect_read() {
  reader "$1" "$2"
  if [ "$1" = nml ]; then
    [ "$rc" = 2 ] && grep -q "at least 2 MPI processes" err.txt && ok || bad "$2 not read as a namelist: exit $rc: $(head -c 300 err.txt)"
  else
    [ "$rc" = 0 ] && [ -n "$(ls -A out)" ] && ok || bad "$2 not read: exit $rc: $(head -c 300 err.txt)"
  fi
}
# expect_refused KIND FILE [TEXT]: exit 2, the file named (and TEXT), no file written, no raw control byte
# on the terminal.
expect_refused() {
  reader "$1" "$2"
  [ "$rc" = 2 ] && ok || bad "$1 reader on $2: exit $rc, not 2: $(head -c 300 err.txt | cat -v)"
  grep -qF -- "$(basename "$2")" err.txt && ok || bad "$1 reader on $2: the file is not named: $(head -c 300 err.txt | cat -v)"
  [ -z "${3:-}" ] || { grep -qF -- "$3" err.txt && ok || bad "$1 reader on $2: the message lacks '$3': $(head -c 300 err.txt | cat -v)"; }
  [ -z "$(ls -A out)" ] && ok || bad "$1 reader on $2: files written: $(ls -A out)"
  LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' err.txt && bad "$1 reader on $2: control bytes on the terminal" || ok
}
for kind in json dat tsv nml; do
  expect_read "$kind" "good.$kind"
  expect_read "$kind" "$kind/crlf.$kind"
  for class in empty truncated binary nan inf longline; do expect_refused "$kind" "$kind/$class.$kind"; done
  expect_refused "$kind" "$kind/utf16.$kind" "UTF-16"
  for other in json dat tsv nml; do [ "$other" = "$kind" ] || expect_refused "$kind" "good.$other"; done
done
# 100 MB: refused by what it holds (a JSON string where a kind belongs, a rank with itself again, lengths that
# do not ascend) in bounded time; the namelist's group ends before the repeated lines, so it is read.
expect_refused json json/big.json "not an mpilat result"
expect_refused dat dat/big.dat "again"
expect_refused tsv tsv/big.tsv "ascend"
expect_read nml nml/big.nml
# Without a final newline, as many editors save a one-line file (the docs' example): read, as every other
# reader reads such a file; a group that never ends is still refused.
printf '&latency source = 0, dest = 1, ntrial = 1000 /' > nonewline.nml
expect_read nml nonewline.nml
printf '&latency source = 0, dest = 1' > unended.nml
expect_refused nml unended.nml "no valid &latency group"
mkfifo fifo.nml
expect_refused nml fifo.nml "a FIFO, not a regular file"
# The kernel's files: "regular", of size 0, and endless (/proc/self/pagemap grew latency to 2 GB in 10 s):
# refused by what they hold, not by what stat says, by every reader.
for kind in json dat tsv nml; do
  ln -s /proc/self/pagemap "pagemap.$kind"
  expect_refused "$kind" "pagemap.$kind" "a file of the kernel's"
done
# A nodecomm table too wide (20,000 columns of short times ran the fit past a minute): refused at the first row.
python3 -c "
for n in (0, 64, 4096, 65536): print(n, ' '.join(['9'] * 20000))" > wide.tsv
expect_refused tsv wide.tsv "at most 1024 times a row"
ln -s /proc/self/status status.json
expect_refused json status.json "a file of the kernel's"
# A name given twice (gfortran would take the last silently), in any case; one in a comment or a string is
# not a name.
printf '&latency\n source = 0, dest = 1, ! ntrial = 9\n ntrial = 5, timer = "ntrial = 1"\n NTRIAL = 7 /\n' > twice.nml
expect_refused nml twice.nml "gives ntrial twice (lines 3 and 4): give each once"

# A host name holding an escape sequence and a comma (the log writer's text): read, and written to the CSV
# as \x1b and quoted, never raw.
sed 's/nid00671/nid\x1b[31m,71/g' good.dat > escape.dat
expect_read dat escape.dat
grep -q $'\x1b' out/escape.csv && bad "mmpi2mat: a raw escape byte in the CSV" || ok
grep -qF '"nid\x1b[31m,71"' out/escape.csv && ok || bad "mmpi2mat: the host name not shown quoted: $(sed -n 2,4p out/escape.csv | cat -v)"
# The same in the log's "# Testing Hostname:", which mmpi2mat prints: shown as \x1b, never raw on the terminal.
sed '1s/.*/# Testing Hostname: login\x1b]0;owned\x07one/' good.dat > testing_escape.dat
expect_read dat testing_escape.dat
grep -q $'\x1b' out.txt && bad "mmpi2mat: a raw escape byte of '# Testing Hostname:' on the terminal" || ok
grep -qF '(login\x1b]0;owned\x07one)' out.txt && ok || bad "mmpi2mat: the testing host not shown: $(cat -v out.txt)"

# A launch that gives one rank a bad value (a wrapper script giving ranks different options, MPMD): every
# rank refuses, the refused rank names its value, rank 0 says the ranks differ, nothing is measured or
# written, and nobody hangs (before: rank 1 refused silently, rank 0 measured and waited for ever). The same
# bad value on every rank is said once, by rank 0.
declare -A mpmd_bad=([mmpi]="--repeats -5" [mpptest]="-reps -5" [queuelat]="--reps -5" [nodecomm]="--reps -5" [mpilat-coll]="--reps -5")
for name in mmpi mpptest queuelat nodecomm mpilat-coll; do
  rm -rf "mpmd_$name" && mkdir "mpmd_$name"
  # shellcheck disable=SC2086
  (cd "mpmd_$name" && timeout -s KILL 60 $mpiexec -n 1 "$bin/$name" --quick : -n 1 "$bin/$name" --quick ${mpmd_bad[$name]} \
    < /dev/null > ../out.txt 2> ../err.txt)
  rc=$?
  [ "$rc" = 2 ] && grep -q "^rank 1: $name: .*-5" err.txt && grep -q "^$name: the options of 1 rank(s) were refused (rank 1 first)" err.txt \
    && [ -z "$(ls -A "mpmd_$name")" ] && ok || bad "$name with one rank's bad value: exit $rc ($(tail -c 300 err.txt); $(ls -A "mpmd_$name"))"
  # shellcheck disable=SC2086
  (cd "mpmd_$name" && timeout -s KILL 60 $mpiexec -n 2 "$bin/$name" --quick ${mpmd_bad[$name]} < /dev/null > ../out.txt 2> ../err.txt)
  rc=$?
  [ "$rc" = 2 ] && [ "$(grep -c -- '-5' err.txt)" = 1 ] && ! grep -q '^rank ' err.txt && ok \
    || bad "$name with the bad value on every rank: exit $rc, said $(grep -c -- '-5' err.txt) times ($(tail -c 300 err.txt))"
done

# A byte that is not UTF-8 in an output name (a Latin-1 directory, as old file systems hold): the run's files
# are written, the JSON valid, the byte kept as \xE9 (before: every driver measured, then failed with
# nlohmann's type_error 316 and wrote nothing). nodecomm --fit (no MPI) and mpptest under mpiexec.
latin1=$(printf 'caf\xe9')
run_in fit_latin1 0 nodecomm --fit "$data/nodecomm/bluewaters_table1.tsv" --time-unit s --noplot --outdir "$latin1"
[ "$rc" = 0 ] && python3 -c "
import json, sys; j = json.load(open(sys.argv[1]))
assert j['run']['command_line'].endswith('--outdir caf\\\\xE9'), j['run']['command_line']" "fit_latin1/$latin1/nodecomm.json" \
  && ok || bad "nodecomm --fit into a Latin-1 directory: exit $rc ($(tail -c 300 err.txt))"
run_in sweep_latin1 2 mpptest -size 0 64 32 -reps 3 -n_stable 0 -noplot -noprogress -outbase "$latin1"
[ "$rc" = 0 ] && python3 -c "import json, sys; json.load(open(sys.argv[1]))" "sweep_latin1/$latin1.json" \
  && ok || bad "mpptest -outbase with a Latin-1 byte: exit $rc ($(tail -c 300 err.txt))"

# The other MPI's launcher (Open MPI's mpirun for this MPICH build): every process is an MPI job of one, and the
# refusal says which launcher to use (before: "run it with mpiexec -n 2", which the user had done).
if $mpiexec --version 2>&1 | grep -q HYDRA && command -v mpiexec.openmpi > /dev/null; then
  for name in latency mpptest; do
    (cd "$work" && timeout -s KILL 60 mpiexec.openmpi --allow-run-as-root --oversubscribe -n 2 "$bin/$name" --noplot \
       < /dev/null > out.txt 2> err.txt)
    grep -q "$name: Open MPI's mpirun started 2 processes but MPI sees 1 in this one: this program is built with MPICH; launch it with MPICH's mpiexec" \
      "$work/err.txt" && ok || bad "$name under Open MPI's mpirun: $(tail -c 300 "$work/err.txt")"
  done
fi

finish_checks "driver_hostile"
