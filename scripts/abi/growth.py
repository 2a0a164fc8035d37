"""abi/growth.py: the ABI's growth: include/mpilat_sized.h, lib/generated/{sized_entries.cpp,capi_impl.hpp,abi_plain.hpp}, fortran/sized_glue.c (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


# ---- the ABI's growth: include/mpilat_sized.h, lib/generated/{sized_entries.cpp,capi_impl.hpp,abi_plain.hpp},
# fortran/sized_glue.c (docs/api.md, "How the ABI grows") --------------------------------------------------
PLAIN_API = 9  # the entry points without _sized take the structs of 0.9 (API 9), for ever: fields have since > 9


def struct_kinds(caps):
    """({name: struct}, frozen names): a struct nested in another, or passed as an array (`frozen` in the
    spec), never grows; every other struct is extensible."""
    structs = {s['name']: s for _, spec in caps for s in spec['struct']}
    frozen = {s['name'] for s in structs.values() if s.get('frozen')}
    frozen |= {f['type'] for s in structs.values() for f in s['field'] if f['type'] in structs}
    for s in structs.values():
        api = PLAIN_API
        for f in s['field']:
            since = f.get('since', PLAIN_API)
            if s['name'] in frozen and since != PLAIN_API:
                sys.exit(f"{s['name']}.{f['name']}: a frozen struct ({s['name']}) never grows; a new field is a new type")
            if since < api:
                sys.exit(f"{s['name']}.{f['name']}: since = {since} after a field of API {api}: a field goes after "
                         "every field of an earlier API (a field in the middle moves every later one)")
            api = since
    return structs, frozen


def c_functions(path=os.path.join('include', 'mpilat.h')):
    """The functions of a header (include/mpilat.h): [(return type, name, [(param text, type, name, pointer, const)])]."""
    header = open(os.path.join(ROOT, path)).read()
    header = re.sub(r'/\*.*?\*/', '', header, flags=re.S)
    out = []
    for m in re.finditer(r'^(int|const char \*)\s*(lat_\w+)\(([^;]*?)\);', header, re.M | re.S):
        params = []
        text = ' '.join(m.group(3).split())
        for p in ([] if text in ('', 'void') else [x.strip() for x in text.split(',')]):
            pm = re.match(r'^(const\s+)?(\w+)\s*(\*?)\s*(?:const\s*\*\s*)?(\w+)$', p)
            if not pm:
                sys.exit(f'include/mpilat.h: {m.group(2)}: cannot read the parameter "{p}"')
            params.append((p, pm.group(2), pm.group(4), pm.group(3) == '*', bool(pm.group(1))))
        out.append((m.group(1), m.group(2), params))
    return out


def sized_functions(caps):
    """The functions with an extensible struct among their parameters, each such parameter followed by its
    size: [(name, params, sized params)]."""
    structs, frozen = struct_kinds(caps)
    out = []
    for ret, name, params in c_functions():
        sized = [p for p in params if p[3] and p[1] in structs and p[1] not in frozen]
        if sized:
            if ret != 'int':
                sys.exit(f'include/mpilat.h: {name}: a function with a struct returns an int code')
            out.append((name, params, sized))
    return out


def sized_params(params, structs, frozen):
    text = []
    for p in params:
        text.append(p[0])
        if p[3] and p[1] in structs and p[1] not in frozen:
            text.append(f'size_t {p[2]}_size')
    return ', '.join(text)


def growth_files(caps):
    structs, frozen = struct_kinds(caps)
    funcs = sized_functions(caps)
    ext = [n for n in structs if n not in frozen]
    h = [generated_line('/*', 'include/mpilat.h and spec/') + ' */',
         '/**',
         ' * @file mpilat_sized.h',
         ' * @brief How the ABI grows (docs/api.md): every function that takes an extensible struct has an entry',
         ' * point lat_<name>_sized taking each such struct with its size, and lat_<name>(...) is a macro that passes',
         ' * the sizes of the header the caller is compiled with. A program compiled against an older header calls',
         f' * the entry points without _sized, which take the structs of API {PLAIN_API} (0.{PLAIN_API}). Included by mpilat.h; define',
         ' * LAT_NO_SIZE_MACROS before it to call the entry points by hand.',
         ' */',
         '#ifndef MPILAT_SIZED_H',
         '#define MPILAT_SIZED_H',
         '',
         '#include <stddef.h>',
         '',
         '#ifdef __cplusplus',
         'extern "C" {',
         '#endif',
         '']
    for name, params, _ in funcs:
        h.append(f'int {name}_sized({sized_params(params, structs, frozen)});')
    h += ['', '#ifndef LAT_NO_SIZE_MACROS',
          '/* A call by the plain name, (lat_<name>)(...), would bypass the macro and pass this header\'s structs to an',
          f'   entry point that reads those of API {PLAIN_API}, losing every later field: refused when compiled (GCC, Clang).',
          '   A binding that means it (an FFI, a 0.9 shim) defines LAT_PLAIN_ENTRIES. Functions 0.9 never had have no',
          '   plain entry point at all. */',
          '#if defined(__GNUC__) && !defined(LAT_PLAIN_ENTRIES)']
    for name, params, _ in funcs:
        h.append(f'int {name}({", ".join(p[0] for p in params)}) __attribute__((error("{name} by its plain name takes '
                 f'the structs of 0.{PLAIN_API}: call it as {name}(...) through mpilat.h\'s macro, or {name}_sized")));')
    h += ['#endif']
    for name, params, _ in funcs:
        args = ', '.join(p[2] for p in params)
        call = []
        for p in params:
            call.append(f'({p[2]})')
            if p[3] and p[1] in structs and p[1] not in frozen:
                call.append(f'sizeof({p[1]})')
        h.append(f'#define {name}({args}) {name}_sized({", ".join(call)})')
    h += ['#endif', '', '#ifdef __cplusplus', '}', '#endif', '', '#endif /* MPILAT_SIZED_H */', '']

    impl = [generated_line('//', 'include/mpilat.h and spec/'),
            '// capi_impl.hpp: the functions of lib/capi/ behind the sized entry points, on the structs of this',
            '// release (lib/generated/sized_entries.cpp calls them).',
            '#pragma once',
            '',
            '#include "mpilat.h"',
            '',
            'extern "C" {']
    impl += [f'int lat_impl_{name[4:]}({", ".join(p[0] for p in params)});' for name, params, _ in funcs]
    impl += ['}', '']

    plain = [generated_line('//', 'spec/'),
             f'// abi_plain.hpp: the extensible structs as they were in API {PLAIN_API} (the fields without a later',
             "// `since`): the entry points without _sized take these, whatever the structs have grown to since.",
             f"// <name>_fields_end: where the last field of API {PLAIN_API}'s struct ends; a caller's struct of that size is",
             '// read this far, never into its tail padding (C leaves padding unspecified: a later field may sit there).',
             '// Every extensible struct of this release ends with a field, no tail padding (checked when compiled),',
             "// so a newer header's fields lie beyond sizeof and are refused unless zero.",
             '#pragma once',
             '',
             '#include <cstddef>',
             '',
             '#include "mpilat.h"',
             '',
             'namespace lat::abi_plain {']
    for n in ext:
        s = structs[n]
        plain.append(f'struct {n} {{')
        old_fields = [f for f in s['field'] if f.get('since', PLAIN_API) <= PLAIN_API]
        for f in old_fields:
            plain.append(f"  ::{f['type']} {c_declarator(f)};" if f['type'] in structs else f"  {f['type']} {c_declarator(f)};")
        plain.append('};')
        last = old_fields[-1]['name']
        plain.append(f'constexpr size_t {n}_fields_end = offsetof({n}, {last}) + sizeof({n}::{last});')
        now = s['field'][-1]['name']
        plain.append(f'static_assert(sizeof(::{n}) == offsetof(::{n}, {now}) + sizeof(::{n}::{now}), "{n} ends in padding: '
                     'give it explicit reserved space in its spec, so that a newer field never lands in bytes this '
                     'release does not read");')
    plain += ['}  // namespace lat::abi_plain', '']

    entries = [generated_line('//', 'include/mpilat.h and spec/'),
               '// sized_entries.cpp: the entry points of the C ABI that take extensible structs (docs/api.md, "How',
               "// the ABI grows\"): lat_<name>_sized reads each struct at the caller's size (lib/common/abi_sized.hpp)",
               f'// and calls lat_impl_<name>; lat_<name> is the entry point of programs compiled against API {PLAIN_API}.',
               '#define LAT_NO_SIZE_MACROS',
               '#include "capi/sized_refusal.hpp"',
               '#include "common/abi_sized.hpp"',
               '#include "generated/abi_plain.hpp"',
               '#include "generated/capi_impl.hpp"',
               '',
               '// In the shared library (LAT_SHARED_SYMBOL_VERSIONS: lib/CMakeLists.txt) a plain entry is exported',
               '// only as the version of the release that had it, never as the default: a program linked against',
               '// that release finds it; a new link, &lat_x in new code, dlsym do not (docs/api.md, "Shared library").',
               '#ifdef LAT_SHARED_SYMBOL_VERSIONS',
               f'#define LAT_PLAIN_ENTRY(name) name##_0_{PLAIN_API}',
               f'#define LAT_PLAIN_ENTRY_VERSION(name) __asm__(".symver " #name "_0_{PLAIN_API}, " #name "@MPILAT_0.{PLAIN_API}");',
               '#else',
               '#define LAT_PLAIN_ENTRY(name) name',
               '#define LAT_PLAIN_ENTRY_VERSION(name)',
               '#endif',
               '',
               'namespace {']
    for n in sorted(ext):
        s = structs[n]
        if s['role'] == 'options':
            entries.append(f'{n} base_of_{n}() {{')
            entries.append(f'  {n} base{{}};')
            entries.append(f"  lat_impl_{s['defaults'][4:]}(&base);")
            entries.append('  return base;')
            entries.append('}')
    entries += ['}  // namespace', '', 'extern "C" {']
    plain_names = {f[1] for f in c_functions(os.path.join('tests', 'data', 'abi_0.9', 'mpilat.h'))}
    for name, params, sized in funcs:
        entries.append('')
        entries.append(f'int {name}_sized({sized_params(params, structs, frozen)}) {{')
        for p in sized:
            kind = 'SizedIn' if p[4] else 'SizedOut'
            extra = ''
            if p[4] and structs[p[1]]['role'] == 'options':
                extra = f', base_of_{p[1]}()'
            fields_end = f', lat::abi_plain::{p[1]}_fields_end' if p[4] else ''
            entries.append(f'  lat::{kind}<{p[1]}> {p[2]}_abi({p[2]}, {p[2]}_size, "{p[2]}", '
                           f'sizeof(lat::abi_plain::{p[1]}){fields_end}{extra});')
        checks = ', '.join(f'{p[2]}_abi' for p in sized)
        entries.append(f'  if (int rc = lat::sized_refusal({checks}); rc != LAT_SUCCESS) return rc;')
        args = ', '.join(f'{p[2]}_abi.get()' if p in sized else p[2] for p in params)
        entries.append(f'  const int rc = lat_impl_{name[4:]}({args});')
        for p in sized:
            if not p[4]:
                entries.append(f'  {p[2]}_abi.give_back();')
        entries.append('  return rc;')
        entries.append('}')
        if name not in plain_names:
            continue  # 0.9 never had it: no program can call it by its plain name
        entries.append(f'LAT_PLAIN_ENTRY_VERSION({name})')
        entries.append(f'int LAT_PLAIN_ENTRY({name})({", ".join(p[0] for p in params)}) {{')
        call = []
        for p in params:
            call.append(p[2])
            if p in sized:
                call.append(f'sizeof(lat::abi_plain::{p[1]})')
        entries.append(f'  return {name}_sized({", ".join(call)});')
        entries.append('}')
    entries += ['', '}  // extern "C"', '']

    glue = [generated_line('/*', 'include/mpilat.h') + ' */',
            '/* sized_glue.c: the functions module mpilat calls by these names (lat_f_<name>), compiled with the',
            "   library, so the macros of mpilat_sized.h pass this release's struct sizes; the functions with a",
            '   communicator are in comm_f2c.c. */',
            '#include "mpilat.h"']
    for name, params, _ in funcs:
        if any(p[1] == 'MPI_Comm' for p in params):
            continue
        glue += ['', f'int lat_f_{name[4:]}({", ".join(p[0] for p in params)}) {{',
                 f'  return {name}({", ".join(p[2] for p in params)});', '}']
    glue.append('')
    return {'include/mpilat_sized.h': '\n'.join(h),
            'lib/generated/capi_impl.hpp': '\n'.join(impl),
            'lib/generated/abi_plain.hpp': '\n'.join(plain),
            'lib/generated/sized_entries.cpp': '\n'.join(entries),
            'fortran/sized_glue.c': '\n'.join(glue)}

def c_definitions(path):
    """{name: (return type, params)} of the C functions defined in a glue file of fortran/."""
    text = re.sub(r'/\*.*?\*/', '', open(os.path.join(ROOT, path)).read(), flags=re.S)
    out = {}
    for m in re.finditer(r'^(int|const char \*)\s*(lat_\w+)\(([^)]*)\)\s*\{', text, re.M):
        params = []
        for p in [x.strip() for x in ' '.join(m.group(3).split()).split(',') if x.strip()]:
            pm = re.match(r'^(const\s+)?(\w+)\s*(\*?)\s*(?:const\s*\*\s*)?(\w+)$', p)
            params.append((p, pm.group(2), pm.group(4), pm.group(3) == '*', bool(pm.group(1))))
        out[m.group(2)] = (m.group(1), params)
    return out
