"""right-angle-cantilever: what tools/validate runs, checks and plots; the converged reference is in
reference.csv (reference.py writes it), the extrema, tolerances and published points in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Points, Run, Series, energy_panel, ref, refcsv
from validation.measures import extremum, floor_log, history_deviation, summary_count

EXTREMA = ["tip_max", "tip_min", "elbow_max", "elbow_min"]
PROBE = 0.01  # N, the static tip force of run "joint": reference.yaml's rigid_joint F

RUNS = [
    # the short version stops after the tip's first minimum (15.9 s): every extremum is reached
    Run("main", short=["analysis.t_end=17"]),
    Run("joint", sets=["analysis.type=static", "analysis.dt=1", "analysis.t_end=1", "loads.push.node=tip",
                       f"loads.push.force.2={PROBE}*t"]),
]


def deviation_from_reference(column):
    """max |column(t) - reference.csv's column(t)| over reference.csv's times the run reaches."""
    return lambda run: history_deviation(run.t, run.col(column), run.refcsv("t"), run.refcsv(column))[0]


def extremum_of(name, part):
    """Value (part 0) or time (part 1) of reference.yaml's extremum `name`, measured on the run."""
    def measure(run):
        e = run.ref("extrema", name)
        return extremum(run.t, run.col(e["column"]), e["kind"], e["from"], e["to"])[part]
    return measure


def largest_time_shift(run):
    """Largest |t(extremum) - t(converged extremum)| over the four extrema."""
    return max(abs(extremum_of(name, 1)(run) - run.ref("extrema", name, "t")) for name in EXTREMA)


def energy_when_free(run):
    """E(2): kinetic + strain energy when the load is gone, the scale of every drift."""
    return run.at(run.kinetic + run.strain, run.ref("t_free"))


def rigid_joint(quantity):
    """The closed form of the statically loaded frame (reference.yaml's rigid_joint), by quantity."""
    def value(run):
        c = run.ref("rigid_joint")
        F, L, EI, GJ, GA = c["F"], c["L"], c["EI"], c["GJ"], c["GA"]
        return {"tip_uz": F * (2 * L ** 3 / (3 * EI) + L ** 3 / GJ + 2 * L / GA),
                "elbow_uz": F * (L ** 3 / (3 * EI) + L / GA),
                "elbow_rx": F * L ** 2 / GJ}[quantity]
    return value


def published_points(name, axis):
    return lambda run: np.array(run.ref("published", name))[:, axis]


CHECKS = [
    Check("max |tip_uz − converged| over the run [m]", "main", deviation_from_reference("tip_uz"),
          tolerance=ref("history_tolerance")),
    Check("max |elbow_uz − converged| over the run [m]", "main", deviation_from_reference("elbow_uz"),
          tolerance=ref("history_tolerance")),
    *[Check(f"{name} (u_z extremum) [m]", "main", extremum_of(name, 0), reference=ref("extrema", name, "value"),
            tolerance=ref("extremum_tolerance")) for name in EXTREMA],
    Check("largest time shift of the four extrema [s]", "main", largest_time_shift,
          tolerance=ref("extremum_time_tolerance")),
    Check("max |(K + S)(t) − (K + S)(2)| / E(2), t ≥ 2", "main",
          lambda run: run.drift(run.kinetic + run.strain, run.ref("t_free")) / energy_when_free(run),
          tolerance=ref("energy_tolerance")),
    Check("max |balance − balance(0)| / E(2), whole run", "main",
          lambda run: run.drift(run.balance) / energy_when_free(run), tolerance=ref("energy_tolerance")),
    Check("cut steps", "main", summary_count("cut_steps"), tolerance=0),
    *[Check(f"rigid elbow, static tip force {PROBE} N: {q} (closed form)", "joint", lambda run, q=q: run.col(q)[-1],
            reference=rigid_joint(q), tolerance=ref("rigid_joint", "tolerance"), error="rel")
      for q in ("tip_uz", "elbow_uz", "elbow_rx")],
    *[Check(f"{name} against Simo & Vu-Quoc 1988 (digitised) [m]", "main", extremum_of(name, 0),
            reference=ref("published_extrema", name, "value")) for name in EXTREMA],
]

PLOT = Plot("right-angle-cantilever: out-of-plane displacements (force at the elbow until t = 2 s)", [
    Panel("u_z [m]",
          series=[
              Series("main", lambda run: run.tip_uz, label="tip (Catena)"),
              Series("main", lambda run: run.elbow_uz, label="elbow (Catena)")],
          points=[
              Points(refcsv("t"), refcsv("tip_uz"), label="tip, converged (reference.csv)", marker="--", color="C0"),
              Points(refcsv("t"), refcsv("elbow_uz"), label="elbow, converged", marker="--", color="C1"),
              Points(published_points("tip", 0), published_points("tip", 1),
                     label="tip, Simo & Vu-Quoc 1988 (digitised)", marker="o", color="C0"),
              Points(published_points("elbow", 0), published_points("elbow", 1),
                     label="elbow, Simo & Vu-Quoc 1988 (digitised)", marker="s", color="C1")]),
    energy_panel(),
    Panel("|(K + S)(t) − (K + S)(2)| / E(2) [–]",
          series=[
              Series("main", lambda run: floor_log(np.abs(run.kinetic + run.strain - energy_when_free(run))
                                                   / energy_when_free(run)), label="kinetic + strain", start=2)],
          lines=[Line(ref("energy_tolerance"), label="tolerance 1e-8")],
          yscale="log", xmin=2),
])
