"""chain15-falling: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the independent planar reference in reference.py, the set-up and discussion in
README.md."""
from validation import chain15
from validation.case import Check, Run, ref
from validation.measures import drift_in

RUNS = [
    Run("dt1e-3", short=["analysis.t_end=0.4"]),
    Run("dt5e-4", sets=["analysis.dt=5e-4"], short=["analysis.t_end=0.4"]),
    Run("held", sets=["release=1", "analysis.t_end=0.02"]),
]

CHECKS = [
    Check("max |balance − balance(0)| / (m g L), Δt = 1e-3", "dt1e-3",
          drift_in("balance", "energy_scale"),
          tolerance=ref("energy_tolerance")),
    *chain15.convergence_checks("0.1, 0.2, 0.3, 0.4", "0.1, 0.2, 0.3"),
    Check("joint8_force held at the four points (static hanging shape) [lbf]", "held",
          lambda run: run.joint8_force[-1],
          reference=ref("hanging_shape", "joint8_force"),
          tolerance=ref("hanging_shape", "joint8_force_tolerance"), error="rel"),
]

PLOT = chain15.plot("chain15-falling")
