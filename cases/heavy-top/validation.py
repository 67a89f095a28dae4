"""heavy-top: what tools/validate runs, checks and plots; the reference quaternion is in
reference.csv (reference.py computes it), the tolerance in reference.yaml, the set-up and
discussion in README.md."""
from validation.case import Check, Panel, Plot, Points, Run, Series, column, ref, refcsv, refcsv_at, value_at

COMPONENTS = ["q0", "q1", "q2", "q3"]

RUNS = [Run("main", sets=["analysis.output_every=5"])]

CHECKS = [Check(f"{q} at t = 0.2 s", "main", value_at(q, 0.2), reference=refcsv_at("t", 0.2, q),
                tolerance=ref("tolerance")) for q in COMPONENTS]

PLOT = Plot("heavy-top: orientation quaternion (body → inertial)", [
    Panel("quaternion component [–]",
          series=[Series("main", column(q), label=q) for q in COMPONENTS],
          points=[Points(refcsv("t"), refcsv(q), label=f"reference {q} (RK4)", color=f"C{k}")
                  for k, q in enumerate(COMPONENTS)]),
])
