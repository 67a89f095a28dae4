#!/usr/bin/python3
"""The torque optimization of slider-crank-design in two pictures (README.md, "Optimization"):

  convergence.png   the objective and the projected gradient's norm per iteration of `catena
                    optimize` (its optimize.csv), on logarithmic scales, as Hou's Fig. B.6;
  tracking.png      the slider's x against the path eta(t) it should follow, for the start's run
                    and the optimum's (their sensors.csv), with the torques H(t) below.

usage: plot_optimization.py OPTIMUM_DIR START_DIR OUT_FOLDER
  OPTIMUM_DIR  the directory of `catena optimize ... --out OPTIMUM_DIR` (optimize.csv, optimize.json,
               sensors.csv of the optimum's run)
  START_DIR    `catena run cases/slider-crank-design/model.yaml --out START_DIR` (a0 = a1 = a2 = 1)
"""
import csv
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ALPHA, BETA = 3.0, 1.73191326  # the path's ends, as in model.yaml


def columns(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def eta(t):
    return ALPHA + (BETA - ALPHA) * (10 * t**3 - 15 * t**4 + 6 * t**5)


def main(optimum_dir, start_dir, out):
    optimum_dir, start_dir, out = Path(optimum_dir), Path(start_dir), Path(out)
    history = columns(optimum_dir / "optimize.csv")
    result = json.loads((optimum_dir / "optimize.json").read_text())
    a = [result["parameters"][f"a{i}"]["value"] for i in range(3)]

    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    ax.semilogy(history["iteration"], history["objective"], "o-", label="objective Ψ")
    ax.semilogy(history["iteration"], history["projected_gradient_norm"], "s--", label="|projected gradient|")
    ax.set_xlabel("iteration")
    ax.set_title("catena optimize, slider-crank-design (TAO BLMVM)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "convergence.png", dpi=110)

    start, best = columns(start_dir / "sensors.csv"), columns(optimum_dir / "sensors.csv")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(5.5, 5.2), sharex=True, height_ratios=[2, 1])
    top.plot(best["t"], [eta(t) for t in best["t"]], "k-", lw=2, label="path η(t)")
    top.plot(start["t"], start["slider_x"], "--", label="start: H = 1 + t + t²")
    top.plot(best["t"], best["slider_x"], "-", label="optimum")
    top.set_ylabel("slider x [m]")
    top.legend(fontsize=8)
    top.grid(True, alpha=0.3)
    bottom.plot(start["t"], [1 + t + t * t for t in start["t"]], "--", label="start")
    bottom.plot(best["t"], [a[0] + a[1] * t + a[2] * t * t for t in best["t"]], "-",
                label=f"H = {a[0]:.3f} {a[1]:+.3f} t {a[2]:+.3f} t²")
    bottom.set_xlabel("t [s]")
    bottom.set_ylabel("torque H [N m]")
    bottom.legend(fontsize=8)
    bottom.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "tracking.png", dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
