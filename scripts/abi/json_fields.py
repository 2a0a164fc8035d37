"""abi/json_fields.py: drivers/json_fields.hpp: the JSON pointers mpilat-compare reads (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


# ---- drivers/json_fields.hpp -----------------------------------------------------------------------------
def braced(rows):
    """A std::array's initialiser: {} when empty, {{row, ...}} otherwise."""
    return '{' + ('{' + ', '.join(rows) + '}' if rows else '') + '}'


def json_fields():
    """spec/json.toml as C++ names: for "/points/*/bytes" the array's pointer and the element's ("/bytes")."""
    with open(os.path.join(ROOT, 'spec', 'json.toml'), 'rb') as f:
        spec = tomllib.load(f)
    out = [generated_line('//', 'spec/json.toml'),
           '// json_fields.hpp: the JSON pointers of the fields mpilat-compare reads, by format; the driver tests check',
           "// every writer's file against the same list (tests/driver/check_json_fields.py).",
           '#pragma once',
           '',
           '#include <array>',
           '',
           'namespace json_fields {']
    for fmt, fields in spec.items():
        ns = fmt.replace('mpilat-', '').replace('-', '_')
        out += ['', f'/// {fmt}' if fmt != 'common' else '/// every format', f'namespace {ns} {{']
        if fmt != 'common':
            out.append(f'constexpr const char *kFormat = "{fmt}";')
        arrays = []
        for name, ptr in fields.items():
            if name in ('optional', 'compare', 'match'):
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
    # A format read by its spec alone: `compare` (the quantities: a field, its name, whether higher is slower)
    # and `match` (what must be equal between launches: a field and its name).
    quantities, matches = [], []
    for fmt in formats:
        fields = spec[fmt]
        for key, rows, keys in (('compare', quantities, {'field', 'name', 'slower'}), ('match', matches, {'field', 'name'})):
            for row in fields.get(key, []):
                if set(row) != keys or row['field'] not in fields or '/*/' in fields[row['field']]:
                    sys.exit(f"spec/json.toml: [{fmt}] {key}: each {{ {', '.join(sorted(keys))} }}, the field one of the "
                             "format's own (not in an array)")
                extra = f", {'true' if row['slower'] else 'false'}" if key == 'compare' else ''
                rows.append(f'{{"{fmt}", "{fields[row["field"]]}", "{row["name"]}"{extra}}}')
    out += ['', '/// The formats mpilat-compare reads by their spec alone (spec/json.toml\'s `compare` and `match`): each',
            '/// quantity (its format, pointer, name, whether a higher value is slower) and each field that must be',
            '/// equal between launches (its format, pointer, name).',
            'struct SpecQuantity {', '  const char *format, *pointer, *name;', '  bool higher_is_slower;', '};',
            'struct SpecMatch {', '  const char *format, *pointer, *name;', '};',
            f'inline constexpr std::array<SpecQuantity, {len(quantities)}> kSpecQuantities{braced(quantities)};',
            f'inline constexpr std::array<SpecMatch, {len(matches)}> kSpecMatches{braced(matches)};']
    out += ['', '/// Every format mpilat-compare reads, and the same as one text (its refusal names them).',
            f'constexpr const char *kFormats[] = {{{", ".join(chr(34) + f + chr(34) for f in formats)}}};',
            f'constexpr const char *kFormatList = "{", ".join(formats)}";']
    out += ['', '}  // namespace json_fields', '']
    return '\n'.join(out)
