#!/usr/bin/env bash
# tools/validate --only bathe-pendulum runs the case with the given catena, writes validation.md
# (the table with the case's rows, all passed) and the case's PNG into a scratch directory, and
# exits 0. Exit code 77 (ctest SKIP_RETURN_CODE) without matplotlib.
# usage: validate_writes_table.sh SOURCE_DIR CATENA WORK_DIR
set -euo pipefail
src=$1 catena=$2 work=$3
if ! /usr/bin/python3 -c "import matplotlib, numpy" 2>/dev/null; then
  echo "skipped: /usr/bin/python3 has no matplotlib (Debian's python3-matplotlib: tools/install-deps)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
"$src/tools/validate" --only bathe-pendulum --no-studies --catena "$catena" --out "$work/docs" --work "$work/runs"
md=$work/docs/validation.md
[[ -s $md ]] || { echo "no $md written"; exit 1; }
grep -q '^| case | quantity | reference | Catena | error | tolerance | pass |$' "$md" || { echo "no table header in $md"; exit 1; }
rows=$(grep -c '^| \[bathe-pendulum\]' "$md" || true)
(( rows >= 1 )) || { echo "no bathe-pendulum row in $md"; exit 1; }
! grep -q '\*\*NO\*\*' "$md" || { echo "a check failed:"; grep '\*\*NO\*\*' "$md"; exit 1; }
png=$work/docs/validation/bathe-pendulum.png
[[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]] || { echo "no PNG at $png"; exit 1; }
echo "tools/validate: $rows bathe-pendulum rows passed, table and plot written"
