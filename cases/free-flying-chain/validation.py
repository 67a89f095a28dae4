"""free-flying-chain: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import floor_log, midpoint_rate

RUNS = [
    Run("dt0.1"),
]

CHECKS = [
    Check("max |left_tip_ux − 200 (1 − cos ω̃t)| [m], Δt = 0.1 s, 0–20 s", "dt0.1",
          lambda run: np.max(np.abs(run.left_tip_ux - run.ref("amplitude") * (1 - np.cos(midpoint_rate(run.ref("omega"), 0.1) * run.t)))),
          tolerance=ref("tip_tolerance")),
    Check("max |E − E0| / K0, Δt = 0.1 s", "dt0.1",
          lambda run: run.drift(run.balance) / run.ref("energy_scale"),
          tolerance=ref("energy_tolerance")),
]

PLOT = Plot("free-flying-chain: left tip against the midpoint rule's exact rigid rotation", [
    Panel("left_tip_ux [m]",
          series=[
              Series("dt0.1", lambda run: run.left_tip_ux, label="Catena, Δt = 0.1 s")],
          curves=[
              Series("dt0.1", lambda run: run.ref("amplitude") * (1 - np.cos(midpoint_rate(run.ref("omega"), 0.1) * run.t)), label="reference 200 (1 − cos ω̃t)")]),
    Panel("|Catena − reference| [m]",
          series=[
              Series("dt0.1", lambda run: floor_log(np.abs(run.left_tip_ux - run.ref("amplitude") * (1 - np.cos(midpoint_rate(run.ref("omega"), 0.1) * run.t)))), label="error")],
          lines=[
              Line(ref("tip_tolerance"), label="tolerance 0.4 m")],
          yscale="log"),
])
