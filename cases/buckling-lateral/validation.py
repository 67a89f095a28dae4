"""buckling-lateral: what tools/validate runs and checks; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
from validation.case import Check, Run, ref, summary

RUNS = [Run("n8", sets=["n=8"]), Run("n4", sets=["n=4"])]

CHECKS = [
    Check("F_cr / F_th, 8 elements (critical_load_factor_linear)", "n8", summary("critical_load_factor_linear"),
          reference=ref("reference"), tolerance=ref("tolerance"), error="rel"),
    Check("F_cr / F_th, 4 elements (Meijaard, 2nd order: 1.0153; not a check of ours)", "n4",
          summary("critical_load_factor_linear"), reference=ref("reference"), error="rel"),
]
