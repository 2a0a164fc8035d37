# template_tree.sh, sourced: make_template_tree SOURCE_DIR DEST makes DEST a copy of the tree (its tracked and
# new files, not the build folders) with the template capability of tests/template/ in it, as the recipe of
# docs/architecture.md adds one: its own files (tests/template/toy/), the registrations still made by hand
# (tests/template/registrations/: inserted before mpilat.h's end, appended to the others), then gen-abi.py.
# Non-zero with the reason on stderr when a step fails. template_capability.sh builds the copy with CMake,
# test_legacy_make.sh with Makefile.legacy.
make_template_tree() {
  local src=$1 dest=$2
  mkdir "$dest" || return 1
  if git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$dest"
  else
    tar -C "$src" --exclude='./build*' -cf - . | tar -xf - -C "$dest"
  fi
  [ -f "$dest/CMakeLists.txt" ] || { echo "the tree was not copied" >&2; return 1; }
  cp -r "$src/tests/template/toy/." "$dest/"
  python3 - "$src/tests/template/registrations" "$dest" <<'PY' || { echo "the registrations could not be applied" >&2; return 1; }
import os, sys
regs, tree = sys.argv[1:3]
for base, _, names in os.walk(regs):
    for name in names:
        rel = os.path.relpath(os.path.join(base, name), regs)
        block = open(os.path.join(base, name)).read()
        path = os.path.join(tree, rel)
        text = open(path).read()
        if rel == os.path.join('include', 'mpilat.h'):
            end = '#ifdef __cplusplus\n}\n#endif\n\n#include "mpilat_sized.h"'
            if text.count(end) != 1:
                sys.exit(f'{rel}: its end ({end!r}) not found once')
            text = text.replace(end, block + end)
        else:
            text += block
        open(path, 'w').write(text)
PY
  (cd "$dest" && python3 scripts/gen-abi.py > "$dest.gen.log" 2>&1) || { echo "gen-abi.py: $(tail -5 "$dest.gen.log")" >&2; return 1; }
}
