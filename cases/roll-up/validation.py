"""roll-up: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Run, ref

RUNS = [
    Run("full", sets=["n=20"]),
    Run("half", sets=["n=20", "fraction=0.5"]),
]

CHECKS = [
    Check("tip distance from the root / L, M = 2π EI/L", "full",
          lambda run: np.hypot(run.tip_x[-1] - run.ref("full_circle", "tip_x"), run.tip_y[-1] - run.ref("full_circle", "tip_y")) / run.ref("L"),
          tolerance=ref("tolerance")),
    Check("tip distance from (0, 2L/π) / L, M = π EI/L", "half",
          lambda run: np.hypot(run.tip_x[-1] - run.ref("semicircle", "tip_x"), run.tip_y[-1] - run.ref("semicircle", "tip_y")) / run.ref("L"),
          tolerance=ref("tolerance")),
]
