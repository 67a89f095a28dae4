"""heavy-top: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
from validation.case import Check, Panel, Plot, Points, Run, Series, refcsv_at

RUNS = [
    Run("main", sets=["analysis.output_every=5"]),
]

CHECKS = [
    Check("q0 at t = 0.2 s", "main",
          lambda run: run.at(run.q0, 0.2),
          reference=refcsv_at("t", 0.2, "q0"),
          tolerance=0.001),
    Check("q1 at t = 0.2 s", "main",
          lambda run: run.at(run.q1, 0.2),
          reference=refcsv_at("t", 0.2, "q1"),
          tolerance=0.001),
    Check("q2 at t = 0.2 s", "main",
          lambda run: run.at(run.q2, 0.2),
          reference=refcsv_at("t", 0.2, "q2"),
          tolerance=0.001),
    Check("q3 at t = 0.2 s", "main",
          lambda run: run.at(run.q3, 0.2),
          reference=refcsv_at("t", 0.2, "q3"),
          tolerance=0.001),
]

PLOT = Plot("heavy-top: orientation quaternion (body → inertial)", [
    Panel("quaternion component [–]",
          series=[
              Series("main", lambda run: run.q0, label="q0"),
              Series("main", lambda run: run.q1, label="q1"),
              Series("main", lambda run: run.q2, label="q2"),
              Series("main", lambda run: run.q3, label="q3")],
          points=[
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("q0"), label="reference q0 (RK4)", color="C0"),
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("q1"), label="reference q1 (RK4)", color="C1"),
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("q2"), label="reference q2 (RK4)", color="C2"),
              Points(lambda run: run.refcsv("t"), lambda run: run.refcsv("q3"), label="reference q3 (RK4)", color="C3")]),
])
