"""abi/capi_entries.py: lib/generated/capi_entries.cpp: the C API's checks and measurements a capability's spec
lists under [[check]] and [[measure]], from their declarations in include/mpilat.h (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)
from abi.growth import c_functions, sized_functions

CHECK_KEYS = {'function', 'calls', 'measurement'}  # measurement: refusal_cases.py's
MEASURE_KEYS = {'function', 'calls', 'header', 'partial', 'what', 'kept'}


def capi_entries(caps):
    """A check: opts not NULL, then no complaint from each of its calls (default: lat::check_<x>_options(*opts,
    the other parameters in C's order)). A measurement: *result NULL until made, the capability's function
    (default lat::<x>: comm, *opts, the parameters between them and result) made into the result's handle,
    and LAT_ERR_INTERRUPTED when the result says it was stopped. Each one lat::guard call."""
    decl = {name: params for _, name, params in c_functions()}
    sized = {n for n, _, _ in sized_functions(caps)}
    handles = {h['type']: h for _, spec in caps for h in spec.get('handle', [])}
    headers, body = set(), []

    def entry(cap, e, keys, kind):
        where = f"spec/{cap}.toml: [[{kind}]] {e.get('function')}"
        if set(e) - keys or 'function' not in e:
            sys.exit(f"{where}: function and optionally {', '.join(sorted(keys - {'function'}))}")
        if e['function'] not in decl:
            sys.exit(f'{where}: include/mpilat.h declares no such function')
        params = decl[e['function']]
        name = f"lat_impl_{e['function'][4:]}" if e['function'] in sized else e['function']
        return where, params, f"int {name}({', '.join(p[0] for p in params)}) {{"

    for cap, spec in caps:
        options = {s['name']: s for s in spec['struct'] if s['role'] == 'options'}
        for e in spec.get('check', []):
            where, params, sig = entry(cap, e, CHECK_KEYS, 'check')
            if not params or params[0][1] not in options or params[0][2] != 'opts' or not params[0][4]:
                sys.exit(f'{where}: a check takes (const lat_<x>_options *opts, ...)')
            headers.add(options[params[0][1]]['defaults_header'])
            rest = ''.join(f', {p[2]}' for p in params[1:])
            calls = e.get('calls', [f"lat::check_{e['function'][4:-6]}_options(*opts{rest})"])
            body += ['', sig, '  return lat::guard([&] {', '    lat::require_nonnull(opts, "opts");']
            body += [f'    lat::require_no_complaint({c});' for c in calls]
            body += ['    return LAT_SUCCESS;', '  });', '}']
        for e in spec.get('measure', []):
            where, params, sig = entry(cap, e, MEASURE_KEYS, 'measure')
            if len(params) < 3 or params[0][1] != 'MPI_Comm' or params[1][1] not in options or \
                    params[-1][1] not in handles or not params[-1][3] or params[-1][2] != 'result':
                sys.exit(f'{where}: a measurement takes (MPI_Comm comm, const lat_<x>_options *opts, ..., '
                         'lat_<handle> *result)')
            if not {'header', 'what', 'kept'} <= set(e):
                sys.exit(f'{where}: header (where its function is declared), what and kept (interrupted_code\'s words)')
            headers |= {e['header'], handles[params[-1][1]]['header']}
            comm, opts = params[0][2], params[1][2]
            args = ', '.join([comm, f'*{opts}'] + [p[2] for p in params[2:-1]])
            body += ['', sig, '  return lat::guard([&] {', '    lat::require_nonnull(result, "result");',
                     '    *result = nullptr;', f'    lat::require_nonnull({opts}, "{opts}");',
                     f"    auto *h = lat::new_handle<{params[-1][1]}_s>(lat::{e.get('calls', e['function'][4:])}({args}));",
                     '    *result = h;',
                     f"    return lat::interrupted_code(h->r.{e.get('partial', 'summary.partial != 0')}, \"{e['what']}\", "
                     f"\"{e['kept']}\");", '  });', '}']
    out = [generated_line('//', 'spec/ and include/mpilat.h'),
           "// capi_entries.cpp: each capability's checks ([[check]]) and measurements ([[measure]]). The rest of a",
           "// capability's C API is in lib/capi/<capability>.cpp.",
           '#include "capi/guard.hpp"',
           '#include "generated/capi_impl.hpp"']
    out += [f'#include "{h}"' for h in sorted(headers)]
    out += ['', 'extern "C" {'] + body + ['', '}  // extern "C"', '']
    return {'lib/generated/capi_entries.cpp': '\n'.join(out)}
