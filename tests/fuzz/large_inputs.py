#!/usr/bin/env python3
"""large_inputs.py OUTDIR: inputs of at least 256 KiB for each fuzz target (issue 45: readers that cannot be
made to crash, hang or swell), written to OUTDIR/<target>/: a valid input grown large, the shapes that once
hurt (a header's claim with nothing behind it, 20,000 columns, a 300,000-deep list, one line without an
end), and random bytes. ctest replays them (fuzz_replay_large_<target>, with a time and memory limit per
input); scripts/fuzz.sh starts its large-input pass from them. Deterministic: the same files every time."""
import json
import os
import random
import sys

LARGE = 300 * 1024  # above the 256 KiB the issue names


def grown(unit, until=LARGE):
    """unit repeated until at least `until` bytes."""
    return unit * (until // len(unit) + 1)


def inputs():
    rng = random.Random(45)
    noise = bytes(rng.randrange(256) for _ in range(LARGE))
    def table(rows, pairs):
        return ''.join(f'{8 * r}' + ''.join(f'\t{2e-6 + 8 * r * k * 1e-10:e}' for k in range(1, pairs + 1)) + '\n'
                       for r in range(rows)).encode()
    yield 'nodecomm_table', 'rows_at_bound', table(4096, 6)  # the fit's most sizes (lib/maxrate/options.hpp)
    yield 'nodecomm_table', 'rows_beyond', table(9000, 3)
    yield 'nodecomm_table', 'columns', b''.join(str(n).encode() + b'\t1e-06' * 20000 + b'\n' for n in (0, 8, 64, 512))
    yield 'nodecomm_table', 'one_line', b'8\t' + grown(b'1')[:LARGE]
    yield 'nodecomm_table', 'random', noise
    header = b'# Testing Hostname: n0\n# Processors: %d MsgLen: 64 Repeats: 100\n'
    yield 'mmpi_log', 'claims', header % 14000 + grown(b'\n')
    procs = 100
    yield 'mmpi_log', 'valid', header % procs + b''.join(
        b'n%03d:%03d n%03d:%03d %.2f 0.05\n' % (i // 8, i, j // 8, j, 0.0 if i == j else 1.0 + (i + j) % 7)
        for i in range(procs) for j in range(procs))
    yield 'mmpi_log', 'random', noise
    # A latency result of the corpus, changed where the reader looks: 300,000 levels deep where a string belongs
    # (a stack overflow once), a command line of 300 KiB (two-byte characters, as bytes and as escapes), a frequency table of
    # 30,000 rows, and a copy of its run 300,000 levels deep under a name nobody reads.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'compare_json', 'latency.json')) as f:
        result = json.load(f)
    deep = 300000
    result['timer']['name'] = 'DEEP'
    text = json.dumps(result).encode()
    yield 'compare_json', 'deep_string', text.replace(b'"DEEP"', b'[' * deep + b']' * deep)
    result['timer']['name'] = 'mpi_wtime'
    yield 'compare_json', 'deep_elsewhere', json.dumps(result).encode()[:-1] + b', "x": ' + b'[' * deep + b']' * deep + b'}'
    result['run']['command_line'] = 'LONG'
    yield 'compare_json', 'long_string', json.dumps(result).encode().replace(b'"LONG"', b'"' + grown('caf\u00e9 \\u00e9 '.encode()) + b'"')
    result['run']['command_line'] = 'latency'
    result['pingpong']['frequencies'] = [[round(0.1 + k * 1e-6, 6), 1 + k % 7] for k in range(30000)]
    yield 'compare_json', 'frequencies', json.dumps(result).encode()
    yield 'compare_json', 'random', noise
    yield 'latency_namelist', 'comments', grown(b'! a comment line of the namelist file\n') + b'&latency ntrial=300 /\n'
    yield 'latency_namelist', 'one_line', b"&latency outdir='" + grown(b'a') + b"' /\n"
    yield 'latency_namelist', 'random', noise
    yield 'latency_options', 'long_argument', b'--outdir\n' + grown(b'a')
    yield 'latency_options', 'many_arguments', grown(b'--ntrial\n5\n')
    yield 'latency_options', 'random', noise


def main():
    out = sys.argv[1]
    for target, name, data in inputs():
        assert len(data) >= 256 * 1024, (target, name, len(data))
        os.makedirs(os.path.join(out, target), exist_ok=True)
        with open(os.path.join(out, target, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
