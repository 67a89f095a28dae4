"""pvbatch side of tools/render (run it through tools/render, which checks the arguments).

Input by environment: CATENA_RENDER_VTU (one results_NNNNN.vtu, or the .pvtu of an MPI run),
CATENA_RENDER_OUT (PNG),
CATENA_RENDER_SIZE (WxH), CATENA_RENDER_TITLE. The arrays used are those io/vtk_writer.hpp
documents: point data section_radius, frame_node, director_1..3, displacement; cell data mass
(rigid bodies) and relative_x (joints).
"""
import math
import os

from paraview import servermanager
from paraview.simple import (Calculator, ProgrammableFilter, ColorBy, CreateView, ExtractSurface, Glyph, GetColorTransferFunction,
                             GetScalarBar, OpenDataFile, SaveScreenshot, SetActiveView, Show, Text, Threshold, Tube)

def main():
    """All in a function: a ProgrammableFilter runs its script in this module's namespace and
    leaves names of vtk.numpy_interface.algorithms (sum, max, ...) in its globals."""
    from builtins import max, min, sum  # locals: the globals may be replaced meanwhile
    vtu = os.environ["CATENA_RENDER_VTU"]
    out = os.environ["CATENA_RENDER_OUT"]
    width, height = (int(v) for v in os.environ["CATENA_RENDER_SIZE"].split("x"))
    title = os.environ.get("CATENA_RENDER_TITLE", os.path.basename(vtu))

    # OpenDataFile picks the reader by extension: .vtu, or .pvtu (the pieces of an MPI run, read
    # as one grid; a node shared by two pieces is drawn twice, on the same spot).
    reader = OpenDataFile(vtu)
    reader.UpdatePipeline()
    grid = servermanager.Fetch(reader)
    n_points = grid.GetNumberOfPoints()
    points = [grid.GetPoint(i) for i in range(n_points)]
    point_data = grid.GetPointData()
    cell_data = grid.GetCellData()


    def solid(display, colour):
        """One colour, no array colouring."""
        display.ColorArrayName = ["POINTS", ""]
        display.AmbientColor = display.DiffuseColor = colour


    def array_values(data, name):
        array = data.GetArray(name)
        if array is None:
            return None
        return [array.GetComponent(i, 0) for i in range(array.GetNumberOfTuples())]


    frame_node = array_values(point_data, "frame_node") or [0.0] * n_points
    section_radius = array_values(point_data, "section_radius") or [0.0] * n_points
    n_frames = len([f for f in frame_node if f > 0.5])
    node_id = array_values(point_data, "node_id") or []
    triad_stride = max(1, math.ceil(n_frames / 16))  # a long beam would be a hedge of arrows

    # Scale of the picture: the bounding box, and the typical length of a line cell (element).
    lo = [min(p[c] for p in points) for c in range(3)]
    hi = [max(p[c] for p in points) for c in range(3)]
    extent = [hi[c] - lo[c] for c in range(3)]
    diagonal = math.sqrt(sum(e * e for e in extent)) or 1.0
    lengths = []
    for c in range(grid.GetNumberOfCells()):
        ids = grid.GetCell(c).GetPointIds()
        for k in range(ids.GetNumberOfIds() - 1):
            a, b = points[ids.GetId(k)], points[ids.GetId(k + 1)]
            lengths.append(math.dist(a, b))
    lengths.sort()
    typical_length = lengths[len(lengths) // 2] if lengths else diagonal / 10.0
    largest_radius = max(section_radius) if section_radius else 0.0
    # Lines without a section radius (trusses, beams given no radius) get a thin tube.
    thin_radius = min(0.004 * diagonal, 0.05 * typical_length)
    if largest_radius > 0.0:
        thin_radius = min(thin_radius, 0.5 * largest_radius)
    # Arrows start at the node, inside the tube: they reach out of it by about an element length.
    triad_length = min(0.1 * diagonal, typical_length) + largest_radius
    sphere_size = max(3.0 * thin_radius, 2.4 * largest_radius, 0.012 * diagonal)

    view = CreateView("RenderView")
    SetActiveView(view)
    view.ViewSize = [width, height]
    view.Background = [1.0, 1.0, 1.0]
    try:  # ParaView 5.10+: a single background colour needs the palette override off
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    view.OrientationAxesVisibility = 1
    view.OrientationAxesLabelColor = [0.1, 0.1, 0.1]

    # Node points, small and dark: point masses and free nodes remain visible.
    nodes_display = Show(reader, view)
    nodes_display.Representation = "Points"
    nodes_display.PointSize = 5.0
    nodes_display.RenderPointsAsSpheres = 1
    solid(nodes_display, [0.15, 0.15, 0.15])

    # Beams and trusses: tubes whose radius is the point array section_radius (the real section),
    # never thinner than thin_radius, coloured by |displacement|.
    has_lines = bool(lengths)
    if has_lines:
        surface = ExtractSurface(Input=reader)
        # Each element is a line cell of its own; joined into polylines, the tube runs smoothly
        # through the nodes instead of showing a seam at each one.
        joined = ProgrammableFilter(Input=surface)
        joined.OutputDataSetType = "vtkPolyData"
        joined.Script = """
from paraview.vtk.vtkFiltersCore import vtkStripper
stripper = vtkStripper()
stripper.SetInputData(self.GetInput())
stripper.JoinContiguousSegmentsOn()
stripper.Update()
self.GetOutput().ShallowCopy(stripper.GetOutput())
"""
        radius = Calculator(Input=joined)
        radius.ResultArrayName = "tube_radius"
        radius.Function = f"max(section_radius, {thin_radius!r})"
        tubes = Tube(Input=radius)
        tubes.Scalars = ["POINTS", "tube_radius"]
        tubes.VaryRadius = "By Absolute Scalar"
        tubes.NumberofSides = 24
        tubes.Capping = 1
        tubes_display = Show(tubes, view)
        ColorBy(tubes_display, ("POINTS", "displacement", "Magnitude"))
        lut = GetColorTransferFunction("displacement")
        lut.ApplyPreset("Cool to Warm", True)
        tubes_display.RescaleTransferFunctionToDataRange(True, False)
        bar = GetScalarBar(lut, view)
        bar.Title = "|displacement| [m]"
        bar.ComponentTitle = ""
        bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]
        tubes_display.SetScalarBarVisibility(view, True)


    def threshold(source, association, array, lower, upper):
        t = Threshold(Input=source)
        t.Scalars = [association, array]
        try:  # ParaView 5.10+
            t.LowerThreshold = lower
            t.UpperThreshold = upper
            t.ThresholdMethod = "Between"
        except AttributeError:
            t.ThresholdRange = [lower, upper]
        return t


    def spheres(source, size, colour):
        g = Glyph(Input=source, GlyphType="Sphere")
        g.ScaleArray = ["POINTS", "No scale array"]
        g.ScaleFactor = size
        g.GlyphMode = "All Points"
        g.GlyphType.ThetaResolution = 24
        g.GlyphType.PhiResolution = 16
        d = Show(g, view)
        solid(d, colour)
        return d


    # Triads at frame nodes: arrows along director_1..3 (red, green, blue), at most about 16 of
    # them, evenly over the nodes.
    if n_frames:
        frames = threshold(reader, "POINTS", "frame_node", 0.5, 1.5)
        stride = triad_stride
        for k, colour in enumerate(([0.85, 0.1, 0.1], [0.1, 0.65, 0.1], [0.1, 0.25, 0.9])):
            arrows = Glyph(Input=frames, GlyphType="Arrow")
            arrows.OrientationArray = ["POINTS", f"director_{k + 1}"]
            arrows.ScaleArray = ["POINTS", "No scale array"]
            arrows.ScaleFactor = triad_length
            if stride > 1:
                arrows.GlyphMode = "Every Nth Point"
                arrows.Stride = stride
            else:
                arrows.GlyphMode = "All Points"
            arrows.GlyphType.TipRadius = 0.08
            arrows.GlyphType.ShaftRadius = 0.025
            solid(Show(arrows, view), colour)

    # Point nodes (no triad: point masses, truss joints) as dark spheres.
    if n_frames < len([i for i in node_id if i >= 0]):
        point_nodes = threshold(threshold(reader, "POINTS", "node_id", 0.0, 1e9), "POINTS", "frame_node", -0.5, 0.5)
        spheres(point_nodes, 2.5 * sphere_size, [0.2, 0.2, 0.25])

    # Rigid bodies (vertex cells with a mass) and joints (vertex cells with relative coordinates).
    if cell_data.GetArray("mass") is not None:
        spheres(threshold(reader, "CELLS", "mass", 0.0, 1e300), 1.6 * sphere_size, [0.95, 0.7, 0.1])
    if cell_data.GetArray("relative_x") is not None:
        spheres(threshold(reader, "CELLS", "relative_x", -1e300, 1e300), sphere_size, [0.45, 0.45, 0.5])

    text = Text(Text=title)
    text_display = Show(text, view)
    text_display.WindowLocation = "Upper Center"
    text_display.FontSize = 22
    text_display.Color = [0.1, 0.1, 0.1]

    # Camera: along the normal of a planar model (the axis with no extent), isometric otherwise.
    centre = [(lo[c] + hi[c]) / 2.0 for c in range(3)]
    flat = [c for c in range(3) if extent[c] <= 1e-6 * diagonal]
    if len(flat) == 1:
        normal = [0.0, 0.0, 0.0]
        normal[flat[0]] = 1.0
        direction = normal
        up = [0.0, 1.0, 0.0] if flat[0] == 2 else [0.0, 0.0, 1.0]
        view.CameraParallelProjection = 1
    else:
        direction = [1.0, -1.0, 0.8]  # from the front right, above: z up
        up = [0.0, 0.0, 1.0]
        view.CameraParallelProjection = 0
    norm = math.hypot(*direction)
    view.CameraFocalPoint = centre
    view.CameraPosition = [centre[c] + 3.0 * diagonal * direction[c] / norm for c in range(3)]
    view.CameraViewUp = up
    view.ResetCamera(False)
    view.CameraParallelScale = 0.6 * max(diagonal, 1e-9) if view.CameraParallelProjection else view.CameraParallelScale
    SaveScreenshot(out, view, ImageResolution=[width, height])


main()
