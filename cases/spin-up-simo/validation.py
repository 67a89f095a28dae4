"""spin-up-simo: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import amplitude, psi_spin_up

RUNS = [
    Run("extreme", short=["analysis.t_end=7.5"]),
    Run("residual", sets=["analysis.dt=0.0025"], short=["analysis.t_end=17"]),
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
    Check("residual amplitude ½ (max − min) of tip_deflection, t > 15 s [m], Δt = 0.0025 s", "residual",
          lambda run: amplitude(run.after(run.tip_deflection, 15)),
          reference=ref("residual_amplitude"),
          tolerance=ref("residual_tolerance"),
          error="rel"),
    Check("max |balance − balance(0)| / (½ ρA L³ ω_s² / 3)", "extreme",
          lambda run: run.drift(run.balance) / 7200,
          tolerance=1e-08),
]

PLOT = Plot("spin-up-simo: tip deflection in the hub frame", [
    Panel("tip_deflection [m]",
          series=[
              Series("residual", lambda run: run.tip_deflection, label="Catena, Δt = 0.0025 s")],
          lines=[
              Line(ref("extreme_tip_deflection"), label="reference extreme (Meijaard)"),
              Line(lambda run: run.ref("extreme_tip_deflection") * (1 - run.ref("extreme_tolerance")), label="±1 %", style=":"),
              Line(lambda run: run.ref("extreme_tip_deflection") * (1 + run.ref("extreme_tolerance")), style=":")]),
    Panel("tip_deflection, t > 14 s [m]",
          series=[
              Series("residual", lambda run: run.tip_deflection, label="Catena, Δt = 0.0025 s", start=14)],
          lines=[
              Line(lambda run: np.mean(run.after(run.tip_deflection, 15)) + run.ref("residual_amplitude"), label="mean ± reference amplitude 0.0037 m", run="residual"),
              Line(lambda run: np.mean(run.after(run.tip_deflection, 15)) - run.ref("residual_amplitude"), run="residual")],
          xmin=14),
])
