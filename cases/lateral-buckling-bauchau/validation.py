"""lateral-buckling-bauchau: what tools/validate runs, checks and plots; the references and
tolerances are in reference.yaml (Catena's converged solution, README.md "Convergence") and
reference.csv (its histories, for the plot), the set-up and discussion in README.md.

The compared quantities are measured exactly as convergence.py measured them for the reference:
the buckling time (|mid-span lateral displacement| first reaching 1 cm), the peaks over the
crank's half turn (0-0.4 s) and the values at t = 0.1, 0.2, 0.3 and 0.4 s of the mid-span
lateral displacement and twist, the tip's vertical displacement, the beam's mid-span bending
moments (the mean of the two elements next to mid-span) and the link's axial force.
"""
import numpy as np

from validation.case import Check, Panel, Plot, Run, Series, ref

RUNS = [
    # The checked run: 48 beam elements (16 in the link, 8 in the crank), dt = T/3200 = 1.25e-4
    # (README.md, "Convergence": the benchmark's 6 elements and dt = 5e-4 are far from converged
    # after the buckling). Short version: the crank's half turn (0-0.4 s), where everything is
    # compared; the full one runs 0-0.8 s for the plot.
    Run("main", sets=["n=48", "nl=16", "nc=8", "analysis.dt=1.25e-4", "output.dt=0.8"],
        short=["analysis.t_end=0.4"]),
    # The benchmark's coarse settings (6 beam elements, dt = 5e-4): plotted; its pre-buckling
    # response is checked (after buckling 6 elements are off by tens of per cent, README.md).
    Run("coarse", sets=["n=6", "nl=2", "nc=1", "output.dt=0.8"], short=["analysis.t_end=0.4"]),
]

# (key of reference.yaml, text)
QUANTITIES = [
    ("mid_uy", "mid-span lateral displacement u_y [m]"),
    ("mid_twist", "mid-span twist (rotation vector, x) [rad]"),
    ("tip_uz", "tip vertical displacement u_z [m]"),
    ("My_mid", "mid-span bending moment M_y (stiff plane) [N m]"),
    ("Mz_mid", "mid-span bending moment M_z (lateral) [N m]"),
    ("N_link", "link axial force [N]"),
]
TEXT = dict(QUANTITIES)
TIMES = (0.1, 0.2, 0.3, 0.4)   # the times of reference.yaml's at_times lists [s]


def history(key):
    """A compared history of a run (convergence.py's histories())."""
    def y(run):
        if key == "My_mid":
            return (run.My_left + run.My_right) / 2
        if key == "Mz_mid":
            return (run.Mz_left + run.Mz_right) / 2
        return run.col(key)
    return y


def onset(run):
    """The buckling time: |mid_uy| first reaches reference.yaml's onset_threshold (interpolated)."""
    thr = run.ref("onset_threshold")
    uy = np.abs(run.mid_uy)
    k = int(np.argmax(uy >= thr))
    if uy[k] < thr:
        return float("inf")  # never buckled
    return float(run.t[k - 1] + (run.t[k] - run.t[k - 1]) * (thr - uy[k - 1]) / (uy[k] - uy[k - 1]))


def peak(key, kind):
    def value(run):
        y = history(key)(run)[run.t <= run.ref("peak_window") + 1e-9]
        return float(np.max(y) if kind == "max" else np.min(y))
    return value


def at_time(key, i):
    return lambda run: run.at(history(key)(run), TIMES[i])


def scaled(key):
    """A value at a time is compared absolutely, against the tolerance times the history's largest
    magnitude over 0-0.4 s (reference.yaml scale): values pass through zero."""
    return lambda run: run.ref("tolerance") * run.ref("scale", key)


def checks_at_times(run_name, keys, times):
    out = []
    for key in keys:
        for i in times:
            out.append(Check(f"{TEXT[key]} at t = {TIMES[i]:g} s, {run_name}", run_name, at_time(key, i), reference=lambda run, key=key, i=i: run.ref("at_times", key)[i],
                             tolerance=scaled(key)))
    return out


CHECKS = [
    Check("buckling time: |mid-span u_y| reaches 1 cm [s], main", "main", onset,
          reference=ref("onset"), tolerance=ref("onset_tolerance")),
    *[Check(f"{kind} of {TEXT[key]} over 0–0.4 s, main", "main", peak(key, kind),
            reference=ref("peaks", f"{key}_{kind}"), tolerance=ref("tolerance"), error="rel")
      for key, _ in QUANTITIES for kind in ("max", "min")],
    *checks_at_times("main", [k for k, _ in QUANTITIES], range(4)),
    # The benchmark's coarse mesh before buckling (t = 0.1 s) and the tip's motion (set by the
    # crank and the link, hardly by the buckling): within the tolerance too.
    *checks_at_times("coarse", ["tip_uz", "My_mid", "N_link"], [0]),
    Check(f"max of {TEXT['tip_uz']} over 0–0.4 s, coarse", "coarse", peak("tip_uz", "max"),
          reference=ref("peaks", "tip_uz_max"), tolerance=ref("tolerance"), error="rel"),
    Check("max |balance − balance(0)| / largest drive work, main", "main",
          lambda run: run.drift(run.balance) / run.ref("energy_scale"), tolerance=ref("energy_tolerance")),
    Check("crank angle (joint G's relative_rz) − π at t = 0.4 s [rad], main", "main",
          lambda run: run.at(run.crank_angle, 0.4) - np.pi, tolerance=1e-9),
    Check("crank angle − π/2 at t = 0.2 s [rad], main", "main",
          lambda run: run.at(run.crank_angle, 0.2) - np.pi / 2, tolerance=1e-9),
]


def panel(key, ylabel):
    return Panel(ylabel, series=[
        Series("coarse", history(key), label="Catena 6 el., Δt = 5e-4", color="0.6"),
        Series("main", history(key), label="Catena 48 el., Δt = 1.25e-4")],
        curves=[Series("main", lambda run, key=key: run.refcsv(key), label="converged (reference.csv)",
                       x=lambda run: run.refcsv("t"))])


PLOT = Plot("lateral buckling (Bauchau et al. 2016 §c): mid-span u_y and twist, tip u_z, mid-span moments, link force", [
    panel("mid_uy", "mid-span u_y [m]"),
    panel("mid_twist", "mid-span twist [rad]"),
    panel("tip_uz", "tip u_z [m]"),
    panel("My_mid", "mid-span M_y [N m]"),
    panel("Mz_mid", "mid-span M_z [N m]"),
    panel("N_link", "link axial force [N]"),
])
