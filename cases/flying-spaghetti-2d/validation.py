"""flying-spaghetti-2d: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (or reference.csv), the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import floor_log

RUNS = [
    Run("main"),
]

CHECKS = [
    Check("max |(K + S)(t) − (K + S)(2.5)| / E(2.5), t ≥ 2.5", "main",
          lambda run: run.drift(run.kinetic + run.strain, run.ref("t_free")) / run.at(run.kinetic + run.strain, run.ref("t_free")),
          tolerance=ref("energy_tolerance")),
    Check("max |balance − balance(0)| / E(2.5), 0–15 s", "main",
          lambda run: run.drift(run.balance) / run.at(run.kinetic + run.strain, run.ref("t_free")),
          tolerance=ref("energy_tolerance")),
    Check("max drift of px, py, pz after 2.5 / E(2.5)", "main",
          lambda run: max(run.drift(run.px, run.ref("t_free")), run.drift(run.py, run.ref("t_free")), run.drift(run.pz, run.ref("t_free"))) / run.at(run.kinetic + run.strain, run.ref("t_free")),
          tolerance=ref("energy_tolerance")),
    Check("max drift of Lx, Ly, Lz after 2.5 / E(2.5)", "main",
          lambda run: max(run.drift(run.Lx, run.ref("t_free")), run.drift(run.Ly, run.ref("t_free")), run.drift(run.Lz, run.ref("t_free"))) / run.at(run.kinetic + run.strain, run.ref("t_free")),
          tolerance=ref("energy_tolerance")),
    Check("planarity: max |tip_z|, |pz|, |Lx|, |Ly|", "main",
          lambda run: max(np.max(np.abs(run.tip_z)), np.max(np.abs(run.pz)), np.max(np.abs(run.Lx)), np.max(np.abs(run.Ly))),
          tolerance=ref("planarity_tolerance")),
]

PLOT = Plot("flying-spaghetti-2d: energy and momenta (loads removed at t = 2.5 s)", [
    Panel("energy [J]",
          series=[
              Series("main", lambda run: run.kinetic, label="kinetic"),
              Series("main", lambda run: run.strain, label="strain"),
              Series("main", lambda run: run.kinetic + run.strain, label="kinetic + strain"),
              Series("main", lambda run: run.external_work, label="external work", style="--")]),
    Panel("momentum [N s], [N m s]",
          series=[
              Series("main", lambda run: run.px, label="px"),
              Series("main", lambda run: run.py, label="py"),
              Series("main", lambda run: run.Lz, label="Lz")]),
    Panel("|x(t) − x(2.5)| / E(2.5) [–]",
          series=[
              Series("main", lambda run: floor_log(np.abs(run.kinetic + run.strain - run.at(run.kinetic + run.strain, 2.5)) / run.at(run.kinetic + run.strain, 2.5)), label="kinetic + strain", start=2.5),
              Series("main", lambda run: floor_log(np.abs(run.Lz - run.at(run.Lz, 2.5)) / run.at(run.kinetic + run.strain, 2.5)), label="Lz", start=2.5)],
          lines=[
              Line(ref("energy_tolerance"), label="tolerance 1e-8")],
          yscale="log",
          xmin=2.5),
])
