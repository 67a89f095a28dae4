"""Our own converged reference, for the cases whose literature gives only curves (issue 17:
right-angle-cantilever, flying-spaghetti-3d): the case's reference.py runs its model at a sequence of
meshes and time steps, prints the convergence table of its README (each run's largest deviation
from the finest over the compared histories, and its extrema) and writes reference.csv, the finest
run's histories sampled on a fixed grid. The compared measures are those of the case's checks
(validation.measures: history_deviation, extremum), and the extrema's windows are reference.yaml's.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

import numpy as np

from validation.measures import extremum, history_deviation, read_csv
from validation.yaml_subset import read_yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_catena(catena, case, label, sets, work):
    """catena run of cases/<case>/model.yaml with the --set overrides, into work/<label>; returns the
    columns of its energy.csv and sensors.csv (one frame per step, a VTK frame only at the ends)."""
    out = os.path.join(work, label)
    cmd = [catena, "run", os.path.join(ROOT, "cases", case, "model.yaml"), "--out", out, "--quiet",
           "--threads", "1", "--set", "output.vtk_every=100000000"]
    for s in sets:
        cmd += ["--set", s]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {done.returncode}\n{done.stderr}")
    columns = read_csv(os.path.join(out, "sensors.csv"))[1]
    columns.update(read_csv(os.path.join(out, "energy.csv"))[1])
    return {k: np.array(v) for k, v in columns.items()}


def main(case, variants, finest, histories, every):
    """variants: (label, --set list) pairs, the runs of the table in order, the costliest last (they
    are started first, so that the runs end together); finest: the label of the reference run; histories: the sensor columns compared (and written to reference.csv); every: the
    sampling interval of reference.csv [s]."""
    parser = argparse.ArgumentParser(description=f"cases/{case}: convergence table and reference.csv")
    parser.add_argument("--catena", default=os.path.join(ROOT, "build", "release", "catena"))
    parser.add_argument("--work", default=os.path.join(ROOT, "out", f"{case}-convergence"))
    parser.add_argument("--jobs", type=int, default=2, help="catena runs at a time (default 2)")
    parser.add_argument("--csv", action="store_true", help=f"write cases/{case}/reference.csv from run {finest}")
    args = parser.parse_args()
    refs = read_yaml(os.path.join(ROOT, "cases", case, "reference.yaml"))
    extrema = refs.get("extrema", {})

    labels = [label for label, _ in variants]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {label: pool.submit(run_catena, args.catena, case, label, sets, args.work)
                   for label, sets in reversed(variants)}
        runs = {label: f.result() for label, f in futures.items()}
    reference = runs[finest]
    grid = np.round(np.arange(0.0, reference["t"][-1] + 1e-9, every), 10)
    sampled = {c: np.interp(grid, reference["t"], reference[c]) for c in histories}

    header = ["run"] + [f"max \\|Δ {c}\\|" for c in histories] + list(extrema)
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label in labels:
        run = runs[label]
        cells = [label] + [f"{history_deviation(run['t'], run[c], grid, sampled[c])[0]:.4f}" for c in histories]
        for e in extrema.values():
            value, when = extremum(run["t"], run[e["column"]], e["kind"], e["from"], e["to"])
            cells.append(f"{value:.4f} at {when:.3f}")
        print("| " + " | ".join(cells) + " |")
    print(f"(deviations from run {finest} at the times of reference.csv, every {every} s)")

    if args.csv:
        path = os.path.join(ROOT, "cases", case, "reference.csv")
        with open(path, "w") as f:
            f.write(f"# cases/{case}: our converged solution, run {finest} "
                    f"(cases/{case}/reference.py --csv), sampled every {every} s\n")
            f.write(",".join(["t"] + list(histories)) + "\n")
            for k, t in enumerate(grid):
                f.write(",".join([f"{t:g}"] + [f"{sampled[c][k]:.6f}" for c in histories]) + "\n")
        print(f"wrote {os.path.relpath(path, ROOT)}")
