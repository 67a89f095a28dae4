"""buckling-torsion: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
from validation.case import Check, Run, ref

RUNS = [
    Run("n16", sets=["n=16"]),
    Run("n4", sets=["n=4"]),
]

CHECKS = [
    Check("M_cr / M_th, 16 elements (critical_load_factor_linear)", "n16",
          lambda run: run.summary("critical_load_factor_linear"),
          reference=ref("reference"),
          tolerance=ref("tolerance"),
          error="rel"),
    Check("M_cr / M_th, 4 elements (Meijaard, 2nd order: 1.0005; not a check of ours)", "n4",
          lambda run: run.summary("critical_load_factor_linear"),
          reference=ref("reference"),
          error="rel"),
]
