"""flying-spaghetti-2d: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, energy_panel, ref
from validation.measures import floor_log

RUNS = [Run("main")]



def energy_when_free(run):
    """E(2.5): kinetic + strain energy when the loads are removed, the scale of every drift."""
    return run.at(run.kinetic + run.strain, run.ref("t_free"))


def largest_drift_when_free(run, *columns):
    """Largest drift of the columns from their values when the loads are removed, over E(2.5)."""
    return max(run.drift(y, run.ref("t_free")) for y in columns) / energy_when_free(run)


def deviation_when_free(column):
    """|y(t) - y(2.5)| / E(2.5) of a column (a function of the run), floored for the log plot."""
    t_free = 2.5  # the plot's, as reference.yaml's t_free
    return lambda run: floor_log(np.abs(column(run) - run.at(column(run), t_free))
                                 / run.at(run.kinetic + run.strain, t_free))


CHECKS = [
    Check("max |(K + S)(t) − (K + S)(2.5)| / E(2.5), t ≥ 2.5", "main",
          lambda run: largest_drift_when_free(run, run.kinetic + run.strain),
          tolerance=ref("energy_tolerance")),
    Check("max |balance − balance(0)| / E(2.5), 0–15 s", "main",
          lambda run: run.drift(run.balance) / energy_when_free(run),
          tolerance=ref("energy_tolerance")),
    Check("max drift of px, py, pz after 2.5 / E(2.5)", "main",
          lambda run: largest_drift_when_free(run, run.px, run.py, run.pz),
          tolerance=ref("energy_tolerance")),
    Check("max drift of Lx, Ly, Lz after 2.5 / E(2.5)", "main",
          lambda run: largest_drift_when_free(run, run.Lx, run.Ly, run.Lz),
          tolerance=ref("energy_tolerance")),
    Check("planarity: max |tip_z|, |pz|, |Lx|, |Ly|", "main",
          lambda run: max(np.max(np.abs(y)) for y in (run.tip_z, run.pz, run.Lx, run.Ly)),
          tolerance=ref("planarity_tolerance")),
]

PLOT = Plot("flying-spaghetti-2d: energy and momenta (loads removed at t = 2.5 s)", [
    energy_panel(),
    Panel("momentum [N s], [N m s]",
          series=[
              Series("main", lambda run: run.px, label="px"),
              Series("main", lambda run: run.py, label="py"),
              Series("main", lambda run: run.Lz, label="Lz")]),
    Panel("|x(t) − x(2.5)| / E(2.5) [–]",
          series=[
              Series("main", deviation_when_free(lambda run: run.kinetic + run.strain), label="kinetic + strain",
                     start=2.5),
              Series("main", deviation_when_free(lambda run: run.Lz), label="Lz", start=2.5)],
          lines=[
              Line(ref("energy_tolerance"), label="tolerance 1e-8")],
          yscale="log",
          xmin=2.5),
])
