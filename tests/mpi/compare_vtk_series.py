"""Compares Catena's VTK series (results.pvd) of two runs, read back with VTK's XML readers.

usage: compare_vtk_series.py pieces ONE TWO    ONE a one-rank run (.vtu frames), TWO the same
                                               model on several ranks (.pvtu frames of pieces)
       compare_vtk_series.py same A B          B a restart of A on as many ranks: same files
       compare_vtk_series.py mixed TWO SERIAL  SERIAL a restart of the several-rank run TWO on
                                               one rank in its own directory
       compare_vtk_series.py scene ONE TWO     the scenes (scene.pvd) of a one-rank and a
                                               several-rank run: the same serial .vtu files
Exits non-zero with a message naming the first difference. Run by two_ranks_vtk_match_one.sh.
"""
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader, vtkXMLUnstructuredGridReader

VERTEX = 1
GHOST = "vtkGhostType"
DUPLICATE_POINT = 1  # vtkDataSetAttributes::DUPLICATEPOINT


def fail(message):
    sys.exit(message)


def frames(directory, index="results.pvd"):
    root = ET.parse(os.path.join(directory, index)).getroot()
    return [(float(e.get("timestep")), e.get("file")) for e in root.iter("DataSet")]


def read(path):
    # The parallel reader appends the pieces a .pvtu lists into one grid.
    reader = vtkXMLPUnstructuredGridReader() if path.endswith(".pvtu") else vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    if reader.GetErrorCode():
        fail(f"{path}: VTK cannot read it")
    return reader.GetOutput()


def pieces_of(path):
    """The piece files a .pvtu lists."""
    return [p.get("Source") for p in ET.parse(path).getroot().iter("Piece")]


def arrays(data):
    out = {}
    for i in range(data.GetNumberOfArrays()):
        a = data.GetArray(i)
        n = a.GetNumberOfComponents()
        out[a.GetName()] = [[a.GetComponent(t, c) for c in range(n)] for t in range(a.GetNumberOfTuples())]
    return out


def scale_of(rows):
    # An array of round-off (a held joint coordinate, 1e-31) compares against 1e-6 [SI units].
    return max([abs(v) for row in rows for v in row if math.isfinite(v)] + [1e-6])


class Worst:
    """Largest difference relative to each array's largest value, for the report."""

    def __init__(self):
        self.value, self.where = 0.0, "nothing"

    def check(self, what, x, y, scale, tol):
        for a, b in zip(x, y):
            if math.isnan(a) != math.isnan(b):
                fail(f"{what}: {x} against {y}")
            if math.isnan(a):
                continue
            d = abs(a - b) / scale
            if d > self.value:
                self.value, self.where = d, what
            if d > tol:
                fail(f"{what}: {x} against {y} (relative difference {d:.3g} > {tol:g})")


def node_points(grid):
    """node_id -> list of (point id, ghost flag)."""
    ids = arrays(grid.GetPointData())
    ghost = ids.get(GHOST)
    out = {}
    for p, (n,) in enumerate(ids["node_id"]):
        if n >= 0:
            out.setdefault(int(n), []).append((p, int(ghost[p][0]) if ghost else 0))
    return out


def cell_signature(grid, c, node_id):
    """What identifies an element's cell across runs: its type and the node ids of its points
    (-1 for an element point: joints are then told apart by their data and position)."""
    cell = grid.GetCell(c)
    ids = cell.GetPointIds()
    return (cell.GetCellType(), tuple(int(node_id[ids.GetId(k)][0]) for k in range(ids.GetNumberOfIds())))


def compare_grids(name, ref, par, worst, worst_cells, tol, tol_cells):
    """`ref` a whole grid (one rank), `par` the same frame from several pieces."""
    if par.GetNumberOfCells() != ref.GetNumberOfCells():
        fail(f"{name}: {ref.GetNumberOfCells()} cells with one rank, {par.GetNumberOfCells()} in the pieces")
    pr, pp = arrays(ref.GetPointData()), arrays(par.GetPointData())
    if sorted(pr) != sorted(k for k in pp if k != GHOST):
        fail(f"{name}: point arrays {sorted(pr)} with one rank, {sorted(pp)} in the pieces")
    nr, np_ = node_points(ref), node_points(par)
    if sorted(nr) != sorted(np_):
        fail(f"{name}: nodes {sorted(nr)} with one rank, {sorted(np_)} in the pieces")
    for n, copies in np_.items():
        owned = [p for p, g in copies if not g & DUPLICATE_POINT]
        if len(owned) != 1:
            fail(f"{name}: node {n} is an owned point {len(owned)} times in the pieces (copies: {copies})")
        (r, _), = nr[n]
        for p, _ in copies:
            worst.check(f"{name} node {n} point", ref.GetPoint(r), par.GetPoint(p), scale_of(
                [ref.GetPoint(i) for i in range(ref.GetNumberOfPoints())]), tol)
            for key, rows in pr.items():
                worst.check(f"{name} node {n} {key}", rows[r], pp[key][p], scale_of(rows), tol)
    n_element_points = sum(1 for (n,) in pr["node_id"] if n < 0)
    if n_element_points != sum(1 for (n,) in pp["node_id"] if n < 0):
        fail(f"{name}: element points differ in number")

    # Cells: every reference cell matched by exactly one cell of the pieces with the same type,
    # nodes and data (a node's vertex cell has only NaN; element points are matched by their data
    # and position).
    cr, cp = arrays(ref.GetCellData()), arrays(par.GetCellData())
    if sorted(cr) != sorted(cp):
        fail(f"{name}: cell arrays {sorted(cr)} with one rank, {sorted(cp)} in the pieces")
    scales = {k: scale_of(v) for k, v in cr.items()}
    free = {}
    for c in range(par.GetNumberOfCells()):
        free.setdefault(cell_signature(par, c, pp["node_id"]), []).append(c)
    node_cells = 0
    for c in range(ref.GetNumberOfCells()):
        sig = cell_signature(ref, c, pr["node_id"])
        candidates = free.get(sig, [])
        best, best_d = None, math.inf
        for k in candidates:
            d = 0.0
            for key in cr:
                for a, b in zip(cr[key][c], cp[key][k]):
                    if math.isnan(a) != math.isnan(b):
                        d = math.inf
                    elif not math.isnan(a):
                        d = max(d, abs(a - b) / scales[key])
            if sig[1] == (-1,):  # an element point: also its position
                pid_r = ref.GetCell(c).GetPointId(0)
                pid_p = par.GetCell(k).GetPointId(0)
                d = max([d] + [abs(a - b) for a, b in zip(ref.GetPoint(pid_r), par.GetPoint(pid_p))])
            if d < best_d:
                best, best_d = k, d
        if best is None:
            fail(f"{name}: no cell {sig} in the pieces for cell {c} of the one-rank file")
        for key in cr:
            worst_cells.check(f"{name} cell {c} {sig} {key}", cr[key][c], cp[key][best], scales[key], tol_cells)
        candidates.remove(best)
        if sig[0] == VERTEX and sig[1][0] >= 0 and all(math.isnan(v) for key in cr for v in cr[key][c]):
            node_cells += 1
    n_nodes = len(nr)
    if node_cells != n_nodes:
        fail(f"{name}: {node_cells} node vertex cells for {n_nodes} nodes")


def pieces(one, two):
    f1, f2 = frames(one), frames(two)
    if len(f1) < 2 or [t for t, _ in f1] != [t for t, _ in f2]:
        fail(f"results.pvd times differ: {[t for t, _ in f1]} with one rank, {[t for t, _ in f2]} with two")
    worst_points, worst_cells = Worst(), Worst()
    ranks_with_cells = set()
    moved = 0.0
    for (t, n1), (_, n2) in zip(f1, f2):
        if not re.fullmatch(r"results_\d{5}\.vtu", n1) or n2 != n1[:-4] + ".pvtu":
            fail(f"frame at t = {t}: {n1} with one rank, {n2} with two (expected the .pvtu of the same number)")
        sources = pieces_of(os.path.join(two, n2))
        stem = n2[:-5]
        if sorted(sources) != sorted(f"{stem}_{r}.vtu" for r in range(len(sources))) or len(sources) < 2:
            fail(f"{n2}: pieces {sources}, expected {stem}_<rank>.vtu for ranks 0, 1, ...")
        for s in sources:
            if read(os.path.join(two, s)).GetNumberOfCells() > 0:
                ranks_with_cells.add(s.rsplit("_", 1)[1])
        ref, par = read(os.path.join(one, n1)), read(os.path.join(two, n2))
        # Points and point arrays: node states, to 1e-10 of each array's largest value. Cell data:
        # section forces and reactions are differences of nearly equal numbers (EA times a small
        # strain, multipliers), so the solvers' round-off (MUMPS on one and on two ranks) shows
        # at 1e-9 of their largest value: 1e-8, as the sensors in two_ranks_match_one.sh.
        compare_grids(n2, ref, par, worst_points, worst_cells, 1e-10, 1e-8)
        moved = max(moved, max(abs(v) for row in arrays(ref.GetPointData())["displacement"] for v in row))
    if moved <= 0.0:
        fail("nothing moved: the comparison would prove nothing")
    if len(ranks_with_cells) != len(sources):
        fail(f"only the pieces {sorted(ranks_with_cells)} of {sources} hold cells: the output is not split over the ranks")
    print(f"{len(f1)} frames: .pvtu of {len(sources)} pieces = one-rank .vtu; worst relative difference "
          f"{worst_points.value:.3g} ({worst_points.where}), cells {worst_cells.value:.3g} ({worst_cells.where})")


def scene(one, two):
    """Rank 0 writes the whole scene serially: the same frames, cells and labels, and the same
    points and point arrays as the one-rank run to 1e-10 of each array's largest value."""
    f1, f2 = frames(one, "scene.pvd"), frames(two, "scene.pvd")
    if len(f1) < 2 or f1 != f2:
        fail(f"scene.pvd differs: {f1} with one rank, {f2} with two")
    if [t for t, _ in f1] != [t for t, _ in frames(one)]:
        fail("scene.pvd and results.pvd list other times")
    stray = [f for f in os.listdir(two) if f.startswith("scene_") and not re.fullmatch(r"scene_\d{5}\.vtu", f)]
    if stray:
        fail(f"scene files other than scene_NNNNN.vtu with two ranks: {stray}")
    worst = Worst()
    moved = 0.0
    for _, n in f1:
        g1, g2 = read(os.path.join(one, n)), read(os.path.join(two, n))
        if (g1.GetNumberOfPoints(), g1.GetNumberOfCells()) != (g2.GetNumberOfPoints(), g2.GetNumberOfCells()):
            fail(f"{n}: other points or cells with two ranks")
        for c in range(g1.GetNumberOfCells()):
            p1, p2 = g1.GetCell(c).GetPointIds(), g2.GetCell(c).GetPointIds()
            if g1.GetCellType(c) != g2.GetCellType(c) or [p1.GetId(k) for k in range(p1.GetNumberOfIds())] != [
                    p2.GetId(k) for k in range(p2.GetNumberOfIds())]:
                fail(f"{n}: cell {c} differs with two ranks")
        c1, c2 = arrays(g1.GetCellData()), arrays(g2.GetCellData())
        if c1 != c2 or sorted(c1) != ["element", "joint_kind", "part"]:
            fail(f"{n}: cell data differ with two ranks or are not part, element and joint_kind: "
                 f"{sorted(c1)}, {sorted(c2)}")
        x1 = [list(g1.GetPoint(i)) for i in range(g1.GetNumberOfPoints())]
        x2 = [list(g2.GetPoint(i)) for i in range(g2.GetNumberOfPoints())]
        scale = scale_of(x1)
        for i, (a, b) in enumerate(zip(x1, x2)):
            worst.check(f"{n} point {i}", a, b, scale, 1e-10)
        a1, a2 = arrays(g1.GetPointData()), arrays(g2.GetPointData())
        if sorted(a1) != sorted(a2):
            fail(f"{n}: other point arrays with two ranks")
        for key in a1:
            s = scale_of(a1[key])
            for i, (ra, rb) in enumerate(zip(a1[key], a2[key])):
                worst.check(f"{n} {key}[{i}]", ra, rb, s, 1e-10)
        moved = max(moved, max(abs(v) for row in a1["displacement"] for v in row))
    if moved <= 0.0:
        fail("nothing moved in the scene: the comparison would prove nothing")
    print(f"{len(f1)} scene frames: two ranks = one rank; worst relative difference {worst.value:.3g} ({worst.where})")


def same(a, b):
    fa, fb = frames(a), frames(b)
    if fa != fb:
        fail(f"results.pvd differs after the restart: {fa} against {fb}")
    sa, sb = frames(a, "scene.pvd"), frames(b, "scene.pvd")
    if sa != sb or [t for t, _ in sa] != [t for t, _ in fa]:
        fail(f"scene.pvd differs after the restart: {sa} against {sb}")
    for _, n in sa:
        if open(os.path.join(a, n), "rb").read() != open(os.path.join(b, n), "rb").read():
            fail(f"{n} differs after the restart")
    for name in ("energy.csv", "sensors.csv"):
        if open(os.path.join(a, name)).read() != open(os.path.join(b, name)).read():
            fail(f"{name} differs after the restart")
    worst = Worst()
    for _, n in fa:
        ga, gb = read(os.path.join(a, n)), read(os.path.join(b, n))
        if (ga.GetNumberOfPoints(), ga.GetNumberOfCells()) != (gb.GetNumberOfPoints(), gb.GetNumberOfCells()):
            fail(f"{n}: other points or cells after the restart")
        for kind in ("GetPointData", "GetCellData"):
            xa, xb = arrays(getattr(ga, kind)()), arrays(getattr(gb, kind)())
            if sorted(xa) != sorted(xb):
                fail(f"{n}: other arrays after the restart")
            for key in xa:
                for i, (ra, rb) in enumerate(zip(xa[key], xb[key])):
                    worst.check(f"{n} {key}[{i}]", ra, rb, 1.0, 0.0)
    print(f"restart on two ranks: {len(fa)} frames, results.pvd, CSV files and .pvtu data identical")


def mixed(two, serial):
    ft, fs = frames(two), frames(serial)
    if [t for t, _ in ft] != [t for t, _ in fs]:
        fail(f"results.pvd times differ after the restart on one rank: {ft} against {fs}")
    kinds = [n.endswith(".pvtu") for _, n in fs]
    k = kinds.index(False) if False in kinds else len(kinds)
    if k == 0 or k == len(kinds) or any(kinds[k:]):
        fail(f"results.pvd after the restart on one rank: expected .pvtu frames then .vtu frames, found {fs}")
    for (_, nt), (_, ns) in zip(ft, fs):
        if ns != (nt if ns.endswith(".pvtu") else nt[:-5] + ".vtu"):
            fail(f"{ns} where the two-rank run has {nt}")
    listed = {n for _, n in fs}
    for _, n in fs[:k]:
        listed.update(pieces_of(os.path.join(serial, n)))
    on_disk = {f for f in os.listdir(serial) if f.startswith("results_")}
    if on_disk != listed:
        fail(f"files not in results.pvd after the restart: {sorted(on_disk - listed)}; missing: {sorted(listed - on_disk)}")
    worst = Worst()
    _, last_two = ft[-1]
    _, last_serial = fs[-1]
    compare_grids(last_serial, read(os.path.join(serial, last_serial)), read(os.path.join(two, last_two)), worst,
                  worst, 1e-10, 1e-8)
    print(f"restart on one rank: {k} .pvtu then {len(fs) - k} .vtu frames, no stale piece; last frame "
          f"matches the two-rank one to {worst.value:.3g}")


if __name__ == "__main__":
    modes = {"pieces": pieces, "same": same, "mixed": mixed, "scene": scene}
    if len(sys.argv) != 4 or sys.argv[1] not in modes:
        fail(__doc__)
    modes[sys.argv[1]](sys.argv[2], sys.argv[3])
