#!/bin/bash
# test_campaign_driver.sh MPILAT_CAMPAIGN LATENCY "MPIEXEC [flags]"
# mpilat-campaign: its figures against hand values on launches of a stand-in driver whose medians are given
# (a script named `latency` writing a latency.json), npp held from the first launch, --precision's stop and
# its status 4, a failed launch recorded and the campaign going on, a launch that never ends ended by its
# limit with nothing left behind, a stop (SIGTERM) keeping the launches done (partial, exit 3), refusals that
# touch nothing; then two real launches of latency --quick. Never a timing value of this machine.
set -u
campaign=$1 latency=$2 mpiexec=$3
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# The stand-in driver: bin/latency MEDIANS_FILE behaviour. Each launch takes the next line of medians.txt
# ("median [npp] [action]": action exit1 fails, hang never ends, stop waits for SIGTERM and exits 3);
# it logs its arguments to args.log and writes latency.json (no trials) into --outdir.
mkdir -p bin
cat > bin/latency <<'SH'
#!/bin/bash
here=$(cd "$(dirname "$0")/.." && pwd)
n=$(( $(cat "$here/count" 2> /dev/null || echo 0) + 1 ))
echo "$n" > "$here/count"
echo "$*" >> "$here/args.log"
read -r median npp action < <(sed -n "${n}p" "$here/medians.txt")
outdir=""
while [ $# -gt 0 ]; do [ "$1" = --outdir ] && outdir=$2; shift; done
case "$action" in
  exit1) exit 1 ;;
  refuse) echo "latency: error: dest must be a rank in 0..1, got 5"; exit 2 ;;
  slow) sleep 1 ;;
  hang) echo $$ > "$here/hang.pid"; exec sleep 1000 ;;
  stop) trap 'exit 3' TERM; touch "$here/stop.ready"; while :; do sleep 0.05; done ;;
esac
mkdir -p "$outdir"
cat > "$outdir/latency.json" <<JSON
{"format": "mpilat-latency", "format_version": 1, "run": {"mpi_library_version": "stand-in", "partial": false},
 "message": {"bytes": 8}, "timer": {"name": "mpi_wtime"}, "npp": {"used": ${npp:-3}},
 "pingpong": {"all": {"median_us": $median, "p99_us": $median}}}
JSON
SH
chmod +x bin/latency
fresh() { rm -f count args.log medians.txt stop.ready hang.pid; printf '%s\n' "$@" > medians.txt; }
field() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@" 2> /dev/null; }

# 1. Nine launches with known medians: median 0.5; n = 9 gives k = 2 (P(B <= 1) = 10/512, coverage
#    1 - 20/512 = 96.09 %), so the interval is [x_(2), x_(8)] = [0.2, 0.8], half-width 0.3/0.5 = 60 %; sd over mean by hand.
fresh "0.5 7" 0.1 0.9 0.3 0.8 0.4 0.6 0.2 0.7
"$campaign" --launches 9 --noplot --no-progress --outdir c1 -- bin/latency > c1.out 2>&1
rc=$?
[ "$rc" = 0 ] && ok || bad "nine launches: exit $rc: $(tail -3 c1.out)"
python3 - c1/campaign.json > hand.out 2>&1 <<'PY' && ok || bad "nine launches: the figure against hand values: $(cat hand.out)"
import json, math, statistics, sys
f = [f for f in json.load(open(sys.argv[1]))['figures'] if f['name'] == 'latency median (us)'][0]
v = [0.5, 0.1, 0.9, 0.3, 0.8, 0.4, 0.6, 0.2, 0.7]
sd_pct = 100 * statistics.stdev(v) / statistics.mean(v)
need = max(6, math.ceil((1.96 * 1.2533 * sd_pct / 5.0) ** 2))
assert f['median'] == 0.5 and f['ci95'] == [0.2, 0.8], f
assert abs(f['ci_coverage'] - (1 - 20 / 512)) < 1e-12, f['ci_coverage']
assert abs(f['half_width_pct'] - 60.0) < 1e-9, f['half_width_pct']
assert abs(f['between_launch_sd_pct'] - sd_pct) < 1e-9, (f['between_launch_sd_pct'], sd_pct)
assert f['launches_needed'] == need, (f['launches_needed'], need)
assert f['within_launch_share'] is None  # no trials in these files
assert f['launch_values'] == v
PY
# npp: the first launch's 7 given to every later launch, the files saying so; --quick added (short launches).
[ "$(field c1/campaign.json "j['held']['npp']")" = 7 ] && ok || bad "npp held: $(field c1/campaign.json "j['held']")"
[ "$(grep -c -- '--npp 7' args.log)" = 8 ] && ! sed -n 1p args.log | grep -q -- --npp && ok \
  || bad "npp passed to launches 2..9 only: $(cat args.log)"
[ "$(grep -c -- '--quick' args.log)" = 9 ] && grep -q 'added --quick' c1/campaign.txt && ok || bad "--quick added and said"
[ -d c1/launch-009 ] && [ -f c1/launch-001.log ] && [ "$(field c1/campaign.json "j['partial']")" = False ] && ok \
  || bad "launch folders, logs, not partial"
# --noplot: no picture; --no-progress: no line a launch on stderr (the real launches below draw and say).
[ ! -e c1/campaign.png ] && [ -f c1/campaign.txt ] && ! grep -q 'mpilat-campaign: launch' c1.out && ok \
  || bad "--noplot or --no-progress not honoured: $(ls c1 | tr '\n' ' '); $(grep -c 'launch' c1.out)"
# --launch-length as-given: the command as given, no --quick added, the files saying so.
fresh 1 1
"$campaign" --launches 2 --launch-length as-given --noplot --noprogress --outdir g1 -- bin/latency > g1.out 2>&1
! grep -q -- --quick args.log && [ "$(field g1/campaign.json "j['options']['added_quick']")" = False ] && ! grep -q 'added --quick' g1/campaign.txt \
  && ok || bad "--launch-length as-given: $(cat args.log)"
# 5 launches reach no 95 % interval: none claimed, the coverage said.
fresh 1 2 3 4 5
"$campaign" --launches 5 --noplot --no-progress --outdir c2 -- bin/latency > c2.out 2>&1
[ "$(field c2/campaign.json "j['figures'][0]['ci95']")" = None ] && grep -q 'none at 95 %: 5 launches reach 93.8 %' c2/campaign.txt && ok \
  || bad "5 launches: no 95 % interval claimed: $(grep median c2/campaign.txt)"

# 2. --precision: launches within +-1 % end at the sixth, exit 0; launches 50 % apart end at --max-launches
#    with status 4 and the launches P needs.
fresh 1.00 1.01 0.99 1.005 0.995 1.002 1.0 1.0
"$campaign" --precision 2 --noplot --no-progress --outdir p1 -- bin/latency > p1.out 2>&1
rc=$?
[ "$rc" = 0 ] && [ "$(field p1/campaign.json "len(j['launches'])")" = 6 ] && grep -q 'precision 2 met' p1/campaign.json && ok \
  || bad "--precision 2 on launches within 1 %: exit $rc, $(field p1/campaign.json "len(j['launches']), j['ended']")"
fresh 1 2 1 2 1 2 1 2
"$campaign" --precision 2 --max-launches 6 --noplot --no-progress --outdir p2 -- bin/latency > p2.out 2>&1
rc=$?
[ "$rc" = 4 ] && grep -q -- '--precision 2 not met' p2.out && [ "$(field p2/campaign.json "j['figures'][0]['launches_needed'] > 100")" = True ] \
  && ok || bad "--precision not met: exit $rc (want 4): $(tail -2 p2.out)"

# --time-limit: no launch is started that would not end within it: launches of 1 s under a 3.5-s limit, P
# out of reach, end after 2 or 3 launches (not --max-launches' 10) with status 4, saying why.
fresh "1 3 slow" "2 3 slow" "1 3 slow" "2 3 slow" "1 3 slow" "2 3 slow" "1 3 slow" "2 3 slow" "1 3 slow" "2 3 slow"
"$campaign" --precision 1 --max-launches 10 --time-limit 3.5 --noplot --no-progress --outdir t1 -- bin/latency > t1.out 2>&1
rc=$?
n=$(field t1/campaign.json "len(j['launches'])")
[ "$rc" = 4 ] && [ "$n" -ge 2 ] && [ "$n" -le 3 ] && grep -q -- '--time-limit 3.5 s' t1/campaign.json && ok \
  || bad "--time-limit 3.5: exit $rc after $n launches: $(field t1/campaign.json "j['ended']")"
# A command the driver refuses: the campaign ends at once with the driver's status, its words on stderr.
fresh "1 3 refuse"
"$campaign" --launches 5 --noplot --no-progress --outdir x1 -- bin/latency > x1.out 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q 'mpilat-campaign: launch-001: latency: error: dest must be a rank in 0..1, got 5' x1.out \
  && [ "$(field x1/campaign.json "len(j['launches'])")" = 1 ] && ok || bad "a refused command: exit $rc: $(cat x1.out)"

# 3. A failed launch is recorded and the campaign goes on; a launch that never ends is ended by its limit,
#    its processes gone.
fresh 1 "1 3 exit1" "1 3 hang" 1 1
"$campaign" --launches 5 --launch-timeout 2 --noplot --no-progress --outdir f1 -- bin/latency > f1.out 2>&1
rc=$?
statuses=$(field f1/campaign.json "' '.join(l['status'] for l in j['launches'])")
[ "$rc" = 0 ] && [ "$statuses" = "done failed timed out done done" ] && [ "$(field f1/campaign.json "j['launches_pooled']")" = 3 ] && ok \
  || bad "failed and hung launches: exit $rc, statuses '$statuses'"
# Ended by SIGTERM at its 2-s limit, not by the SIGKILL 20 s after it.
[ "$(field f1/campaign.json "j['launches'][2]['wall_s'] < 10")" = True ] && ok || bad "the hung launch took $(field f1/campaign.json "j['launches'][2]['wall_s']") s"
hung=$(cat hang.pid 2> /dev/null)
[ -n "$hung" ] && ! kill -0 "$hung" 2> /dev/null && ok || bad "the hung launch's process $hung is still there"

# 4. A stop (SIGTERM) during a launch: passed on to it (it exits 3), the launches done kept, partial, exit 3.
fresh 1 1 "1 3 stop" 1
"$campaign" --launches 4 --noplot --no-progress --outdir s1 -- bin/latency > s1.out 2>&1 &
pid=$!
for _ in $(seq 200); do [ -f stop.ready ] && break; sleep 0.05; done
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 3 ] && [ "$(field s1/campaign.json "j['partial']")" = True ] && [ "$(field s1/campaign.json "j['launches_pooled']")" = 2 ] \
  && [ "$(field s1/campaign.json "j['launches'][2]['status'], j['launches'][2]['exit']")" = "('stopped', 3)" ] && ok \
  || bad "stop: exit $rc, $(field s1/campaign.json "j['partial'], j['launches_pooled'], j['ended']")"

# --interval: the launches' starts at least that far apart (3 launches, 1 s: 2 s at least); a stop during the
# wait between launches ends the campaign there, partial, without waiting out the interval.
fresh 1 1 1
start=$(date +%s.%N)
"$campaign" --launches 3 --interval 1 --noplot --no-progress --outdir i1 -- bin/latency > i1.out 2>&1
rc=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
[ "$rc" = 0 ] && awk -v t="$took" 'BEGIN { exit !(t >= 2.0) }' && [ "$(field i1/campaign.json "j['options']['interval_s']")" = 1.0 ] && ok \
  || bad "--interval 1: exit $rc, 3 launches in $took s"
fresh 1 1 1
start=$(date +%s.%N)
"$campaign" --launches 3 --interval 60 --noplot --no-progress --outdir i2 -- bin/latency > i2.out 2>&1 &
pid=$!
for _ in $(seq 200); do [ -f i2/launch-001/latency.json ] && break; sleep 0.05; done
sleep 0.3
kill -INT "$pid"
wait "$pid"
rc=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
[ "$rc" = 3 ] && awk -v t="$took" 'BEGIN { exit !(t < 10) }' && [ "$(field i2/campaign.json "j['launches_pooled'], j['partial']")" = "(1, True)" ] \
  && ok || bad "a stop between launches: exit $rc after $took s, $(field i2/campaign.json "j['launches_pooled'], j['partial']")"

# 5. Refusals: exit 2, a message naming what is wrong, nothing written or touched.
mkdir -p held && echo mine > held/launch-001 && cp held/launch-001 held.before
refuse() {  # WHAT MESSAGE ARGS...
  local what=$1 msg=$2
  shift 2
  "$campaign" "$@" > r.out 2>&1
  local rc=$?
  [ "$rc" = 2 ] && grep -q -- "$msg" r.out && ok || bad "$what: exit $rc, $(cat r.out)"
}
refuse "no command" "no command after" --launches 3 --outdir r1 --
refuse "not a driver" "runs none of the mpilat drivers" --launches 3 --outdir r1 -- /bin/true
refuse "--outdir in the command" "gives '--outdir'" --launches 3 --outdir r1 -- bin/latency --outdir x
refuse "MPMD" "MPMD" --launches 3 --outdir r1 -- mpiexec -n 1 bin/latency : -n 1 bin/latency
refuse "both" "one of them" --launches 3 --precision 5 --outdir r1 -- bin/latency
refuse "neither" "one of them" --outdir r1 -- bin/latency
refuse "precision 0" "precision" --precision 0 --outdir r1 -- bin/latency
refuse "--max-launches alone" "goes with --precision" --launches 3 --max-launches 10 --outdir r1 -- bin/latency
refuse "an earlier campaign's folder" "holds 'launch-001'" --launches 3 --outdir held -- bin/latency
[ ! -e r1 ] && cmp -s held/launch-001 held.before && [ "$(ls held)" = launch-001 ] && ok || bad "a refusal wrote or touched files"

# 6. Real launches: latency --quick on 2 ranks, twice. Each launch's folder holds its files; npp held from the
#    first; the figures read from them; the within-launch share from the trials, in [0, 1].
# shellcheck disable=SC2086 # the launcher and its flags, one word each
"$campaign" --launches 2 --outdir real -- $mpiexec -n 2 "$latency" > real.out 2>&1
rc=$?
[ "$rc" = 0 ] && [ -f real/launch-002/latency.summary.output ] && [ -f real/campaign.png ] && ok || bad "real launches: exit $rc: $(tail -5 real.out)"
python3 - real/campaign.json <<'PY' && ok || bad "real launches' campaign.json: $(head -c 600 real/campaign.json)"
import json, sys
j = json.load(open(sys.argv[1]))
assert j['format'] == 'mpilat-campaign' and j['launches_pooled'] == 2
npp = j['held']['npp']
assert j['launches'][1]['added'][:2] == ['--npp', str(npp)], j['launches'][1]['added']
f = [f for f in j['figures'] if f['name'] == 'latency median (us)'][0]
assert f['ci95'] is None and len(f['launch_values']) == 2 and f['median'] > 0
assert f['within_launch_share'] is None or 0 <= f['within_launch_share'] <= 1, f
PY
npp_used=$(field real/launch-002/latency.json "j['npp']['used']")
[ "$npp_used" = "$(field real/campaign.json "j['held']['npp']")" ] && ok || bad "the second launch ran with npp $npp_used"
finish_checks driver_campaign
