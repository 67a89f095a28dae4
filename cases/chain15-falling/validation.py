"""chain15-falling: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Panel, Plot, Points, Run, Series, ref
from validation.measures import floor_log

RUNS = [
    Run("dt1e-3", short=["analysis.t_end=0.4"]),
    Run("dt5e-4", sets=["analysis.dt=5e-4"], short=["analysis.t_end=0.4"]),
    Run("held", sets=["release=1", "analysis.t_end=0.02"]),
]

CHECKS = [
    Check("max |balance − balance(0)| / (m g L), Δt = 1e-3", "dt1e-3",
          lambda run: run.drift(run.balance) / run.ref("energy_scale"),
          tolerance=ref("energy_tolerance")),
    Check("max |Δz| of bar3/8/13_z, Δt = 1e-3 vs 5e-4, t = 0.1, 0.2, 0.3, 0.4 [ft]", "dt5e-4",
          lambda run: max((np.abs(run.other("dt1e-3", c, s) - run.other("dt5e-4", c, s)) for c in ["bar3_z", "bar8_z", "bar13_z"] for s in [0.1, 0.2, 0.3, 0.4])),
          tolerance=ref("convergence", "positions")),
    Check("max relative change of joint8_force, Δt = 1e-3 vs 5e-4, t = 0.1, 0.2, 0.3", "dt5e-4",
          lambda run: max((np.abs(run.other("dt1e-3", "joint8_force", s) / run.other("dt5e-4", "joint8_force", s) - 1) for s in [0.1, 0.2, 0.3])),
          tolerance=ref("convergence", "joint8_force")),
    Check("max |bar3/8/13_z − reference.yaml (Δt = 2.5e-4)|, Δt = 1e-3, t = 0.1, 0.2, 0.3, 0.4 [ft]", "dt1e-3",
          lambda run: max((np.abs(run.at(run.col(c), r["t"]) - r[c]) for r in run.ref("sensors_dt_2.5e-4") if r["t"] <= 0.4 + 1e-9 for c in ["bar3_z", "bar8_z", "bar13_z"])),
          tolerance=ref("convergence", "positions")),
    Check("joint8_force held at the four points (static hanging shape) [lbf]", "held",
          lambda run: run.joint8_force[-1],
          reference=ref("hanging_shape", "joint8_force"),
          tolerance=1e-08,
          error="rel"),
]

PLOT = Plot("chain15-falling: bar centres and joint 8 force (no published curve; Δt halved for comparison)", [
    Panel("bar centre z [ft]",
          series=[
              Series("dt1e-3", lambda run: run.bar3_z, label="bar3_z, Δt = 1e-3"),
              Series("dt1e-3", lambda run: run.bar8_z, label="bar8_z, Δt = 1e-3"),
              Series("dt1e-3", lambda run: run.bar13_z, label="bar13_z, Δt = 1e-3"),
              Series("dt5e-4", lambda run: run.bar8_z, label="bar8_z, Δt = 5e-4", style="--", color="C1")],
          points=[
              Points(lambda run: [r["t"] for r in run.ref("sensors_dt_2.5e-4")], lambda run: [r["bar8_z"] for r in run.ref("sensors_dt_2.5e-4")], label="bar8_z, Δt = 2.5e-4 (reference.yaml)", color="C1")]),
    Panel("joint8_force [lbf]",
          series=[
              Series("dt1e-3", lambda run: floor_log(run.joint8_force), label="Δt = 1e-3"),
              Series("dt5e-4", lambda run: floor_log(run.joint8_force), label="Δt = 5e-4", style="--")],
          points=[
              Points(lambda run: [r["t"] for r in run.ref("sensors_dt_2.5e-4")], lambda run: [r["joint8_force"] for r in run.ref("sensors_dt_2.5e-4")], label="Δt = 2.5e-4 (reference.yaml)")],
          yscale="log"),
])
