#!/usr/bin/python3
"""Our converged reference for cases/flying-spaghetti-3d (the literature gives pictures only): runs the
model at n = 10, 20, 40, 80, 160 elements (dt = 0.0125 s) and at dt = 0.05, 0.025 s (n = 80); prints
the convergence table of the README (each run's largest deviation from the finest, n = 160 with
dt = 0.0125 s, over the end point's position b_x, b_y, b_z every 0.05 s from 0 to 30 s) and, with
--csv, writes reference.csv from the finest.

Usage: cases/flying-spaghetti-3d/reference.py [--catena build/release/catena] [--jobs 2] [--csv]
About 5 minutes on two cores. Needs numpy (Debian's python3-numpy).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from validation.converged import main  # noqa: E402

VARIANTS = ([(f"n{n} dt0.0125", [f"n={n}", "analysis.dt=0.0125"]) for n in (10, 20, 40, 80, 160)]
            + [(f"n80 dt{dt}", ["n=80", f"analysis.dt={dt}"]) for dt in (0.05, 0.025)])

main("flying-spaghetti-3d", VARIANTS, finest="n160 dt0.0125", histories=["b_x", "b_y", "b_z"], every=0.05)
