"""abi/fortran_handles.py: module mpilat's result handles from each capability's [[handle]]: their types
(fortran/mpilat_handle_types.F90, before the wrappers), their accessors (fortran/mpilat_handles.F90: the
summary, every item of each list in an array, _free), and every options struct's lat_<x>_defaults
(fortran/mpilat_defaults.F90) (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)
from abi.growth import c_functions


def fortran_handles(caps):
    handles = [h for _, spec in caps for h in spec.get('handle', [])]
    decl = {name: params for _, name, params in c_functions()}
    types = [generated_line('!', 'spec/'),
             "!> Module mpilat_handle_types: the result handles of module mpilat, one per capability's [[handle]];",
             '!> their accessors are in mpilat_handles. Part of module mpilat (fortran/mpilat.F90 re-exports it).',
             'module mpilat_handle_types',
             '  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr',
             '  implicit none',
             '  private',
             f"  public :: {', '.join(h['type'] for h in handles)}"]
    for h in handles:
        types += ['', f"  !> {h['doc']}; free it with {h['free']}.", f"  type :: {h['type']}",
                  '    type(c_ptr) :: handle = c_null_ptr', f"  end type {h['type']}"]
    types += ['', 'end module mpilat_handle_types', '']

    names = []
    body = []
    for h in handles:
        t = h['type']
        var = decl[h['free']][0][2]  # the C parameter's name: sweep, queue, fit, ...
        if 'summary' in h:
            s_type = decl[h['summary']][1][1]
            names.append(h['summary'])
            body += ['', f'  !> The summary of {var}.',
                     f"  subroutine {h['summary']}({var}, summary, ierr)",
                     f'    type({t}), intent(in) :: {var}',
                     f'    type({s_type}), intent(out) :: summary',
                     '    integer, optional, intent(out) :: ierr',
                     f"    call handle({h['summary']}_c({var}%handle, summary), '{h['summary']}', ierr)",
                     f"  end subroutine {h['summary']}"]
        for entry in h.get('lists', []):
            get, count, name, member = entry['get'], entry['count'], entry['fortran'], entry['member']
            p_type = decl[get][2][1]
            names.append(name)
            body += ['', f'  !> Every one of the {member} of {var} ({get}), in an array allocated here.',
                     f'  subroutine {name}({var}, {member}, ierr)',
                     f'    type({t}), intent(in) :: {var}',
                     f'    type({p_type}), allocatable, intent(out) :: {member}(:)',
                     '    integer, optional, intent(out) :: ierr',
                     f'    type({s_type}) :: s',
                     '    integer(c_int) :: rc',
                     '    integer(c_int64_t) :: i',
                     f"    rc = {h['summary']}_c({var}%handle, s)",
                     f'    if (rc /= LAT_SUCCESS) s%{count} = 0',
                     f'    allocate ({member}(s%{count}))',
                     f'    do i = 1, s%{count}',
                     f'      if (rc == LAT_SUCCESS) rc = {get}_c({var}%handle, i - 1, {member}(i))',
                     '    end do',
                     f"    call handle(rc, '{name}', ierr)",
                     f'  end subroutine {name}']
        names.append(h['free'])
        body += ['', '  !> Frees the result; an empty handle is accepted.',
                 f"  subroutine {h['free']}({var})",
                 f'    type({t}), intent(inout) :: {var}',
                 '    integer(c_int) :: rc',
                 f"    if (c_associated({var}%handle)) rc = {h['free']}_c({var}%handle)",
                 f'    {var}%handle = c_null_ptr',
                 f"  end subroutine {h['free']}"]
    acc = [generated_line('!', 'spec/ and include/mpilat.h'),
           "!> Module mpilat_handles: each result handle's accessors (a capability's [[handle]]): the summary, every",
           '!> item of each list in an array allocated here, _free. Part of module mpilat (fortran/mpilat.F90 re-exports it).',
           '#include "mpilat_constants.h"',
           'module mpilat_handles',
           '  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_null_ptr, c_associated',
           '  use mpilat_constants',
           '  use mpilat_types',
           '  use mpilat_handle_types',
           '  use mpilat_c',
           '  use mpilat_support, only: handle',
           '  implicit none',
           '  private']
    for k in range(0, len(names), 4):
        acc.append(f"  public :: {', '.join(names[k:k + 4])}")
    acc += ['', 'contains'] + body + ['', 'end module mpilat_handles', '']
    options = [(cap, s) for cap, spec in caps for s in spec['struct'] if s['role'] == 'options']
    dfl = [generated_line('!', 'spec/'),
           '!> Module mpilat_defaults: lat_<x>_defaults(opts) for every options struct, the defaults of its spec',
           '!> (spec/<capability>.toml). Part of module mpilat (fortran/mpilat.F90 re-exports it).',
           'module mpilat_defaults',
           '  use, intrinsic :: iso_c_binding, only: c_int',
           '  use mpilat_types',
           '  use mpilat_c',
           '  implicit none',
           '  private']
    names = [s['defaults'] for _, s in options]
    for k in range(0, len(names), 4):
        dfl.append(f"  public :: {', '.join(names[k:k + 4])}")
    dfl += ['', 'contains']
    for cap, s in options:
        dfl += ['', f"  !> Fills opts with the defaults of spec/{cap}.toml.", f"  subroutine {s['defaults']}(opts)",
                f"    type({s['name']}), intent(out) :: opts", '    integer(c_int) :: rc',
                f"    rc = {s['defaults']}_c(opts)", f"  end subroutine {s['defaults']}"]
    dfl += ['', 'end module mpilat_defaults', '']
    return {'fortran/mpilat_handle_types.F90': '\n'.join(types), 'fortran/mpilat_handles.F90': '\n'.join(acc),
            'fortran/mpilat_defaults.F90': '\n'.join(dfl)}
