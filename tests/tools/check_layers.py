#!/usr/bin/env python3
"""check_layers.py LIBDIR: the core measures and returns structs; the report layer writes files
(docs/architecture.md, "Reports"). Exit 1 naming each file of lib/ outside the report layer that includes one
of its headers or starts a program (gnuplot): a measurement that reached for a writer."""
import pathlib
import re
import sys

# The report layer: each capability's report, the helpers every report shares, the files a capability reads
# or writes besides its report (nodecomm's table, mmpi's log), and the C ABI, which offers both.
REPORT_HEADERS = {'common/report_json.hpp', 'common/report_text.hpp', 'common/plot.hpp', 'common/staged_files.hpp',
                  'generated/spec_json.hpp'}
REPORT_FILES = re.compile(r'^(capi/.*|[a-z]+/report\.(cpp|hpp)|common/(report_json|report_text|plot|staged_files)\.(cpp|hpp)'
                          r'|maxrate/nodecomm_table\.(cpp|hpp)|pairs/mmpi_log\.(cpp|hpp))$')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
PROGRAM = re.compile(r'\b(popen|posix_spawnp?|execvp?|system)\s*\(|gnuplot')


def main():
    lib = pathlib.Path(sys.argv[1])
    bad = checked = 0
    for path in sorted(lib.rglob('*.[ch]pp')):
        rel = path.relative_to(lib).as_posix()
        if REPORT_FILES.match(rel) or rel.startswith('generated/'):
            continue
        checked += 1
        text = path.read_text()
        for header in INCLUDE.findall(text):
            if header in REPORT_HEADERS or re.fullmatch(r'[a-z]+/report\.hpp', header):
                print(f'FAIL: lib/{rel} includes the report layer\'s "{header}"')
                bad += 1
        code = re.sub(r'//[^\n]*', '', text)  # comments may name gnuplot
        for m in PROGRAM.finditer(code):
            print(f'FAIL: lib/{rel} starts a program ({m.group(0)}): only the report layer draws')
            bad += 1
    print(f'{checked} files of the core checked, {bad} reach into the report layer')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
