# mpi_drivers.sh: every MPI driver as the tests that take them all run it (driver_stops, slurm_drivers,
# driver_own_files), one row each, so that a new driver is added here once. Sourced at the top level of a
# test, it sets:
#   mpi_drivers   the drivers, in this order;
#   long[d]       a run that lasts beyond a minute and stops at its next safe point within a second or two;
#   measuring[d]  its progress line's phase ("mpilat: <measuring>"): it is measuring;
#   quick[d]      a run of seconds (6 jobs may share the 2 CPUs: few samples; nothing there is timed);
#   files[d]      the files a run writes, named as the long run names them (mmpi's name holds its repeats).
mpi_drivers=()
declare -A long measuring quick files
# mpi_driver NAME LONG MEASURING QUICK FILES: one row of the table.
mpi_driver() { mpi_drivers+=("$1"); long[$1]=$2; measuring[$1]=$3; quick[$1]=$4; files[$1]=$5; }

mpi_driver latency "--nr 1048576 --npptrial 4096 --minutes 5 --noplot --progress" "ping-pong trials" \
  "--quick --noplot --no-progress" "latency.output latency.summary.output latency.json"
mpi_driver mpptest "-size 0 65536 64 -max_sizes 2000 -sample_reps 100000 -n_stable 0 -nr 1000 -noplot -gnuplot -progress" \
  "size sweep" "-size 0 64 32 -reps 20 -noplot -gnuplot" "mppout.gpl mppout.json"
mpi_driver queuelat "--lengths 0:1000:1 --iters 100 --reps 100 --nr 1000 --noplot --progress" "queue sweep" \
  "--lengths 0:4:2 --iters 5 --reps 3 --nr 1000 --noplot --noprogress" "queuelat.txt queuelat.json"
mpi_driver mmpi "--repeats 100000000 --progress" "pair matrix" \
  "--repeats 10 --noprogress" "ammpi_2_64_100000000.json ammpi_2_64_100000000.dat"
# nodecomm and mpilat-coll with few samples: their busy-waiting ranks take the scheduler's 4 ms slices in turn
# when jobs share the CPUs, so --quick's hundreds of samples took 40 s under Slurm.
mpi_driver nodecomm "--sizes 8,64,512 --reps 1000000 --noadaptive --noplot --progress" "nodecomm " \
  "--sizes 8,64,512 --reps 2 --noadaptive --noplot --noprogress" "nodecomm.txt nodecomm.json"
mpi_driver mpilat-coll "--ops allreduce,barrier --sizes 8 --reps 1000000 --noplot --progress" "collective rounds" \
  "--ops allreduce,barrier --sizes 8 --reps 10 --loop-calls 5 --noplot --noprogress" "mpilat-coll.txt mpilat-coll.json"

# json_of DRIVER: the JSON file among its files (each driver writes one).
json_of() {
  local f
  for f in ${files[$1]}; do [[ $f == *.json ]] && echo "$f"; done
}
