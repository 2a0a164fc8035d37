#!/usr/bin/env python3
"""check_json_fields.py SPEC FILE...: every field spec/json.toml lists for a file's format (and for every
format) is in the file: the fields mpilat-compare reads. For "/points/*/bytes" every element of /points must
have it. And every file starts with the one run head (lib/common/report_json.cpp, report_head_json), written
once for every format. Exit 1 naming each field missing and the file."""
import json
import sys
import tomllib

# report_head_json's fields: every format's run header, in one place for all writers.
HEAD = ('/format_version', '/run/date_utc', '/run/command_line', '/run/mpilat_version', '/run/api_version')


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
        if doc.get('format_version') != 1:
            print(f'FAIL: {path}: format_version {doc.get("format_version")!r}, not 1')
            bad += 1
        for pointer in HEAD:
            if missing(doc, pointer):
                print(f'FAIL: {path} ({fmt}): the run head lacks {pointer}')
                bad += 1
        for table in ('common', fmt):
            fields = spec[table]
            for name, pointer in fields.items():
                if name in ('optional', 'compare', 'match') or name in fields.get('optional', []):
                    continue
                gone = missing(doc, pointer)
                if gone:
                    print(f'FAIL: {path} ({fmt}): {name} = {pointer}: {gone} missing')
                    bad += 1
    print(f'{len(sys.argv) - 2} files checked against {sys.argv[1]}, {bad} fields missing')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
