"""double-pendulum-follower: what tools/validate runs, checks and plots; the references are in
reference.csv (reference.py recomputes them), the tolerance in reference.yaml, the set-up and
discussion in README.md."""
from validation.case import Check, Panel, Plot, Points, Run, Series, column, ref, refcsv, refcsv_at, value_at

PANELS = {"angle [rad]": ["theta1", "theta2"], "angular velocity [rad/s]": ["omega1", "omega2"]}
UNITS = {"theta1": "rad", "theta2": "rad", "omega1": "rad/s", "omega2": "rad/s"}

RUNS = [Run("main")]

CHECKS = [Check(f"{name} at t = 1 s [{unit}]", "main", value_at(name, 1.0), reference=refcsv_at("t", 1.0, name),
                tolerance=ref("tolerance")) for name, unit in UNITS.items()]

PLOT = Plot("double-pendulum-follower: link angles and rates (θ2, ω2 absolute)", [
    Panel(ylabel,
          series=[Series("main", column(name), label=name) for name in names],
          points=[Points(refcsv("t"), refcsv(name), label=f"reference {name}", color=f"C{k}")
                  for k, name in enumerate(names)])
    for ylabel, names in PANELS.items()
])
