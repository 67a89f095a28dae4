"""spin-up-haug: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import psi_spin_up

RUNS = [
    Run("extreme", short=["analysis.t_end=7.5"]),
]

CHECKS = [
    Check("extreme tip_deflection [m]", "extreme",
          lambda run: np.min(run.tip_deflection),
          reference=ref("extreme_tip_deflection"),
          tolerance=ref("extreme_tolerance"),
          error="rel"),
    Check("max |hub_angle − ψ(t)| [rad]", "extreme",
          lambda run: np.max(np.abs(run.hub_angle - psi_spin_up(run.t, run.ref("omega_s"), run.ref("T_s")))),
          tolerance=1e-09),
]

PLOT = Plot("spin-up-haug: tip deflection in the hub frame", [
    Panel("tip_deflection [m]",
          series=[
              Series("extreme", lambda run: run.tip_deflection, label="Catena, Δt = 0.01 s")],
          lines=[
              Line(ref("extreme_tip_deflection"), label="reference extreme (Meijaard)"),
              Line(lambda run: run.ref("extreme_tip_deflection") * (1 - run.ref("extreme_tolerance")), label="±1 %", style=":"),
              Line(lambda run: run.ref("extreme_tip_deflection") * (1 + run.ref("extreme_tolerance")), style=":")]),
])
