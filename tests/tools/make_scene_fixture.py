"""pvbatch script: writes a scene series (scene.pvd, scene_NNNNN.vtu) next to a run's results
series, after the contract tools/catena_view.py documents, for testing tools/render and tools/view
on runs that have no scene yet. Each results line cell becomes a beam line (part 1) with its own
points; each rigid body (cell with `mass`) a link (part 3) from its centre of mass to its node and
a square shape (part 4) around the centre; each joint vertex (cell with `relative_x`) a joint
vertex (part 5) with axes 1 to 3 the global axes. Point data copied from the results' points.
usage: pvbatch make_scene_fixture.py RUN_DIR
"""
import os
import sys
import xml.etree.ElementTree as ElementTree

from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkIntArray, vtkPoints
from vtkmodules.vtkCommonDataModel import VTK_LINE, VTK_QUAD, VTK_VERTEX, vtkUnstructuredGrid
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader, vtkXMLUnstructuredGridWriter

run = sys.argv[1]
entries = [(e.get("timestep"), e.get("file")) for e in ElementTree.parse(os.path.join(run, "results.pvd")).getroot().iter("DataSet")]
index = ['<?xml version="1.0"?>', '<VTKFile type="Collection" version="0.1">', "<Collection>"]
for k, (t, name) in enumerate(entries):
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(os.path.join(run, name))
    reader.Update()
    grid = reader.GetOutput()
    pd, cd = grid.GetPointData(), grid.GetCellData()
    out, points = vtkUnstructuredGrid(), vtkPoints()
    arrays = {}
    for n, comps, kind in (("part", 1, "c"), ("element", 1, "c"), ("section_radius", 1, "p"), ("displacement", 3, "p"),
                           ("velocity", 3, "p"), ("joint_axis_1", 3, "p"), ("joint_axis_2", 3, "p"), ("joint_axis_3", 3, "p")):
        a = vtkIntArray() if kind == "c" else vtkDoubleArray()
        a.SetName(n)
        a.SetNumberOfComponents(comps)
        arrays[n] = a

    def point(xyz, source=None, axes=None):
        points.InsertNextPoint(xyz)
        arrays["section_radius"].InsertNextTuple1(pd.GetArray("section_radius").GetTuple1(source) if source is not None else 0.0)
        for n in ("displacement", "velocity"):
            arrays[n].InsertNextTuple3(*(pd.GetArray(n).GetTuple3(source) if source is not None else (0.0, 0.0, 0.0)))
        for i in range(3):
            arrays[f"joint_axis_{i + 1}"].InsertNextTuple3(*(axes[i] if axes else (0.0, 0.0, 0.0)))
        return points.GetNumberOfPoints() - 1

    def cell(kind, ids, part, element):
        out.InsertNextCell(kind, len(ids), ids)
        arrays["part"].InsertNextTuple1(part)
        arrays["element"].InsertNextTuple1(element)

    mass, relative = cd.GetArray("mass"), cd.GetArray("relative_x")
    for c in range(grid.GetNumberOfCells()):
        ids = grid.GetCell(c).GetPointIds()
        if ids.GetNumberOfIds() == 2:
            cell(VTK_LINE, [point(grid.GetPoint(ids.GetId(i)), ids.GetId(i)) for i in range(2)], 1, c)
        elif mass is not None and mass.GetTuple1(c) == mass.GetTuple1(c):  # not NaN: a rigid body
            node = ids.GetId(0)
            centre = cd.GetArray("centre_of_mass").GetTuple3(c)
            cell(VTK_LINE, [point(centre, node), point(grid.GetPoint(node), node)], 3, c)
            h = 0.05
            corners = [(centre[0] + dx, centre[1] + dy, centre[2]) for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]
            cell(VTK_QUAD, [point(p, node) for p in corners], 4, c)
        elif relative is not None and relative.GetTuple1(c) == relative.GetTuple1(c):  # a joint
            cell(VTK_VERTEX, [point(grid.GetPoint(ids.GetId(0)), ids.GetId(0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)))], 5, c)
    out.SetPoints(points)
    for n, a in arrays.items():
        (out.GetCellData() if n in ("part", "element") else out.GetPointData()).AddArray(a)
    writer = vtkXMLUnstructuredGridWriter()
    writer.SetInputData(out)
    writer.SetFileName(os.path.join(run, f"scene_{k:05d}.vtu"))
    writer.Write()
    index.append(f'<DataSet timestep="{t}" group="" part="0" file="scene_{k:05d}.vtu"/>')
index += ["</Collection>", "</VTKFile>"]
with open(os.path.join(run, "scene.pvd"), "w") as f:
    f.write("\n".join(index) + "\n")
print(f"scene fixture: {len(entries)} frames in {run}")
