/* abi_layout_dump.c: prints the layout of every struct of mpilat_types.h (tests/fortran/layout_c.c, generated
   from spec/) for tests/tools/check_layout.py, which compares it with the stored baseline. */
#include <stdio.h>

void layout_c_print(FILE *out);

int main(void) {
  layout_c_print(stdout);
  return fflush(stdout) == 0 ? 0 : 1;
}
