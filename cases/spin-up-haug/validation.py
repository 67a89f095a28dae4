"""spin-up-haug: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
from validation import spin_up
from validation.case import Panel, Plot, Run, Series

RUNS = [Run("extreme", short=["analysis.t_end=7.5"])]

CHECKS = spin_up.EXTREME_CHECKS

PLOT = Plot("spin-up-haug: tip deflection in the hub frame", [
    Panel("tip_deflection [m]",
          series=[Series("extreme", lambda run: run.tip_deflection, label="Catena, Δt = 0.01 s")],
          lines=spin_up.extreme_lines()),
])
