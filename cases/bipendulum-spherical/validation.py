"""bipendulum-spherical: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import floor_log

RUNS = [
    Run("main", short=["analysis.t_end=2"]),
    Run("dt0.004", sets=["analysis.t_end=1", "analysis.dt=0.004", "analysis.output_every=1"]),
    Run("dt0.002", sets=["analysis.t_end=1", "analysis.dt=0.002", "analysis.output_every=1"]),
    Run("dt0.001", sets=["analysis.t_end=1", "analysis.dt=0.001", "analysis.output_every=1"]),
]

CHECKS = [
    Check("max |balance − balance(0)| / K0", "main",
          lambda run: run.drift(run.balance) / run.ref("energy_scale_K0"),
          tolerance=ref("checks", "balance", "tolerance")),
    Check("max |Lz − Lz(0)| / K0", "main",
          lambda run: run.drift(run.Lz) / run.ref("energy_scale_K0"),
          tolerance=1e-08),
    Check("ground joint: max ||x(bar1)| − L/2| [ft]", "main",
          lambda run: np.max(np.abs(np.sqrt(run.cm1_x ** 2 + run.cm1_y ** 2 + run.cm1_z ** 2) - 0.5)),
          tolerance=1e-10),
    Check("convergence ratio of cm2_z(1), Δt = 0.004, 0.002, 0.001", "dt0.001",
          lambda run: (run.other("dt0.004", "cm2_z", 1) - run.other("dt0.002", "cm2_z", 1)) / (run.other("dt0.002", "cm2_z", 1) - run.other("dt0.001", "cm2_z", 1)),
          reference=4,
          tolerance=0.5),
]

PLOT = Plot("bipendulum-spherical: bar 2's centre (no published curve; Δt = 0.004 for comparison)", [
    Panel("bar 2 centre [ft]",
          series=[
              Series("main", lambda run: run.cm2_x, label="cm2_x, Δt = 0.001"),
              Series("main", lambda run: run.cm2_y, label="cm2_y, Δt = 0.001"),
              Series("main", lambda run: run.cm2_z, label="cm2_z, Δt = 0.001"),
              Series("dt0.004", lambda run: run.cm2_z, label="cm2_z, Δt = 0.004", style="--")]),
    Panel("|x(t) − x(0)| / K0 [–]",
          series=[
              Series("main", lambda run: floor_log(np.abs(run.balance - run.balance[0]) / run.ref("energy_scale_K0")), label="balance"),
              Series("main", lambda run: floor_log(np.abs(run.Lz - run.Lz[0]) / run.ref("energy_scale_K0")), label="Lz")],
          lines=[
              Line(1e-08, label="tolerance 1e-8 K0")],
          yscale="log"),
])
