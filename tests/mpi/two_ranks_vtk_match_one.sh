#!/usr/bin/env bash
# ParaView output under MPI: rank 0 gathers every node state and writes the whole grid, so two
# ranks must write the same results.pvd (same frames, same times) and .vtu files with the same
# points, point arrays and cell arrays as one rank (relative to each array's largest value: 1e-10,
# and 1e-8 for cell values, like the CSV comparison of two_ranks_match_one.sh), read back with VTK's own XML reader (python3-vtk9).
# usage: two_ranks_vtk_match_one.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
# Exit code 77 (ctest SKIP_RETURN_CODE) when /usr/bin/python3 has no vtk module.
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
if ! /usr/bin/python3 -c "import vtkmodules.vtkIOXML" 2>/dev/null; then
  echo "skipped: /usr/bin/python3 cannot import vtk (Debian's python3-vtk9, a libvtk9-dev dependency)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
# A beam with a section radius (section_radius, section forces) and the four-bar (rigid bodies,
# joint points with reactions), each split over both ranks.
cat > "$work/beam.yaml" <<'YAML'
name: mpi-vtk-beam
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: [1, 0, 0], velocity: [0, 0.5, 0.2]}
supports: [{node: root, dofs: all}]
beams:
  - {name: arm, from: root, to: tip, elements: 6, section: {EA: 1e6, GAy: 1e6, GAz: 1e6, GJ: 50, EIy: 100,
     EIz: 100, rhoA: 1, rhoJ: 0.01, rhoIy: 0.005, rhoIz: 0.005, radius: 0.03}}
gravity: [0, 0, -9.81]
analysis: {dt: 0.01, t_end: 0.1, output_every: 2}
YAML
for model in "$work/beam.yaml" "$src/tests/mpi/four_bar.yaml"; do
  "$catena" run "$model" --out "$work/one" --quiet --set analysis.t_end=0.1
  "$mpirun" -n 2 "$catena" run "$model" --out "$work/two" --quiet --set analysis.t_end=0.1
  /usr/bin/python3 - "$work/one" "$work/two" <<'PY'
import math, sys, xml.etree.ElementTree as ET
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

one, two = sys.argv[1], sys.argv[2]
def frames(d):
    return [(float(e.get("timestep")), e.get("file")) for e in ET.parse(f"{d}/results.pvd").getroot().iter("DataSet")]
def read(path):
    r = vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    if r.GetErrorCode():
        sys.exit(f"{path}: VTK cannot read it")
    return r.GetOutput()
def arrays(data):
    out = {}
    for i in range(data.GetNumberOfArrays()):
        a = data.GetArray(i)
        out[a.GetName()] = [a.GetComponent(t, c) for t in range(a.GetNumberOfTuples()) for c in range(a.GetNumberOfComponents())]
    return out
def compare(what, a, b, tol):
    if len(a) != len(b):
        sys.exit(f"{what}: {len(a)} values with one rank, {len(b)} with two")
    # An array of round-off (a held joint coordinate, 1e-31) compares against 1e-6 [SI units].
    scale = max([abs(v) for v in a if math.isfinite(v)] + [1e-6])
    for i, (x, y) in enumerate(zip(a, b)):
        if math.isnan(x) != math.isnan(y) or (not math.isnan(x) and abs(x - y) > tol * scale):
            sys.exit(f"{what}[{i}]: {x!r} with one rank, {y!r} with two")
    return scale

f1, f2 = frames(one), frames(two)
if len(f1) < 2 or [t for t, _ in f1] != [t for t, _ in f2] or [n for _, n in f1] != [n for _, n in f2]:
    sys.exit(f"results.pvd differs: {f1} vs {f2}")
moved = 0.0
for t, name in f1:
    g1, g2 = read(f"{one}/{name}"), read(f"{two}/{name}")
    if g1.GetNumberOfCells() != g2.GetNumberOfCells() or g1.GetNumberOfPoints() == 0:
        sys.exit(f"{name}: {g1.GetNumberOfCells()} cells with one rank, {g2.GetNumberOfCells()} with two")
    p1 = [g1.GetPoint(i)[c] for i in range(g1.GetNumberOfPoints()) for c in range(3)]
    p2 = [g2.GetPoint(i)[c] for i in range(g2.GetNumberOfPoints()) for c in range(3)]
    compare(f"{name} points", p1, p2, 1e-10)
    for kind, d1, d2 in (("point", g1.GetPointData(), g2.GetPointData()), ("cell", g1.GetCellData(), g2.GetCellData())):
        a1, a2 = arrays(d1), arrays(d2)
        if sorted(a1) != sorted(a2):
            sys.exit(f"{name}: {kind} arrays {sorted(a1)} with one rank, {sorted(a2)} with two")
        for key in a1:
            # Section forces and reactions are differences of nearly equal numbers (EA times a
            # small strain, multipliers): known to 1e-8 of their largest value, as in
            # two_ranks_match_one.sh; states to 1e-10.
            compare(f"{name} {kind} array {key}", a1[key], a2[key], 1e-10 if kind == "point" else 1e-8)
    moved = max(moved, max(abs(v) for v in arrays(g1.GetPointData())["displacement"]))
if moved <= 0.0:
    sys.exit("nothing moved: the comparison would prove nothing")
print(f"{len(f1)} frames: points and arrays agree between one and two ranks")
PY
  rm -rf "$work/one" "$work/two"
done
