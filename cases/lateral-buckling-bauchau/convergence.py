#!/usr/bin/python3
"""cases/lateral-buckling-bauchau: the convergence study of README.md ("Convergence").

Runs the model at a sequence of meshes (beam n, link nl, crank nc elements) and time steps,
measures on each run exactly what validation.py compares (measures()), prints the table of
README.md and, with --write-csv, writes reference.csv (the finest run's compared histories every
1e-3 s).

  cases/lateral-buckling-bauchau/convergence.py [--catena build/release/catena] [--work DIR]
"""
import argparse
import csv
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# (label, --set overrides): the mesh doubles (n = 6, 12, 24 beam elements, the link and crank
# alike), then dt halves on the finest mesh.
VARIANTS = [
    ("n6 dt5e-4", ["n=6", "nl=2", "nc=1", "analysis.dt=5e-4"]),
    ("n12 dt5e-4", ["n=12", "nl=4", "nc=2", "analysis.dt=5e-4"]),
    ("n24 dt5e-4", ["n=24", "nl=8", "nc=4", "analysis.dt=5e-4"]),
    ("n48 dt5e-4", ["n=48", "nl=16", "nc=8", "analysis.dt=5e-4"]),
    ("n24 dt2.5e-4", ["n=24", "nl=8", "nc=4", "analysis.dt=2.5e-4"]),
    ("n48 dt2.5e-4", ["n=48", "nl=16", "nc=8", "analysis.dt=2.5e-4"]),
    ("n48 dt1.25e-4", ["n=48", "nl=16", "nc=8", "analysis.dt=1.25e-4"]),
    ("n96 dt2.5e-4", ["n=96", "nl=32", "nc=16", "analysis.dt=2.5e-4"]),
    ("n96 dt1.25e-4", ["n=96", "nl=32", "nc=16", "analysis.dt=1.25e-4"]),
]
FINEST = "n96 dt1.25e-4"
TIMES = [0.1, 0.2, 0.3, 0.4, 0.6, 0.8]   # values at these times (validation.py compares those <= 0.4)
PEAK_WINDOW = 0.4                     # peaks over 0-0.4 s, the crank's half turn
ONSET_THRESHOLD = 0.01                # buckling time: |mid_uy| first reaches 1 cm [m]


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return {h.strip(): np.array([float(r[i]) for r in rows[1:]]) for i, h in enumerate(rows[0])}


def histories(c):
    """The compared histories of a run's columns (validation.py computes the same)."""
    return {
        "mid_uy": c["mid_uy"],
        "mid_twist": c["mid_twist"],
        "tip_uz": c["tip_uz"],
        "My_mid": (c["My_left"] + c["My_right"]) / 2,
        "Mz_mid": (c["Mz_left"] + c["Mz_right"]) / 2,
        "N_link": c["N_link"],
    }


def onset(t, uy):
    k = int(np.argmax(np.abs(uy) >= ONSET_THRESHOLD))
    # linear interpolation between the two frames around the crossing
    a, b = abs(uy[k - 1]), abs(uy[k])
    return t[k - 1] + (t[k] - t[k - 1]) * (ONSET_THRESHOLD - a) / (b - a)


def measures(t, h):
    m = {"onset": onset(t, h["mid_uy"])}
    for key, y in h.items():
        w = t <= PEAK_WINDOW + 1e-9
        m[f"{key}_max"] = float(np.max(y[w]))
        m[f"{key}_min"] = float(np.min(y[w]))
        for t0 in TIMES:
            m[f"{key}@{t0}"] = float(np.interp(t0, t, y))
    return m


def run(catena, label, sets, work, reuse):
    out = os.path.join(work, label.replace(" ", "_"))
    if reuse and os.path.exists(os.path.join(out, "summary.json")):
        return read(os.path.join(out, "sensors.csv")), read(os.path.join(out, "energy.csv"))
    cmd = [catena, "run", os.path.join(HERE, "model.yaml"), "--out", out, "--quiet", "--threads", "1",
           "--set", "output.dt=0.8"]
    for s in sets:
        cmd += ["--set", s]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {done.returncode}\n{done.stderr}")
    c = read(os.path.join(out, "sensors.csv"))
    e = read(os.path.join(out, "energy.csv"))
    return c, e


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--catena", default=os.path.join(ROOT, "build", "release", "catena"))
    p.add_argument("--work", default=os.path.join(ROOT, "out", "lateral-buckling-bauchau-convergence"))
    p.add_argument("--reuse", action="store_true", help="read the runs already in --work instead of running them")
    p.add_argument("--write-csv", action="store_true", help="write reference.csv from the finest run")
    a = p.parse_args()
    results = {}
    for label, sets in VARIANTS:
        c, e = run(a.catena, label, sets, a.work, a.reuse)
        h = histories(c)
        m = measures(c["t"], h)
        b = e["balance"]
        m["balance_drift"] = float(np.max(np.abs(b - b[0])))
        m["drive_work_max"] = float(np.max(np.abs(e["external_work"])))
        results[label] = (c["t"], h, m)
        print(f"{label}: done", file=sys.stderr)
    ref = results[FINEST][2]
    keys = list(ref)
    print("| quantity | " + " | ".join(label for label, _ in VARIANTS) + " |")
    print("|---|" + "---|" * len(VARIANTS))
    for k in keys:
        cells = []
        for label, _ in VARIANTS:
            v = results[label][2][k]
            cells.append(f"{v:.6g}")
        print(f"| {k} | " + " | ".join(cells) + " |")
    print()
    print("relative deviation from the finest run (peaks: of the value; values at times: of the")
    print("history's largest magnitude):")
    scale = {key: max(abs(ref[f"{key}_max"]), abs(ref[f"{key}_min"])) for key in results[FINEST][1]}
    for label, _ in VARIANTS:
        m = results[label][2]
        worst = []
        for k in keys:
            if k in ("balance_drift", "drive_work_max"):
                continue
            if k == "onset":
                d = abs(m[k] - ref[k])
                worst.append((d, k))
                continue
            key = k.split("@")[0].rsplit("_", 1)[0] if "@" not in k else k.split("@")[0]
            d = abs(m[k] - ref[k]) / scale[key]
            worst.append((d, k))
        worst.sort(reverse=True)
        print(label, " ".join(f"{k}:{d:.2e}" for d, k in worst[:5]))
    # reference.yaml's entries from the finest run (pasted by hand)
    print()
    print(f"# reference.yaml entries from {FINEST}:")
    print(f"onset: {ref['onset']:.6g}")
    print("peaks:")
    for key in results[FINEST][1]:
        print(f"  {key}_max: {ref[key + '_max']:.6g}")
        print(f"  {key}_min: {ref[key + '_min']:.6g}")
    print("at_times:")
    for key in results[FINEST][1]:
        print(f"  {key}: [" + ", ".join(f"{ref[f'{key}@{t0}']:.6g}" for t0 in TIMES if t0 <= PEAK_WINDOW) + "]")
    print("scale:")
    for key in results[FINEST][1]:
        print(f"  {key}: {scale[key]:.6g}")
    print(f"energy_scale: {ref['drive_work_max']:.6g}")
    if a.write_csv:
        t, h, _ = results[FINEST]
        grid = np.round(np.arange(0.0, t[-1] + 1e-9, 1e-3), 10)
        with open(os.path.join(HERE, "reference.csv"), "w", newline="") as f:
            f.write(f"# cases/lateral-buckling-bauchau: Catena's finest run ({FINEST}), convergence.py --write-csv\n")
            w = csv.writer(f)
            w.writerow(["t"] + list(h))
            for i, tk in enumerate(grid):
                w.writerow([f"{tk:.4f}"] + [f"{np.interp(tk, t, y):.8g}" for y in h.values()])


if __name__ == "__main__":
    main()
