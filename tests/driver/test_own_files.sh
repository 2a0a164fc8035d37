#!/bin/bash
# test_own_files.sh DRIVER_DIR DATA_DIR "MPIEXEC [flags]"
# Nothing destroyed that is not ours (docs/hostile-input.md, "Outputs and inputs"): an output that is a
# device (a real one, made with mknod here), a FIFO, a socket or a directory is refused with exit 2 and never
# replaced; no output replaces an input or another output of its run; the readers take regular files only,
# of bounded size and line length, and never wait on input; a write that fails (a file-size limit: the
# kernel's EFBIG, as a full disk's ENOSPC) is an error naming the file, leaving no temporary; standard output
# that cannot be written is an error. Root: mknod.
set -u
bin=$1 data=$2 mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=checks.sh
. "$here/checks.sh"
# shellcheck source=mpi_drivers.sh
. "$here/mpi_drivers.sh"

# snapshot: every entry here (type, device numbers, size, contents' checksum), to show nothing changed.
snapshot() { find . -mindepth 1 -printf '%p %y %s\n' | sort; find . -type f -size -10M -exec md5sum {} + | sort; stat -c '%n %F %t:%T' dev/* 2> /dev/null; }
# refused WHAT TEXT COMMAND...: exit 2, TEXT in the message, no entry here added, removed or changed.
refused() {
  local what=$1 text=$2
  shift 2
  snapshot > before.txt
  timeout -s KILL 60 "$@" > out.txt 2> err.txt < /dev/null
  local rc=$?
  snapshot > after.txt
  [ "$rc" = 2 ] && ok || bad "$what: exit $rc, not 2: $(head -c 300 err.txt)"
  grep -qF -- "$text" err.txt && ok || bad "$what: the message lacks '$text': $(head -c 300 err.txt)"
  # before/after.txt themselves are the only change allowed.
  diff <(grep -v 'before.txt\|after.txt\|out.txt\|err.txt' before.txt) \
       <(grep -v 'before.txt\|after.txt\|out.txt\|err.txt' after.txt) > changed.txt && ok \
    || bad "$what: files changed: $(head -c 400 changed.txt)"
}

mkdir dev
mknod dev/full c 1 7 && mknod dev/zero c 1 5 && ok || bad "mknod (the test needs root)"
mkfifo dev/fifo
python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('dev/sock')"
mkdir adir
cp "$data/mmpi/paper_example.dat" log.dat
cp "$data/nodecomm/bluewaters_table1.tsv" table.tsv
echo mine > mine.txt

# ---- Outputs that are not regular files: refused before anything is measured, never replaced.
for target in dev/full dev/fifo dev/sock adir; do
  refused "mmpi -o $target" "'$target' is a" $mpiexec -n 2 "$bin/mmpi" --quick -o "$target"
  refused "mpptest -fname $target" "'$target' is a" $mpiexec -n 2 "$bin/mpptest" -sizelist 0 -fname "$target"
done
refused "mmpi -o out.json (the log its own JSON)" "must have another (.dat)" $mpiexec -n 2 "$bin/mmpi" --quick -o out.json
# A name a driver derives from --outdir/--base that is a directory or FIFO: refused before anything is
# measured (lat_check_outputs), so the runs asked for here, minutes long, end at once; nothing replaced.
mkdir derived
for name in mppout.csv latency.json latency.npp.csv queuelat.png nodecomm_bw_maxrate.gp c.samples.csv x_var.dat m.json; do
  mkdir "derived/$name"
done
# Each run asked for here lasts minutes (mpi_drivers.sh) and would be killed at refused's 60 s.
refused "mpptest: derived/mppout.csv a directory" "'derived/mppout.csv' is a directory" \
  $mpiexec -n 2 "$bin/mpptest" ${long[mpptest]} -outdir derived
refused "latency: derived/latency.json a directory" "'derived/latency.json' is a directory" \
  $mpiexec -n 2 "$bin/latency" ${long[latency]} --outdir derived
rmdir derived/latency.json
mkfifo derived/latency.summary.output
refused "latency: derived/latency.summary.output a FIFO" "'derived/latency.summary.output' is a FIFO" \
  $mpiexec -n 2 "$bin/latency" ${long[latency]} --outdir derived
refused "latency --npp-study: derived/latency.npp.csv a directory" "'derived/latency.npp.csv' is a directory" \
  $mpiexec -n 2 "$bin/latency" --ntrial 100000000 --npp-study 1,10 --outdir derived
refused "queuelat: derived/queuelat.png a directory (plots are checked with --noplot too)" "'derived/queuelat.png' is a directory" \
  $mpiexec -n 2 "$bin/queuelat" ${long[queuelat]} --outdir derived
refused "nodecomm: derived/nodecomm_bw_maxrate.gp a directory" "'derived/nodecomm_bw_maxrate.gp' is a directory" \
  $mpiexec -n 2 "$bin/nodecomm" ${long[nodecomm]} --outdir derived
refused "nodecomm --fit: derived/nodecomm_bw_maxrate.gp a directory" "'derived/nodecomm_bw_maxrate.gp' is a directory" \
  "$bin/nodecomm" --fit table.tsv --outdir derived
refused "mpilat-coll: derived/c.samples.csv a directory" "'derived/c.samples.csv' is a directory" \
  $mpiexec -n 2 "$bin/mpilat-coll" ${long[mpilat-coll]} --base c --outdir derived
refused "mmpi2mat: derived/x_var.dat a directory" "'derived/x_var.dat' is a directory" \
  "$bin/mmpi2mat" log.dat --base x --outdir derived
refused "mmpi -o derived/m.dat: its JSON a directory" "'derived/m.json' is a directory" \
  $mpiexec -n 2 "$bin/mmpi" ${long[mmpi]} -o derived/m.dat
rm -r derived
# Two outputs of one run that are one file: exit 2, both named, the user's file as it was.
echo mine > mppout.json
refused "mpptest -fname mppout.json" "'mppout.json' and 'mppout.json' are one file" \
  $mpiexec -n 2 "$bin/mpptest" -sizelist 0 -sample_reps 2 -noplot -fname mppout.json
refused "mpptest -fname ./mppout.json" "'mppout.json' and './mppout.json' are one file" \
  $mpiexec -n 2 "$bin/mpptest" -sizelist 0 -sample_reps 2 -noplot -fname ./mppout.json
rm mppout.json

# ---- An output never replaces an input of its run.
mkdir d
cp log.dat d/a_comm.dat
refused "mmpi2mat d/a_comm.dat --base a" "is the input 'd/a_comm.dat' of this run" "$bin/mmpi2mat" d/a_comm.dat --base a --noplot
$mpiexec -n 2 "$bin/mpptest" -sizelist 0 -sample_reps 2 -noplot -outbase r > /dev/null 2>&1
cp r.json d/compare.json
refused "mpilat-compare d/compare.json r.json --outdir d" "is the input 'd/compare.json' of this run" \
  "$bin/mpilat-compare" d/compare.json r.json --outdir d --noplot
ln -s ../table.tsv d/nodecomm.txt
refused "nodecomm --fit d/nodecomm.txt (a link to table.tsv) --outdir d" "is the input 'd/nodecomm.txt' of this run" \
  "$bin/nodecomm" --fit d/nodecomm.txt --outdir d --noplot
rm -r d r.*

# A symbolic link where an output goes is replaced by the file, never written through (a link planted there
# cannot aim the results at someone's file), dangling or not.
mkdir keep out
echo theirs > keep/m_comm.dat
ln -s ../keep/m_comm.dat out/m_comm.dat
ln -s ../nowhere out/m_var.dat
"$bin/mmpi2mat" log.dat --base m --outdir out --noplot > /dev/null 2> err.txt && ok || bad "mmpi2mat over links: $(cat err.txt)"
[ "$(cat keep/m_comm.dat)" = theirs ] && [ ! -L out/m_comm.dat ] && [ -f out/m_var.dat ] && [ ! -e nowhere ] && ok \
  || bad "links written through: $(ls -l out keep)"
rm -r keep out

# ---- Readers: regular files only, bounded, never waiting.
truncate -s 2G sparse.dat
python3 -c "open('long.tsv','w').write('k\tbytes\n' + '1' * 70000 + '\n')"
for reader in mmpi2mat "nodecomm --fit" mpilat-compare; do
  # shellcheck disable=SC2086
  set -- $reader
  prog=$1
  shift
  refused "$reader dev/zero" "dev/zero: a character device, not a regular file" "$bin/$prog" "$@" dev/zero --noplot
  refused "$reader dev/fifo (nobody writes)" "dev/fifo: a FIFO, not a regular file" "$bin/$prog" "$@" dev/fifo --noplot
  refused "$reader adir" "adir: a directory, not a regular file" "$bin/$prog" "$@" adir --noplot
  refused "$reader sparse.dat (2 GiB)" "sparse.dat: 2147483648 bytes, more than an input may hold (1073741824 bytes)" \
    "$bin/$prog" "$@" sparse.dat --noplot
done
refused "nodecomm --fit long.tsv" "long.tsv: line 2 is longer than a line may be (65536 bytes)" "$bin/nodecomm" --fit long.tsv --noplot
rm sparse.dat long.tsv

# ---- An --outdir that does not exist yet is made (with its parents); a file in its place is refused.
"$bin/nodecomm" --fit table.tsv --outdir new/deeper --noplot > /dev/null 2> err.txt && [ -f new/deeper/nodecomm_fit.txt ] && ok \
  || bad "--outdir new/deeper not made: $(cat err.txt)"
rm -r new
refused "mmpi2mat --outdir mine.txt (a file)" "Not a directory" "$bin/mmpi2mat" log.dat --outdir mine.txt --noplot
refused "mpilat-coll --outdir mine.txt (a file)" "Not a directory" $mpiexec -n 2 "$bin/mpilat-coll" --outdir mine.txt

# ---- Every write checked: a file-size limit of 0 makes every write fail (EFBIG, as ENOSPC on a full disk).
mkdir w
# The messages go through a pipe: the limit would stop a write to a file of them too.
(trap '' XFSZ; ulimit -f 0; exec "$bin/mmpi2mat" log.dat --outdir w --noplot) 2>&1 | cat > err.txt
rc=${PIPESTATUS[0]}
[ "$rc" = 1 ] && ok || bad "mmpi2mat, no room: exit $rc, not 1: $(cat err.txt)"
grep -q "cannot write w/log_comm.dat: File too large" err.txt && ok || bad "mmpi2mat, no room: $(cat err.txt)"
[ -z "$(ls -A w)" ] && ok || bad "mmpi2mat, no room: left $(ls -A w)"
# Standard output that cannot be written (a full device): exit 1, said.
"$bin/nodecomm" --fit table.tsv --outdir w --noplot > dev/full 2> err.txt
rc=$?
[ "$rc" = 1 ] && grep -q "nodecomm: writing to standard output: No space left on device" err.txt && ok \
  || bad "nodecomm --fit > dev/full: exit $rc: $(cat err.txt)"
[ "$(stat -c %F dev/full)" = "character special file" ] && ok || bad "dev/full is no longer a device"

finish_checks "driver_own_files"
