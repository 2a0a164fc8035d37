#!/usr/bin/env python3
"""range_refusals.py SOURCE_DIR DRIVER_DIR: hostile_cli.txt's lines for every range the spec gives an option
(a field with check = "range" and a `cli` option that sets it alone and takes a number in the driver's
--help): the value just below its min and just above its max, each to be refused with exit 2 naming it; and
for every refusal across fields ([[struct.refused]]) whose fields all have such options: those options, the
message holding the refusal's words. The range refusals of driver_hostile come from the manifest, so a new field's bounds are
tried without a line written by hand (test_hostile_input.sh reads these after hostile_cli.txt)."""
import os
import re
import shlex
import subprocess
import sys

source, driver_dir = sys.argv[1:3]
sys.path.insert(0, os.path.join(source, 'scripts'))
from abi.common import just_outside, load_spec  # noqa: E402

NO_JOB = {'mpilat-compare': ['x.json']}  # drivers without an MPI job, and what they need to reach their options
constants = {'INT_MAX': 2**31 - 1}
for m in re.finditer(r'^#define (LAT_\w+) \(?(-?\d+)\)?\s*$', open(os.path.join(source, 'include', 'mpilat_constants.h')).read(), re.M):
    constants[m.group(1)] = int(m.group(2))


def numeric_options(text):
    """The options of a driver's --help that take a number: CLI11's INT or FLOAT, latency's one-letter
    metavariable (N, X, M, ...); never a flag, a name or a list."""
    out = set()
    for line in text.splitlines():
        m = re.match(r'^  (-[-\w]+(?:,-[-\w]+)*) (\S+)', line)
        if m and (re.match(r'(INT|FLOAT)\b', m.group(2)) or re.fullmatch(r'[A-Z]', m.group(2))):
            out |= {n.lstrip('-') for n in m.group(1).split(',')}
    return out


def bound(value):
    """The bound as a whole number, or None (a name this file cannot resolve, or none)."""
    if isinstance(value, str):
        return constants.get(value)
    if isinstance(value, (int, float)) and float(value).is_integer():
        return int(value)
    return None


setters, refusals = {}, []
for _, spec in load_spec():
    for s in spec['struct']:
        if s['role'] == 'options':
            for f in s['field']:
                for c in f.get('cli', []):
                    setters.setdefault(c, []).append(f)
            refusals += [(s, r) for r in s.get('refused', [])]
helps = {}


def takes_number(driver, option):
    """Whether the driver is built here and its --help shows option taking a number (not a flag, a name or a
    list: their values are not the field's number)."""
    if not os.access(os.path.join(driver_dir, driver), os.X_OK):
        return False
    if driver not in helps:
        env = dict(os.environ, OMPI_MCA_plm='isolated', OMPI_MCA_btl='self', OMPI_MCA_pml='ob1')
        out = subprocess.run([os.path.join(driver_dir, driver), '--help'], capture_output=True, text=True, env=env,
                             timeout=60, stdin=subprocess.DEVNULL)
        helps[driver] = numeric_options(out.stdout + out.stderr)
    return option.lstrip('-') in helps[driver]


lines = 0
for cli, fields in sorted(setters.items()):
    driver, option = cli.split(' ', 1)
    if len(fields) != 1 or fields[0].get('check') != 'range' or not takes_number(driver, option):
        continue
    f = fields[0]
    tries = [bound(b) + delta for b, delta in just_outside(f) if bound(b) is not None]
    np = 0 if driver in NO_JOB else 2
    for v in tries:
        # The message names the value: "got <v>" from the library, got "<v>" from latency's own check.
        print(f"{driver} {np} '{v}' {option} {v} {' '.join(NO_JOB.get(driver, []))}".rstrip())
        lines += 1
# The refusals across fields ([[struct.refused]]): on each driver with an option taking a number for every
# field of the set (and numbers, not names, for values), those options together, the message holding `says`.
for s, r in refusals:
    if not all(isinstance(v, (int, float)) for v in r['set'].values()):
        continue
    drivers = {}
    for field, value in r['set'].items():
        mine = next(f for f in s['field'] if f['name'] == field)  # this struct's field, not a namesake's
        for cli, fields in setters.items():
            driver, option = cli.split(' ', 1)
            if len(fields) == 1 and fields[0] is mine and takes_number(driver, option):
                drivers.setdefault(driver, []).append(f'{option} {value:g}' if isinstance(value, float) else f'{option} {value}')
    for driver, args in sorted(drivers.items()):
        if len(args) == len(r['set']):
            np = 0 if driver in NO_JOB else 2
            print(f"{driver} {np} {shlex.quote(r['says'])} {' '.join(args)} {' '.join(NO_JOB.get(driver, []))}".rstrip())
            lines += 1
print(f'# {lines} lines from the spec\'s ranges and refusals across fields', file=sys.stderr)
