"""abi/options_show.py: drivers/options_show.{h,c}: every field of each options struct printed as one JSON line, what a
driver shows under MPILAT_SHOW_OPTIONS (the test option_fields checks each option against the field it names)
(scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


def options_show(caps):
    structs = [s for _, spec in caps for s in spec['struct'] if s['role'] == 'options']
    h = [generated_line('/*') + ' */',
         '/* options_show.h: driver_show_<struct>(o) prints every field of an options struct on standard output as',
         '   one JSON line, {"struct": "<struct>", "fields": {...}}: what a driver would measure with, shown under',
         '   MPILAT_SHOW_OPTIONS (docs/batch.md). */',
         '#ifndef MPILAT_OPTIONS_SHOW_H',
         '#define MPILAT_OPTIONS_SHOW_H',
         '',
         '#include "mpilat.h"',
         '',
         '#ifdef __cplusplus',
         'extern "C" {',
         '#endif',
         '']
    h += [f"void driver_show_{s['name']}(const {s['name']} *o);" for s in structs]
    h += ['', '#ifdef __cplusplus', '}', '', '// The same, overloaded on the struct, for the C++ drivers.']
    h += [f"inline void driver_show(const {s['name']} &o) {{ driver_show_{s['name']}(&o); }}" for s in structs]
    h += ['#endif', '', '#endif', '']
    c = [generated_line('/*') + ' */',
         '#include "options_show.h"',
         '',
         '#include <math.h>',
         '#include <stdio.h>',
         '',
         '/* A double as JSON: finite with every digit, else a string. */',
         'static void show_double(double v) {',
         '  if (isfinite(v)) printf("%.17g", v);',
         '  else printf("\\"%s\\"", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");',
         '}']
    fmt = {'int': ('%d', ''), 'int64_t': ('%lld', '(long long)')}
    for s in structs:
        c += ['', f"void driver_show_{s['name']}(const {s['name']} *o) {{",
              f'  printf("{{\\"struct\\": \\"{s["name"]}\\", \\"fields\\": {{");']
        for k, f in enumerate(s['field']):
            sep = '' if k == 0 else ', '
            name, t = f['name'], f['type']
            if t not in ('int', 'int64_t', 'double'):
                sys.exit(f"{s['name']}.{name}: options_show has no rule for {t}")
            if 'array' in f:
                c.append(f'  printf("{sep}\\"{name}\\": [");')
                c.append(f"  for (size_t k = 0; k < sizeof o->{name} / sizeof o->{name}[0]; ++k) {{")
                c.append('    if (k > 0) printf(", ");')
                c.append(f'    show_double((double)o->{name}[k]);' if t == 'double' else
                         f'    printf("{fmt[t][0]}", {fmt[t][1]}o->{name}[k]);')
                c.append('  }')
                c.append('  printf("]");')
            elif t == 'double':
                c.append(f'  printf("{sep}\\"{name}\\": ");')
                c.append(f'  show_double(o->{name});')
            else:
                c.append(f'  printf("{sep}\\"{name}\\": {fmt[t][0]}", {fmt[t][1]}o->{name});')
        c += ['  printf("}}\\n");', '  fflush(stdout);', '}']
    c.append('')
    return {'drivers/options_show.h': '\n'.join(h), 'drivers/options_show.c': '\n'.join(c)}
