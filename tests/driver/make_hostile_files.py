#!/usr/bin/env python3
"""make_hostile_files.py GOOD OUTDIR: from one good input file of a reader, the hostile classes of
docs/hostile-input.md, written into OUTDIR under the class's name (with GOOD's extension):

  empty       no byte
  truncated   the first 40 % of GOOD, cut inside a line
  binary      4 KiB of bytes from a fixed seed (NULs, escapes, invalid UTF-8)
  big         100 MB: GOOD's last line repeated (a log or a table), or one string of 100 MB (JSON)
  crlf        GOOD with CRLF line ends
  utf16       GOOD in UTF-16 with a byte-order mark
  nan / inf   GOOD with its first number that is not 0 replaced by nan / inf
  longline    GOOD with a 1 MB line inserted after the first one

The files are made the same on every machine (fixed seed), so a failure can be replayed.
"""
import os
import random
import re
import sys

good, outdir = sys.argv[1], sys.argv[2]
ext = os.path.splitext(good)[1]
data = open(good, 'rb').read()
text = data.decode('utf-8')
os.makedirs(outdir, exist_ok=True)


def put(name, content):
    with open(os.path.join(outdir, name + ext), 'wb') as f:
        f.write(content)


put('empty', b'')
put('truncated', data[: max(1, int(len(data) * 0.4))])
rng = random.Random(20261125)
put('binary', bytes(rng.randrange(256) for _ in range(4096)))
if ext == '.json':
    put('big', b'{"format": "' + b'x' * (100 * 1000 * 1000) + b'"}')
else:
    lines = text.splitlines(keepends=True)
    last = lines[-1] if lines[-1].endswith('\n') else lines[-1] + '\n'
    body = ''.join(lines).encode() if lines[-1].endswith('\n') else (''.join(lines) + '\n').encode()
    reps = (100 * 1000 * 1000 - len(body)) // len(last.encode()) + 1
    with open(os.path.join(outdir, 'big' + ext), 'wb') as f:
        f.write(body)
        block = last.encode() * 10000
        for _ in range(reps // 10000):
            f.write(block)
put('crlf', text.replace('\r\n', '\n').replace('\n', '\r\n').encode())
put('utf16', text.encode('utf-16'))
# The first number other than 0 that stands alone (not inside a name such as nid00670 or a key).
number = re.compile(r'(?<![\w.])(?:[1-9]\d*(?:\.\d+)?|0\.\d*[1-9]\d*)(?:[eE][-+]?\d+)?(?![\w.])')
for word in ('nan', 'inf'):
    if ext == '.json':
        # JSON has no NaN or infinity: the literal NaN (not JSON) and 1e999 (beyond a double) in place of
        # every number with a decimal point (the times).
        put(word, re.sub(r'(?<=[\s\[:,])-?\d+\.\d+(?:[eE][-+]?\d+)?', 'NaN' if word == 'nan' else '1e999', text).encode())
    else:
        lines = text.splitlines(keepends=True)
        for i, line in enumerate(lines):
            if line.lstrip().startswith(('#', '&', '!')):
                continue
            m = number.search(line)
            if m:
                lines[i] = line[: m.start()] + word + line[m.end():]
                break
        put(word, ''.join(lines).encode())
first, sep, rest = text.partition('\n')
put('longline', (first + sep + 'x' * (1 << 20) + '\n' + rest).encode())
