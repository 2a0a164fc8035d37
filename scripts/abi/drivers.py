"""abi/drivers.py: --drivers: every driver's options against the spec (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


def help_options(text):
    """{option name: (default shown or None, its spellings, its help)} from a driver's --help (CLI11's layout:
    the help after a run of spaces, or on the next line where the names fill the column; or latency's, whose
    help goes on over lines indented deeper)."""
    options = {}
    last = None
    for line in text.splitlines():
        m = re.match(r'^  (-[-\w]+(?:,-[-\w]+)*|files)\b(?: (\S+))?(.*)$', line)
        if not m:
            if last and re.match(r'^ {4,}\S', line):  # a help's next line
                options[last] = (options[last][0], options[last][1], (options[last][2] + ' ' + line.strip()).strip())
            else:
                last = None
            continue
        default = None
        if m.group(2) and '=' in m.group(2):  # CLI11: INT=50, FLOAT:> 0=off
            default = m.group(2).split('=', 1)[1]
        d = re.search(r'\(default ([^)]*)\)\s*$', line)  # latency: (default 8388608)
        if d:
            default = d.group(1)
        # The help: after the name, its value's word (CLI11's `TEXT`, `INT=50 ...`, `REQUIRED`; latency's `L`)
        # and the run of spaces that ends the column.
        h = re.match(r'^  \S+(?: \S+)*?(?: {2,}|\s*$)(.*)$', line)
        for name in m.group(1).split(','):
            options[name] = (default, m.group(1), h.group(1).strip() if h else '')
        last = m.group(1).split(',')[0]
    return options


def help_text(text, values):
    """A help as the spec gives it (a line, or a list of lines) as one line, its {names} filled from values."""
    return filled(' '.join(text if isinstance(text, list) else [text]), values)


def as_number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def drivers(pairs):
    import subprocess
    caps = load_spec()
    with open(os.path.join(ROOT, 'spec', 'drivers.toml'), 'rb') as f:
        own = tomllib.load(f)
    bad = []
    fields = [(s['name'], f) for _, spec in caps for s in spec['struct'] if s['role'] == 'options' for f in s['field']]
    for pair in pairs:
        name, command = pair.split('=', 1)
        run = subprocess.run(command + ' --help', shell=True, capture_output=True, text=True, timeout=120)
        shown = help_options(run.stdout + run.stderr)
        if not shown:
            bad.append(f'{name}: --help listed no options (exit {run.returncode})')
            continue
        mapped = {}
        for struct, f in fields:
            for entry in f.get('cli', []):
                driver, option = entry.split(' ', 1)
                if driver != name:
                    continue
                mapped.setdefault(option, []).append((struct, f))
                if option not in shown:
                    bad.append(f'{name}: {struct}.{f["name"]} names {option}, which --help does not show')
        texts = {k: v for k, v in own.get(name, {}).items() if k not in ('namelist', 'quick')}
        # A capability's own driver may list them in its [driver] table's `options` instead.
        for _, spec in caps:
            if spec.get('driver', {}).get('name') == name:
                texts.update(spec['driver'].get('options', {}))
        listed = {}  # each spelling: the spec's help
        for key, text in texts.items():
            listed.update({spelling: help_text(text, own.get(name, {}).get('quick', {})) for spelling in key.split(',')})
        # The help the spec gives each option: its own (above) or its field's cli_help.
        spec_help = dict(listed)
        for option, users in mapped.items():
            for struct, f in users:
                if f'{name} {option}' in f.get('cli_help', {}):
                    spec_help[option] = help_text(f['cli_help'][f'{name} {option}'], {})
        for option, (default, group, help_shown) in shown.items():
            group_names = group.split(',')
            if not any(g in mapped or g in listed for g in group_names):
                bad.append(f'{name}: {option} sets no field of the spec and is not in spec/drivers.toml (or its [driver]\'s options)')
            # latency's lines may end with the default they show: the library's, not a text of the spec.
            if option in spec_help and help_shown != spec_help[option] and not (
                    name == 'latency' and re.fullmatch(re.escape(spec_help[option]) + r' \(default [^)]*\)', help_shown)):
                bad.append(f'{name}: {option}\'s help is "{help_shown}", the spec\'s "{spec_help[option]}": the driver must take '
                           'it from the spec (drivers/spec_cli.hpp, drivers/latency_fields.F90)')
        for option, users in mapped.items():
            if len(users) != 1 or option not in shown:
                continue
            struct, f = users[0]
            want, got = f.get('default'), as_number(shown[option][0])
            if isinstance(want, bool) or not isinstance(want, (int, float)) or got is None:
                continue
            if float(want) != got:
                bad.append(f'{name}: {option} shows the default {shown[option][0]}, the spec {struct}.{f["name"]} says {want}')
        print(f'{name}: {len(shown)} options shown, {len(mapped)} set fields of the spec')
    for line in bad:
        print('FAIL: ' + line)
    print(f'{len(pairs)} drivers checked against spec/, {len(bad)} failures')
    return 1 if bad else 0
