"""double-pendulum-follower: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
from validation.case import Check, Panel, Plot, Points, Run, Series, refcsv_at

RUNS = [
    Run("main"),
]

CHECKS = [
    Check("theta1 at t = 1 s [rad]", "main",
          lambda run: run.at(run.theta1, 1.0),
          reference=refcsv_at("t", 1.0, "theta1"),
          tolerance=0.001),
    Check("theta2 at t = 1 s [rad]", "main",
          lambda run: run.at(run.theta2, 1.0),
          reference=refcsv_at("t", 1.0, "theta2"),
          tolerance=0.001),
    Check("omega1 at t = 1 s [rad/s]", "main",
          lambda run: run.at(run.omega1, 1.0),
          reference=refcsv_at("t", 1.0, "omega1"),
          tolerance=0.001),
    Check("omega2 at t = 1 s [rad/s]", "main",
          lambda run: run.at(run.omega2, 1.0),
          reference=refcsv_at("t", 1.0, "omega2"),
          tolerance=0.001),
]

PLOT = Plot("double-pendulum-follower: link angles and rates (θ2, ω2 absolute)", [
    Panel("angle [rad]",
          series=[
              Series("main", lambda run: run.theta1, label="theta1"),
              Series("main", lambda run: run.theta2, label="theta2")],
          points=[
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("theta1"), label="reference theta1", color="C0"),
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("theta2"), label="reference theta2", color="C1")]),
    Panel("angular velocity [rad/s]",
          series=[
              Series("main", lambda run: run.omega1, label="omega1"),
              Series("main", lambda run: run.omega2, label="omega2")],
          points=[
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("omega1"), label="reference omega1", color="C0"),
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("omega2"), label="reference omega2", color="C1")]),
])
