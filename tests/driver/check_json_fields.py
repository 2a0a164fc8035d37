#!/usr/bin/env python3
"""check_json_fields.py SPEC FILE...: every field spec/json.toml lists for a file's format (and for every
format) is in the file: the fields mpilat-compare reads. For "/points/*/bytes" every element of /points must
have it. Exit 1 naming each field missing and the file."""
import json
import sys
import tomllib


def missing(doc, pointer):
    """The pointer's parts that are not in doc ("" when present)."""
    parts = pointer.strip('/').split('/')
    nodes = [doc]
    for k, part in enumerate(parts):
        nxt = []
        for node in nodes:
            if part == '*':
                if not isinstance(node, list):
                    return '/' + '/'.join(parts[:k]) + ' is not an array'
                nxt.extend(node)
            elif isinstance(node, dict) and part in node:
                nxt.append(node[part])
            else:
                return pointer
        nodes = nxt
    return ''


def main():
    with open(sys.argv[1], 'rb') as f:
        spec = tomllib.load(f)
    bad = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        fmt = doc.get('format')
        if fmt not in spec:
            print(f'FAIL: {path}: format {fmt!r} is not in {sys.argv[1]}')
            bad += 1
            continue
        for table in ('common', fmt):
            fields = spec[table]
            for name, pointer in fields.items():
                if name == 'optional' or name in fields.get('optional', []):
                    continue
                gone = missing(doc, pointer)
                if gone:
                    print(f'FAIL: {path} ({fmt}): {name} = {pointer}: {gone} missing')
                    bad += 1
    print(f'{len(sys.argv) - 2} files checked against {sys.argv[1]}, {bad} fields missing')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
