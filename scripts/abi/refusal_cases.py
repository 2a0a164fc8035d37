"""abi/refusal_cases.py: tests/c/range_refusals.inc, included by tests/c/test_same_refusals_mpi.c: for every
[check] that names its `measurement`, each field of its options with check = "range" set just below its min
and just above its max, and each refusal across fields of its options ([[struct.refused]]: the values set,
the message holding `says`), given to the check and then, on every rank, to the measurement, which must
refuse it the same way (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)
from abi.fortran_c import pointer_rules
from abi.growth import c_functions

C_TYPE = {'int': 'int', 'int64_t': 'int64_t', 'double': 'double'}


def c_names():
    """The names a C caller sees for a bound: mpilat_constants.h's and limits.h's."""
    text = open(os.path.join(ROOT, 'include', 'mpilat_constants.h')).read()
    return set(re.findall(r'^#define (LAT_\w+)', text, re.M)) | {'INT_MAX', 'INT_MIN'}


def outside(f, names):
    """C expressions of the values just outside the field's range (none past the type's own limit, none for a
    bound only the C++ core names)."""
    out = []
    for bound, delta in just_outside(f):
        if (f['type'] == 'int' and bound in ('INT_MAX', 'INT_MIN')) or (isinstance(bound, str) and bound not in names):
            continue
        step = '+' if delta > 0 else '-'
        if f['type'] == 'double':
            out.append(f'({bound}) {step} 1.0' if isinstance(bound, str) else repr(float(bound) + delta))
        elif isinstance(bound, str):
            out.append(f'({C_TYPE[f["type"]]})({bound}) {step} 1')
        else:
            out.append(str(int(bound) + delta))
    return out


def c_value(v):
    """A value of [[struct.refused]] as C: a number, or a C name (a string)."""
    return v if isinstance(v, str) else repr(v)


def c_string(text):
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"') + '"'


def argument(p, options_type, outputs):
    """What the generated case passes for a C parameter: the options, the communicator, the ranks, a result
    (outputs: {name: local}), no lists, NULL where C lets it be."""
    text, ctype, name, pointer, const = p
    if ctype == options_type and pointer:
        return '&o'
    if ctype == 'MPI_Comm':
        return 'MPI_COMM_WORLD'
    if not pointer:
        return 'size' if name == 'nprocs' else '0'
    return '&' + outputs[name] if name in outputs else 'NULL'


def refusal_cases(caps):
    decl = {n: ps for _, n, ps in c_functions()}
    by_address = pointer_rules()
    names = c_names()
    handles = {h['type'] for _, spec in caps for h in spec.get('handle', [])}
    structs = {s['name']: s for _, spec in caps for s in spec['struct']}
    out = [generated_line('/*', 'spec/ and include/mpilat.h') + ' */',
           '/* range_refusals.inc: each [check]\'s options fields with a range, just outside it, and its options\' refusals',
           '   across fields ([[struct.refused]]), refused alike by the check and its measurement (the [check]\'s',
           '   `measurement`); included by test_same_refusals_mpi.c. */',
           'static void spec_range_refusals(void **state) {', '  (void)state;']
    ncases = 0
    for cap, spec in caps:
        for e in spec.get('check', []):
            m = e.get('measurement')
            if m is None:
                continue
            where = f"spec/{cap}.toml: [[check]] {e['function']}"
            if m not in decl:
                sys.exit(f'{where}: measurement {m}: include/mpilat.h declares no such function')
            options_type = decl[e['function']][0][1]
            mparams = decl[m]
            if not any(p[1] == options_type for p in mparams):
                sys.exit(f'{where}: measurement {m} does not take {options_type}')
            # Its results: a struct into a local, a handle into a local that must stay NULL; a pointer C lets be
            # NULL (spec/fortran.toml's by_address: the histogram) is NULL.
            outputs, locals_, handles_made = {}, [], []
            for p in mparams:
                if not p[3] or p[4] or f'{p[1]} {p[2]}' in by_address or f'{m}.{p[2]}' in by_address:
                    continue
                outputs[p[2]] = f'out_{p[2]}'
                if p[1] in handles:
                    locals_.append(f'    {p[1]} out_{p[2]} = NULL;')
                    handles_made.append(f'out_{p[2]}')
                elif p[1] in structs:
                    locals_.append(f'    {p[1]} out_{p[2]};')
                else:
                    sys.exit(f'{where}: measurement {m}: {p[0]}: no rule for this output')
            check_args = ', '.join(argument(p, options_type, {}) for p in decl[e['function']])
            measure_args = ', '.join(argument(p, options_type, outputs) for p in mparams)

            def case(values, says=None):
                """A case: the options' defaults with values ({field: C expression}) set, refused alike."""
                what = ', '.join(f'{options_type}.{k} = {v}' for k, v in values.items()).replace('"', '')
                lines = ['  {', f'    {options_type} o;', f"    {structs[options_type]['defaults']}(&o);"]
                lines += [f'    o.{k} = {v};' for k, v in values.items()]
                lines += [f"    const int rc = checked({e['function']}({check_args}));"]
                if says:
                    lines.append(f'    if (!strstr(check_message, {c_string(says)})) fail_msg("{what}: the check said \'%s\'", check_message);')
                lines += [*locals_, f'    same_refusal("{what}", rc, {m}({measure_args}));']
                return lines + [f'    assert_null({h});' for h in handles_made] + ['  }']

            for f in structs[options_type]['field']:
                if f.get('check') != 'range' or f['type'] not in C_TYPE or 'array' in f:
                    continue
                for value in outside(f, names):
                    out += case({f['name']: value})
                    ncases += 1
            # The refusals across fields the spec gives the struct ([[struct.refused]]): the message holds `says`.
            for r in structs[options_type].get('refused', []):
                out += case({k: c_value(v) for k, v in r['set'].items()}, r['says'])
                ncases += 1
    out += [f'  print_message("%d range and cross-field refusals from the spec\\n", {ncases});', '}', '']
    return {'tests/c/range_refusals.inc': '\n'.join(out)}
