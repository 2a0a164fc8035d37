"""abi/driver_cli.py: drivers/spec_cli.hpp: each driver option that sets one field, named, described and bound
to its field from the spec (a field's `cli` and `cli_help`): spec_option<&lat_queue_options::iters>(app,
"queuelat", o) adds "--iters" with its help, bound to o.iters (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


def c_string(text):
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"') + '"'


def driver_cli(caps):
    out = [generated_line('//', 'spec/ (each field\'s cli and cli_help)'),
           '// spec_cli.hpp: the drivers\' options that set one field each, from the spec: spec_option<&<struct>::<field>>(',
           '// app, "<driver>", o) adds the option the spec names for that driver, with its help, bound to o.<field>.',
           '// A field the spec gives no such option has no SpecCli: the call does not compile; a driver it gives',
           '// none ends the program at its first line (the drivers\' tests run every one).',
           '#pragma once',
           '#include <CLI/CLI.hpp>',
           '#include <cstdio>',
           '#include <cstdlib>',
           '#include <cstring>',
           '',
           '#include "mpilat.h"',
           '',
           'struct SpecCliEntry {',
           '  const char *driver, *option, *help;',
           '};',
           'template <auto Member>',
           'struct SpecCli;',
           '']
    count = 0
    for cap, spec in caps:
        for s in spec['struct']:
            for f in s['field']:
                helps = f.get('cli_help', {})
                if not helps:
                    continue
                unknown = set(helps) - set(f.get('cli', []))
                if unknown:
                    sys.exit(f"spec/{cap}.toml: {s['name']}.{f['name']}: cli_help names options its cli lacks: {sorted(unknown)}")
                entries = []
                for cli, text in helps.items():
                    driver, option = cli.split(' ', 1)
                    entries.append(f'{{{c_string(driver)}, {c_string(option)}, {c_string(text)}}}')
                    count += 1
                out += ['template <>', f"struct SpecCli<&{s['name']}::{f['name']}> {{",
                        '  static constexpr SpecCliEntry entries[] = {']
                out += [f'      {e},' for e in entries]
                out += ['  };', '};', '']
    out += ['template <auto Member, class Options>',
            'CLI::Option *spec_option(CLI::App &app, const char *driver, Options &o) {',
            '  for (const SpecCliEntry &e : SpecCli<Member>::entries)',
            '    if (std::strcmp(e.driver, driver) == 0) return app.add_option(e.option, o.*Member, e.help);',
            '  std::fprintf(stderr, "%s: internal error: spec/ gives this field no option of %s\\n", driver, driver);',
            '  std::abort();',
            '}',
            f'// {count} options.',
            '']
    return {'drivers/spec_cli.hpp': '\n'.join(out)}
