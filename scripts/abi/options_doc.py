"""abi/options_doc.py: docs/options.md: the options tables (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)
from abi.options import option_structs, text_of, range_check


# ---- docs/options.md -----------------------------------------------------------------------------------
def md_value(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return '%g' % v
    return f'`{v}`' if isinstance(v, str) else str(v)


def rule_text(f):
    c = f['check']
    if c == 'flag':
        return '0 or 1'
    if c == 'timer':
        return 'a `lat_timer_kind` (0, 1, 2)'
    if c == 'timeout':
        return 'seconds in 0..31536000 (a year; 0: none)'
    if c == 'reserved':
        return '0 (reserved: refused otherwise, so that a later version may give it a meaning)'
    if c == 'by hand':
        return 'by hand: ' + f['why']
    if 'rule' in f:
        lo, hi = f.get('min'), f.get('max')
        return f['rule'].replace('{max}', md_value(hi) if hi is not None else '').replace('{min}', md_value(lo) if lo is not None else '')
    parts = []
    if 'min' in f:
        parts.append(('> ' if f.get('open_min') else '>= ') + md_value(f['min']))
    if 'max' in f:
        parts.append(('< ' if f.get('open_max') else '<= ') + md_value(f['max']))
    text = ', '.join(parts)
    return text + (f" ({f['note']})" if 'note' in f else '')


def docs(caps):
    out = [generated_line('<!--') + ' -->',
           '# Options of every capability',
           '',
           'Each options struct, field by field: C type, default (what `lat_*_defaults` fills), the rule its check',
           'applies (`lat_*_check` and the measurement itself; "by hand" rules involve other fields or the',
           'communicator and live where named), whether every rank must pass the same value ("shared": a difference',
           'is `LAT_ERR_ARG` on every rank), the unit and what it means. Result structs are documented in',
           '`include/mpilat_types.h`.']
    for cap, spec in caps:
        for s in spec['struct']:
            if s['role'] != 'options':
                continue
            out += ['', f"## `{s['name']}` ({cap}; `{s['defaults']}`)", '', s['doc'], '',
                    '| field | type | default | rule | shared | unit | driver option | meaning |',
                    '|---|---|---|---|---|---|---|---|']
            last_doc = ''
            for f in s['field']:
                doc = f.get('doc', '') or ('see `' + last_doc + '`' if last_doc else '')
                if f.get('doc'):
                    last_doc = f['name']
                ctype = f['type'] + (f"[{f['array']}]" if 'array' in f else '')
                default = md_value(f['default']) if 'default' in f else ('0' if 'array' not in f else 'zeros')
                shared = 'yes' if f.get('shared') else ''
                cli = ', '.join(f'`{c}`' for c in f.get('cli', []))
                cells = [f"`{f['name']}`", f'`{ctype}`', default, rule_text(f), shared, f.get('unit', ''), cli,
                         doc.replace('|', '\\|')]
                out.append('| ' + ' | '.join(cells) + ' |')
    out.append('')
    return '\n'.join(out)
