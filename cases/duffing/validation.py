"""duffing: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import drift_in

RUNS = [
    Run("dt0.01"),
    Run("dt0.005", sets=["analysis.dt=0.005"]),
]


def period(run):
    """The mean spacing of the upward zero crossings of e, each interpolated linearly between rows
    (at a crossing e'' = F(0)/m = 0: the interpolation's error is O(h³))."""
    t, e = run.t, run.e
    k = np.nonzero((e[:-1] < 0) & (e[1:] >= 0))[0]
    crossings = t[k] - e[k] * (t[k + 1] - t[k]) / (e[k + 1] - e[k])
    return (crossings[-1] - crossings[0]) / (len(crossings) - 1)


def relative_period_error(run):
    return (period(run) - run.ref("period")) / run.ref("period")


CHECKS = [
    Check("period T [s], dt = 0.01 s (relative)", "dt0.01", period,
          reference=ref("period"), tolerance=ref("tolerance"), error="rel"),
    Check("period error ratio dt = 0.01 / 0.005 s (second order: 4)", "dt0.01",
          lambda run: relative_period_error(run) / relative_period_error(run.of("dt0.005")),
          reference=4.0, tolerance=ref("order_tolerance")),
    Check("max |balance − balance(0)| / K0, dt = 0.01 s", "dt0.01",
          drift_in("balance", "energy_scale_K0"), tolerance=ref("energy_tolerance")),
]

PLOT = Plot("duffing: a hardening spring's oscillation between ±A from the energy integral", [
    Panel("e [m]",
          series=[Series("dt0.01", lambda run: run.e, label="slider coordinate e, dt = 0.01 s")],
          lines=[Line(ref("amplitude"), label="±A (closed form)"),
                 Line(lambda run: -run.ref("amplitude"))]),
    Panel("energy [J]",
          series=[Series("dt0.01", lambda run: run.kinetic, label="kinetic"),
                  Series("dt0.01", lambda run: -run.external_work, label="−(work of the law) = V(e)")]),
])
