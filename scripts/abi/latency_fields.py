"""abi/latency_fields.py: drivers/latency_fields.F90: what the `latency` driver's options and its &latency
namelist set in lat_pingpong_options, from each field's `cli`, `cli_help` and `namelist` (and
spec/drivers.toml's latency namelist extras): which options take an integer or a number, the field each
sets and its help, and the namelist group read into the fields. latency_parameters.F90 keeps only the text's rules (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)

DRIVER = 'latency'
STRUCT = 'lat_pingpong_options'
# A field whose check is one of these takes no number from an option: a flag, or a timer given by its name.
NOT_NUMBERS = {'flag', 'timer'}
NAMELIST_TYPE = {'int': 'integer', 'int64_t': 'integer(int64)', 'double': 'real(real64)'}


def options_struct(caps):
    for _, spec in caps:
        for s in spec['struct']:
            if s['name'] == STRUCT:
                return s
    sys.exit(f'spec/: no struct {STRUCT}, which the latency driver reads')


def setter(routine, value, value_type, cases):
    """A subroutine that sets, for each (option, expression, field) of cases, opts%<field> to the expression."""
    out = [f'  subroutine {routine}(name, {value}, opts)',
           '    character(len=*), intent(in) :: name',
           f'    {value_type}, intent(in) :: {value}',
           '    type(lat_pingpong_options), intent(inout) :: opts',
           '    select case (name)']
    for option, expression, f in cases:
        out += [f"    case ('{option}')", f"      opts%{f['name']} = {expression}"]
    return out + ['    end select', f'  end subroutine {routine}']


def fortran_text(text):
    """A Fortran character literal."""
    return "'" + text.replace("'", "''") + "'"


def latency_fields(caps):
    s = options_struct(caps)
    with open(os.path.join(ROOT, 'spec', 'drivers.toml'), 'rb') as f:
        own = tomllib.load(f).get(DRIVER, {})
    extras = list(own.get('namelist', {}))  # the driver's own: text, no field
    quick = own.get('quick', {})
    if sorted(quick) != ['npptrial', 'nr', 'ntrial']:
        sys.exit(f'spec/drivers.toml: [latency] quick sets {sorted(quick)}: latency_parameters.F90 takes nr, npptrial, ntrial')
    integers, numbers, helps = [], [], []  # (option, field); (option, its help)
    for f in s['field']:
        for entry in f.get('cli', []):
            driver, option = entry.split(' ', 1)
            if driver != DRIVER:
                continue
            if entry in f.get('cli_help', {}):
                text = f['cli_help'][entry]
                helps.append((option, [filled(line, {}) for line in text] if isinstance(text, list) else filled(text, {})))
            if f.get('check') in NOT_NUMBERS:
                continue
            if f['type'] == 'double':
                numbers.append((option, f))
            elif f['type'] in ('int', 'int64_t'):
                integers.append((option, f))
            else:
                sys.exit(f"spec/: {STRUCT}.{f['name']}: latency {option} sets a field of type {f['type']}")
    # The driver's own options' help (no field), after the fields' (--quick's with the values it sets).
    for option, text in own.items():
        if option in ('namelist', 'quick'):
            continue
        lines = text if isinstance(text, list) else [text]
        helps.append((option, [filled(line, quick) for line in lines]))
    group = [f for f in s['field'] if 'namelist' in f]
    names = [f['namelist'] for f in group if f.get('check') != 'timer']  # numbers, each copied to its field
    texts = [f['namelist'] for f in group if f.get('check') == 'timer'] + extras  # names and paths, as text
    if texts != ['timer', 'outdir']:
        sys.exit(f'spec/: the &latency namelist\'s text variables are {texts}: read_latency_group takes timer and '
                 'outdir (scripts/abi/latency_fields.py)')

    def quoted(pairs):
        return [f"'{o}'" for o, _ in pairs]

    out = [generated_line('!>', f'spec/ ({STRUCT}\'s cli and namelist keys, spec/drivers.toml)'),
           '!> latency_fields: the fields of lat_pingpong_options that the latency driver\'s options and its &latency',
           '!> namelist set, from the spec: an option\'s kind of value and the field it sets, and the namelist group read',
           '!> into the fields. drivers/latency_parameters.F90 turns the text into values with these.',
           'module latency_fields',
           '  use, intrinsic :: iso_fortran_env, only: int64, real64',
           '  use mpilat, only: lat_pingpong_options',
           '  implicit none',
           '  private',
           '',
           '  !> The value an option takes: an integer, a number, or neither (a flag, a name, a path; or no option).',
           '  integer, parameter, public :: value_none = 0, value_integer = 1, value_number = 2',
           '  !> What --quick sets (spec/drivers.toml, [latency] quick).',
           f"  integer(int64), parameter, public :: quick_nr = {quick['nr']}_int64, quick_npptrial = {quick['npptrial']}_int64, &",
           f"                                       quick_ntrial = {quick['ntrial']}_int64",
           '  public :: option_value, set_integer_option, set_number_option, read_latency_group, option_help',
           '',
           'contains',
           '',
           '  !> The value option `name` takes where it sets one field with it: value_integer, value_number, value_none.',
           '  integer function option_value(name) result(kind)',
           '    character(len=*), intent(in) :: name',
           '    select case (name)']
    out += fortran_statement('    case (', quoted(integers), ')', 4)
    out += ['      kind = value_integer']
    out += fortran_statement('    case (', quoted(numbers), ')', 4)
    out += ['      kind = value_number',
            '    case default',
            '      kind = value_none',
            '    end select',
            '  end function option_value',
            '',
            '  !> The field option `name` (value_integer) sets, to k; a C int field takes k clamped to its range (the',
            '  !> library\'s check then names the value).']
    out += setter('set_integer_option', 'k', 'integer(int64)',
                  [(o, 'k' if f['type'] == 'int64_t' else 'clamped(k)', f) for o, f in integers])
    out += ['',
            '  !> The field option `name` (value_number) sets, to x.']
    out += setter('set_number_option', 'x', 'real(real64)', [(o, 'x', f) for o, f in numbers])
    out += ['',
            '  !> Line `line` (default 1) of option `name`\'s help as --help shows it; \'\' past its last line and where',
            '  !> the spec gives none.',
            '  function option_help(name, line) result(text)',
            '    character(len=*), intent(in) :: name',
            '    integer, intent(in), optional :: line',
            '    character(len=:), allocatable :: text',
            '    integer :: k',
            '    k = 1',
            '    if (present(line)) k = line',
            "    text = ''",
            '    select case (name)']
    for option, text in helps:
        lines = text if isinstance(text, list) else [text]
        out += [f"    case ('{option}')"]
        if len(lines) == 1:  # one line: no choice to make
            out += ['      if (k == 1) &'] + fortran_statement('        text = ', [fortran_text(lines[0])], '', 8)
            continue
        out += ['      select case (k)']
        for k, line in enumerate(lines, 1):
            out += [f'      case ({k})'] + fortran_statement('        text = ', [fortran_text(line)], '', 8)
        out += ['      end select']
    out += ['    case default',
            "      text = ''",
            '    end select',
            '  end function option_help',
            '',
            '  !> Group &latency from unit into opts, timer (its name) and outdir: a variable the group does not give',
            '  !> keeps its value; opts is changed only by a read that succeeded. ios and iomsg: the read\'s.',
            '  subroutine read_latency_group(unit, opts, timer, outdir, ios, iomsg)',
            '    integer, intent(in) :: unit',
            '    type(lat_pingpong_options), intent(inout) :: opts',
            '    character(len=*), intent(inout) :: timer, outdir',
            '    integer, intent(out) :: ios',
            '    character(len=*), intent(inout) :: iomsg']
    for ftype in ('int', 'int64_t', 'double'):
        these = [f['namelist'] for f in group if f['type'] == ftype and f.get('check') != 'timer']
        if these:
            out += fortran_statement(f'    {NAMELIST_TYPE[ftype]} :: ', these, '', 4)
    out += fortran_statement('    namelist /latency/ ', names + texts, '', 4)
    out += [f"    {f['namelist']} = opts%{f['name']}" for f in group if f.get('check') != 'timer']
    out += ['    read (unit, nml=latency, iostat=ios, iomsg=iomsg)',
            '    if (ios /= 0) return']
    out += [f"    opts%{f['name']} = {f['namelist']}" for f in group if f.get('check') != 'timer']
    out += ['  end subroutine read_latency_group',
            '',
            '  !> k clamped to a C int.',
            '  integer function clamped(k)',
            '    integer(int64), intent(in) :: k',
            '    clamped = int(max(min(k, int(huge(clamped), int64)), -int(huge(clamped), int64)))',
            '  end function clamped',
            '',
            'end module latency_fields',
            '']
    return {'drivers/latency_fields.F90': '\n'.join(out)}
