"""four-bar: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (the converged solution, README.md "Convergence") and reference.csv (its filtered
histories, for the plot), the set-up and discussion in README.md.

The compared histories carry an undamped vibration of the bars (about 200 Hz, excited where the
bars line up) that the published codes damp numerically: every compared history is filtered
(a centred moving average over `filter.width` seconds, applied `filter.passes` times: a
triangular window of twice that width), the reference alike.
"""
import numpy as np

from validation.case import Check, Panel, Plot, Run, Series, ref

RUNS = [
    # The benchmark's settings (5 elements per bar, dt = 4e-3): the whole 12 s in both versions
    # (a few seconds). No VTK frames but the first and the last.
    Run("main", sets=["output.dt=12"]),
    # A finer run (11 elements per bar, dt = 1e-3): it must lie closer to the reference.
    Run("fine", sets=["n1=11", "n2=11", "n3=11", "analysis.dt=1e-3", "output.dt=12"],
        short=["analysis.t_end=3"]),
]


def window_mean(t, y, width):
    """The mean of the piecewise-linear history y(t) over [t - width/2, t + width/2] (the window
    clipped to the record), at every t: exact for any step, so runs at different steps are
    filtered alike."""
    t, y = np.asarray(t, dtype=float), np.asarray(y, dtype=float)
    integral = np.concatenate([[0.0], np.cumsum(np.diff(t) * (y[1:] + y[:-1]) / 2)])

    def primitive(x):  # the integral of y from t[0] to x
        k = np.clip(np.searchsorted(t, x, side="right") - 1, 0, len(t) - 2)
        yx = y[k] + (y[k + 1] - y[k]) * (x - t[k]) / (t[k + 1] - t[k])
        return integral[k] + (x - t[k]) * (y[k] + yx) / 2

    a = np.clip(t - width / 2, t[0], t[-1])
    b = np.clip(t + width / 2, t[0], t[-1])
    return (primitive(b) - primitive(a)) / (b - a)


def filtered_history(run, column):
    """A column after the case's filter (reference.yaml filter: width, passes)."""
    y = run.col(column)
    for _ in range(int(run.ref("filter", "passes"))):
        y = window_mean(run.t, y, run.ref("filter", "width"))
    return y


# The compared quantities, all filtered: (reference.yaml key, sensor column, text)
QUANTITIES = [
    ("rotation_D", "rotation_D", "rotation at D (joint D's relative_rz) [rad]"),
    ("uy_C", "uy_C", "out-of-plane displacement of C [m]"),
    ("N", "N_mid", "crank mid-span axial force [N]"),
    ("Vy", "Vy_mid", "crank mid-span out-of-plane shear force [N]"),
    ("T", "T_mid", "crank mid-span torque [N m]"),
    ("My", "My_mid", "crank mid-span in-plane bending moment (about section y) [N m]"),
    ("Mz", "Mz_mid", "crank mid-span out-of-plane bending moment (about section z) [N m]"),
]
# Peaks over 0-12 s: (reference.yaml key under peaks, quantity key, "max" or "min")
PEAKS = [
    ("rotation_D_max", "rotation_D", "max"), ("rotation_D_min", "rotation_D", "min"),
    ("uy_C_max", "uy_C", "max"), ("uy_C_min", "uy_C", "min"),
    ("N_min", "N", "min"),
    ("Vy_max", "Vy", "max"),
    ("T_max", "T", "max"), ("T_min", "T", "min"),
    ("My_max", "My", "max"), ("My_min", "My", "min"),
    ("Mz_max", "Mz", "max"),
]
COLUMNS = {key: column for key, column, _ in QUANTITIES}
TEXT = {key: text for key, _, text in QUANTITIES}


def history(key):
    """A compared quantity's history: its sensor, filtered."""
    return lambda run: filtered_history(run, COLUMNS[key])


def at_line_up(key):
    return lambda run: run.at(history(key)(run), run.ref("line_up_time"))


def peak(key, kind):
    return lambda run: float(np.max(history(key)(run)) if kind == "max" else np.min(history(key)(run)))


def line_up_checks(run_name, tolerance):
    """The compared quantities at the line-up, t = 2.618 s, relative; My passes through zero
    there and is compared absolutely, against the tolerance times its peak."""
    near_zero = {"abs_below": 1.0, "abs_tolerance": lambda run: run.ref(tolerance) * run.ref("peaks", "My_max")}
    checks = []
    for key, _, text in QUANTITIES:
        checks.append(Check(f"{text}, filtered, at t = 2.618 s, {run_name}", run_name, at_line_up(key),
                            reference=ref("at_line_up", key), tolerance=ref(tolerance), error="rel",
                            **(near_zero if key == "My" else {})))
    return checks


CHECKS = [
    *line_up_checks("main", "tolerance"),
    *[Check(f"{kind} of {TEXT[key]}, filtered, over 0–12 s, main", "main", peak(key, kind),
            reference=ref("peaks", name), tolerance=ref("tolerance"), error="rel")
      for name, key, kind in PEAKS],
    *line_up_checks("fine", "fine_tolerance"),
    Check("max |balance − balance(0)| / largest drive work, main (0–12 s)", "main",
          lambda run: run.drift(run.balance) / run.ref("energy_scale"), tolerance=ref("energy_tolerance")),
    Check("crank angle (joint A's relative_rz) − Ω t at 12 s [rad]", "main",
          lambda run: run.crank_angle[-1] - run.ref("omega") * run.t[-1], tolerance=1e-9),
    Check("initial_velocity_change of the rigid start (summary.json) [m/s]", "main",
          lambda run: run.summary("initial_velocity_change"), reference=ref("initial_velocity_change"),
          tolerance=1e-6, error="rel"),
]


def reference_curve(key, label="converged (reference.csv)"):
    return Series("main", lambda run: run.refcsv(key), label=label, x=lambda run: run.refcsv("t"))


def panel(key, ylabel):
    """0-12 s, the benchmark's settings, filtered (the finer run and the unfiltered histories are
    in the zooms on the first line-up)."""
    return Panel(ylabel, series=[Series("main", history(key), label="Catena 5 el., Δt = 4e-3, filtered")],
                 curves=[reference_curve(key)])


def window(y, t0, t1):
    """y over [t0, t1] only (NaN elsewhere: not drawn)."""
    return lambda run, y=y: np.where((run.t >= t0) & (run.t <= t1), y(run), np.nan)


def line_up_zoom(key, ylabel, t0=2.45, t1=2.85):
    """The first line-up: the raw histories (the fine run shows the bars' 200 Hz vibration the
    filter removes), the filtered ones and the reference."""
    raw = lambda run: run.col(COLUMNS[key])  # noqa: E731
    ref_t = lambda run: np.asarray(run.refcsv("t"))  # noqa: E731
    return Panel(ylabel + f", {t0}–{t1} s", series=[
        Series("main", window(raw, t0, t1), label="5 el., Δt = 4e-3, unfiltered", color="0.75"),
        Series("fine", window(raw, t0, t1), label="11 el., Δt = 1e-3, unfiltered", color="moccasin"),
        Series("main", window(history(key), t0, t1), label="5 el., Δt = 4e-3, filtered"),
        Series("fine", window(history(key), t0, t1), label="11 el., Δt = 1e-3, filtered")],
        curves=[Series("main", lambda run: np.where((ref_t(run) >= t0) & (ref_t(run) <= t1), run.refcsv(key), np.nan),
                       label="converged (reference.csv)", x=ref_t)])


PLOT = Plot("four-bar (Bauchau et al. 2016): rotation at D, out-of-plane displacement of C, crank mid-span forces", [
    panel("rotation_D", "rotation at D [rad]"),
    panel("uy_C", "u_y at C [m]"),
    panel("N", "axial force N [N]"),
    panel("Vy", "out-of-plane shear V_y [N]"),
    panel("T", "torque T [N m]"),
    panel("My", "in-plane moment M_y [N m]"),
    panel("Mz", "out-of-plane moment M_z [N m]"),
    line_up_zoom("N", "N [N]"),
    line_up_zoom("My", "M_y [N m]"),
])
