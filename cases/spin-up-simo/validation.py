"""spin-up-simo: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation import spin_up
from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import amplitude, drift_in

RUNS = [
    Run("extreme", short=["analysis.t_end=7.5"]),
    Run("residual", sets=["analysis.dt=0.0025"], short=["analysis.t_end=17"]),
]

CHECKS = spin_up.EXTREME_CHECKS + [
    Check("residual amplitude ½ (max − min) of tip_deflection, t > 15 s [m], Δt = 0.0025 s", "residual",
          lambda run: amplitude(run.after(run.tip_deflection, 15)),
          reference=ref("residual_amplitude"), tolerance=ref("residual_tolerance"), error="rel"),
    Check("max |balance − balance(0)| / (½ ρA L³ ω_s² / 3)", "extreme", drift_in("balance", "energy_scale"),
          tolerance=ref("energy_tolerance")),
]


def residual_band(sign):
    """The mean of the residual vibration (t > 15 s) plus or minus the reference amplitude."""
    return lambda run: np.mean(run.after(run.tip_deflection, 15)) + sign * run.ref("residual_amplitude")


PLOT = Plot("spin-up-simo: tip deflection in the hub frame", [
    Panel("tip_deflection [m]",
          series=[Series("residual", lambda run: run.tip_deflection, label="Catena, Δt = 0.0025 s")],
          lines=spin_up.extreme_lines()),
    Panel("tip_deflection, t > 14 s [m]",
          series=[Series("residual", lambda run: run.tip_deflection, label="Catena, Δt = 0.0025 s", start=14)],
          lines=[Line(residual_band(+1), label="mean ± reference amplitude 0.0037 m", run="residual"),
                 Line(residual_band(-1), run="residual")],
          xmin=14),
])
