#!/usr/bin/python3
"""four-bar: the convergence study behind reference.yaml and reference.csv (README.md, "Convergence").

Runs the model with n elements per bar and step dt for each pair asked, measures the compared
quantities exactly as validation.py does (same filter, same times), and prints them with their
change against the last run (the finest) as a Markdown table, one row per quantity:

  cases/four-bar/convergence.py --work /tmp/fourbar --n 5 11 21 41 --dt 4e-3 2e-3 1e-3 5e-4 2.5e-4
  cases/four-bar/convergence.py --work /tmp/fourbar --runs 5:4e-3 21:4e-3 21:2e-3 21:1e-3 21:5e-4 \
      5:2.5e-4 11:2.5e-4 41:2.5e-4 21:2.5e-4
  cases/four-bar/convergence.py --work /tmp/fourbar --n 21 --dt 2.5e-4 --write-reference

Runs already in --work (a completed summary.json) are not repeated. --write-reference (one run)
prints the reference.yaml entries of that run and writes reference.csv (the compared histories,
filtered as compared, every 0.01 s). Several runs at a time: --jobs (default 2).
"""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.dont_write_bytecode = True

from validation.measures import References, read_csv  # noqa: E402

_spec = importlib.util.spec_from_file_location("four_bar_validation", os.path.join(HERE, "validation.py"))
V = importlib.util.module_from_spec(_spec)  # the case's measures: QUANTITIES, PEAKS, history, at_line_up, peak
_spec.loader.exec_module(V)


class Data:
    """The few RunData methods validation.py's measures use, on a directory of results."""

    def __init__(self, directory):
        self.columns = {}
        for name in ("energy.csv", "sensors.csv"):
            for k, v in read_csv(os.path.join(directory, name))[1].items():
                self.columns.setdefault(k, np.array(v))
        self.t = self.columns["t"]
        self.refs = References(HERE)
        with open(os.path.join(directory, "summary.json")) as f:
            self._summary = json.load(f)

    def col(self, name):
        return self.columns[name]

    def at(self, y, t0):
        return float(np.interp(t0, self.t, y))

    def ref(self, *path):
        return self.refs.yaml(*path)

    def summary(self, key):
        return self._summary[key]


# Quantities near zero in the reference: their difference is printed, not a relative one.
NEAR_ZERO = {"My@2.618"}


def run(catena, work, n, dt):
    out = os.path.join(work, f"n{n}_dt{dt}")
    summary = os.path.join(out, "summary.json")
    if os.path.exists(summary):
        with open(summary) as f:
            if json.load(f).get("status") == "completed":
                return out
    cmd = [catena, "run", os.path.join(HERE, "model.yaml"), "--out", out, "--quiet", "--threads", "1",
           "--set", f"n1={n}", "--set", f"n2={n}", "--set", f"n3={n}", "--set", f"analysis.dt={dt}",
           "--set", "output.dt=12"]
    subprocess.run(cmd, check=True)
    return out


def measure(directory):
    d = Data(directory)
    values = {f"{key}@2.618": V.at_line_up(key)(d) for key, _, _ in V.QUANTITIES}
    values.update({name: V.peak(key, kind)(d) for name, key, kind in V.PEAKS})
    values["wall [s]"] = d.summary("wall_seconds")
    return values


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--catena", default=os.path.join(ROOT, "build", "release", "catena"))
    p.add_argument("--work", required=True)
    p.add_argument("--n", type=int, nargs="+", default=[5])
    p.add_argument("--dt", nargs="+", default=["4e-3"])
    p.add_argument("--runs", nargs="+", metavar="N:DT", help="these runs, in this order (instead of the grid --n x --dt)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--write-reference", action="store_true")
    a = p.parse_args()
    pairs = [(int(r.split(":")[0]), r.split(":")[1]) for r in a.runs] if a.runs else [(n, dt) for n in a.n for dt in a.dt]
    if any(n % 2 == 0 for n, _ in pairs):
        sys.exit("convergence.py: n must be odd (the crank's middle element is centred on the mid-span)")
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        dirs = list(pool.map(lambda nd: run(a.catena, a.work, *nd), pairs))
    results = [(f"{n}, {dt}", measure(d)) for (n, dt), d in zip(pairs, dirs)]
    finest = results[-1][1]
    print("| quantity | " + " | ".join(label for label, _ in results) + " |")
    print("|---" * (len(results) + 1) + "|")
    for k in finest:
        cells = []
        for label, r in results:
            if r is finest or k == "wall [s]":
                cells.append(f"**{r[k]:.6g}**" if r is finest else f"{r[k]:.0f}")
            elif k in NEAR_ZERO:  # passes through zero: the difference itself
                cells.append(f"{r[k] - finest[k]:+.1e}")
            else:
                cells.append(f"{100 * (r[k] - finest[k]) / abs(finest[k]):+.2f} %")
        print(f"| {k} | " + " | ".join(cells) + " |")
    if a.write_reference:
        d = Data(dirs[-1])
        print("at_line_up:")
        for key, _, _ in V.QUANTITIES:
            print(f"  {key}: {V.at_line_up(key)(d):.6g}")
        print("peaks:")
        for name, key, kind in V.PEAKS:
            print(f"  {name}: {V.peak(key, kind)(d):.6g}")
        print(f"energy_scale: {np.max(d.col('external_work')):.6g}")
        print(f"initial_velocity_change: {d.summary('initial_velocity_change'):.9g}")
        grid = np.round(np.arange(0.0, d.t[-1] + 1e-9, 0.01), 10)
        histories = {key: np.interp(grid, d.t, V.history(key)(d)) for key, _, _ in V.QUANTITIES}
        path = os.path.join(HERE, "reference.csv")
        with open(path, "w") as f:
            f.write(f"# four-bar: the converged run (elements per bar, dt = {results[-1][0]}): rotation_D [rad], uy_C [m] and\n"
                    "# the crank's mid-span forces [N] and moments [N m], filtered as compared (validation.py), every 0.01 s.\n"
                    "# Written by convergence.py --write-reference.\n")
            f.write("t," + ",".join(histories) + "\n")
            for i, t in enumerate(grid):
                f.write(f"{t:.2f}," + ",".join(f"{histories[k][i]:.7g}" for k in histories) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
