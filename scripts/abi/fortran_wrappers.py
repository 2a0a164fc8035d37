"""abi/fortran_wrappers.py: module mpilat's public wrappers of the C functions a spec lists under [[wrap]]
(fortran/<module>_wrappers.inc, which the capability's wrapper module includes), made from include/mpilat.h's
declarations by the rules of spec/fortran.toml's [wrappers] (scripts/gen-abi.py).

A wrapper takes Fortran types and an optional ierr last: the arguments C must have first, in C's order, then
the ones the spec calls optional, in C's order. A function with a communicator becomes <stem>_int(comm, ...),
whose type(MPI_Comm) twin and generic lat_<stem> fortran_comm.py writes."""
import tomllib

from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)
from abi.fortran_c import pointer_rules
from abi.growth import c_functions, struct_kinds

ARRAY = {'int64_t': ('integer(c_int64_t)', 'int64_arg'), 'double': ('real(c_double)', 'double_arg')}
KEYS = {'function', 'optional', 'names', 'logical', 'doc', 'module'}


def wrap_entries(caps):
    """[(module, entry)] of every [[wrap]]: a capability's (its fortran_module) and spec/fortran.toml's
    (the functions of no one capability, each naming its module)."""
    out = [(spec['fortran_module'], w, f'spec/{cap}.toml') for cap, spec in caps for w in spec.get('wrap', [])]
    with open(os.path.join(ROOT, 'spec', 'fortran.toml'), 'rb') as f:
        shared = tomllib.load(f).get('wrap', [])
    for w in shared:
        if 'module' not in w:
            sys.exit(f"spec/fortran.toml: [[wrap]] {w.get('function')}: names its module (module = \"mpilat_...\")")
        out.append((w['module'], w, 'spec/fortran.toml'))
    return out


def is_count(params, i):
    """Parameter i is the count of the array right after it: an integer named n or n<the array's name's start>
    (nsizes sizes, nfractions fractions_percent, na a), then a pointer other than a string."""
    p = params[i]
    if p[3] or p[1] not in ('int', 'int64_t') or i + 1 == len(params):
        return False
    a = params[i + 1]
    return a[3] and a[1] != 'char' and p[2].startswith('n') and a[2].startswith(p[2][1:])


class Wrapper:
    def __init__(self, entry, where, params, handles, structs, by_address, defaults):
        self.name = entry['function']
        self.where = f"{where}: [[wrap]] {self.name}"
        unknown = set(entry) - KEYS
        if unknown:
            sys.exit(f"{self.where}: unknown keys {sorted(unknown)} (known: {sorted(KEYS)})")
        c_names = {p[2] for p in params}
        for key in ('optional', 'logical'):
            if not set(entry.get(key, [])) <= c_names:
                sys.exit(f"{self.where}: {key} names what C does not declare: {sorted(set(entry[key]) - c_names)}")
        if not set(entry.get('names', {})) <= c_names:
            sys.exit(f"{self.where}: names renames what C does not declare: {sorted(set(entry['names']) - c_names)}")
        self.optional = set(entry.get('optional', []))
        self.logical = set(entry.get('logical', []))
        self.rename = entry.get('names', {})
        self.doc = entry.get('doc')
        self.dummies = []    # (name, declaration, optional)
        self.locals = []     # declarations
        self.setup = []      # statements before the call
        self.args = []       # what C gets, in C's order
        self.comm = False
        for i, p in enumerate(params):
            if is_count(params, i):
                continue
            follows_count = i > 0 and is_count(params, i - 1)
            self.param(p, params[i - 1] if follows_count else None, handles, structs, by_address, defaults)
        if self.comm and params[0][1] != 'MPI_Comm':
            sys.exit(f'{self.where}: the communicator comes first')

    def dummy(self, name, decl, optional=False):
        self.dummies.append((name, f"    {decl.replace('OPT', ', optional' if optional else '')} :: {name}", optional))

    def param(self, p, count, handles, structs, by_address, defaults):
        text, ctype, cname, pointer, const = p
        x = self.rename.get(cname, cname)
        opt = cname in self.optional
        if ctype == 'MPI_Comm':
            self.comm = True
            self.dummy(x, 'integer, intent(in)')
            self.args.append(f'int({x}, c_int)')
        elif count is not None:  # an array after its count
            n = f'{x}_n' if count[1] == 'int64_t' else f'int({x}_n, c_int)'
            if ctype in ARRAY:
                ftype, helper = ARRAY[ctype]
                self.dummy(f'{x}(:)', f'{ftype}OPT, intent(in)', opt)
                self.locals += [f'    {ftype}, allocatable, target :: {x}_copy(:)', f'    type(c_ptr) :: {x}_p',
                                f'    integer(c_int64_t) :: {x}_n']
                self.setup.append(f'    call {helper}({x}, {x}_copy, {x}_p, {x}_n)')
            elif ctype in structs and const and not opt:
                self.dummy(f'{x}(:)', f'type({ctype}), intent(in), target, contiguous')
                self.locals += [f'    type(c_ptr) :: {x}_p', f'    integer(c_int64_t) :: {x}_n']
                self.setup += [f'    {x}_n = size({x}, kind=c_int64_t)', f'    {x}_p = c_null_ptr',
                               f'    if ({x}_n > 0) {x}_p = c_loc({x}(1))']
            else:
                sys.exit(f'{self.where}: {text}: no wrapper rule for an array of {ctype}')
            self.args += [n, f'{x}_p']
        elif ctype == 'char' and pointer and const and not opt:
            self.dummy(x, 'character(len=*), intent(in)')
            self.args.append(f'trim({x})//c_null_char')
        elif ctype in handles and not pointer:
            self.dummy(x, f'type({ctype})OPT, intent(in)', opt)
            if opt:
                self.locals.append(f'    type(c_ptr) :: {x}_p')
                self.setup += [f'    {x}_p = c_null_ptr', f'    if (present({x})) {x}_p = {x}%handle']
            self.args.append(f'{x}_p' if opt else f'{x}%handle')
        elif ctype in handles and pointer and not const:  # a handle made here: the old one freed first
            free = handles[ctype]
            if f'{ctype} {cname}' in by_address or f'{self.name}.{cname}' in by_address:
                if not opt:
                    sys.exit(f'{self.where}: {text}: a handle C lets be NULL is optional')
                self.dummy(x, f'type({ctype}), optional, intent(inout), target', True)
                self.locals.append(f'    type(c_ptr) :: {x}_p')
                self.setup += [f'    {x}_p = c_null_ptr', f'    if (present({x})) then', f'      call {free}({x})',
                               f'      {x}_p = c_loc({x}%handle)', '    end if']
                self.args.append(f'{x}_p')
            else:
                self.dummy(x, f'type({ctype}), intent(inout)')
                self.setup.insert(0, f'    call {free}({x})')
                self.args.append(f'{x}%handle')
        elif ctype in structs and pointer:
            if not const:
                self.dummy(x, f'type({ctype}), intent(out)')
                self.args.append(x)
            elif f'{ctype} {cname}' in by_address or f'{self.name}.{cname}' in by_address:
                self.dummy(x, f'type({ctype})OPT, intent(in), target', opt)
                if opt:
                    self.locals.append(f'    type(c_ptr) :: {x}_p')
                    self.setup += [f'    {x}_p = c_null_ptr', f'    if (present({x})) {x}_p = c_loc({x})']
                self.args.append(f'{x}_p' if opt else f'c_loc({x})')
            elif opt:  # absent: the defaults
                if ctype not in defaults:
                    sys.exit(f'{self.where}: {text}: an optional struct is one with defaults')
                self.dummy(x, f'type({ctype}), optional, intent(in)', True)
                self.locals.append(f'    type({ctype}) :: {x}_v')
                self.setup += [f'    call {defaults[ctype]}({x}_v)', f'    if (present({x})) {x}_v = {x}']
                self.args.append(f'{x}_v')
            else:
                self.dummy(x, f'type({ctype}), intent(in)')
                self.args.append(x)
        elif not pointer and ctype == 'int' and cname in self.logical:
            self.dummy(x, 'logical, intent(in)')
            self.args.append(f'merge(1_c_int, 0_c_int, {x})')
        elif not pointer and ctype == 'int':
            self.dummy(x, 'integer, intent(in)')
            self.args.append(f'int({x}, c_int)')
        elif not pointer and ctype in ('int64_t', 'double'):
            self.dummy(x, f"{ARRAY[ctype][0]}, intent(in)")
            self.args.append(x)
        else:
            sys.exit(f'{self.where}: {text}: no wrapper rule (write this wrapper by hand)')
        if opt and not self.dummies[-1][2]:
            sys.exit(f'{self.where}: {cname} cannot be optional')

    def lines(self, c_doc):
        stem = self.name[4:]
        routine = f'{stem}_int' if self.comm else self.name
        ordered = [d for d in self.dummies if not d[2]] + [d for d in self.dummies if d[2]]
        names = [d[0].split('(')[0] for d in ordered] + ['ierr']
        doc = self.doc or c_doc
        out = [''] + [f'  !> {line}' for line in wrap(doc, 104)]
        out += fortran_statement(f'  subroutine {routine}(', names, ')', 2)
        out += [d[1] for d in ordered] + ['    integer, optional, intent(out) :: ierr'] + self.locals + self.setup
        out += fortran_statement(f'    call handle({self.name}_c(', self.args, f"), '{self.name}', ierr)", 4)
        out.append(f'  end subroutine {routine}')
        return routine, out


def c_docs():
    """{function: the first sentence of its comment in include/mpilat.h}."""
    header = open(os.path.join(ROOT, 'include', 'mpilat.h')).read()
    docs = {}
    for m in re.finditer(r'/\*\*?(.*?)\*/\s*\n(?:int|const char \*)\s*(lat_\w+)\(', header, re.S):
        text = ' '.join(w for w in m.group(1).replace('\n *', ' ').split() if w != '*')
        docs[m.group(2)] = re.split(r'(?<=[.:])\s', text + ' ')[0].strip()
    return docs


def fortran_wrappers(caps):
    """{fortran/<module>_wrappers.inc: text}, and {module: [(routine, public name)]} for fortran_comm."""
    structs, _ = struct_kinds(caps)
    handles = {h['type']: h['free'] for _, spec in caps for h in spec.get('handle', [])}
    defaults = {s['name']: s['defaults'] for s in structs.values() if s.get('defaults')}
    by_address = pointer_rules()
    functions = {n: ps for _, n, ps in c_functions()}
    docs = c_docs()
    files, made, seen = {}, {}, {}
    for module, entry, where in wrap_entries(caps):
        if entry.get('function') in seen:
            sys.exit(f"{where}: [[wrap]] {entry['function']}: wrapped twice ({seen[entry['function']]})")
        seen[entry.get('function')] = where
        if entry.get('function') not in functions:
            sys.exit(f"{where}: [[wrap]] {entry.get('function')}: include/mpilat.h declares no such function")
        w = Wrapper(entry, where, functions[entry['function']], handles, structs, by_address, defaults)
        routine, lines = w.lines(docs.get(w.name, ''))
        path = f'fortran/{module}_wrappers.inc'
        files.setdefault(path, [generated_line('!', f'include/mpilat.h and the [[wrap]] tables of spec/')])
        files[path] += lines
        made.setdefault(module, []).append((routine, w.name))
    return {p: '\n'.join(t) + '\n' for p, t in files.items()}, made
