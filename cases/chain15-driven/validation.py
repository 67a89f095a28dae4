"""chain15-driven: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation import chain15
from validation.case import Check, Run, ref
from validation.measures import drift_in

RUNS = [
    Run("dt1e-3"),
    Run("dt5e-4", sets=["analysis.dt=5e-4"], short=["analysis.t_end=0.1"]),
]


def hanging_shape_error(run):
    """Largest |z + sag| of the three arches' middle bars at t = 0 (the closed-form hanging shape)."""
    sag = run.ref("hanging_shape", "sag")
    return max(np.abs(run.col(c)[0] + sag) for c in chain15.BARS)


CHECKS = [
    Check("max |balance − balance(0)| / (m g L), Δt = 1e-3", "dt1e-3",
          drift_in("balance", "energy_scale"),
          tolerance=ref("energy_tolerance")),
    *chain15.convergence_checks("0.05, 0.1", "0.05, 0.1"),
    Check("bars 3, 8, 13 at t = 0 on the closed-form hanging shape: max |z + sag| [ft]", "dt1e-3",
          hanging_shape_error, tolerance=ref("hanging_shape", "tolerance")),
    Check("max bar8_z (middle arch flung up) [ft], must exceed", "dt1e-3",
          lambda run: np.max(run.bar8_z), reference=ref("flung_up_height"), tolerance=0, error="below"),
]

PLOT = chain15.plot("chain15-driven")
