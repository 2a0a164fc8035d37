"""abi/json_fields.py: drivers/json_fields.hpp: the JSON pointers mpilat-compare reads (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


# ---- drivers/json_fields.hpp -----------------------------------------------------------------------------
def json_fields():
    """spec/json.toml as C++ names: for "/points/*/bytes" the array's pointer and the element's ("/bytes")."""
    with open(os.path.join(ROOT, 'spec', 'json.toml'), 'rb') as f:
        spec = tomllib.load(f)
    out = [generated_line('//', 'spec/json.toml'),
           '// json_fields.hpp: the JSON pointers of the fields mpilat-compare reads, by format; the driver tests check',
           "// every writer's file against the same list (tests/driver/check_json_fields.py).",
           '#pragma once',
           '',
           'namespace json_fields {']
    for fmt, fields in spec.items():
        ns = fmt.replace('mpilat-', '').replace('-', '_')
        out += ['', f'/// {fmt}' if fmt != 'common' else '/// every format', f'namespace {ns} {{']
        if fmt != 'common':
            out.append(f'constexpr const char *kFormat = "{fmt}";')
        arrays = []
        for name, ptr in fields.items():
            if name == 'optional':
                continue
            if '/*/' in ptr:
                array, element = ptr.split('/*', 1)
                if array not in arrays:
                    arrays.append(array)
                    out.append(f'constexpr const char *{array.rsplit("/", 1)[1]} = "{array}";  // an array')
                out.append(f'constexpr const char *{name} = "{element}";  // in each element of {array}')
            else:
                out.append(f'constexpr const char *{name} = "{ptr}";')
        out.append(f'}}  // namespace {ns}')
    formats = [fmt for fmt in spec if fmt != 'common']
    out += ['', '/// Every format mpilat-compare reads, and the same as one text (its refusal names them).',
            f'constexpr const char *kFormats[] = {{{", ".join(chr(34) + f + chr(34) for f in formats)}}};',
            f'constexpr const char *kFormatList = "{", ".join(formats)}";']
    out += ['', '}  // namespace json_fields', '']
    return '\n'.join(out)
