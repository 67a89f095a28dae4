"""roll-up: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Run, ref

RUNS = [
    Run("full", sets=["n=20"]),
    Run("half", sets=["n=20", "fraction=0.5"]),
]



def tip_distance(expected):
    """Distance of the final tip from reference.yaml's expected point, over L."""
    return lambda run: np.hypot(run.tip_x[-1] - run.ref(expected, "tip_x"),
                                run.tip_y[-1] - run.ref(expected, "tip_y")) / run.ref("L")


CHECKS = [
    Check("tip distance from the root / L, M = 2π EI/L", "full", tip_distance("full_circle"),
          tolerance=ref("tolerance")),
    Check("tip distance from (0, 2L/π) / L, M = π EI/L", "half", tip_distance("semicircle"),
          tolerance=ref("tolerance")),
]
