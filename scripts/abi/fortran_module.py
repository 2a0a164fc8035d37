"""abi/fortran_module.py: module mpilat assembled from the spec: fortran/mpilat.F90 (the modules it re-exports)
and the ordered list of its sources for CMake (fortran/sources.cmake) and Makefile.legacy (fortran/sources.mk),
from each capability's fortran_module (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)

# The modules every capability's wrappers stand on, in the order they use each other (mpilat_constants,
# mpilat_support and mpilat_base by hand, the others generated).
BEFORE = ['mpilat_constants', None, 'mpilat_handle_types', 'mpilat_c', 'mpilat_support', 'mpilat_base',
          'mpilat_handles', 'mpilat_defaults']  # None: the bind(C) types, types/
REEXPORTED = ['mpilat_constants', 'mpilat_types', 'mpilat_handle_types', 'mpilat_handles', 'mpilat_defaults',
              'mpilat_base']


def fortran_module(caps):
    wrappers = []
    for cap, spec in caps:
        m = spec.get('fortran_module')
        if not m or not re.fullmatch(r'mpilat_\w+', m):
            sys.exit(f'spec/{cap}.toml: fortran_module names the module of its Fortran wrappers (mpilat_<name>)')
        if m not in wrappers:
            wrappers.append(m)
    sources = []
    for m in BEFORE:
        if m is None:
            sources += [f'types/mpilat_types_{cap}.F90' for cap, _ in caps] + ['types/mpilat_types.F90']
        else:
            sources.append(f'{m}.F90')
    sources += [f'{m}.F90' for m in wrappers] + ['mpilat.F90']
    f = [generated_line('!', 'spec/'),
         '!> Module mpilat: Fortran 2008 bindings of the mpilat C ABI (include/mpilat.h).',
         '!>',
         '!> Two layers, as in Caliper: private `bind(C)` interfaces named `*_c` (mpilat_c), and public wrappers with',
         '!> the C names that take Fortran types (`character(len=*)`, `logical`, an optional `ierr`). Communicators are',
         '!> accepted as `type(MPI_Comm)` (mpi_f08) and, through the same generic name, as an `integer` handle',
         '!> (`use mpi`); both reach C through MPI_Comm_f2c in comm_f2c.c.',
         '!>',
         '!> Errors: every wrapper has `integer, optional, intent(out) :: ierr`. Without `ierr` a failure prints',
         '!> lat_last_error_message() on the error unit and stops the program with `error stop`; a measurement',
         '!> stopped by lat_request_stop (LAT_ERR_INTERRUPTED) is not a failure and does not stop it.',
         '!> The module is called mpilat, never lat: science codes use `lat` for latitude.',
         '!>',
         '!> It re-exports one module per part, each private but for its public names: the constants, the bind(C)',
         '!> types, the result handles, their accessors and the options\' defaults (generated from spec/), errors,',
         "!> versions and statistics (mpilat_base), and each capability's wrappers (its spec's fortran_module).",
         'module mpilat']
    f += [f'  use {m}' for m in REEXPORTED + wrappers]
    f += ['  implicit none', '  public', 'end module mpilat', '']
    cmake = ['# ' + generated_line('', 'spec/').lstrip(),
             "# The sources of module mpilat in the order they use each other (each capability's fortran_module).",
             'set(MPILAT_FORTRAN_SOURCES']
    cmake += [f'  {s}' for s in sources]
    cmake[-1] += ')'
    cmake.append('')
    mk = ['# ' + generated_line('', 'spec/').lstrip(),
          "# The sources of module mpilat in the order they use each other (each capability's fortran_module).",
          'F_SRC := \\']
    mk += [f'  fortran/{s} \\' for s in sources[:-1]] + [f'  fortran/{sources[-1]}', '']
    return {'fortran/mpilat.F90': '\n'.join(f), 'fortran/sources.cmake': '\n'.join(cmake),
            'fortran/sources.mk': '\n'.join(mk)}
