"""free-flying-chain: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import drift_in, floor_log, midpoint_rate

RUNS = [Run("dt0.1")]

STEP = 0.1  # s, the model's analysis.dt (run as is)


def discrete_rotation(run):
    """left_tip_ux of the chain turning rigidly as the midpoint rule turns it: 200 (1 - cos w t)."""
    return run.ref("amplitude") * (1 - np.cos(midpoint_rate(run.ref("omega"), STEP) * run.t))


CHECKS = [
    Check("max |left_tip_ux − 200 (1 − cos ω̃t)| [m], Δt = 0.1 s, 0–20 s", "dt0.1",
          lambda run: np.max(np.abs(run.left_tip_ux - discrete_rotation(run))),
          tolerance=ref("tip_tolerance")),
    Check("max |E − E0| / K0, Δt = 0.1 s", "dt0.1",
          drift_in("balance", "energy_scale"),
          tolerance=ref("energy_tolerance")),
]

PLOT = Plot("free-flying-chain: left tip against the midpoint rule's exact rigid rotation", [
    Panel("left_tip_ux [m]",
          series=[
              Series("dt0.1", lambda run: run.left_tip_ux, label="Catena, Δt = 0.1 s")],
          curves=[
              Series("dt0.1", lambda run: discrete_rotation(run), label="reference 200 (1 − cos ω̃t)")]),
    Panel("|Catena − reference| [m]",
          series=[
              Series("dt0.1", lambda run: floor_log(np.abs(run.left_tip_ux - discrete_rotation(run))), label="error")],
          lines=[
              Line(ref("tip_tolerance"), label="tolerance 0.4 m")],
          yscale="log"),
])
