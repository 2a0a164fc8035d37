"""abi/outputs_registry.py: lib/generated/output_kinds.{hpp,cpp}: the outputs registry from each capability's [[output]] (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


# ---- the outputs registry: lib/generated/output_kinds.{hpp,cpp} from each capability's [[output]] tables ----
def output_kinds(caps):
    """The kinds of lat_check_outputs, in the capabilities' order: what each writer may write."""
    kinds = [o for _, spec in caps for o in spec.get('output', [])]
    for o in kinds:
        if set(o) != {'kind', 'names', 'header', 'base'}:
            sys.exit(f"spec: [[output]] {o.get('kind')}: needs kind, names, header and base, nothing else")
    hpp = [generated_line('//'),
           '// output_kinds.hpp: the kinds of lat_check_outputs, one per [[output]] of spec/<capability>.toml: the',
           "// files a capability's writer may write (its report's *_output_names), checked before measuring.",
           '#pragma once',
           '',
           '#include <cstddef>',
           '#include <string>',
           '#include <vector>',
           '',
           'namespace lat {',
           '',
           'struct OutputKind {',
           '  const char *kind;',
           '  bool takes_base;  // the names come from a base the caller gives; else they are fixed',
           '  std::vector<std::string> (*names)(const std::string &outdir, const std::string &base);',
           '};',
           '',
           f'extern const OutputKind kOutputKinds[{len(kinds)}];',
           f'constexpr const char *kOutputKindNames = "{", ".join(o["kind"] for o in kinds)}";',
           '',
           '}  // namespace lat',
           '']
    cpp = [generated_line('//'),
           '#include "generated/output_kinds.hpp"',
           '']
    cpp += [f'#include "{h}"' for h in sorted({o['header'] for o in kinds})]
    cpp += ['', 'namespace lat {', '', f'const OutputKind kOutputKinds[{len(kinds)}] = {{']
    for o in kinds:
        call = f"{o['names']}(outdir, base)" if o['base'] else f"{o['names']}(outdir)"
        unused = '' if o['base'] else ' /*base*/'
        base_param = 'base' if o['base'] else ''
        cpp.append(f'    {{"{o["kind"]}", {"true" if o["base"] else "false"}, '
                   f'[](const std::string &outdir, const std::string &{base_param}{unused}) {{ return {call}; }}}},')
    cpp += ['};', '', '}  // namespace lat', '']
    return {'lib/generated/output_kinds.hpp': '\n'.join(hpp), 'lib/generated/output_kinds.cpp': '\n'.join(cpp)}
