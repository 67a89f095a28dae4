"""chain15-driven: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Panel, Plot, Points, Run, Series, ref
from validation.measures import floor_log

RUNS = [
    Run("dt1e-3"),
    Run("dt5e-4", sets=["analysis.dt=5e-4"], short=["analysis.t_end=0.1"]),
]

CHECKS = [
    Check("max |balance − balance(0)| / (m g L), Δt = 1e-3", "dt1e-3",
          lambda run: run.drift(run.balance) / run.ref("energy_scale"),
          tolerance=ref("energy_tolerance")),
    Check("max |Δz| of bar3/8/13_z, Δt = 1e-3 vs 5e-4, t = 0.05, 0.1 [ft]", "dt5e-4",
          lambda run: max((np.abs(run.other("dt1e-3", c, s) - run.other("dt5e-4", c, s)) for c in ["bar3_z", "bar8_z", "bar13_z"] for s in [0.05, 0.1])),
          tolerance=ref("convergence", "positions")),
    Check("max relative change of joint8_force, Δt = 1e-3 vs 5e-4, t = 0.05, 0.1", "dt5e-4",
          lambda run: max((np.abs(run.other("dt1e-3", "joint8_force", s) / run.other("dt5e-4", "joint8_force", s) - 1) for s in [0.05, 0.1])),
          tolerance=ref("convergence", "joint8_force")),
    Check("max |bar3/8/13_z − reference.yaml (Δt = 2.5e-4)|, Δt = 1e-3, t = 0.05, 0.1 [ft]", "dt1e-3",
          lambda run: max((np.abs(run.at(run.col(c), r["t"]) - r[c]) for r in run.ref("sensors_dt_2.5e-4") if r["t"] <= 0.1 + 1e-9 for c in ["bar3_z", "bar8_z", "bar13_z"])),
          tolerance=ref("convergence", "positions")),
    Check("bars 3, 8, 13 at t = 0 on the closed-form hanging shape: max |z + sag| [ft]", "dt1e-3",
          lambda run: max(np.abs(run.bar3_z[0] + run.ref("hanging_shape", "sag")), np.abs(run.bar8_z[0] + run.ref("hanging_shape", "sag")), np.abs(run.bar13_z[0] + run.ref("hanging_shape", "sag"))),
          tolerance=ref("hanging_shape", "tolerance")),
    Check("max bar8_z (middle arch flung up) [ft], must exceed", "dt1e-3",
          lambda run: np.max(run.bar8_z),
          reference=0.5,
          tolerance=0,
          error="below"),
]

PLOT = Plot("chain15-driven: bar centres and joint 8 force (no published curve; Δt halved for comparison)", [
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
