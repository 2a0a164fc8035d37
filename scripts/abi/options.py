"""abi/options.py: lib/generated/spec_options.{hpp,cpp}: defaults, one-field checks, shared values, JSON echo (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


# ---- lib/generated/spec_options.{hpp,cpp} -------------------------------------------------------------
def option_structs(caps):
    return [s for _, spec in caps for s in spec['struct'] if s['role'] == 'options']


def cpp_value(v, ctype):
    if isinstance(v, bool):
        return '1' if v else '0'
    if isinstance(v, str):
        return v
    if ctype == 'double':
        return repr(float(v))
    if ctype == 'int64_t':
        return f'int64_t{{{v}}}'
    return str(v)


def text_of(v):
    """A bound as it reads in a message: numbers as written, symbols through std::to_string at run time."""
    if isinstance(v, str):
        return '" + std::to_string(' + v + ') + "'
    if isinstance(v, float):
        return ('%g' % v)
    return str(v)


def range_check(f):
    name, ctype = f['name'], f['type']
    lo, hi = f.get('min'), f.get('max')
    conds, msgs = [], []
    if 'rule' in f:
        rule = f['rule'].replace('{max}', text_of(hi) if hi is not None else '').replace('{min}', text_of(lo) if lo is not None else '')
        below = above = rule
    elif f.get('in_range'):
        below = above = f'in {text_of(lo)}..{text_of(hi)}'
    else:
        below = f.get('below', ('> ' if f.get('open_min') else '>= ') + text_of(lo)) if lo is not None else ''
        if 'note' in f:
            below += f" ({f['note']})"
        above = f.get('above', ('< ' if f.get('open_max') else '<= ') + text_of(hi)) if hi is not None else ''
    o = 'o.' + name
    if lo is not None:
        op = '>' if f.get('open_min') else '>='
        cond = f'!({o} {op} {cpp_value(lo, ctype)})'
        if f.get('finite'):
            cond = f'{cond} || !std::isfinite({o})'
        conds.append((cond, below))
    elif f.get('finite'):
        conds.append((f'!std::isfinite({o})', below))
    if hi is not None:
        op = '<' if f.get('open_max') else '<='
        conds.append((f'!({o} {op} {cpp_value(hi, ctype)})', above))
    lines = []
    for cond, msg in conds:
        lines.append(f'  if ({cond}) return got("{name} must be {msg}", {o});')
    return lines


def cpp_files(caps):
    structs = option_structs(caps)
    hpp = [generated_line('//'),
           '// spec_options.hpp: for every options struct of the spec, its defaults, the checks one field at a time,',
           '// the values every rank must share and the JSON echo. Checks across fields stay by hand in each',
           "// capability's options.cpp, which calls these first.",
           '#pragma once',
           '',
           '#include <string>',
           '#include <vector>',
           '',
           '// The JSON echo\'s type only: the options\' checks, in every options.cpp, need none of nlohmann-json.',
           '#include <nlohmann/json_fwd.hpp>',
           '',
           '#include "common/agreement.hpp"',
           '#include "mpilat.h"',
           '',
           'namespace lat {']
    cpp = [generated_line('//'),
           '#include "generated/spec_options.hpp"',
           '',
           '#include <climits>',
           '#include <cmath>',
           '',
           '#include <nlohmann/json.hpp>',
           '',
           '#include "common/error.hpp"',
           '#include "common/option_rules.hpp"',
           '#include "maxrate/options.hpp"',
           '',
           'namespace lat {']
    for s in structs:
        n = s['name']
        hpp += ['',
                f'/// {n} filled with the defaults of the spec (every other byte zero).',
                f'void spec_defaults({n} &opts);',
                f'/// "" or the first field of {n} outside its range, named with its value.',
                f'std::string spec_check_fields(const {n} &opts);',
                f'/// The fields of {n} that every rank must share (collective = true), in spec order.',
                f'std::vector<Shared> spec_shared_values(const {n} &opts);',
                f'/// The fields of {n} marked echo, as the "options" object of a JSON report.',
                f'nlohmann::json spec_options_json(const {n} &opts);']
        cpp += ['', f'void spec_defaults({n} &o) {{', f'  o = {n}{{}};']
        for f in s['field']:
            if 'default' in f:
                cpp.append(f"  o.{f['name']} = {cpp_value(f['default'], f['type'])};")
        cpp += ['}', '', f'std::string spec_check_fields(const {n} &o) {{']
        for f in s['field']:
            c = f['check']
            if c == 'range':
                cpp += range_check(f)
            elif c == 'flag':
                cpp.append(f"  if (std::string bad = check_flag(\"{f['name']}\", o.{f['name']}); !bad.empty()) return bad;")
            elif c == 'timer':
                cpp.append(f"  if (std::string bad = check_timer_kind(o.{f['name']}); !bad.empty()) return bad;")
            elif c == 'timeout':
                cpp.append(f"  if (std::string bad = check_timeout(o.{f['name']}); !bad.empty()) return bad;")
            elif c == 'reserved':
                # Refused unless 0, so that a later version can give the field a meaning: a caller that set it
                # by mistake now would otherwise get that meaning then.
                cpp.append(f"  if (o.{f['name']} != 0) return got(\"{f['name']} must be 0 (kept for a later version)\", o.{f['name']});")
        cpp += ['  return "";', '}', '']
        shared = [f for f in s['field'] if f.get('shared')]
        cpp.append(f'std::vector<Shared> spec_shared_values(const {n} &{"o" if shared else "/*o*/"}) {{')
        items = [f"Shared::{'real' if f['type'] == 'double' else 'integer'}(\"{f['name']}\", o.{f['name']})" for f in shared]
        cpp.append('  return {' + (',\n          '.join(items)) + '};')
        cpp += ['}', '']
        echo = [f for f in s['field'] if f.get('echo')]
        cpp.append(f'nlohmann::json spec_options_json(const {n} &{"o" if echo else "/*o*/"}) {{')
        cpp.append('  nlohmann::json j = nlohmann::json::object();')
        for f in echo:
            value = f"o.{f['name']} != 0" if f['check'] == 'flag' else f"o.{f['name']}"
            cpp.append(f"  j[\"{f['name']}\"] = {value};")
        cpp += ['  return j;', '}']
    hpp += ['', '}  // namespace lat', '']
    cpp += ['', '}  // namespace lat', '']
    return '\n'.join(hpp), '\n'.join(cpp)
