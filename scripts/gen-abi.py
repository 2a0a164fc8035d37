#!/usr/bin/env python3
"""gen-abi.py: makes the ABI's generated files from spec/*.toml (Python 3.11's standard library only).

  python3 scripts/gen-abi.py            write every generated file
  python3 scripts/gen-abi.py --check    write nothing; exit 1 naming each file that differs from the spec
  python3 scripts/gen-abi.py --bindings exit 1 naming each lat_* function of include/mpilat.h that module
                                        mpilat does not bind (and each binding of a function C lacks), and
                                        each bind(C) interface that differs from its C declaration in an
                                        argument (count, order, type, kind, value, a const pointer's intent)
  python3 scripts/gen-abi.py --drivers NAME=COMMAND ...
                                        run each driver's COMMAND --help; exit 1 naming each option that is
                                        neither a field's `cli` nor in spec/drivers.toml, each `cli` option the
                                        driver lacks, and each default shown that is not the spec's

Besides the structs, it generates from include/mpilat.h's declarations the ABI's sized entry points
(docs/api.md, "How the ABI grows"): include/mpilat_sized.h, lib/generated/{sized_entries.cpp,capi_impl.hpp,
abi_plain.hpp} and fortran/sized_glue.c.

The generated files are committed, so neither a user nor Makefile.legacy needs Python; the ctest tests
abi_generated_fresh and abi_fortran_bindings run the two checks. spec/README.md explains the keys.

One module per artefact or check, in scripts/abi/: common (the spec read once, shared names and helpers),
c_header, fortran_types, options, result_json, options_doc, layout, json_fields, growth, outputs_registry,
fortran_c, options_show, capi_handles, capi_entries, build_lists, driver_table, refusal_cases, driver_cli, latency_fields,
fortran_handles, fortran_module,
fortran_wrappers, fortran_comm, symbols (the shared library's version script and the release stand-ins: --release-stub DIR OUT), bindings,
drivers. This file gathers what they make and writes or checks it.
"""
import difflib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abi.common import ROOT, load_spec  # noqa: E402 (the modules beside this script)
from abi.c_header import c_header  # noqa: E402
from abi.fortran_types import fortran_types  # noqa: E402
from abi.options import cpp_files  # noqa: E402
from abi.result_json import json_files  # noqa: E402
from abi.options_doc import docs  # noqa: E402
from abi.layout import layout_tests  # noqa: E402
from abi.json_fields import json_fields  # noqa: E402
from abi.growth import growth_files  # noqa: E402
from abi.outputs_registry import output_kinds  # noqa: E402
from abi.fortran_c import fortran_c  # noqa: E402
from abi.options_show import options_show  # noqa: E402
from abi.capi_handles import capi_handles  # noqa: E402
from abi.capi_entries import capi_entries  # noqa: E402
from abi.build_lists import build_lists  # noqa: E402
from abi.driver_table import driver_table  # noqa: E402
from abi.refusal_cases import refusal_cases  # noqa: E402
from abi.driver_cli import driver_cli  # noqa: E402
from abi.latency_fields import latency_fields  # noqa: E402
from abi.fortran_handles import fortran_handles  # noqa: E402
from abi.fortran_module import fortran_module  # noqa: E402
from abi.fortran_comm import fortran_comm  # noqa: E402
from abi.symbols import symbol_map, release_stub  # noqa: E402
from abi.bindings import bindings  # noqa: E402
from abi.drivers import drivers  # noqa: E402


def outputs():
    caps = load_spec()
    hpp, cpp = cpp_files(caps)
    json_hpp, json_cpp = json_files(caps)
    layout_c, layout_f = layout_tests(caps)
    files = {'include/mpilat_types.h': c_header(caps),
            'lib/generated/spec_options.hpp': hpp,
            'lib/generated/spec_options.cpp': cpp,
            'lib/generated/spec_json.hpp': json_hpp,
            'lib/generated/spec_json.cpp': json_cpp,
            'docs/options.md': docs(caps),
            'tests/fortran/layout_c.c': layout_c,
            'tests/fortran/test_layout.F90': layout_f}
    files.update(fortran_types(caps))
    files['drivers/json_fields.hpp'] = json_fields()
    files.update(growth_files(caps))
    files['lib/generated/mpilat.map'] = symbol_map(caps)
    files.update(output_kinds(caps))
    files.update(fortran_c(caps))
    files.update(options_show(caps))
    files.update(capi_handles(caps))
    files.update(capi_entries(caps))
    files.update(build_lists(caps))
    files.update(driver_table(caps))
    files.update(refusal_cases(caps))
    files.update(driver_cli(caps))
    files.update(latency_fields(caps))
    files.update(fortran_handles(caps))
    files.update(fortran_module(caps))
    files.update(fortran_comm(caps))
    return files


def main():
    if '--bindings' in sys.argv[1:]:
        return bindings()
    if '--release-stub' in sys.argv[1:]:
        at = sys.argv.index('--release-stub')
        return release_stub(sys.argv[at + 1], sys.argv[at + 2])
    if '--drivers' in sys.argv[1:]:
        return drivers(sys.argv[sys.argv.index('--drivers') + 1:])
    check = '--check' in sys.argv[1:]
    stale = 0
    for rel, text in outputs().items():
        path = os.path.join(ROOT, rel)
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale += 1
            print(f'FAIL: {rel} differs from what spec/ gives (run python3 scripts/gen-abi.py):')
            diff = list(difflib.unified_diff((old or '').splitlines(), text.splitlines(), 'committed', 'generated',
                                             lineterm='', n=1))
            print('\n'.join(diff[:40]))
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(text)
            print('wrote', rel)
    if check:
        print(f'{len(outputs())} generated files, {stale} stale')
    return 1 if stale else 0


if __name__ == '__main__':
    sys.exit(main())
