#!/usr/bin/python3
"""What tools/render and tools/view say about a run besides the picture, checked on real runs of
catena without ParaView (the system Python with python3-vtk9 reads the frames):
- titles (tools/frame_title.py): a dynamic run's frames by their time, a static run's by their
  load factor, an eigen run's one frame as its state, its mode directories by number, frequency
  (modes.csv) and phase, a buckling mode by the critical load factor (summary.json);
- sign alternation (tools/sign_alternation.py), fed as tools/catena_view.py feeds it (every
  frame's values of the colour field, here the truss's axial_force of results.vtu): Bathe's
  pendulum started unstretched, a frame every step, has an axial force that changes sign from
  step to step (its axial mode, unresolved at dt = 0.1 s); run as `make demo` runs it (DEMO_SETS
  of the Makefile: the bar stretched by its launch tension, whole steps) its force stays within
  10 N of the exact m (v^2 / l + g cos(theta)), and nothing alternates; and
  synthetic series: round-off around zero, a vibration the frames resolve, too few frames and a
  magnitude do not warn;
- triads (tools/triad_nodes.py): a cantilever of 17 frame nodes run on one rank and on two (whose
  .pvtu frame lists its points piece by piece, a shared node twice) gets the same six nodes, the
  first and the last among them.
Exit code 77 (ctest SKIP_RETURN_CODE) without numpy or VTK's Python modules.
usage: frame_annotations.py SOURCE_DIR CATENA WORK_DIR MPIRUN
"""
import csv
import json
import math
import os
import shutil
import subprocess
import sys

try:
    import numpy
    from vtkmodules.util import numpy_support
    from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader, vtkXMLUnstructuredGridReader
except ImportError as e:
    print(f"skipped: /usr/bin/python3 lacks {e.name} (python3-numpy, python3-vtk9: tools/install-deps)")
    sys.exit(77)

SRC, CATENA, WORK, MPIRUN = sys.argv[1:5]
sys.path.insert(0, os.path.join(SRC, "tools"))
from frame_title import frame_title  # noqa: E402
from sign_alternation import SignAlternation  # noqa: E402
from triad_nodes import triad_nodes  # noqa: E402

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAILED: {message}")


def run(name, model, *sets, ranks=1):
    out = os.path.join(WORK, name)
    command = ([MPIRUN, "-n", str(ranks)] if ranks > 1 else []) + [CATENA, "run", os.path.join(SRC, model), "--out", out, "--quiet"]
    for s in sets:
        command += ["--set", s]
    subprocess.run(command, check=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    return out


def demo_sets():
    """The --set arguments of `make demo` (the Makefile's DEMO_SETS, as make expands it; not
    the flags of a `make test` this runs under)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    printed = subprocess.run(["make", "-s", "--no-print-directory", "-C", SRC, "--eval",
                              "print-demo-sets: ; @printf '%s\\n' $(DEMO_SETS)", "print-demo-sets"],
                             check=True, capture_output=True, text=True, env=env).stdout.split()
    return [printed[i + 1] for i, word in enumerate(printed) if word == "--set"]


def frames(directory):
    """(time, axial_force of the cells that have one) of every frame of results.pvd, in order."""
    import xml.etree.ElementTree as ElementTree
    series = []
    for entry in ElementTree.parse(os.path.join(directory, "results.pvd")).getroot().iter("DataSet"):
        reader = vtkXMLUnstructuredGridReader()
        reader.SetFileName(os.path.join(directory, entry.get("file")))
        reader.Update()
        force = numpy_support.vtk_to_numpy(reader.GetOutput().GetCellData().GetArray("axial_force"))
        series.append((float(entry.get("timestep")), force))
    return series


def alternation_of(series):
    alternation = SignAlternation()
    for _, values in series:
        alternation.add(values)
    return alternation


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

# Titles. A dynamic run: its time.
dynamic = run("dynamic", "cases/bathe-pendulum/model.yaml", "analysis.t_end=0.4")
check(frame_title(dynamic).annotation(".2f").format(time=0.4) == "bathe-pendulum    t = 0.40 s",
      f"dynamic title: {frame_title(dynamic).annotation('.2f')}")
# A static run: the load factor of its increments (its frames' `timestep`).
static = run("static", "cases/large-deflection-cantilever/model.yaml", "steps=4")
title = frame_title(static)
check(title.text(0.5, ".2f") == "load factor 0.50", f"static title: {title.annotation('.2f')}")
check(title.model == json.load(open(os.path.join(static, "summary.json")))["model_name"], "static: model name")
# An eigen run: the state, then each mode with its frequency from modes.csv.
eigen = run("eigen", "tests/solvers/models/rotating_cantilever.yaml", "Wbar=2")
check(frame_title(eigen).text(0.0) == "state of the eigen-analysis", f"eigen state: {frame_title(eigen).text(0.0)}")
with open(os.path.join(eigen, "modes.csv"), newline="") as f:
    modes = list(csv.DictReader(f))
check(len(modes) == 4, f"modes.csv: {len(modes)} modes")
for row in modes:
    directory = os.path.join(eigen, "modes", f"mode_{int(row['mode']):02d}")
    # Three significant digits, without an exponent (14.896 Hz: 14.9, 17.02 Hz: 17.0, 92.66 Hz: 92.7).
    f = float(row["frequency_hz"])
    expected = f"rotating-cantilever    mode {row['mode']}, {f:.{2 - math.floor(math.log10(f))}f} Hz, phase 0.25"
    check(os.path.isdir(directory), f"{directory}: missing")
    check(frame_title(directory).annotation(".2f").format(time=0.25) == expected,
          f"mode title: {frame_title(directory).annotation('.2f')}, expected {expected}")
# A buckling run: the mode with the linear critical load factor.
buckling = run("buckling", "cases/buckling-lateral/model.yaml")
factor = json.load(open(os.path.join(buckling, "summary.json")))["critical_load_factor_linear"]
mode = frame_title(os.path.join(buckling, "modes", "buckling_mode"))
check(mode.text(0.5, ".2f") == f"buckling mode, load factor {factor:.4g}, phase 0.50", f"buckling mode: {mode.text(0.5)}")
check(frame_title(buckling).text(0.0) == "state of the buckling analysis", f"buckling state: {frame_title(buckling).text(0.0)}")

# Sign alternation on Bathe's pendulum, a frame every step (the model's output_every: 1), 10 periods.
unstretched = frames(run("unstretched", "cases/bathe-pendulum/model.yaml"))
forces = numpy.array([f[0] for _, f in unstretched])
flips = int((forces[1:] * forces[:-1] < 0).sum())
print(f"unstretched start: axial force {forces.min():.1f} to {forces.max():.1f} N, sign changes in {flips} "
      f"of {len(forces) - 1} steps")
warning = alternation_of(unstretched).warning("axial force [N]")
check(warning is not None and warning.startswith("axial force [N] changes sign from one frame to the next at 1 of 1"),
      f"unstretched pendulum: warning {warning!r}")
sets = demo_sets()
check(any(s.startswith("trusses.rod.rest_length=") for s in sets), f"make demo's --set: {sets}")
demo = frames(run("demo", "cases/bathe-pendulum/model.yaml", *sets))
check(alternation_of(demo).warning("axial force [N]") is None, "the demo's start: the axial force alternates")
# The exact tension of a rigid pendulum, m (v^2 / l + g cos(theta)) with v^2 = v0^2 - 2 g (l + y):
# the demo's frames carry it within 10 N at every step (the bar's stretch, 3e-8 of l, is beyond sight).
m, l, g, v0 = 10.0, 3.0443, 9.80, 7.725
with open(os.path.join(WORK, "demo", "sensors.csv"), newline="") as f:
    rows = {round(float(r["t"]), 9): r for r in csv.DictReader(f)}
worst = 0.0
for t, force in demo:
    y = float(rows[round(t, 9)]["tip_y"])
    exact = m * (v0 ** 2 - 2 * g * (l + y)) / l + m * g * (-y / l)
    worst = max(worst, abs(force[0] - exact))
print(f"demo start: axial force {min(f[0] for _, f in demo):.1f} to {max(f[0] for _, f in demo):.1f} N, "
      f"largest difference from m (v^2/l + g cos(theta)) {worst:.2f} N")
check(worst < 10.0, f"the demo's axial force is {worst:.1f} N off the exact tension")

# Synthetic series: what must not warn.
steps = numpy.arange(40)
tip = 1e-13 * numpy.where(steps % 2 == 0, 1.0, -1.0)   # round-off around zero at a free end
root = 50.0 * numpy.sin(2 * math.pi * steps / 8)       # a vibration of 8 frames per period
quiet = SignAlternation()
for k in steps:
    quiet.add(numpy.array([root[k], tip[k], math.nan]))
check(quiet.warning("x") is None, f"round-off or a resolved vibration warned: {quiet.warning('x')}")
fast = SignAlternation()
for k in steps:
    fast.add(numpy.array([root[k], 10.0 * (-1.0) ** k, math.nan]))
check(fast.alternating().tolist() == [False, True, False], f"alternating points: {fast.alternating().tolist()}")
check("at 1 of 2 coloured points (in up to 39 of 39 pairs" in (fast.warning("x") or ""), f"warning: {fast.warning('x')}")
few = SignAlternation()
for k in range(4):  # three pairs of frames
    few.add(numpy.array([(-1.0) ** k]))
check(few.warning("x") is None, "three pairs of frames warned")
magnitude = SignAlternation()
for k in steps:
    magnitude.add(numpy.abs(numpy.array([10.0 * (-1.0) ** k])))
check(magnitude.warning("x") is None, "a magnitude warned")

# Triads: the frame nodes of the first frame, on one rank and on two.
def first_frame_points(directory):
    """node_id and frame_node of every point of the first frame, in the file's order."""
    pvtu = os.path.join(directory, "results_00000.pvtu")
    reader = vtkXMLPUnstructuredGridReader() if os.path.isfile(pvtu) else vtkXMLUnstructuredGridReader()
    reader.SetFileName(pvtu if os.path.isfile(pvtu) else os.path.join(directory, "results_00000.vtu"))
    reader.Update()
    data = reader.GetOutput().GetPointData()
    return (numpy_support.vtk_to_numpy(data.GetArray("node_id")), numpy_support.vtk_to_numpy(data.GetArray("frame_node")))


static_mpi = run("static-mpi", "cases/large-deflection-cantilever/model.yaml", "steps=4", ranks=2)
check('"mpi_ranks": 2' in open(os.path.join(static_mpi, "summary.json")).read(), "the cantilever did not run on two ranks")
serial, parallel = first_frame_points(static), first_frame_points(static_mpi)
check(serial[0].tolist() != parallel[0].tolist(), f"one and two ranks list the same points: {parallel[0].tolist()}")
for name, (node_id, frame_node) in (("one rank", serial), ("two ranks", parallel)):
    chosen = triad_nodes(node_id, frame_node)
    print(f"triads, {name}: points {node_id.tolist()}, triads at nodes {chosen}")
    check(chosen == [0, 3, 6, 10, 13, 16], f"triads on {name}: {chosen}")

if failures:
    sys.exit(1)
print("titles of dynamic, static, eigen (state and modes) and buckling runs; sign alternation of the "
      "unstretched pendulum's axial force found, none in make demo's start, none from round-off, a resolved "
      "vibration, three pairs of frames or a magnitude; the same triad nodes on one rank and two")
