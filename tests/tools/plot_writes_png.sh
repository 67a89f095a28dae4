#!/usr/bin/env bash
# tools/plot draws a generated sensors.csv against a reference to a non-empty PNG, leaves out a
# column that is zero throughout (saying so), draws several columns in one panel with --overlay,
# and refuses an unknown column with exit code 2. Exit code 77 (ctest SKIP_RETURN_CODE) without matplotlib.
# usage: plot_writes_png.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
if ! /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  echo "skipped: /usr/bin/python3 has no matplotlib (Debian's python3-matplotlib: tools/install-deps)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
# A damped oscillation and its reference at other sample times; a quoted column name with a comma,
# as CsvWriter writes it.
/usr/bin/python3 - "$work" <<'PY'
import math, sys
d = sys.argv[1]
with open(f"{d}/sensors.csv", "w") as f:
    f.write('t,tip_y,"tip_in_a,y",idle\n')
    for i in range(201):
        t = 0.01 * i
        f.write(f"{t!r},{math.exp(-t) * math.sin(6 * t)!r},{math.cos(3 * t)!r},0\n")
with open(f"{d}/reference.csv", "w") as f:
    f.write("t,tip_y\n")
    for i in range(41):
        t = 0.05 * i
        f.write(f"{t!r},{1.02 * math.exp(-t) * math.sin(6 * t)!r}\n")
PY
"$src/tools/plot" "$work/sensors.csv" --reference "$work/reference.csv" --out "$work/plot.png" 2> "$work/plot.txt"
grep -q "zero throughout, not drawn: idle" "$work/plot.txt" || { echo "zero column: message was: $(cat "$work/plot.txt")"; exit 1; }
[[ -s "$work/plot.png" ]] || { echo "no PNG written"; exit 1; }
[[ "$(head -c 8 "$work/plot.png" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]] || { echo "not a PNG"; exit 1; }
# One panel per column: the image is taller with two columns than with one.
"$src/tools/plot" "$work/sensors.csv" --columns tip_y --out "$work/one.png"
size() { /usr/bin/python3 -c "import struct,sys; b=open(sys.argv[1],'rb').read(24); print(struct.unpack('>II', b[16:24])[1])" "$1"; }
(( $(size "$work/plot.png") > $(size "$work/one.png") )) || { echo "two columns did not give two panels"; exit 1; }
# --overlay: both columns in one panel, as tall as one column's plot.
"$src/tools/plot" "$work/sensors.csv" --overlay --out "$work/overlay.png" 2>/dev/null
(( $(size "$work/overlay.png") == $(size "$work/one.png") )) || { echo "--overlay did not give one panel"; exit 1; }
set +e
"$src/tools/plot" "$work/sensors.csv" --columns no_such --out "$work/bad.png" 2> "$work/bad.txt"
code=$?
set -e
[[ $code -eq 2 ]] || { echo "unknown column: exit code $code, expected 2"; exit 1; }
grep -q "no column 'no_such'" "$work/bad.txt" || { echo "unknown column: message was: $(cat "$work/bad.txt")"; exit 1; }
[[ ! -e "$work/bad.png" ]] || { echo "a PNG was written for a bad column"; exit 1; }
echo "tools/plot: PNGs written, zero column left out, overlay in one panel, bad column refused"
