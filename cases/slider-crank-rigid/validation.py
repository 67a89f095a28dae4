"""slider-crank-rigid: what tools/validate runs, checks and plots; the references are in reference.csv
(double-pendulum-follower/reference.py recomputes them), the tolerance in reference.yaml, the set-up
and discussion in README.md."""
from validation.case import Check, Panel, Plot, Points, Run, Series, column, ref, refcsv, refcsv_at, value_at

SENSORS = {"theta1": "rad", "omega1": "rad/s"}

RUNS = [Run("main")]

CHECKS = [Check(f"{name} at t = {t} s [{unit}]", "main", value_at(name, t), reference=refcsv_at("t", t, name),
                tolerance=ref("tolerance")) for t in (0.1, 0.5, 1.0) for name, unit in SENSORS.items()]

PLOT = Plot("slider-crank-rigid: crank angle and rate", [
    Panel(f"{name} [{unit}]", series=[Series("main", column(name), label="Catena")],
          points=[Points(refcsv("t"), refcsv(name), label="reference (Hou, recomputed)")])
    for name, unit in SENSORS.items()
])
