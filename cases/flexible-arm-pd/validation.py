"""flexible-arm-pd: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (the closed-loop eigenvalues, the settling time, the tolerances) and reference.csv (the
linear modal model's step response), both written by reference.py; the set-up, the refinement
studies and the discussion in README.md."""
import csv
import math
import os

import numpy as np

from validation.case import Check, Line, Panel, Plot, Points, Run, Series, ref, refcsv
from validation.measures import drift_in, floor_log
from validation.yaml_subset import read_yaml

REFERENCE = read_yaml(os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.yaml"))
N = REFERENCE["elements"]  # the checked mesh (model.yaml's default)
# the closed loop's three lowest pairs, by |s|: reference.yaml's name, the table's
PAIRS = [("rigid", "rigid (dominant) pair"), ("flexible_1", "first flexible pair"),
         ("flexible_2", "second flexible pair")]

RUNS = [
    Run("step"),
    Run("half", sets=["theta_ref=0.05"]),
    Run("eigen", sets=[f"n={N}", "analysis.type=eigen", "analysis.modes=4"]),
    Run("eigen_fine", sets=[f"n={2 * N}", "analysis.type=eigen", "analysis.modes=4"]),
]


def modes(data, run=None):
    """modes.csv's numeric columns (all but `kind`) of this eigen run, or of the case's run `run`.
    RunData reads energy.csv and sensors.csv only: the file is read from the directory of
    tools/validate's Run behind it."""
    directory = (data._runs[run] if run else data._run).directory
    with open(os.path.join(directory, "modes.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    return {key: [float(r[key]) for r in rows] for key in rows[0] if key != "kind"}


def natural_frequency(k, run=None):
    """|s| of the k-th pair [rad/s]."""
    return lambda data: 2 * math.pi * modes(data, run)["natural_frequency_hz"][k]


def damping_ratio(k):
    return lambda data: modes(data)["damping_ratio"][k]


def observed_order(k):
    """log2 of the ratio of the k-th pair's |s| errors with N and 2N elements."""
    def value(data):
        reference = data.ref("pairs", PAIRS[k][0], "natural_frequency")
        coarse = abs(natural_frequency(k)(data) - reference)
        fine = abs(natural_frequency(k, "eigen_fine")(data) - reference)
        return math.log2(coarse / fine)
    return value


def difference(column, scale):
    """|x(t) - x_modal(t)| at reference.csv's times (the run has rows there), over scale(run)."""
    def value(data):
        t = np.asarray(data.refcsv("t"))
        return np.abs(np.interp(t, data.t, data.col(column)) - np.asarray(data.refcsv(column))) / scale(data)
    return value


def deviation(column, scale):
    """max |x(t) - x_modal(t)| / scale (a check's value)."""
    return lambda data: float(np.max(difference(column, scale)(data)))


def theta_ref(data):
    return data.ref("theta_ref")


def largest_tip(data):
    return float(np.max(np.abs(data.refcsv("tip_deflection"))))


def nonlinearity(column, scale):
    """max |x(theta_ref) - 2 x(theta_ref / 2)| of this run against the half-angle run, over scale."""
    def value(data):
        half = np.array([data.other("half", column, t) for t in data.t])
        return float(np.max(np.abs(data.col(column) - 2 * half))) / scale(data)
    return value


def settling_time(data):
    """The last time |theta - theta_ref| crosses 2 % of theta_ref, interpolated between rows."""
    gap = np.abs(data.hub_angle - theta_ref(data)) - 0.02 * theta_ref(data)
    k = int(np.nonzero(gap > 0)[0][-1])
    return float(data.t[k] + (data.t[k + 1] - data.t[k]) * gap[k] / (gap[k] - gap[k + 1]))


def settling_tolerance(data):
    """An error of the hub-angle tolerance moves the crossing by that over |theta'| there."""
    return data.ref("tolerances", "hub_angle") * theta_ref(data) / abs(data.ref("settling_rate"))


def pair_checks(k):
    name, label = PAIRS[k]
    kind = "rigid" if k == 0 else "flexible"
    return [Check(f"{label}: natural frequency |s| [rad/s], {N} elements", "eigen", natural_frequency(k),
                  reference=ref("pairs", name, "natural_frequency"),
                  tolerance=ref("tolerances", kind, "natural_frequency"), error="rel"),
            Check(f"{label}: damping ratio −Re s / |s|, {N} elements", "eigen", damping_ratio(k),
                  reference=ref("pairs", name, "damping_ratio"),
                  tolerance=ref("tolerances", kind, "damping_ratio"), error="rel")]


CHECKS = [check for k in range(len(PAIRS)) for check in pair_checks(k)] + [
    Check(f"{PAIRS[k][1]}: observed order of |s|'s error, {N} → {2 * N} elements", "eigen", observed_order(k),
          reference=2, tolerance=ref("tolerances", "order")) for k in (1, 2)] + [
    Check("max |hub_angle − modal| / θ_ref, 0 … 4 s", "step", deviation("hub_angle", theta_ref),
          tolerance=ref("tolerances", "hub_angle")),
    Check("max |tip_deflection − modal| / max |modal tip deflection|, 0 … 4 s", "step",
          deviation("tip_deflection", largest_tip), tolerance=ref("tolerances", "tip_deflection")),
    Check("settling time to 2 % of θ_ref [s] (tolerance: the hub-angle tolerance / |θ'| there)", "step",
          settling_time, reference=ref("settling_time"), tolerance=settling_tolerance),
    Check("linearity: max |hub_angle(θ_ref) − 2 hub_angle(θ_ref/2)| / θ_ref", "step",
          nonlinearity("hub_angle", theta_ref), tolerance=ref("tolerances", "linearity_hub_angle")),
    Check("linearity: max |tip(θ_ref) − 2 tip(θ_ref/2)| / max |modal tip deflection|", "step",
          nonlinearity("tip_deflection", largest_tip), tolerance=ref("tolerances", "linearity_tip")),
    Check("max |balance − balance(0)| / (½ Kp θ_ref²) (the PD law's work included)", "step",
          drift_in("balance", "energy_scale"), tolerance=ref("energy_tolerance")),
]


def modal(column, label=None):
    return Points(refcsv("t"), refcsv(column), label=label, marker="--")


def error_of(column, scale):
    """difference(column, scale) floored at 1e-9 for a log plot (its first value, t = 0, is exact)."""
    return lambda data: np.maximum(1e-9, difference(column, scale)(data))


def log_damping(data):
    return np.log10(modes(data)["damping_ratio"][:len(PAIRS)])


def natural_frequencies(data):
    return 2 * math.pi * np.asarray(modes(data)["natural_frequency_hz"][:len(PAIRS)])


def reference_pairs(quantity):
    return lambda data: [data.ref("pairs", name, quantity) for name, _ in PAIRS]


PLOT = Plot(f"flexible-arm-pd: PD step response to θ_ref = {REFERENCE['theta_ref']} rad and closed-loop pairs ({N} elements, Δt = 1 ms)"
            " against the linear modal model", [
    Panel("hub_angle θ [rad]",
          series=[Series("step", lambda data: data.hub_angle, label="Catena")],
          points=[modal("hub_angle", "modal model")],
          lines=[Line(lambda data: 1.02 * data.ref("theta_ref"), label="θ_ref ± 2 %", style=":"),
                 Line(lambda data: 0.98 * data.ref("theta_ref"), style=":")]),
    Panel("tip_deflection (hub axes) [m]",
          series=[Series("step", lambda data: data.tip_deflection, label="Catena")],
          points=[modal("tip_deflection", "modal model")]),
    Panel("|Catena − modal| / scale",
          series=[Series("step", error_of("hub_angle", theta_ref), x=lambda data: data.refcsv("t"),
                         label="hub_angle, / θ_ref"),
                  Series("step", error_of("tip_deflection", largest_tip), x=lambda data: data.refcsv("t"),
                         label="tip_deflection, / max |tip|")],
          lines=[Line(ref("tolerances", "hub_angle"), label="hub_angle tolerance", style=":"),
                 Line(ref("tolerances", "tip_deflection"), label="tip tolerance", style="-.")],
          yscale="log"),
    Panel("|s| [rad/s]",
          series=[Series("eigen", natural_frequencies, x=log_damping, style="o", label=f"Catena, {N} elements")],
          points=[Points(lambda data: np.log10(reference_pairs("damping_ratio")(data)),
                         reference_pairs("natural_frequency"), label="modal model", marker="x")],
          xlabel="log10 damping ratio", yscale="log"),
    Panel("|balance − balance(0)| / (½ Kp θ_ref²)",
          series=[Series("step", lambda data: floor_log(np.abs(data.balance - data.balance[0]) / data.ref("energy_scale")),
                         label="Catena")],
          yscale="log"),
])
