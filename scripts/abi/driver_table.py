"""abi/driver_table.py: from each capability's [driver]: tests/driver/mpi_drivers.sh, the table of every MPI
driver that the tests taking them all read (driver_stops, slurm_drivers, driver_own_files), one row each; and
the build lists of the C++ drivers (drivers/<name>.cpp, with the tools a capability adds: mmpi2mat) for CMake
(drivers/drivers.cmake) and Makefile.legacy (drivers/drivers.mk) (scripts/gen-abi.py)."""
from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)

KEYS = {'name', 'long', 'measuring', 'quick', 'files', 'note', 'tools', 'options'}


def shell_quote(text):
    if '"' in text or '$' in text or '`' in text or '\\' in text:
        sys.exit(f'spec: [driver]: {text!r}: a row holds no " $ ` or \\ (it is one shell word in double quotes)')
    return f'"{text}"'


def driver_table(caps):
    cli, drivers = [], []
    out = ['# ' + generated_line('', "spec/ (each capability's [driver])").lstrip(),
           "# mpi_drivers.sh: every MPI driver as the tests that take them all run it (driver_stops, slurm_drivers,",
           "# driver_own_files), one row each, from its capability's [driver] in spec/, so that a new driver is added",
           "# there once. Sourced at the top level of a test, it sets:",
           "#   mpi_drivers   the drivers, in this order;",
           "#   long[d]       a run that lasts beyond a minute and stops at its next safe point within a second or two;",
           "#   measuring[d]  its progress line's phase (\"mpilat: <measuring>\"): it is measuring;",
           "#   quick[d]      a run of seconds (6 jobs may share the 2 CPUs: few samples; nothing there is timed);",
           "#   files[d]      the files a run writes, named as the long run names them (mmpi's name holds its repeats).",
           'mpi_drivers=()',
           'declare -A long measuring quick files',
           '# mpi_driver NAME LONG MEASURING QUICK FILES: one row of the table.',
           'mpi_driver() { mpi_drivers+=("$1"); long[$1]=$2; measuring[$1]=$3; quick[$1]=$4; files[$1]=$5; }',
           '']
    for cap, spec in caps:
        d = spec.get('driver')
        if d is None:
            continue
        if set(d) - KEYS or not KEYS - {'note', 'tools', 'options'} <= set(d):
            sys.exit(f"spec/{cap}.toml: [driver]: name, long, measuring, quick, files and optionally note, tools, options")
        drivers.append(d['name'])
        for program in [d['name']] + d.get('tools', []):
            if os.path.exists(os.path.join(ROOT, 'drivers', program + '.cpp')):
                cli.append(program)
            elif program in d.get('tools', []):
                sys.exit(f"spec/{cap}.toml: [driver]: tools: drivers/{program}.cpp does not exist")
        out += [f'# {line}' for line in wrap(d['note'], 106)] if 'note' in d else []
        out += [f"mpi_driver {d['name']} {shell_quote(d['long'])} {shell_quote(d['measuring'])} \\",
                f"  {shell_quote(d['quick'])} {shell_quote(d['files'])}"]
    out += ['',
            '# json_of DRIVER: the JSON file among its files (each driver writes one).',
            'json_of() {',
            '  local f',
            '  for f in ${files[$1]}; do [[ $f == *.json ]] && echo "$f"; done',
            '}',
            '']
    cmake = ['# ' + generated_line('', "spec/ (each capability's [driver] and tools)").lstrip(),
             '# The C++ drivers and tools built alike (drivers/<name>.cpp, options by CLI11, the C ABI only).',
             f"set(MPILAT_CLI_DRIVERS {' '.join(cli)})",
             "# The capabilities' drivers (their tools left out), whose options abi_driver_options checks.",
             f"set(MPILAT_SPEC_DRIVERS {' '.join(drivers)})", '']
    mk = ['# ' + generated_line('', "spec/ (each capability's [driver] and tools)").lstrip(),
          '# The C++ drivers and tools built alike (drivers/<name>.cpp, options by CLI11, the C ABI only).',
          f"CLI_DRIVERS := {' '.join(cli)}", '']
    return {'tests/driver/mpi_drivers.sh': '\n'.join(out), 'drivers/drivers.cmake': '\n'.join(cmake),
            'drivers/drivers.mk': '\n'.join(mk)}
