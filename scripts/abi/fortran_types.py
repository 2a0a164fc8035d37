"""abi/fortran_types.py: fortran/types/*.F90: the bind(C) types of module mpilat (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


# ---- fortran/types/*.F90 ------------------------------------------------------------------------------
def fortran_types(caps):
    """One module per capability (mpilat_types_<cap>, each using the ones before it for nested types) and
    module mpilat_types, which re-exports them all: {path: text}."""
    files, done = {}, []
    for cap, spec in caps:
        names = [s['name'] for s in spec['struct']]
        out = [generated_line('!', f'spec/{cap}.toml'),
               f'!> Module mpilat_types_{cap}: the bind(C) mirrors of the {cap} structs of include/mpilat_types.h, field',
               '!> by field (module mpilat re-exports them). Array bounds are the C macros of mpilat_constants.h.',
               '#include "mpilat_constants.h"',
               f'module mpilat_types_{cap}',
               '  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char']
        out += [f'  use mpilat_types_{d}' for d in done]
        out += ['  implicit none', '  private']
        for k in range(0, len(names), 4):
            out.append('  public :: ' + ', '.join(names[k:k + 4]))
        for s in spec['struct']:
            out.append('')
            out += ['  !> ' + l for l in wrap(s['doc'], 100)]
            out.append(f"  type, bind(C) :: {s['name']}")
            for ctype, fields, fdoc in declarations(s):
                out += ['    !> ' + l for l in wrap(fdoc, 100)] if fdoc else []
                for f in fields:
                    ftype = FORTRAN_TYPE.get(ctype, f'type({ctype})')
                    dim = f"({f['array']})" if 'array' in f else ''
                    out.append(f"    {ftype} :: {f['name']}{dim}")
            out.append(f"  end type {s['name']}")
        out += ['', f'end module mpilat_types_{cap}', '']
        files[f'fortran/types/mpilat_types_{cap}.F90'] = '\n'.join(out)
        done.append(cap)
    out = [generated_line('!'),
           '!> Module mpilat_types: every bind(C) type of the spec, from the modules of the capabilities.',
           'module mpilat_types']
    out += [f'  use mpilat_types_{cap}' for cap in done]
    out += ['  implicit none', '  public', 'end module mpilat_types', '']
    files['fortran/types/mpilat_types.F90'] = '\n'.join(out)
    return files
