"""Catena's ParaView pipeline for one run directory: beams, trusses and rigid-body links as tubes,
body shapes as surfaces, joints as spheres with an arrow along their axis 3 (a revolute joint's
hinge), frame-node triads as red/green/blue arrows (with the scene: only in models with beams, a
body's shape shows how it turns; on at most six frame nodes, tools/triad_nodes.py), a camera
fixed over the whole run (or fitted to one frame: a single picture), the model's name and what
the frame is as title (tools/frame_title.py: a time, a load factor, a mode's phase), and a
colour bar with the field's name and unit. Pipeline.warnings says what the picture may hide: a
colour field that changes sign from frame to frame (tools/sign_alternation.py).

One file, used three ways (README, "Looking at results"):
  tools/view DIR                  ParaView's GUI: `paraview --script=tools/catena_view.py` with
                                  CATENA_RUN=DIR and ParaView's Python modules on PYTHONPATH
  tools/render DIR ...            pictures and movies: tools/render_frame.py imports this module
                                  in pvbatch
  a ParaView of your own          CATENA_RUN=DIR paraview --script=/path/to/tools/catena_view.py,
                                  or File > Open DIR/results.pvd, then View > Python Shell >
                                  Run Script (the run is then the directory of the open results.pvd)
Environment: CATENA_RUN (the run directory), CATENA_FIELD (the field to colour by, as --field),
CATENA_VIEW_CHECK (a PNG: build the pipeline, save the first frame's picture there and stop;
tools/view --check).

Input (io/vtk_writer.hpp): results.pvd and results_NNNNN.vtu (or .pvtu); and when the run has it,
scene.pvd and scene_NNNNN.vtu, written at the same frames, one unstructured grid per frame in
which every item has its own points: cell data `part` (1 beam element line, 2 truss line, 3
rigid-body link line from the centre of mass to a joint or load point, 4 rigid-body shape
surface, 5 joint vertex, 6 point mass vertex) and `element`; point data `section_radius` [m],
`displacement`, `velocity`, `joint_axis_1..3`, and where written `section_force`,
`section_moment`, `deflection`. Without scene.pvd (older runs) the picture is drawn from
results.vtu alone: its lines as tubes, rigid bodies as gold and joints as grey spheres.

The colour field (--field NAME or NAME:x|y|z|N; vectors by magnitude) is a point or cell array of
either series; by default (default_field) the section moment of beams, else the axial force of
trusses, each only where it has finite values (the scene's section arrays are NaN on every point
of a model without them), else |velocity| (or |displacement| when nothing moves: a static run).
Its colour range (NaN left out) is fixed over the whole run, like the movie's camera: both come
from one pass over every frame's file, so every picture and every movie frame of a run is drawn
to the same scale.
"""
import math
import os
import sys
import xml.etree.ElementTree as ElementTree

from paraview import servermanager, simple
from paraview.vtk.util import numpy_support
from vtkmodules.vtkIOImage import vtkPNGWriter
from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader, vtkXMLUnstructuredGridReader
from vtkmodules.vtkRenderingCore import vtkWindowToImageFilter

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frame_title import frame_title  # noqa: E402  (after the path to tools/)
from sign_alternation import SignAlternation  # noqa: E402
from triad_nodes import triad_nodes  # noqa: E402

# SI units of the arrays io/vtk_writer.hpp and the scene series write (the colour bar's title).
UNITS = {
    "displacement": "m", "velocity": "m/s", "angular_velocity": "rad/s", "deflection": "m",
    "deflection_local": "m",
    "section_radius": "m", "radius": "m", "axial_force": "N", "shear_force_y": "N",
    "shear_force_z": "N", "torque": "N m", "bending_moment_y": "N m", "bending_moment_z": "N m",
    "bending_moment": "N m", "section_force": "N", "section_moment": "N m",
    "reaction_force_vector": "N", "reaction_moment_vector": "N m", "mass": "kg",
    "centre_of_mass": "m", "centre_velocity": "m/s",
    "reaction_force_x": "N", "reaction_force_y": "N", "reaction_force_z": "N",
    "reaction_moment_x": "N m", "reaction_moment_y": "N m", "reaction_moment_z": "N m",
    "relative_x": "m", "relative_y": "m", "relative_z": "m",
    "relative_rx": "rad", "relative_ry": "rad", "relative_rz": "rad",
}
# Component names of the scene's section arrays (in the section axes: 1 the beam's axis) and of
# deflection_local (along the deflection frame's axes); others are x, y, z.
COMPONENTS = {"section_force": ("N", "Q2", "Q3"), "section_moment": ("T", "M2", "M3"),
              "deflection_local": ("1", "2", "3")}
# The derived field of results.vtu: the bending moment's magnitude from its two components.
BENDING = "bending_moment"
BENDING_FORMULA = "sqrt(bending_moment_y^2 + bending_moment_z^2)"
# Scene parts (the `part` cell array).
BEAM, TRUSS, LINK, SHAPE, JOINT, POINT_MASS = 1, 2, 3, 4, 5, 6
# A field whose span over the run is below this fraction of its magnitude (or of its natural
# scale: the model's size for lengths) is constant up to round-off: the bar would only show noise.
ROUND_OFF = 1e-9
# Without a natural scale (forces, moments): values below this, in SI units, are round-off zeros.
ZERO = 1e-20
# VTK's ghost array: under MPI, a node's copies in the pieces that do not own it are marked 1.
GHOST = "vtkGhostType"


class InputError(Exception):
    """A run directory or a field the pipeline cannot use (tools/render exits 2)."""


def read_collection(path):
    """The (time, absolute file) entries of a ParaView collection (.pvd), in file order."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as e:
        raise InputError(f"{path}: not a readable ParaView collection: {e}")
    frames = []
    for entry in root.iter("DataSet"):
        try:
            frames.append((float(entry.get("timestep")),
                           os.path.join(os.path.dirname(path), entry.get("file"))))
        except (TypeError, ValueError):
            raise InputError(f"{path}: a DataSet without a numeric timestep or a file")
    if not frames:
        raise InputError(f"{path}: no frame written yet")
    return frames


class Run:
    """The files of one run directory: results series, scene series if written, model name."""

    def __init__(self, directory):
        self.directory = os.path.abspath(directory)
        self.results_pvd = os.path.join(self.directory, "results.pvd")
        if not os.path.isfile(self.results_pvd):
            raise InputError(f"{self.results_pvd}: no such file (expected the output directory of `catena run`)")
        self.results = read_collection(self.results_pvd)
        self.scene_pvd = os.path.join(self.directory, "scene.pvd")
        self.scene = read_collection(self.scene_pvd) if os.path.isfile(self.scene_pvd) else None
        if self.scene is not None:
            # A run still going on may have listed a frame in one index and not yet in the other.
            n = min(len(self.results), len(self.scene))
            self.results, self.scene = self.results[:n], self.scene[:n]
        self.times = [t for t, _ in self.results]
        self.title = frame_title(self.directory)
        self.model = self.title.model


def read_grid(path, arrays=None):
    """One frame's grid with VTK's reader; `arrays`: the point and cell arrays to read (None: all;
    a pass over every frame reads the few it needs, which is what makes it fast)."""
    reader = vtkXMLPUnstructuredGridReader() if path.endswith(".pvtu") else vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    if arrays is not None:
        reader.UpdateInformation()
        for selection in (reader.GetPointDataArraySelection(), reader.GetCellDataArraySelection()):
            selection.DisableAllArrays()
            for name in arrays:
                selection.EnableArray(name)
    reader.Update()
    return reader.GetOutput()


def array_of(data, name):
    """A point/cell data array as numpy (rows: tuples), or None."""
    array = data.GetArray(name)
    return None if array is None else numpy_support.vtk_to_numpy(array).reshape(array.GetNumberOfTuples(), -1)


class Field:
    """The colour field: an array of one series, one component or the magnitude, with its
    label ("|velocity| [m/s]") and its range over the run."""

    def __init__(self, spec, grids):
        """spec: NAME or NAME:x|y|z|N; grids: {"scene": first scene grid or None, "results": ...}."""
        name, _, component = spec.partition(":")
        self.name, self.spec = name, spec
        self.source = self.association = None
        self.components = 1
        for source in ("scene", "results"):
            grid = grids.get(source)
            if grid is None:
                continue
            for association, data in (("POINTS", grid.GetPointData()), ("CELLS", grid.GetCellData())):
                if name == BENDING and source == "results" and data.GetArray("bending_moment_y") is not None:
                    self.source, self.association = source, association
                elif data.GetArray(name) is not None:
                    self.source, self.association = source, association
                    self.components = data.GetArray(name).GetNumberOfComponents()
                if self.source:
                    break
            if self.source:
                break
        if self.source is None:
            raise InputError(f"--field {spec}: no such array; the run has {', '.join(available_fields(grids))}")
        self.component = None  # None: the magnitude of a vector, the value of a scalar
        if component:
            index = {"x": 0, "y": 1, "z": 2}.get(component, None)
            if index is None and component in COMPONENTS.get(name, ()):
                index = COMPONENTS[name].index(component)
            if index is None:
                try:
                    index = int(component)
                except ValueError:
                    index = -1
            if not 0 <= index < self.components:
                raise InputError(f"--field {spec}: '{name}' has {self.components} component(s); "
                                 f"expected {', '.join(COMPONENTS.get(name, 'xyz'))} or 0 to {self.components - 1} after ':'")
            self.component = index
        unit = UNITS.get(name)
        if name == BENDING:
            label = "bending moment |M|"
        elif self.components > 1 and self.component is None:
            label = f"|{name.replace('_', ' ')}|"
        elif self.components > 1:
            names = COMPONENTS.get(name, "xyz")
            label = f"{name.replace('_', ' ')} {names[self.component] if self.component < 3 else self.component}"
        else:
            label = name.replace("_", " ")
        self.label = f"{label} [{unit}]" if unit else label
        self.unit = unit
        self.lo, self.hi = math.inf, -math.inf
        self.alternation = SignAlternation()

    def arrays(self):
        """The arrays a file must provide for this field."""
        return ["bending_moment_y", "bending_moment_z"] if self.name == BENDING and self.source == "results" else [self.name]

    def values(self, grid):
        data = grid.GetPointData() if self.association == "POINTS" else grid.GetCellData()
        if self.name == BENDING and self.source == "results":
            return numpy.hypot(array_of(data, "bending_moment_y")[:, 0], array_of(data, "bending_moment_z")[:, 0])
        a = array_of(data, self.name)
        if a is None:
            return numpy.zeros(0)
        if self.component is not None:
            return a[:, self.component]
        return numpy.linalg.norm(a, axis=1) if a.shape[1] > 1 else a[:, 0]

    def include(self, grid):
        """One frame more of the run, in frame order: the colour range, and the sign of every
        point's value (tools/sign_alternation.py)."""
        v = self.values(grid)
        self.alternation.add(v)
        v = v[numpy.isfinite(v)]
        if v.size:
            self.lo, self.hi = min(self.lo, float(v.min())), max(self.hi, float(v.max()))

    def constant(self, scale):
        """The value if the field is constant over the run up to round-off (0.0 for round-off
        around zero), else None. `scale`: the field's natural scale (the model's size for a
        length), 0 if none."""
        if self.lo > self.hi:  # NaN everywhere
            return 0.0
        magnitude = max(abs(self.lo), abs(self.hi))
        if self.hi - self.lo > max(ROUND_OFF * max(magnitude, scale), ZERO):
            return None
        return 0.0 if magnitude <= max(ROUND_OFF * scale, ZERO) else 0.5 * (self.lo + self.hi)


def available_fields(grids):
    names = []
    for source in ("scene", "results"):
        grid = grids.get(source)
        if grid is None:
            continue
        for data in (grid.GetPointData(), grid.GetCellData()):
            for i in range(data.GetNumberOfArrays()):
                name = data.GetArrayName(i)
                if name not in names and name not in ("vtkGhostType", "TIME"):
                    names.append(name)
        if source == "results" and grid.GetCellData().GetArray("bending_moment_y") is not None:
            names.append(BENDING)
    return names


def finite_on(grid, name, part):
    """Whether the scene's point array `name` has a finite value on a point of an item of `part`
    (the section arrays are NaN everywhere but at beams' and trusses' ends, so a model without
    them has the array and nothing in it)."""
    values = array_of(grid.GetPointData(), name)
    parts = array_of(grid.GetCellData(), "part")
    if values is None or parts is None:
        return False
    finite = numpy.isfinite(values).all(axis=1)
    for c in numpy.flatnonzero(parts[:, 0] == part):
        ids = grid.GetCell(int(c)).GetPointIds()
        if any(finite[ids.GetId(k)] for k in range(ids.GetNumberOfIds())):
            return True
    return False


def default_field(grids):
    """Internal loads where there are flexible members: they do not change under a rigid motion,
    so they show what the geometry does not (a spinning beam's elastic lag, not its rotation).
    Beams: the section moment (the scene's, at each element's ends, else results.vtu's bending
    moment at the element's middle); trusses only: the axial force (the scene's N, else
    results.vtu's); rigid mechanisms: |velocity|, which colours every link and shape and shows
    the phases of the motion (the Pipeline turns it into |displacement| when the run does not
    move). A scene array counts only where it has values: the section arrays are NaN on every
    point of a model without beams and trusses."""
    scene, results = grids.get("scene"), grids["results"]
    if scene is not None:
        if finite_on(scene, "section_moment", BEAM):
            return "section_moment"
        if finite_on(scene, "section_force", TRUSS):
            return "section_force:0"
        return "velocity"
    if results.GetCellData().GetArray("bending_moment_y") is not None:
        return BENDING
    if results.GetCellData().GetArray("axial_force") is not None:
        return "axial_force"
    return "velocity"


def format_for(lo, hi):
    """printf format of the colour bar's labels: three significant digits of the range's magnitude,
    fixed point between 1e-3 and 1e5, exponent otherwise."""
    magnitude = max(abs(lo), abs(hi))
    if magnitude == 0 or not 1e-3 <= magnitude < 1e5:
        return "%-#.2e"
    decimals = max(0, 2 - math.floor(math.log10(magnitude)))
    return f"%-#.{decimals}f" if decimals else "%-.0f"


def time_format(times):
    """Python format spec of the title's time: enough decimals to tell two frames apart (the
    smallest positive spacing), at most 6."""
    steps = [b - a for a, b in zip(times, times[1:]) if b > a]
    if not steps:
        return "g"
    return f".{min(6, max(0, -math.floor(math.log10(min(steps)) + 1e-9)))}f"


def grown(lo, hi, grid):
    """The box (lo, hi) grown to hold the grid's points."""
    if not grid.GetNumberOfPoints():
        return lo, hi
    b = grid.GetBounds()
    return [min(lo[c], b[2 * c]) for c in range(3)], [max(hi[c], b[2 * c + 1]) for c in range(3)]


class Geometry:
    """Bounds over the run (union of every frame) and the sizes of the drawn things."""

    def __init__(self, run, first, field):
        self.lo = [math.inf] * 3
        self.hi = [-math.inf] * 3
        series = [("results", [f for _, f in run.results])]
        if run.scene is not None:
            series.append(("scene", [f for _, f in run.scene]))
        for source, files in series:
            arrays = field.arrays() if field.source == source else []
            for path in files:
                grid = read_grid(path, arrays)
                self.lo, self.hi = grown(self.lo, self.hi, grid)
                if field.source == source:
                    field.include(grid)
            if source == "results":
                # The nodes' extent: a planar model's nodes stay in its plane, the scene's body
                # shapes (boxes of the inertia) stand out of it.
                self.node_extent = [self.hi[c] - self.lo[c] for c in range(3)]
        if self.lo[0] > self.hi[0]:
            raise InputError(f"{run.results_pvd}: no points in any frame")
        self.run = run
        self.extent = [self.hi[c] - self.lo[c] for c in range(3)]
        self.diagonal = math.sqrt(sum(e * e for e in self.extent)) or 1.0
        self.centre = [0.5 * (self.lo[c] + self.hi[c]) for c in range(3)]
        results = first["results"]
        radius = array_of(results.GetPointData(), "section_radius")
        self.largest_radius = float(radius.max()) if radius is not None and radius.size else 0.0
        lengths = []
        for c in range(results.GetNumberOfCells()):
            ids = results.GetCell(c).GetPointIds()
            for k in range(ids.GetNumberOfIds() - 1):
                lengths.append(math.dist(results.GetPoint(ids.GetId(k)), results.GetPoint(ids.GetId(k + 1))))
        lengths.sort()
        self.typical_length = lengths[len(lengths) // 2] if lengths else self.diagonal / 10.0
        # Lines thinner than this (trusses, links, slender beams) are drawn this thick: a run's
        # picture spans the whole motion (a spinning 10 m beam fills a 20 m square), where a real
        # 5 cm section is a hairline.
        self.thin_radius = min(0.005 * self.diagonal, 0.08 * self.typical_length)
        # Arrows start at the node, inside the tube: they reach out of it by half an element.
        self.triad_length = min(0.06 * self.diagonal, 0.5 * self.typical_length) + max(self.largest_radius, self.thin_radius)
        self.sphere_size = max(2.4 * self.thin_radius, 2.4 * self.largest_radius, 0.012 * self.diagonal)
        node_id, frame_node = (array_of(results.GetPointData(), name) for name in ("node_id", "frame_node"))
        self.triad_nodes = [] if node_id is None or frame_node is None else triad_nodes(node_id, frame_node)
        self.ghosts = results.GetPointData().GetArray(GHOST) is not None

    def frame_box(self, index):
        """The bounds (lo, hi) of frame `index` alone, both series: what a single picture's camera
        fits (--camera frame)."""
        lo, hi = [math.inf] * 3, [-math.inf] * 3
        for frames in (self.run.results, self.run.scene or []):
            if not -len(frames) <= index < len(frames):  # a run still writing: not in scene.pvd yet
                continue
            lo, hi = grown(lo, hi, read_grid(frames[index][1], []))
        return (lo, hi) if lo[0] <= hi[0] else None  # None: no points, the run's bounds


def set_camera(view, geometry, width, height, box=None):
    """Looks along the normal of a planar model (parallel projection, the axis along which no
    node moves in any frame), from the front right above otherwise (z up, perspective), and fits `box`
    (lo, hi), by default the union of every frame's bounds, plus the glyphs' size, in the view,
    with room for the title above. The direction is the run's in any case: a picture fitted to
    one frame (box: that frame's bounds) looks from where the movie does."""
    g = geometry
    pad = 0.5 * g.sphere_size + g.largest_radius  # spheres on the outermost points; arrows may reach into the margin
    flat = [c for c in range(3) if g.node_extent[c] <= 1e-6 * g.diagonal]
    lo, hi = box or (g.lo, g.hi)
    centre = [0.5 * (lo[c] + hi[c]) for c in range(3)]
    if len(flat) == 1:
        direction = [0.0, 0.0, 0.0]
        # From +x for the y-z plane (y then runs to the right with z up), from -y for x-z
        # (x to the right), from +z for x-y (x to the right, y up): right = up x toward.
        direction[flat[0]] = -1.0 if flat[0] == 1 else 1.0
        up = [0.0, 1.0, 0.0] if flat[0] == 2 else [0.0, 0.0, 1.0]
    else:
        direction = [1.0, -1.0, 0.8]
        up = [0.0, 0.0, 1.0]
    norm = math.sqrt(sum(d * d for d in direction))
    toward = [d / norm for d in direction]  # from the focal point to the camera
    # The view's right and (true) up directions, and every corner of the padded box in them.
    right = [up[1] * toward[2] - up[2] * toward[1], up[2] * toward[0] - up[0] * toward[2],
             up[0] * toward[1] - up[1] * toward[0]]
    norm = math.sqrt(sum(r * r for r in right))
    right = [r / norm for r in right]
    upward = [toward[1] * right[2] - toward[2] * right[1], toward[2] * right[0] - toward[0] * right[2],
              toward[0] * right[1] - toward[1] * right[0]]
    corners = [[(lo[c] - pad if (k >> c) & 1 else hi[c] + pad) - centre[c] for c in range(3)] for k in range(8)]
    dot = lambda a, b: sum(x * y for x, y in zip(a, b))  # noqa: E731
    half_w = max(abs(dot(p, right)) for p in corners)
    half_h = max(abs(dot(p, upward)) for p in corners)
    aspect = width / height
    # The picture's top 8 % is the title's: the model fills the rest, the colour bar sits at the
    # lower right beside it.
    fill = 0.84
    if len(flat) == 1:
        view.CameraParallelProjection = 1
        view.CameraParallelScale = max(half_h, half_w / aspect) / fill
        distance = 3.0 * g.diagonal
    else:
        view.CameraParallelProjection = 0
        view.CameraViewAngle = 30.0
        tan_v = math.tan(math.radians(15.0)) * fill
        tan_h = tan_v * aspect
        distance = max(dot(p, toward) + max(abs(dot(p, right)) / tan_h, abs(dot(p, upward)) / tan_v)
                       for p in corners)
    # Shift the focal point down a little: the free band at the top takes the title.
    shift = (1.0 - fill) * (view.CameraParallelScale if len(flat) == 1 else distance * math.tan(math.radians(15.0)))
    focal = [centre[c] + 0.5 * shift * upward[c] for c in range(3)]
    view.CameraFocalPoint = focal
    view.CameraPosition = [focal[c] + distance * toward[c] for c in range(3)]
    view.CameraViewUp = up


def camera_of(view):
    """The camera, as printed per frame by --verbose (tests compare them)."""
    return (f"position {tuple(round(v, 9) for v in view.CameraPosition)} focal {tuple(round(v, 9) for v in view.CameraFocalPoint)} "
            f"up {tuple(round(v, 9) for v in view.CameraViewUp)} parallel {int(view.CameraParallelProjection)} "
            f"scale {round(float(view.CameraParallelScale), 9)} angle {round(float(view.CameraViewAngle), 9)}")


def solid(display, colour):
    display.ColorArrayName = ["POINTS", ""]
    display.AmbientColor = display.DiffuseColor = colour


def threshold(source, association, array, lower, upper, name=None):
    t = simple.Threshold(Input=source)
    t.Scalars = [association, array]
    try:  # ParaView 5.10+
        t.LowerThreshold, t.UpperThreshold = lower, upper
        t.ThresholdMethod = "Between"
    except AttributeError:
        t.ThresholdRange = [lower, upper]
    if name:
        simple.RenameSource(name, t)
    return t


class Pipeline:
    """The ParaView pipeline of one run in one render view."""

    def __init__(self, run, view, field_spec=None, size=(1280, 800), fit_frame=None):
        """fit_frame: None, the camera fits every frame of the run (a movie, the GUI); a frame's
        index in run.results, it fits that frame alone (a single picture, --camera frame)."""
        self.run, self.view = run, view
        first = {"results": read_grid(run.results[0][1])}
        first["scene"] = read_grid(run.scene[0][1]) if run.scene is not None else None
        # Scenes written before joint_kind: every joint gets its axis-3 arrow.
        self.joint_kinds = first["scene"] is not None and first["scene"].GetCellData().GetArray("joint_kind") is not None
        self.field = Field(field_spec or default_field(first), first)
        self.geometry = Geometry(run, first, self.field)
        if field_spec is None and self.field.name == "velocity" and self.field.constant(0.0) == 0.0:
            # Nothing moves (a static run): the displacement from the reference shows the result.
            self.field = Field("displacement", first)
            self.geometry = Geometry(run, first, self.field)
        self.width, self.height = size
        self.coloured = []
        self.triad_points = None
        self.results = simple.PVDReader(FileName=run.results_pvd)
        simple.RenameSource("results.pvd", self.results)
        self.scene = None
        if run.scene is not None:
            self.scene = simple.PVDReader(FileName=run.scene_pvd)
            simple.RenameSource("scene.pvd", self.scene)
        self._style_view()
        if self.scene is not None:
            self._scene_items()
        else:
            self._results_items(first["results"])
        parts = array_of(first["scene"].GetCellData(), "part") if self.scene is not None else None
        if parts is None or (parts == BEAM).any():
            # The scene's body shapes show how the bodies turn: triads there would only hide them.
            self._triads()
        self._colour_bar()
        # What a picture may hide (tools/render prints it on stderr, tools/view on the console); a
        # field constant over the run is drawn in one colour, whatever the signs of its round-off.
        alternation = self.field.alternation.warning(self.field.label) if self.note is None else None
        self.warnings = [alternation] if alternation else []
        self._title()
        # paraview.simple's first Render would reset the camera to fit that frame.
        simple._DisableFirstRenderCameraReset()
        box = self.geometry.frame_box(fit_frame) if fit_frame is not None else None
        set_camera(view, self.geometry, self.width, self.height, box)

    # -- drawing ---------------------------------------------------------------------------
    def _style_view(self):
        v = self.view
        v.ViewSize = [self.width, self.height]
        v.Background = [1.0, 1.0, 1.0]
        try:  # ParaView 5.10+: a single background colour needs the palette override off
            v.UseColorPaletteForBackground = 0
        except AttributeError:
            pass
        v.OrientationAxesVisibility = 1
        v.OrientationAxesLabelColor = [0.1, 0.1, 0.1]

    def _show(self, source, coloured=True, colour=(0.55, 0.55, 0.6)):
        display = simple.Show(source, self.view)
        if coloured:
            self.coloured.append(display)
        else:
            solid(display, list(colour))
        return display

    def _with_field(self, source, from_source):
        """The field as point data on `source` (cell fields are copied to the points: each scene
        item has its own points, so a scene cell keeps its value; results.vtu averages at nodes)."""
        if self.field.source != from_source:
            return source
        if self.field.name == BENDING and from_source == "results":
            calc = simple.Calculator(Input=source)
            calc.AttributeType = "Cell Data"
            calc.ResultArrayName = BENDING
            calc.Function = BENDING_FORMULA
            source = calc
        if self.field.association == "CELLS":
            source = simple.CellDatatoPointData(Input=source)
            source.PassCellData = 1
        return source

    def _tubes(self, lines, name):
        g = self.geometry
        surface = simple.ExtractSurface(Input=lines)  # the Tube filter takes polygonal data only
        radius = simple.Calculator(Input=surface)
        radius.ResultArrayName = "tube_radius"
        radius.Function = f"max(section_radius, {g.thin_radius!r})"
        tubes = simple.Tube(Input=radius)
        tubes.Scalars = ["POINTS", "tube_radius"]
        tubes.VaryRadius = "By Absolute Scalar"
        tubes.NumberofSides = 20
        tubes.Capping = 1
        simple.RenameSource(name, tubes)
        return tubes

    def _spheres(self, source, size, name):
        s = simple.Glyph(Input=source, GlyphType="Sphere")
        s.ScaleArray = ["POINTS", "No scale array"]
        s.ScaleFactor = size
        s.GlyphMode = "All Points"
        s.GlyphType.ThetaResolution = 20
        s.GlyphType.PhiResolution = 12
        simple.RenameSource(name, s)
        return s

    def _arrows(self, source, orientation, length, name):
        a = simple.Glyph(Input=source, GlyphType="Arrow")
        a.OrientationArray = ["POINTS", orientation]
        a.ScaleArray = ["POINTS", "No scale array"]
        a.ScaleFactor = length
        a.GlyphMode = "All Points"
        a.GlyphType.TipRadius = 0.08
        a.GlyphType.ShaftRadius = 0.025
        simple.RenameSource(name, a)
        return a

    def _scene_items(self):
        g = self.geometry
        scene = self._with_field(self.scene, "scene")
        if self.field.source == "results":
            # The field is results.vtu's (a beam's bending moment at the element's middle): beams
            # and trusses come from there, only the links from the scene.
            beams = self._with_field(self.results, "results")
            self._show(self._tubes(beams, "beams and trusses (tubes)"))
            links = threshold(scene, "CELLS", "part", LINK, LINK, "links")
            self._show(self._tubes(links, "rigid-body links (tubes)"), coloured=False)
        else:
            lines = threshold(scene, "CELLS", "part", BEAM, LINK, "beams, trusses, links")
            self._show(self._tubes(lines, "beams, trusses, links (tubes)"))
        shapes = threshold(scene, "CELLS", "part", SHAPE, SHAPE, "body shapes")
        self._show(shapes, coloured=self.field.source == "scene")
        joints = threshold(self.scene, "CELLS", "part", JOINT, JOINT, "joints")
        self._show(self._spheres(joints, g.sphere_size, "joints (spheres)"), coloured=False,
                   colour=(0.35, 0.35, 0.4))
        # Axis 3 means something for hinges and slides only (joint_kind 3 revolute, 4 prismatic,
        # 5 cylindrical: docs/model-format.md, "The scene"), not for a spherical joint's frame.
        axial = threshold(joints, "CELLS", "joint_kind", 3, 5, "hinges and slides") if self.joint_kinds else joints
        self._show(self._arrows(axial, "joint_axis_3", 2.5 * g.sphere_size, "joint axes 3 (arrows)"),
                   coloured=False, colour=(0.95, 0.55, 0.05))
        masses = threshold(scene, "CELLS", "part", POINT_MASS, POINT_MASS, "point masses")
        self._show(self._spheres(masses, 1.8 * g.sphere_size, "point masses (spheres)"),
                   coloured=self.field.source == "scene")

    def _results_items(self, first):
        """Older runs without scene.pvd: what results.vtu holds."""
        g = self.geometry
        # Lines only before a cell field goes to the points: the node vertex cells carry NaN.
        lines = simple.ExtractCellsByType(Input=self.results)
        lines.CellTypes = ["Line", "Polyline"]
        simple.RenameSource("beams and trusses", lines)
        if any(first.GetCell(c).GetNumberOfPoints() > 1 for c in range(first.GetNumberOfCells())):
            self._show(self._tubes(self._with_field(lines, "results"), "beams and trusses (tubes)"))
        results = self._with_field(self.results, "results")
        if first.GetCellData().GetArray("mass") is not None:
            bodies = threshold(results, "CELLS", "mass", 0.0, 1e300, "rigid bodies")
            self._show(self._spheres(bodies, 1.6 * g.sphere_size, "rigid bodies (spheres)"),
                       coloured=self.field.association == "POINTS", colour=(0.95, 0.7, 0.1))
        if first.GetCellData().GetArray("relative_x") is not None:
            joints = threshold(self.results, "CELLS", "relative_x", -1e300, 1e300, "joints")
            self._show(self._spheres(joints, g.sphere_size, "joints (spheres)"), coloured=False,
                       colour=(0.45, 0.45, 0.5))
        # Point nodes (no triad: point masses, truss joints) as dark spheres.
        frame_node = array_of(first.GetPointData(), "frame_node")
        node_id = array_of(first.GetPointData(), "node_id")
        if node_id is not None and frame_node is not None and ((node_id >= 0) & (frame_node < 0.5)).any():
            nodes = threshold(threshold(self.results, "POINTS", "node_id", 0.0, 1e9), "POINTS", "frame_node", -0.5, 0.5,
                              "point nodes")
            self._show(self._spheres(nodes, 1.6 * g.sphere_size, "point nodes (spheres)"), coloured=False,
                       colour=(0.2, 0.2, 0.25))

    def _triads(self):
        """Red, green and blue arrows along director_1..3 of results.vtu at the nodes of
        tools/triad_nodes.py, each node once (its copies in MPI pieces that do not own it left out)."""
        g = self.geometry
        if not g.triad_nodes:
            return
        # The points alone, a vertex cell each, so that the Threshold keeps a point by its own
        # value; and a Threshold that keeps a few of results.vtu's own cells (lines and vertices)
        # crashes ParaView 5.11 (in vtkExtractCells) in about one render in ten of an MPI run's
        # .pvtu frames, where one of a point cloud does not.
        cloud = simple.ConvertToPointCloud(Input=self.results)
        cloud.CellGenerationMode = "Vertex cells"
        chosen = " + ".join(f"(node_id == {n})" for n in g.triad_nodes)
        mask = simple.Calculator(Input=cloud)
        mask.ResultArrayName = "triad"
        mask.Function = f"({chosen}) * ({GHOST} == 0)" if g.ghosts else chosen
        self.triad_points = threshold(mask, "POINTS", "triad", 0.5, 1.5, "triad nodes")
        for k, colour in enumerate(((0.85, 0.1, 0.1), (0.1, 0.65, 0.1), (0.1, 0.25, 0.9))):
            arrows = self._arrows(self.triad_points, f"director_{k + 1}", g.triad_length, f"director_{k + 1} (arrows)")
            self._show(arrows, coloured=False, colour=colour)

    def triad_node_ids(self):
        """node_id of every point that carries a triad in the frame shown (--verbose prints them)."""
        if self.triad_points is None:
            return []
        ids = array_of(servermanager.Fetch(self.triad_points).GetPointData(), "node_id")
        return [] if ids is None else sorted(int(i) for i in ids[:, 0])

    def _colour_bar(self):
        f, g = self.field, self.geometry
        mode = ("Magnitude" if f.component is None and f.components > 1
                else "XYZ"[f.component] if f.component is not None and f.components == 3 and f.component < 3
                else str(f.component) if f.component is not None else None)
        for display in self.coloured:
            simple.ColorBy(display, ("POINTS", f.name, mode) if mode else ("POINTS", f.name))
        lut = simple.GetColorTransferFunction(f.name)
        lut.ApplyPreset("Cool to Warm", True)
        lut.NanColor = [0.6, 0.6, 0.62]  # items without the field (a truss among beams, a link)
        lut.AutomaticRescaleRangeMode = "Never"
        scale = {"m": g.diagonal, "m/s": g.diagonal / max(self.run.times[-1] - self.run.times[0], 1e-30)}.get(f.unit, 0.0)
        value = f.constant(scale)
        self.note = None
        if value is None:
            lo, hi = f.lo, f.hi
        else:
            lo, hi = value - 1.0, value + 1.0  # one colour: the middle of the map
            unit = f" {f.unit}" if f.unit else ""
            self.note = f"{f.label.split(' [')[0]} = {value:.3g}{unit} throughout" + (
                " (round-off)" if value == 0.0 and f.hi > f.lo else "")
        lut.RescaleTransferFunction(lo, hi)
        self.range = (lo, hi)
        bar = simple.GetScalarBar(lut, self.view)
        bar.Title = f.label
        bar.ComponentTitle = ""
        bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]
        bar.TitleFontSize = 16
        bar.LabelFontSize = 14
        bar.AutomaticLabelFormat = 0
        bar.LabelFormat = bar.RangeLabelFormat = format_for(lo, hi)
        bar.WindowLocation = "Lower Right Corner"
        bar.ScalarBarLength = 0.4
        bar.Visibility = 1 if value is None and self.coloured else 0
        if self.note:
            text = simple.Text(Text=self.note)
            simple.RenameSource("colour note", text)
            note = simple.Show(text, self.view)
            note.WindowLocation = "Lower Right Corner"
            note.FontSize = 16
            note.Color = [0.1, 0.1, 0.1]

    def _title(self):
        """The model's name and what the frame is (tools/frame_title.py: a dynamic run's time, a
        static run's load factor, a mode's number, frequency and phase); AnnotateTime follows the
        view's time, in a movie as in the GUI's animation."""
        self.title_format = self.run.title.annotation(time_format(self.run.times))
        title = simple.AnnotateTime(Format=self.title_format)
        simple.RenameSource("title", title)
        display = simple.Show(title, self.view)
        display.WindowLocation = "Upper Left Corner"
        display.FontSize = 20
        display.Color = [0.1, 0.1, 0.1]

    def show_time(self, t):
        self.view.ViewTime = t

    def save_png(self, path, compression=6):
        """The view at its size as PNG: read back from the render window (SaveScreenshot would
        also do it, at twice the cost per frame); `compression` 0 to 9 (a movie's frames: 1)."""
        simple.Render(self.view)
        grab = vtkWindowToImageFilter()
        grab.SetInput(self.view.GetRenderWindow())
        grab.ReadFrontBufferOff()
        grab.Update()
        writer = vtkPNGWriter()
        writer.SetCompressionLevel(compression)
        writer.SetInputConnection(grab.GetOutputPort())
        writer.SetFileName(path)
        writer.Write()


def main():
    """Run as a script: ParaView's GUI (tools/view, Run Script) or pvbatch (tools/view --check)."""
    directory = os.environ.get("CATENA_RUN")
    if not directory:
        # Run Script in a GUI where results.pvd is open: its directory.
        for (name, _), source in simple.GetSources().items():
            files = getattr(source, "FileName", None)
            files = files if isinstance(files, str) else (files[0] if files else "")
            if os.path.basename(str(files)) in ("results.pvd", "scene.pvd"):
                directory = os.path.dirname(str(files))
                break
    if not directory:
        raise SystemExit("catena_view: set CATENA_RUN to a run directory (the one holding results.pvd), "
                         "or open its results.pvd first")
    try:
        run = Run(directory)
    except InputError as e:
        print(f"catena_view: input error: {e}", flush=True)
        raise SystemExit(2)
    check = os.environ.get("CATENA_VIEW_CHECK")
    view = simple.CreateView("RenderView") if check else simple.GetActiveViewOrCreate("RenderView")
    size = tuple(view.ViewSize) if not check and min(view.ViewSize) > 16 else (1280, 800)
    try:
        pipeline = Pipeline(run, view, os.environ.get("CATENA_FIELD") or None, size)
    except InputError as e:
        print(f"catena_view: input error: {e}", flush=True)
        raise SystemExit(2)
    scene = simple.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = run.times[0]
    pipeline.show_time(run.times[0])
    simple.SetActiveView(view)
    simple.SetActiveSource(pipeline.results)
    for warning in pipeline.warnings:
        print(f"catena_view: warning: {warning}", flush=True)
    if check:
        pipeline.save_png(check)
        print(f"catena_view: pipeline of {run.directory} ({'scene' if run.scene else 'results'}); "
              f"colour {pipeline.field.label}; camera {camera_of(view)}; wrote {check}")
    else:
        simple.Render(view)


if __name__ == "__main__":
    main()
