"""abi/result_json.py: lib/generated/spec_json.{hpp,cpp}: the result structs' JSON (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


# ---- lib/generated/spec_json.{hpp,cpp}: the result structs' JSON ------------------------------------------
def json_structs(caps):
    return [s for _, spec in caps for s in spec['struct'] if s['role'] == 'result' and any('json' in f for f in s['field'])]


def json_value(f):
    v = 'r.' + f['name']
    kind = f['json']
    if f['type'] == 'char':
        return f'std::string({v})'
    return {True: v, 'flag': f'{v} != 0', 'known': f'{v} >= 0 ? nlohmann::json({v}) : nlohmann::json()',
            'finite': f'number_or_null({v})', 'finite_or_text': f'number_or_text({v})'}[kind]


def json_files(caps):
    structs = json_structs(caps)
    hpp = [generated_line('//'),
           "// spec_json.hpp: the JSON object of every result struct's fields marked `json` in the spec, under their",
           "// names (or json_name). The report layer's: each capability's report adds what is not a field as it is",
           '// (names of enums, fields shown only in some modes, nested groups).',
           '#pragma once',
           '',
           '#include <nlohmann/json.hpp>',
           '',
           '#include "mpilat.h"',
           '',
           'namespace lat {']
    cpp = [generated_line('//'),
           '#include "generated/spec_json.hpp"',
           '',
           '#include <string>',
           '',
           '#include "common/report_json.hpp"',
           '',
           'namespace lat {']
    for s in structs:
        n = s['name']
        hpp += ['', f'/// The fields of {n} marked json.', f'nlohmann::json spec_result_json(const {n} &r);']
        cpp += ['', f'nlohmann::json spec_result_json(const {n} &r) {{', '  nlohmann::json j = nlohmann::json::object();']
        for f in s['field']:
            if 'json' in f:
                cpp.append(f"  j[\"{f.get('json_name', f['name'])}\"] = {json_value(f)};")
        cpp += ['  return j;', '}']
    hpp += ['', '}  // namespace lat', '']
    cpp += ['', '}  // namespace lat', '']
    return '\n'.join(hpp), '\n'.join(cpp)
