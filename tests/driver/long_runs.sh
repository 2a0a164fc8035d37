# long_runs.sh: sourced by the stop tests (driver_stops, slurm_drivers). For every MPI driver, a run that
# lasts beyond a minute and stops at its next safe point within a second or two (long), and the progress
# line ("mpilat: <measuring>") that shows it is measuring. The caller declares both associative arrays.
long[latency]="--nr 1048576 --npptrial 4096 --minutes 5 --noplot --progress"
long[mpptest]="-size 0 65536 64 -max_sizes 2000 -sample_reps 100000 -n_stable 0 -nr 1000 -noplot -gnuplot -progress"
long[queuelat]="--lengths 0:1000:1 --iters 100 --reps 100 --nr 1000 --noplot --progress"
long[mmpi]="--repeats 100000000 --progress"
long[nodecomm]="--sizes 8,64,512 --reps 1000000 --noadaptive --noplot --progress"
long[mpilat-coll]="--ops allreduce,barrier --sizes 8 --reps 1000000 --noplot --progress"
measuring=([latency]="ping-pong trials" [mpptest]="size sweep" [queuelat]="queue sweep" [mmpi]="pair matrix"
           [nodecomm]="nodecomm " [mpilat-coll]="collective rounds")
