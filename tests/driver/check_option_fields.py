#!/usr/bin/env python3
"""check_option_fields.py SPEC_DIR DRIVER_DIR "MPIEXEC [flags]" TABLE

Each option checked to set the field it names (issue 46): every line of TABLE (tests/driver/option_fields.txt)
runs its driver with MPILAT_SHOW_OPTIONS=1, which prints every field of the options structs the run would
measure with and measures nothing. The fields the line names must hold its values, every other field what the
driver shows without options; each `cli` option of the spec must be on a line that names its field. An
option bound to the wrong field (or to none) fails both ways: its own field keeps the default, another moves.
"""
import json
import os
import pty
import shlex
import subprocess
import sys
import tempfile

# What a driver needs besides options to get as far as its options (group A's files): none is read.
POSITIONAL = {'mpilat-compare': ['x.json']}


def spec_options(spec_dir):
    """{(driver, option): {struct.field}} from every field's `cli` key, the spec read as gen-abi reads it."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(spec_dir)), 'scripts'))
    from abi.common import load_spec
    out = {}
    for _, spec in load_spec():
        for s in spec['struct']:
            for field in s['field']:
                for entry in field.get('cli', []):
                    driver, option = entry.split(' ', 1)
                    out.setdefault((driver, option), set()).add(f"{s['name']}.{field['name']}")
    return out


def value(text):
    if ',' in text:
        return [value(t) for t in text.split(',')]
    return float(text)


def table(path):
    rows = []
    for n, line in enumerate(open(path), 1):
        if not line.strip() or line.startswith('#'):
            continue
        driver, args, fields = (p.strip() for p in line.split('|'))
        want = {}
        for item in fields.split():
            key, _, v = item.partition('=')
            want[key] = value(v)
        rows.append((n, driver, shlex.split(args), want))
    return rows


def shown(driver_dir, mpiexec, driver, args, stderr=subprocess.PIPE):
    """{struct: {field: value}} the driver shows, or a string saying why not."""
    command = [os.path.join(driver_dir, driver)] + args
    if driver != 'mpilat-compare' and '--fit' not in args:
        command = shlex.split(mpiexec) + ['-n', '2'] + command
    env = dict(os.environ, MPILAT_SHOW_OPTIONS='1')
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=60, env=env,
                             stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return 'no answer within 60 s'
    if run.returncode != 0:
        return f'exit {run.returncode}: {((run.stderr or "") + run.stdout).strip()[:300]}'
    out = {}
    for line in run.stdout.splitlines():
        if line.startswith('{"struct"'):
            j = json.loads(line)
            out[j['struct']] = j['fields']
    return out or f'no options shown: {run.stdout[:300]}'


def same(a, b):
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return float(a) == float(b)


def main():
    spec_dir, driver_dir, mpiexec, table_path = sys.argv[1:5]
    built = {d for d in os.listdir(driver_dir) if os.access(os.path.join(driver_dir, d), os.X_OK)}
    rows = [r for r in table(table_path) if r[1] in built]
    for gone in sorted({r[1] for r in table(table_path)} - built):
        print(f'(not built here, left out: {gone})')
    bad = []
    covered = set()
    options = spec_options(spec_dir)
    for _, driver, args, want in rows:
        for option, fields in options.items():
            if option[0] == driver and option[1] in args:
                covered |= {(option, f) for f in fields if f in want}
    for option, fields in sorted(options.items()):
        if option[0] not in built:
            continue
        for f in sorted(fields):
            if (option, f) not in covered:
                bad.append(f'{option[0]} {option[1]} sets {f} (spec), and no line of {os.path.basename(table_path)} '
                           'runs it and names that field')
    baselines = {}
    for n, driver, args, want in rows:
        if driver not in baselines:
            baselines[driver] = shown(driver_dir, mpiexec, driver, POSITIONAL.get(driver, []))
            if isinstance(baselines[driver], str):
                bad.append(f'{driver} without options: {baselines[driver]}')
        base = baselines[driver]
        got = shown(driver_dir, mpiexec, driver, args)
        if isinstance(base, str):
            continue
        if isinstance(got, str):
            bad.append(f'line {n}: {driver} {" ".join(args)}: {got}')
            continue
        for struct, fields in got.items():
            for name, v in fields.items():
                key = f'{struct}.{name}'
                expect = want.get(key, base.get(struct, {}).get(name))
                if expect is None:
                    bad.append(f'line {n}: {driver} shows {key}, which it does not show without options')
                elif not same(v, expect):
                    why = 'the value given' if key in want else 'unchanged: the option is not for it'
                    bad.append(f'line {n}: {driver} {" ".join(args)}: {key} = {v}, expected {expect} ({why})')
        for key in want:
            struct, name = key.split('.')
            if name not in got.get(struct, {}):
                bad.append(f'line {n}: {driver} {" ".join(args)}: {key} not shown')
    # Progress "on where stderr is a terminal" (latency, mpptest, queuelat): the launcher's stderr, since
    # mpiexec hands each rank a pipe. With mpiexec's stderr on a pseudo-terminal the default is on.
    for driver, struct in (('latency', 'lat_pingpong_options'), ('mpptest', 'lat_sweep_options'),
                           ('queuelat', 'lat_queue_options')):
        if driver not in built:
            continue
        master, slave = pty.openpty()
        got = shown(driver_dir, mpiexec, driver, [], stderr=slave)
        os.close(slave)
        os.close(master)
        if isinstance(got, str) or got.get(struct, {}).get('progress') != 1:
            bad.append(f'{driver} with mpiexec at a terminal: progress {got if isinstance(got, str) else got.get(struct, {}).get("progress")}, '
                       'expected 1 (on where stderr is a terminal)')
    # A check, not a run: an --outdir that does not exist is made for the outputs' check and removed again.
    with tempfile.TemporaryDirectory() as scratch:
        for driver, option in (('latency', '--outdir'), ('mpptest', '-outdir'), ('queuelat', '--outdir'),
                               ('mmpi', '--outdir'), ('nodecomm', '--outdir'), ('mpilat-coll', '--outdir')):
            if driver not in built:
                continue
            missing = os.path.join(scratch, driver, 'runs')
            got = shown(driver_dir, mpiexec, driver, POSITIONAL.get(driver, []) + [option, missing])
            if isinstance(got, str):
                bad.append(f'{driver} {option} {missing}: {got}')
            elif os.path.exists(os.path.join(scratch, driver)):
                bad.append(f'{driver} {option} {missing}: the directories made for the check stayed')
    for line in bad:
        print('FAIL: ' + line)
    print(f'option_fields: {len(rows)} runs, {len(covered)} options of the spec checked against their fields, '
          f'{len(bad)} failures')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
