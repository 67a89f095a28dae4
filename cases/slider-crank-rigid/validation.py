"""slider-crank-rigid: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
from validation.case import Check, Panel, Plot, Points, Run, Series, refcsv_at

RUNS = [
    Run("main"),
]

CHECKS = [
    Check("theta1 at t = 0.1 s [rad]", "main",
          lambda run: run.at(run.theta1, 0.1),
          reference=refcsv_at("t", 0.1, "theta1"),
          tolerance=0.001),
    Check("omega1 at t = 0.1 s [rad/s]", "main",
          lambda run: run.at(run.omega1, 0.1),
          reference=refcsv_at("t", 0.1, "omega1"),
          tolerance=0.001),
    Check("theta1 at t = 0.5 s [rad]", "main",
          lambda run: run.at(run.theta1, 0.5),
          reference=refcsv_at("t", 0.5, "theta1"),
          tolerance=0.001),
    Check("omega1 at t = 0.5 s [rad/s]", "main",
          lambda run: run.at(run.omega1, 0.5),
          reference=refcsv_at("t", 0.5, "omega1"),
          tolerance=0.001),
    Check("theta1 at t = 1.0 s [rad]", "main",
          lambda run: run.at(run.theta1, 1.0),
          reference=refcsv_at("t", 1.0, "theta1"),
          tolerance=0.001),
    Check("omega1 at t = 1.0 s [rad/s]", "main",
          lambda run: run.at(run.omega1, 1.0),
          reference=refcsv_at("t", 1.0, "omega1"),
          tolerance=0.001),
]

PLOT = Plot("slider-crank-rigid: crank angle and rate", [
    Panel("theta1 [rad]",
          series=[
              Series("main", lambda run: run.theta1, label="Catena")],
          points=[
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("theta1"), label="reference (Hou, recomputed)")]),
    Panel("omega1 [rad/s]",
          series=[
              Series("main", lambda run: run.omega1, label="Catena")],
          points=[
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("omega1"), label="reference (Hou, recomputed)")]),
])
