"""abi/build_lists.py: lib/sources.cmake, the library's sources for CMake: every lib/<folder>/*.cpp of the tree
but the entry points compiled per library (generated/sized_entries.cpp), as Makefile.legacy finds them itself;
a new source is in the build once gen-abi has run, and abi_generated_fresh fails until it has
(scripts/gen-abi.py)."""
import glob

from abi.common import *  # noqa: F401,F403 (the spec, its names and helpers)

PER_LIBRARY = {'generated/sized_entries.cpp'}  # lib/CMakeLists.txt's mpilat_add_entries


def build_lists(caps):
    lib = os.path.join(ROOT, 'lib')
    sources = sorted(os.path.relpath(p, lib) for p in glob.glob(os.path.join(lib, '*', '*.cpp')))
    out = ['# ' + generated_line('', 'the tree (lib/*/*.cpp)').lstrip().replace('edit the spec, not this file',
                                                                          'run it after adding a source'),
           "# The library's sources (lib/CMakeLists.txt compiles them once into mpilat_objects).",
           'set(MPILAT_LIB_SOURCES']
    out += [f'  {s}' for s in sources if s not in PER_LIBRARY]
    out[-1] += ')'
    return {'lib/sources.cmake': '\n'.join(out) + '\n'}
