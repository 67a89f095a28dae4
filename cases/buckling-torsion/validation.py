"""buckling-torsion: what tools/validate runs and checks; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
from validation.case import Check, Run, ref, summary

RUNS = [Run("n16", sets=["n=16"]), Run("n4", sets=["n=4"])]

CHECKS = [
    Check("M_cr / M_th, 16 elements (critical_load_factor_linear)", "n16", summary("critical_load_factor_linear"),
          reference=ref("reference"), tolerance=ref("tolerance"), error="rel"),
    Check("M_cr / M_th, 4 elements (Meijaard, 2nd order: 1.0005; not a check of ours)", "n4",
          summary("critical_load_factor_linear"), reference=ref("reference"), error="rel"),
]
