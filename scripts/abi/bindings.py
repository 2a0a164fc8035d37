"""abi/bindings.py: --bindings: every bind(C) interface of fortran/ against the C declaration it binds (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)
from abi.growth import c_functions, c_definitions, struct_kinds


def fortran_interfaces():
    """[(file, bind name, [(dummy, type, attrs)], result type)] of every bind(C, name=...) interface."""
    out = []
    fdir = os.path.join(ROOT, 'fortran')
    for name in sorted(os.listdir(fdir)):
        if not name.endswith('.F90'):
            continue
        text = re.sub(r'&\s*\n\s*', ' ', open(os.path.join(fdir, name)).read())
        for m in re.finditer(r'^\s*function\s+(\w+)\s*\(([^)]*)\)\s*bind\(C,\s*name\s*=\s*"(\w+)"\)\s*result\((\w+)\)'
                             r'(.*?)^\s*end function', text, re.M | re.S):
            dummies = [d.strip().lower() for d in m.group(2).split(',') if d.strip()]
            decls = {}
            for line in m.group(5).splitlines():
                dm = re.match(r'^\s*(integer\(\w+\)|real\(\w+\)|type\(\w+\)|character\(kind=c_char\))\s*((?:,\s*[^:]+)?)::\s*(.+)$',
                              line.strip(), re.I)
                if not dm:
                    continue
                attrs = dm.group(2).replace(' ', '').lower()
                for v in re.split(r',\s*(?![^()]*\))', dm.group(3)):
                    vm = re.match(r'(\w+)(\(.*\))?', v.strip())
                    decls[vm.group(1).lower()] = (dm.group(1).lower(), attrs + (',array' if vm.group(2) else ''))
            out.append((name, m.group(3), [(d, *decls.get(d, ('?', ''))) for d in dummies],
                        decls.get(m.group(4).lower(), ('?', ''))[0]))
    return out


SCALAR_KIND = {'int': 'integer(c_int)', 'MPI_Fint': 'integer(c_int)', 'int64_t': 'integer(c_int64_t)',
               'double': 'real(c_double)', 'size_t': 'integer(c_size_t)', 'char': 'character(kind=c_char)'}


def argument_problem(c, f, handles, structs):
    """Why Fortran dummy f = (name, type, attrs) cannot be C parameter c, or None."""
    _, ctype, _, pointer, const = c
    _, ftype, attrs = f
    value = ',value' in attrs
    if ftype == '?':
        return 'no declaration'
    if not pointer:
        want = ('type(c_ptr)' if ctype in handles else 'type(c_funptr)' if ctype == 'lat_measure_fn'
                else SCALAR_KIND.get(ctype))
        if want is None:
            return f'C type {ctype} has no Fortran rule here'
        return None if (ftype == want and value) else f'{ftype}{"" if value else " by reference"}, C passes {ctype} by value'
    if ftype == 'type(c_ptr)' and value:
        return None  # any pointer: c_loc(...) or c_null_ptr
    if value:
        return f'{ftype} by value, C takes a pointer ({c[0]})'
    want = ('type(c_ptr)' if ctype in handles else f'type({ctype})' if ctype in structs else SCALAR_KIND.get(ctype))
    if ftype != want:
        return f'{ftype}, C points to {ctype} ({want})'
    if const and ',intent(in)' not in attrs:
        return f'C passes a const pointer ({c[0]}): intent(in) missing'
    if not const and ',intent(in)' in attrs:
        return f'intent(in), C writes through it ({c[0]})'
    return None


def bindings():
    """The lat_* functions of the C header against the bind(C) interfaces of the Fortran module: each function
    bound (lat_f_X binds lat_X through comm_f2c.c or sized_glue.c), and each interface argument by argument
    against the C declaration it binds: count, order, type and kind, value or reference, intent of a const
    pointer, and the result."""
    caps = load_spec()
    structs, _ = struct_kinds(caps)
    header = open(os.path.join(ROOT, 'include', 'mpilat.h')).read()
    handles = set(re.findall(r'typedef struct \w+ \*(lat_\w+);', header))
    c_funcs = {name: (ret, params) for ret, name, params in c_functions()}
    glue = {**c_definitions('fortran/comm_f2c.c'), **c_definitions('fortran/sized_glue.c')}
    bad, bound = [], set()
    for fname, bind, dummies, result in fortran_interfaces():
        if not bind.startswith('lat_'):
            continue  # the C library's (strlen)
        c = glue.get(bind) or c_funcs.get(bind)
        if c is None:
            bad.append(f'{fname}: binds {bind}, which no C file declares')
            continue
        bound.add(re.sub(r'^lat_f_', 'lat_', bind))
        ret, params = c
        want = 'type(c_ptr)' if ret == 'const char *' else 'integer(c_int)'
        if result != want:
            bad.append(f'{fname}: {bind}: result {result}, C returns {ret}')
        if len(dummies) != len(params):
            bad.append(f'{fname}: {bind}: {len(dummies)} arguments, C takes {len(params)}')
            continue
        for i, (cp, fd) in enumerate(zip(params, dummies)):
            why = argument_problem(cp, fd, handles, structs)
            if why:
                bad.append(f'{fname}: {bind}: argument {i + 1} ({fd[0]}): {why}')
    bad += [f'{n}: in include/mpilat.h, not bound in module mpilat (fortran/)' for n in sorted(set(c_funcs) - bound)]
    bad += [f'{n}: bound in fortran/, not declared in include/mpilat.h' for n in sorted(bound - set(c_funcs))]
    for line in bad:
        print('FAIL: ' + line)
    print(f'{len(c_funcs)} functions in the C header, {len(bound)} bound in Fortran and checked argument by argument, '
          f'{len(bad)} failures')
    return 1 if bad else 0
