#!/bin/bash
# check_previous_caller.sh PREVIOUS CURRENT: tests/c/abi_caller.c compiled against the previous release's
# headers (PREVIOUS) and against this release's (CURRENT), both linked against this library, must print the
# same bytes. PREVIOUS must call only the entry points without _sized (what a program built against 0.9
# calls), CURRENT only the sized ones: otherwise the test would not test what it says.
set -u
previous=$1 current=$2
fail=0
# A call through the PLT (a program linked against the shared library) reads <lat_x@plt>.
called() { objdump -d --disassemble=main "$1" | grep -oE 'call +[0-9a-f]+ <lat_[a-z_]+(@plt)?>' | sed -E 's/.*<(lat_[a-z_]+)(@plt)?>/\1/' | sort -u; }
prev_calls=$(called "$previous")
cur_calls=$(called "$current")
echo "$prev_calls" | grep -q '_sized$' && { echo "FAIL: the previous release's caller calls sized entry points: $(echo "$prev_calls" | grep '_sized$' | tr '\n' ' ')"; fail=1; }
echo "$prev_calls" | grep -qx 'lat_sweep_run' || { echo "FAIL: the previous release's caller does not call lat_sweep_run"; fail=1; }
echo "$cur_calls" | grep -qx 'lat_sweep_run_sized' || { echo "FAIL: this release's caller does not call lat_sweep_run_sized"; fail=1; }
echo "$cur_calls" | grep -qx 'lat_sweep_run' && { echo "FAIL: this release's caller calls lat_sweep_run, not its sized entry"; fail=1; }
out_prev=$("$previous") || { echo "FAIL: the previous release's caller exited $?"; fail=1; }
out_cur=$("$current") || { echo "FAIL: this release's caller exited $?"; fail=1; }
# A struct that grew since the previous release prints more bytes here: the previous caller must see the
# same bytes in the fields it knows (its shorter struct's length).
python3 - "$out_prev" "$out_cur" <<'PY' || fail=1
import sys
prev, cur = sys.argv[1].splitlines(), sys.argv[2].splitlines()
bad = 0 if len(prev) == len(cur) else print(f"FAIL: {len(prev)} lines from the previous release's caller, {len(cur)} from this one's") or 1
for a, b in zip(prev, cur):
    ha, hb = a.split(':', 1), b.split(':', 1)
    if len(ha) == 2 and len(hb) == 2 and ha[0].split()[0] == hb[0].split()[0] and ha[0].split()[-1].isdigit():
        n = 2 * min(int(ha[0].split()[-1]), int(hb[0].split()[-1]))
        same = ha[1][:n] == hb[1][:n]
    else:
        same = a == b
    if not same:
        bad += 1
        print(f"FAIL: the two callers differ:\n  previous: {a[:200]}\n  this:     {b[:200]}")
sys.exit(1 if bad else 0)
PY
lines=$(echo "$out_cur" | wc -l)
[ "$lines" -ge 40 ] || { echo "FAIL: only $lines lines from the caller"; fail=1; }
echo "check_previous_caller: $lines lines, $(echo "$prev_calls" | wc -l) functions its main calls in the previous release's caller, fail=$fail"
exit $fail
