"""large-deflection-cantilever: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
from validation.case import Check, Run, ref

RUNS = [
    Run("large"),
    Run("linear", sets=["F=6.25e4"]),
]

CHECKS = [
    Check("tip_ux [m], F = 6.25e7 N", "large",
          lambda run: run.tip_ux[-1],
          reference=ref("large", "tip_ux"),
          tolerance=ref("large", "tolerance"),
          error="rel"),
    Check("tip_uy [m], F = 6.25e7 N", "large",
          lambda run: run.tip_uy[-1],
          reference=ref("large", "tip_uy"),
          tolerance=ref("large", "tolerance"),
          error="rel"),
    Check("tip_uy [m], F = 6.25e4 N (linear)", "linear",
          lambda run: run.tip_uy[-1],
          reference=ref("linear", "tip_uy"),
          tolerance=ref("linear", "tolerance"),
          error="rel"),
]
