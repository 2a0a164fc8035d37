"""abi/c_header.py: include/mpilat_types.h: the C structs (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


# ---- include/mpilat_types.h -------------------------------------------------------------------------
def c_header(caps):
    out = [generated_line('/*') + ' */',
           '/**',
           ' * @file mpilat_types.h',
           ' * @brief The option and result structs of the C ABI, one block per capability (included by mpilat.h).',
           ' * Module mpilat mirrors each with a bind(C) type generated from the same spec (fortran/types/).',
           ' */',
           '#ifndef MPILAT_TYPES_H',
           '#define MPILAT_TYPES_H',
           '',
           '#include <stdint.h>',
           '',
           '#include "mpilat_constants.h"',
           '',
           '#ifdef __cplusplus',
           'extern "C" {',
           '#endif']
    for cap, spec in caps:
        out += ['', '/* ---- ' + cap + ' (spec/' + cap + '.toml) ' + '-' * max(0, 84 - len(cap) * 2) + ' */']
        for s in spec['struct']:
            out.append('')
            doc = wrap(s['doc'], 104)
            if len(doc) == 1:
                out.append('/** ' + doc[0] + ' */')
            else:
                out.append('/** ' + doc[0])
                out += ['    ' + l for l in doc[1:-1]]
                out.append('    ' + doc[-1] + ' */')
            out.append(f"typedef struct {s['name']} {{")
            for ctype, fields, fdoc in declarations(s):
                decl = f"  {ctype} {', '.join(c_declarator(f) for f in fields)};"
                if not fdoc:
                    out.append(decl)
                    continue
                col = max(len(decl) + 1, 24)
                lines = wrap(fdoc, max(40, 112 - col - 4))
                first = decl.ljust(col) + '/**< ' + lines[0]
                if len(lines) == 1:
                    out.append(first + ' */')
                else:
                    out.append(first)
                    out += [' ' * (col + 5) + l for l in lines[1:-1]]
                    out.append(' ' * (col + 5) + lines[-1] + ' */')
            out.append(f"}} {s['name']};")
    out += ['', '#ifdef __cplusplus', '}', '#endif', '', '#endif /* MPILAT_TYPES_H */', '']
    return '\n'.join(out)
