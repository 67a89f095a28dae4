#!/usr/bin/env bash
# What tools/render draws and says besides the colours, with ParaView (--verbose prints each
# frame's title as drawn and the node_id of every point that carries a triad):
# - Bathe's pendulum started unstretched, a frame every step: its axial force changes sign from
#   frame to frame, and tools/render warns on stderr (naming the field) and still exits 0 with
#   the picture; run as `make demo` runs it (the Makefile's DEMO_SETS) it does not warn;
# - titles: a static run's frame by its load factor, an eigen run's mode by number, frequency and
#   phase, not "t = 1.00 s";
# - triads: the 16-element cantilever (17 frame nodes) on one rank and on two get the same six,
#   the first and the last frame node among them, each once (its copy in the second piece left out).
# Exit code 77 (ctest SKIP_RETURN_CODE) without pvbatch, Xvfb or ParaView's Python modules.
# usage: render_annotations_paraview.sh SOURCE_DIR CATENA MPIRUN WORK_DIR
set -euo pipefail
src=$1 catena=$2 mpirun=$3 work=$4
missing=$(cd "$src/tools" && /usr/bin/python3 -c "import paraview_run; print(', '.join(paraview_run.missing_paraview()))")
if [[ -n "$missing" ]]; then echo "skipped: missing $missing (tools/install-deps --paraview)"; exit 77; fi
rm -rf "$work" && mkdir -p "$work"
export OMP_NUM_THREADS=1
render() {  # NAME RUN [ARGS...]: tools/render --verbose, stdout in NAME.txt, stderr in NAME.err
  local name=$1 run=$2; shift 2
  "$src/tools/render" "$run" --size 320x200 --out "$work/$name.png" --verbose "$@" > "$work/$name.txt" 2> "$work/$name.err" ||
    { echo "$name: tools/render failed"; cat "$work/$name.txt" "$work/$name.err"; exit 1; }
  [[ -s "$work/$name.png" ]] || { echo "$name: no picture"; exit 1; }
}

# The sign alternation of an unresolved axial mode, and the demo's start without it.
pendulum=$src/cases/bathe-pendulum/model.yaml
"$catena" run "$pendulum" --out "$work/unstretched" -q --set analysis.t_end=2
render unstretched "$work/unstretched"
grep -q "^tools/render: warning: section force N \[N\] changes sign from one frame to the next at 2 of 2 coloured points" \
  "$work/unstretched.err" || { echo "no sign-alternation warning: $(cat "$work/unstretched.err")"; exit 1; }
read -ra demo_sets <<< "$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$src" \
  --eval 'print-demo-sets: ; @echo $(DEMO_SETS)' print-demo-sets)"
"$catena" run "$pendulum" --out "$work/demo" -q "${demo_sets[@]}" --set analysis.t_end=2
render demo "$work/demo"
! grep -q "warning" "$work/demo.err" || { echo "make demo's start warned: $(cat "$work/demo.err")"; exit 1; }

# Titles: what a frame is.
cantilever=$src/cases/large-deflection-cantilever/model.yaml
"$catena" run "$cantilever" --out "$work/static" -q --set steps=4
render static "$work/static" --step 2
grep -q "^drawn 0: title 'large-deflection-cantilever    load factor 0.5';" "$work/static.txt" ||
  { echo "static title: $(grep drawn "$work/static.txt")"; exit 1; }
"$catena" run "$src/tests/solvers/models/rotating_cantilever.yaml" --out "$work/eigen" -q --set Wbar=2
render mode "$work/eigen/modes/mode_02" --time 0.25
grep -q "^drawn 0: title 'rotating-cantilever    mode 2, 17.0 Hz, phase 0.25';" "$work/mode.txt" ||
  { echo "mode title: $(grep drawn "$work/mode.txt")"; exit 1; }

# Triads: the same nodes on one rank and on two.
"$mpirun" -n 2 "$catena" run "$cantilever" --out "$work/static-mpi" -q --set steps=4
grep -q '"mpi_ranks": 2' "$work/static-mpi/summary.json" || { echo "not run on two ranks"; exit 1; }
render static-mpi "$work/static-mpi" --step 2
for run in static static-mpi; do
  grep -q "; triads at nodes \[0, 3, 6, 10, 13, 16\]$" "$work/$run.txt" ||
    { echo "$run: triads $(grep drawn "$work/$run.txt")"; exit 1; }
done
echo "tools/render: sign-alternation warning (and none for make demo's start), static and mode titles, triads on the same six nodes on one and two ranks"
