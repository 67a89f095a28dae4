"""bipendulum-damped: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import drift_in

RUNS = [
    Run("c1.0", sets=["damping=1.0"], short=["analysis.t_end=8"]),
    Run("c0.2", sets=["damping=0.2"], short=["analysis.t_end=20"]),
    Run("c0.05", sets=["damping=0.05"], short=["analysis.t_end=20"]),
]

CHECKS = [
    Check("hinge_angle at the end − φ* [rad], c = 1.0", "c1.0",
          lambda run: run.hinge_angle[-1],
          reference=ref("hinge_angle_equilibrium"),
          tolerance=ref("tolerance")),
    Check("hinge_angle at the end − φ* [rad], c = 0.2", "c0.2",
          lambda run: run.hinge_angle[-1],
          reference=ref("hinge_angle_equilibrium"),
          tolerance=ref("tolerance")),
    Check("max |balance − balance(0)| / K0, c = 0.2", "c0.2",
          drift_in("balance", "energy_scale_K0"),
          tolerance=ref("energy_tolerance")),
]

PLOT = Plot("bipendulum-damped: hinge angle settling at the closed-form equilibrium", [
    Panel("hinge_angle [rad]",
          series=[
              Series("c1.0", lambda run: run.hinge_angle, label="c = 1.0"),
              Series("c0.2", lambda run: run.hinge_angle, label="c = 0.2"),
              Series("c0.05", lambda run: run.hinge_angle, label="c = 0.05 (plot only)")],
          lines=[
              Line(ref("hinge_angle_equilibrium"), label="closed-form φ* = 0.97803 rad")]),
])
