"""bathe-pendulum: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import deviation_in, drift_in

RUNS = [
    Run("dt0.1"),
    Run("dt0.5", sets=["analysis.dt=0.5"]),
]

CHECKS = [
    Check("max |E − E0| / (m g l), Δt = 0.1 s, 10 periods", "dt0.1",
          drift_in("balance", "energy_scale"),
          tolerance=ref("energy_tolerance")),
    Check("max |E − E0| / (m g l), Δt = 0.5 s, 10 periods", "dt0.5",
          drift_in("balance", "energy_scale"),
          tolerance=ref("energy_tolerance")),
    Check("max ||tip| − l| [m], Δt = 0.1 s", "dt0.1",
          lambda run: np.max(np.abs(np.sqrt(run.tip_x ** 2 + run.tip_y ** 2) - run.ref("l"))),
          tolerance=ref("circle_tolerance")),
]

PLOT = Plot("bathe-pendulum: energy-conserving midpoint scheme (Crisfield & Shi)", [
    Panel("bob position [m]",
          series=[
              Series("dt0.1", lambda run: run.tip_x, label="tip_x, Δt = 0.1 s"),
              Series("dt0.1", lambda run: run.tip_y, label="tip_y, Δt = 0.1 s"),
              Series("dt0.5", lambda run: run.tip_x, label="tip_x, Δt = 0.5 s", style="--")]),
    Panel("|E − E0| / (m g l) [–]",
          series=[
              Series("dt0.1", deviation_in("balance", "energy_scale"), label="Δt = 0.1 s"),
              Series("dt0.5", deviation_in("balance", "energy_scale"), label="Δt = 0.5 s")],
          lines=[
              Line(ref("energy_tolerance"), label="tolerance 1e-9 m g l")],
          yscale="log"),
])
