#!/usr/bin/env python3
"""gen-layout-test.py: writes tests/fortran/layout_c.c and tests/fortran/test_layout.F90 from the bind(C) types
of fortran/mpilat.F90. Run it after a struct gains, loses or renames a field (in both mpilat.h and the
module); the test then compares every field's offset and every struct's size between C and Fortran, so a
field moved or added on one side only fails it."""
import os
import re

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
module = open(os.path.join(root, 'fortran', 'mpilat.F90')).read()


def fields_of(body):
    fields = []
    for line in body.split('\n'):
        line = line.split('!')[0].strip()
        if '::' not in line:
            continue
        depth, cur, parts = 0, '', []
        for ch in line.split('::', 1)[1]:
            depth += ch == '('
            depth -= ch == ')'
            if ch == ',' and depth == 0:
                parts.append(cur)
                cur = ''
            else:
                cur += ch
        parts.append(cur)
        fields += [re.match(r'\s*(\w+)', p).group(1) for p in parts]
    return fields


types = [(m.group(1), fields_of(m.group(2)))
         for m in re.finditer(r'type, bind\(C\), public :: (\w+)\n(.*?)\n  end type', module, re.S)]

c = ['''/* layout_c.c: sizeof and offsetof of every struct of mpilat.h that module mpilat mirrors with bind(C),
   for test_layout.F90, which compares them with the Fortran types' c_sizeof and field offsets. A field
   moved on either side, or added on one side only, fails that test. Written by scripts/gen-layout-test.py. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mpilat.h"

struct layout_entry {
  const char *type, *field; /* field NULL: the whole struct */
  int64_t value;             /* sizeof, or offsetof */
};

#define LAYOUT_SIZE(T) {#T, NULL, (int64_t)sizeof(T)},
#define LAYOUT_FIELD(T, f) {#T, #f, (int64_t)offsetof(T, f)},

static const struct layout_entry entries[] = {''']
for name, fields in types:
    c.append('  LAYOUT_SIZE(%s)' % name)
    line = '  '
    for f in fields:
        piece = 'LAYOUT_FIELD(%s, %s) ' % (name, f)
        if len(line) + len(piece) > 112:
            c.append(line.rstrip())
            line = '  '
        line += piece
    c.append(line.rstrip())
c.append('''};

/* The size (field NULL or "") or a field's offset in the C struct, or -1 when C has no such name. */
int64_t layout_c(const char *type, const char *field) {
  for (size_t k = 0; k < sizeof entries / sizeof entries[0]; ++k) {
    const struct layout_entry *e = &entries[k];
    if (strcmp(e->type, type) != 0) continue;
    if ((field == NULL || field[0] == '\\0') ? e->field == NULL : (e->field != NULL && strcmp(e->field, field) == 0))
      return e->value;
  }
  return -1;
}

/* How many structs the table holds: the Fortran side checks that it visited as many. */
int layout_c_nstructs(void) {
  int n = 0;
  for (size_t k = 0; k < sizeof entries / sizeof entries[0]; ++k) n += entries[k].field == NULL;
  return n;
}
''')
open(os.path.join(root, 'tests', 'fortran', 'layout_c.c'), 'w').write('\n'.join(c))

f = ['''!> test_layout: every struct of mpilat.h that module mpilat mirrors with bind(C) has, in Fortran, the
!> size and field offsets C gives it (tests/fortran/layout_c.c). A drift would be silent memory corruption
!> inside a science code; this test fails instead. No MPI. Written by scripts/gen-layout-test.py.
!> FIELD(T, v, f) checks component f of variable v of type T; the preprocessor (traditional, as gfortran's)
!> puts the macro's arguments into the quoted names (so the arguments are written without blanks).
#define STRUCT(T, v) call check_size('T', c_sizeof(v))
#define FIELD(T, v, f) call check_field('T', 'f', c_loc(v), c_loc(v%f))
program test_layout
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_char, c_ptr, c_loc, c_intptr_t, c_size_t, c_sizeof, &
                                         c_null_char
  use mpilat
  implicit none

  interface
    function layout_c(type, field) bind(C, name='layout_c') result(value)
      import :: c_char, c_int64_t
      character(kind=c_char), intent(in) :: type(*), field(*)
      integer(c_int64_t) :: value
    end function layout_c
    function layout_c_nstructs() bind(C, name='layout_c_nstructs') result(n)
      import :: c_int
      integer(c_int) :: n
    end function layout_c_nstructs
  end interface
''']
for name, fields in types:
    f.append('  type(%s), target :: v_%s' % (name, name))
f.append('  integer :: failures = 0, checked = 0, structs = 0\n')
for name, fields in types:
    f.append('  STRUCT(%s,v_%s)' % (name, name))
    for fl in fields:
        f.append('  FIELD(%s,v_%s,%s)' % (name, name, fl))
f.append('''
  if (structs /= layout_c_nstructs()) then
    write (*, '(a,i0,a,i0,a)') 'FAIL: Fortran checked ', structs, ' structs, C lists ', layout_c_nstructs(), &
      ' (a struct is missing on one side)'
    failures = failures + 1
  end if
  write (*, '(i0,a,i0,a,i0,a)') structs, ' structs, ', checked, ' fields checked, ', failures, ' failures'
  if (failures > 0) error stop 1

contains

  subroutine check_size(type, fortran_size)
    character(len=*), intent(in) :: type
    integer(c_size_t), intent(in) :: fortran_size
    integer(c_int64_t) :: c_size
    structs = structs + 1
    c_size = layout_c(type//c_null_char, c_null_char)
    if (c_size /= int(fortran_size, c_int64_t)) then
      write (*, '(a,i0,a,i0)') 'FAIL: sizeof('//type//'): C ', c_size, ', Fortran ', fortran_size
      failures = failures + 1
    end if
  end subroutine check_size

  subroutine check_field(type, field, base, at)
    character(len=*), intent(in) :: type, field
    type(c_ptr), intent(in) :: base, at
    integer(c_int64_t) :: c_offset, f_offset
    checked = checked + 1
    f_offset = int(transfer(at, 0_c_intptr_t) - transfer(base, 0_c_intptr_t), c_int64_t)
    c_offset = layout_c(type//c_null_char, field//c_null_char)
    if (c_offset /= f_offset) then
      write (*, '(a,i0,a,i0)') 'FAIL: offsetof('//type//', '//field//'): C ', c_offset, ', Fortran ', f_offset
      failures = failures + 1
    end if
  end subroutine check_field

end program test_layout
''')
open(os.path.join(root, 'tests', 'fortran', 'test_layout.F90'), 'w').write('\n'.join(f))
print(len(types), 'structs,', sum(len(x) for _, x in types), 'fields')
