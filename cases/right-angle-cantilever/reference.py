#!/usr/bin/python3
"""Our converged reference for cases/right-angle-cantilever (the literature gives curves only): runs
the model at n = 10, 20, 40, 80 elements per leg (dt = 0.025 s) and at dt = 0.1, 0.05, 0.025, 0.0125 s
(n = 40), and the finest, n = 80 with dt = 0.0125 s; prints the convergence table of the README (each
run's largest deviation from the finest over tip_uz and elbow_uz, every 0.05 s from 0 to 30 s, and
its extrema, in the windows of reference.yaml) and, with --csv, writes reference.csv from the finest.

Usage: cases/right-angle-cantilever/reference.py [--catena build/release/catena] [--jobs 2] [--csv]
About 10 minutes on two cores. Needs numpy (Debian's python3-numpy).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from validation.converged import main  # noqa: E402

VARIANTS = ([(f"n{n} dt0.025", [f"n={n}", "analysis.dt=0.025"]) for n in (10, 20, 40, 80)]
            + [(f"n40 dt{dt}", ["n=40", f"analysis.dt={dt}"]) for dt in (0.1, 0.05, 0.0125)]
            + [("n80 dt0.0125", ["n=80", "analysis.dt=0.0125"])])

main("right-angle-cantilever", VARIANTS, finest="n80 dt0.0125", histories=["tip_uz", "elbow_uz"], every=0.05)
