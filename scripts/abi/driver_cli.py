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
                    text = filled(' '.join(text) if isinstance(text, list) else text, {})  # a help of several lines
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
            '',
            '// The help the spec gives option `option` of the field, for a driver that binds it itself (a flag that sets',
            '// a value, a name turned into a constant, one option over several fields): app.add_flag("--head", ...,',
            '// spec_help<&lat_sweep_options::pattern>("mpptest", "--head")). A field without cli_help does not compile.',
            'template <auto Member>',
            'const char *spec_help(const char *driver, const char *option) {',
            '  for (const SpecCliEntry &e : SpecCli<Member>::entries)',
            '    if (std::strcmp(e.driver, driver) == 0 && std::strcmp(e.option, option) == 0) return e.help;',
            '  std::fprintf(stderr, "%s: internal error: spec/ gives %s no help\\n", driver, option);',
            '  std::abort();',
            '}',
            f'// {count} options.',
            '']
    out += own_options(caps)
    return {'drivers/spec_cli.hpp': '\n'.join(out)}


def own_option_texts(caps):
    """[(driver, option spelling, help)]: the drivers' options of their own (spec/drivers.toml, a capability's
    [driver] options), each spelling of "a,b" apart; CLI11's "-h,--help" left out (CLI11 writes its help), and
    latency's (it prints its own, from drivers/latency_fields.F90)."""
    with open(os.path.join(ROOT, 'spec', 'drivers.toml'), 'rb') as f:
        tables = dict(tomllib.load(f))
    for _, spec in caps:
        d = spec.get('driver', {})
        if d.get('options'):
            tables[d['name']] = {**tables.get(d['name'], {}), **d['options']}
    texts = []
    for driver, table in tables.items():
        if driver == 'latency':  # Fortran: drivers/latency_fields.F90's option_help
            continue
        for key, text in table.items():
            if key == '-h,--help':
                continue
            texts += [(driver, spelling, filled(text, {})) for spelling in key.split(',')]
    return texts


def own_options(caps):
    """own_option_help(driver, option): the help of a driver's option of its own, from the spec."""
    out = ['// The drivers\' options of their own (no field: spec/drivers.toml, or a capability\'s [driver] options), with',
           '// their help: app.add_option("--outdir", outdir, own_option_help("queuelat", "--outdir")). A name the spec',
           '// lacks ends the program at its first line (the drivers\' tests run every one\'s --help).',
           'struct OwnOptionHelp {',
           '  const char *driver, *option, *help;',
           '};',
           'inline constexpr OwnOptionHelp kOwnOptionHelps[] = {']
    texts = own_option_texts(caps)
    out += [f'    {{{c_string(d)}, {c_string(o)}, {c_string(t)}}},' for d, o, t in texts]
    out += ['};',
            '',
            'inline const char *own_option_help(const char *driver, const char *option) {',
            '  for (const OwnOptionHelp &h : kOwnOptionHelps)',
            '    if (std::strcmp(h.driver, driver) == 0 && std::strcmp(h.option, option) == 0) return h.help;',
            '  std::fprintf(stderr, "%s: internal error: spec/drivers.toml gives %s no help\\n", driver, option);',
            '  std::abort();',
            '}',
            f'// {len(texts)} spellings.',
            '']
    return out
