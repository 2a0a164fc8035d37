"""abi/drivers.py: --drivers: every driver's options against the spec (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)


def help_options(text):
    """{option name: default shown or None} from a driver's --help (CLI11's layout or latency's)."""
    options = {}
    for line in text.splitlines():
        m = re.match(r'^  (-[-\w]+(?:,-[-\w]+)*|files)\b(?: (\S+))?(.*)$', line)
        if not m:
            continue
        default = None
        if m.group(2) and '=' in m.group(2):  # CLI11: INT=50, FLOAT:> 0=off
            default = m.group(2).split('=', 1)[1]
        d = re.search(r'\(default ([^)]*)\)\s*$', line)  # latency: (default 8388608)
        if d:
            default = d.group(1)
        for name in m.group(1).split(','):
            options[name] = (default, m.group(1))
    return options


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
        listed = set(own.get(name, {})) - {'namelist'}
        # A capability's own driver may list them in its [driver] table's `options` instead.
        listed |= {o for _, spec in caps if spec.get('driver', {}).get('name') == name for o in spec['driver'].get('options', {})}
        for option, (default, group) in shown.items():
            group_names = group.split(',')
            if not any(g in mapped or g in listed for g in group_names):
                bad.append(f'{name}: {option} sets no field of the spec and is not in spec/drivers.toml (or its [driver]\'s options)')
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
