"""flying-spaghetti-3d: what tools/validate runs, checks and plots; the converged reference is in
reference.csv (reference.py writes it), the tolerances in reference.yaml, the set-up and discussion
in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Points, Run, Series, energy_panel, ref, refcsv
from validation.measures import floor_log, history_deviation, summary_count

RUNS = [Run("main", short=["analysis.t_end=10"])]

T_FREE = 5  # s, the plot's: reference.yaml's t_free


def energy_when_free(run):
    """E(5): kinetic + strain energy when the loads are gone, the scale of every drift."""
    return run.at(run.kinetic + run.strain, run.ref("t_free"))


def largest_drift_when_free(run, *columns):
    """Largest drift of the columns from their values at t = 5, over E(5)."""
    return max(run.drift(y, run.ref("t_free")) for y in columns) / energy_when_free(run)


def deviation_from_reference(column):
    """max |column(t) - reference.csv's column(t)| over reference.csv's times the run reaches."""
    return lambda run: history_deviation(run.t, run.col(column), run.refcsv("t"), run.refcsv(column))[0]


def deviation_when_free(column):
    """|y(t) - y(5)| / E(5) of a column (a function of the run), floored for the log plot."""
    return lambda run: floor_log(np.abs(column(run) - run.at(column(run), T_FREE)) / energy_when_free(run))


CHECKS = [
    Check("max |(K + S)(t) − (K + S)(5)| / E(5), t ≥ 5", "main",
          lambda run: largest_drift_when_free(run, run.kinetic + run.strain), tolerance=ref("energy_tolerance")),
    Check("max |balance − balance(0)| / E(5), whole run", "main",
          lambda run: run.drift(run.balance) / energy_when_free(run), tolerance=ref("energy_tolerance")),
    Check("max drift of px, py, pz after t = 5 / E(5)", "main",
          lambda run: largest_drift_when_free(run, run.px, run.py, run.pz), tolerance=ref("energy_tolerance")),
    Check("max drift of Lx, Ly, Lz after t = 5 / E(5)", "main",
          lambda run: largest_drift_when_free(run, run.Lx, run.Ly, run.Lz), tolerance=ref("energy_tolerance")),
    Check("px(5) − px(0): the impulse of F_x [N s]", "main",
          lambda run: run.at(run.px, run.ref("t_free")) - run.px[0], reference=ref("impulse_x"),
          tolerance=lambda run: run.ref("energy_tolerance") * energy_when_free(run)),
    Check("cut steps", "main", summary_count("cut_steps"), tolerance=0),
    *[Check(f"max |{c} − converged| over the run [m]", "main", deviation_from_reference(c),
            tolerance=ref("history_tolerance")) for c in ("b_x", "b_y", "b_z")],
]

PLOT = Plot("flying-spaghetti-3d: end point b and conservation (loads removed at t = 5 s)", [
    Panel("b_x [m]",
          series=[Series("main", lambda run: run.b_x, label="b_x (Catena)")],
          points=[Points(refcsv("t"), refcsv("b_x"), label="b_x, converged (reference.csv)", marker="--", color="C0")]),
    Panel("b_y, b_z [m]",
          series=[Series("main", lambda run: run.b_y, label="b_y (Catena)", color="C1"),
                  Series("main", lambda run: run.b_z, label="b_z (Catena)", color="C2")],
          points=[Points(refcsv("t"), refcsv(c), label=f"{c}, converged", marker="--", color=f"C{k}")
                  for k, c in ((1, "b_y"), (2, "b_z"))]),
    energy_panel(),
    Panel("|x(t) − x(5)| / E(5) [–]",
          series=[
              Series("main", deviation_when_free(lambda run: run.kinetic + run.strain), label="kinetic + strain",
                     start=T_FREE),
              Series("main", deviation_when_free(lambda run: run.Ly), label="Ly", start=T_FREE),
              Series("main", deviation_when_free(lambda run: run.Lz), label="Lz", start=T_FREE),
              Series("main", deviation_when_free(lambda run: run.px), label="px", start=T_FREE)],
          lines=[Line(ref("energy_tolerance"), label="tolerance 1e-8")],
          yscale="log", xmin=T_FREE),
])
