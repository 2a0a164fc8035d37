"""abi/fortran_c.py: module mpilat's C side: fortran/mpilat_c.F90 (the bind(C) interface of every function of
include/mpilat.h) and fortran/comm_f2c.c (the functions with a communicator), from the header's declarations and
spec/fortran.toml (what a C declaration cannot say) (scripts/gen-abi.py)."""
import tomllib

from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)
from abi.growth import c_functions, sized_functions, struct_kinds

SCALAR = {'int': 'integer(c_int)', 'MPI_Fint': 'integer(c_int)', 'int64_t': 'integer(c_int64_t)',
          'double': 'real(c_double)', 'size_t': 'integer(c_size_t)'}
KIND_OF = {'integer(c_int)': 'c_int', 'integer(c_int64_t)': 'c_int64_t', 'real(c_double)': 'c_double',
           'integer(c_size_t)': 'c_size_t', 'type(c_ptr)': 'c_ptr', 'type(c_funptr)': 'c_funptr',
           'character(kind=c_char)': 'c_char'}


def pointer_rules():
    """spec/fortran.toml's by_address: {'name'} (in every function) and {'function.name'}."""
    with open(os.path.join(ROOT, 'spec', 'fortran.toml'), 'rb') as f:
        spec = tomllib.load(f)
    return set(spec['pointers']['by_address'])


def fortran_dummy(function, params, i, handles, structs, frozen, by_address):
    """(type, attributes, array) of the Fortran dummy that binds C parameter i of function."""
    text, ctype, name, pointer, const = params[i]
    if ctype == 'MPI_Comm':
        return 'integer(c_int)', 'value', False  # the Fortran handle (MPI_Fint): comm_f2c.c converts it
    if not pointer:
        if ctype in handles:
            return 'type(c_ptr)', 'value', False
        if ctype == 'lat_measure_fn':
            return 'type(c_funptr)', 'value', False
        if ctype not in SCALAR:
            sys.exit(f'include/mpilat.h: {function}: {text}: no Fortran rule for {ctype} by value')
        return SCALAR[ctype], 'value', False
    if ctype == 'char':
        if text.replace(' ', '').endswith('*const*' + name):
            return 'type(c_ptr)', 'value', False  # an array of strings: c_loc of an array of c_ptr
        return 'character(kind=c_char)', 'intent(in)' if const else 'intent(out)', True
    if ctype in handles and function.endswith('_free'):
        return 'type(c_ptr)', 'intent(inout)', False  # set to NULL
    follows_count = i > 0 and not params[i - 1][3] and params[i - 1][1] in ('int', 'int64_t') and \
        params[i - 1][2].startswith('n')
    if ctype == 'void' or f'{ctype} {name}' in by_address or f'{function}.{name}' in by_address or \
            (follows_count and (ctype in SCALAR or ctype in frozen)):
        return 'type(c_ptr)', 'value', False
    intent = 'intent(in)' if const else 'intent(out)'
    if ctype in handles:
        return 'type(c_ptr)', intent, False
    if ctype in structs:
        return f'type({ctype})', intent, False
    if ctype in SCALAR:
        return SCALAR[ctype], intent, False
    sys.exit(f'include/mpilat.h: {function}: {text}: no Fortran rule for a pointer to {ctype}')


def fortran_c(caps):
    structs, frozen = struct_kinds(caps)
    header = open(os.path.join(ROOT, 'include', 'mpilat.h')).read()
    handles = set(re.findall(r'typedef struct \w+ \*(lat_\w+);', header))
    by_address = pointer_rules()
    functions = c_functions()
    names = {n for _, n, _ in functions}
    declared = {f'{p[1]} {p[2]}' for _, _, ps in functions for p in ps if p[3]} | \
        {f'{n}.{p[2]}' for _, n, ps in functions for p in ps if p[3]}
    unknown = sorted(by_address - declared)
    if unknown:
        sys.exit(f"spec/fortran.toml: by_address names what include/mpilat.h does not declare: {', '.join(unknown)}")
    sized = {n for n, _, _ in sized_functions(caps)}
    f = [generated_line('!', 'include/mpilat.h and spec/fortran.toml'),
         '!> Module mpilat_c: the bind(C) interfaces of every function of include/mpilat.h, named <function>_c',
         '!> (communicator functions reach C through comm_f2c.c as lat_f_<name>, functions of an extensible struct',
         "!> through sized_glue.c, which passes this release's struct sizes). A pointer is passed by reference",
         '!> (one value; intent(in) when C says const), a string as character(*), an array or an argument C lets be',
         '!> NULL as type(c_ptr), value (spec/fortran.toml). Only the wrapper modules use it; module mpilat does not',
         '!> re-export it.',
         'module mpilat_c',
         '  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char, c_ptr, c_null_ptr, &',
         '                                         c_null_char, c_loc, c_associated, c_f_pointer, c_size_t, &',
         '                                         c_funptr, c_funloc',
         '  use, intrinsic :: iso_fortran_env, only: error_unit',
         '  use mpi_f08, only: MPI_Comm',
         '  use mpilat_types',
         '  implicit none',
         '  public',
         '',
         '  interface']
    for ret, name, params in functions:
        bind = f'lat_f_{name[4:]}' if name in sized or any(p[1] == 'MPI_Comm' for p in params) else name
        result = 'p' if ret == 'const char *' else 'rc'
        dummies = [p[2] for p in params]
        f += fortran_statement(f'    function {name}_c(', dummies, f') bind(C, name="{bind}") result({result})', 4)
        decls, kinds = [], set()
        for i, p in enumerate(params):
            ftype, attrs, array = fortran_dummy(name, params, i, handles, structs, frozen, by_address)
            kinds.add(KIND_OF.get(ftype) or ftype[5:-1])
            decls.append(f"      {ftype}, {attrs} :: {p[2]}{'(*)' if array else ''}")
        rtype = 'type(c_ptr)' if ret == 'const char *' else 'integer(c_int)'
        kinds.add(KIND_OF[rtype])
        f += fortran_statement('      import :: ', sorted(kinds), '', 6)
        f += decls
        f += [f'      {rtype} :: {result}', '    end function']
    f += ['    ! the C library\'s, for the strings C returns',
          '    function c_strlen(s) bind(C, name="strlen") result(n)',
          '      import :: c_ptr, c_size_t',
          '      type(c_ptr), value :: s',
          '      integer(c_size_t) :: n',
          '    end function',
          '  end interface',
          '',
          'end module mpilat_c',
          '']

    c = [generated_line('/*', 'include/mpilat.h') + ' */',
         '/* comm_f2c.c: the C side of module mpilat for the functions with a communicator. Fortran hands over the',
         '   integer handle of a communicator (type(MPI_Comm)%MPI_VAL or a `use mpi` integer); MPI_Comm_f2c turns it',
         '   into the C handle, which is a pointer in Open MPI and an int in MPICH, so nothing here assumes either.',
         "   Compiled with the library, so the macros of mpilat_sized.h pass this release's struct sizes. */",
         '#include <mpi.h>',
         '#include <stddef.h>',
         '',
         '#include "mpilat.h"',
         '',
         '_Static_assert(sizeof(MPI_Fint) == sizeof(int), "module mpilat passes MPI_Fint as integer(c_int)");',
         '',
         'static MPI_Comm comm_from_fortran(MPI_Fint fcomm) {',
         '  int initialized = 0, finalized = 0;',
         '  MPI_Initialized(&initialized);',
         '  MPI_Finalized(&finalized);',
         "  /* Before MPI_Init, MPI_Comm_f2c is undefined; MPI_COMM_NULL gets the library's NOT_INIT error. */",
         '  if (!initialized || finalized) return MPI_COMM_NULL;',
         '  return MPI_Comm_f2c(fcomm);',
         '}']
    for ret, name, params in functions:
        if not any(p[1] == 'MPI_Comm' for p in params):
            continue
        decl = ', '.join(f'MPI_Fint {p[2]}' if p[1] == 'MPI_Comm' else p[0] for p in params)
        args = ', '.join(f'comm_from_fortran({p[2]})' if p[1] == 'MPI_Comm' else p[2] for p in params)
        c += ['', f'int lat_f_{name[4:]}({decl}) {{', f'  return {name}({args});', '}']
    c.append('')
    return {'fortran/mpilat_c.F90': '\n'.join(f), 'fortran/comm_f2c.c': '\n'.join(c)}
