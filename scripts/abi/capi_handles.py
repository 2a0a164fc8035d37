"""abi/capi_handles.py: lib/generated/capi_handles.cpp: the C API's accessors of each result handle, from each
capability's [[handle]] and the declarations in include/mpilat.h (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)
from abi.growth import c_functions, sized_functions


def capi_handles(caps):
    """A handle's summary (its result's `r.summary`), its lists (`r.<member>[i]`, the index checked) and its
    _free, each one lat::guard call: the lines lib/capi/ held once per capability."""
    handles = [h for _, spec in caps for h in spec.get('handle', [])]
    decl = {name: params for _, name, params in c_functions()}
    sized = {n for n, _, _ in sized_functions(caps)}
    out = [generated_line('//', 'spec/ and include/mpilat.h'),
           "// capi_handles.cpp: each result handle's accessors (a capability's [[handle]]): the summary, its lists",
           '// and _free. The rest of a capability\'s C API is in lib/capi/<capability>.cpp.',
           '#include "capi/guard.hpp"',
           '#include "generated/capi_impl.hpp"']
    out += [f'#include "{h}"' for h in sorted({h['header'] for h in handles})]
    out += ['', 'extern "C" {']

    def signature(function):
        if function not in decl:
            sys.exit(f'spec: [[handle]]: {function} is not declared in include/mpilat.h')
        params = decl[function]
        name = f'lat_impl_{function[4:]}' if function in sized else function
        return params, f'int {name}({", ".join(p[0] for p in params)})'

    for h in handles:
        if set(h) - {'type', 'doc', 'header', 'summary', 'lists', 'free'} or not {'type', 'doc', 'header', 'free'} <= set(h):
            sys.exit(f"spec: [[handle]] {h.get('type')}: type, doc, header, free and optionally summary, lists")
        if h.get('lists') and 'summary' not in h:
            sys.exit(f"spec: [[handle]] {h['type']}: lists are counted by its summary: give summary")
        if 'summary' in h:
            params, sig = signature(h['summary'])
            if len(params) != 2 or params[0][1] != h['type']:
                sys.exit(f"spec: {h['summary']}: a summary takes ({h['type']}, its summary struct *)")
            (_, _, handle, _, _), (_, _, out_name, _, _) = params
            out += ['', sig + ' {', '  return lat::guard([&] {', f'    lat::require_nonnull({out_name}, "{out_name}");',
                    f'    *{out_name} = lat::deref({handle}, "{handle}").r.summary;', '    return LAT_SUCCESS;', '  });', '}']
        for entry in h.get('lists', []):
            if set(entry) != {'get', 'member', 'count', 'fortran'}:
                sys.exit(f"spec: [[handle]] {h['type']}: a list is {{ get, member, count, fortran }}")
            function = entry['get']
            params, sig = signature(function)
            if len(params) != 3 or params[0][1] != h['type'] or params[1][1] != 'int64_t':
                sys.exit(f"spec: {function}: a list's getter takes ({h['type']}, int64_t index, its struct *)")
            handle, index, out_name = (p[2] for p in params)
            out += ['', sig + ' {', '  return lat::guard([&] {', f'    lat::require_nonnull({out_name}, "{out_name}");',
                    f"    const auto &list = lat::deref({handle}, \"{handle}\").r.{entry['member']};",
                    f'    lat::require_index({index}, static_cast<int64_t>(list.size()), "{out_name}");',
                    f'    *{out_name} = list[static_cast<size_t>({index})];', '    return LAT_SUCCESS;', '  });', '}']
        params, sig = signature(h['free'])
        if len(params) != 1 or params[0][1] != h['type'] or not params[0][3]:
            sys.exit(f"spec: {h['free']}: a _free takes ({h['type']} *)")
        out += ['', sig + ' {', f'  return lat::guard([&] {{ return lat::free_handle({params[0][2]}, "{params[0][2]}"); }});', '}']
    out += ['', '}  // extern "C"', '']

    options = [s for _, spec in caps for s in spec['struct'] if s['role'] == 'options']
    dfl = [generated_line('//', 'spec/ and include/mpilat.h'),
           '// capi_defaults.cpp: lat_<x>_defaults of every options struct: the defaults of its spec, from the C++',
           "// lat::<x>_defaults() of the capability's options (`defaults_header`).",
           '#include "capi/guard.hpp"',
           '#include "generated/capi_impl.hpp"']
    dfl += [f'#include "{h}"' for h in sorted({s['defaults_header'] for s in options})]
    dfl += ['', 'extern "C" {']
    for s in options:
        params, sig = signature(s['defaults'])
        if len(params) != 1 or params[0][1] != s['name'] or not params[0][3]:
            sys.exit(f"spec: {s['defaults']}: takes ({s['name']} *)")
        opts = params[0][2]
        dfl += ['', sig + ' {', '  return lat::guard([&] {', f'    lat::require_nonnull({opts}, "{opts}");',
                f"    *{opts} = lat::{s['defaults'][4:]}();", '    return LAT_SUCCESS;', '  });', '}']
    dfl += ['', '}  // extern "C"', '']
    return {'lib/generated/capi_handles.cpp': '\n'.join(out), 'lib/generated/capi_defaults.cpp': '\n'.join(dfl)}
