"""rotating-shaft: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml (numbers) and reference.csv (the converged histories), the set-up, the convergence
study and the discussion in README.md."""
import os

import numpy as np

from validation.case import Check, Line, Panel, Plot, Points, Run, Series, ref, refcsv
from validation.measures import drift_in, floor_log
from validation.yaml_subset import read_yaml

REFERENCE = read_yaml(os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.yaml"))
N = REFERENCE["elements"]          # the mesh the checks run (the model's default, 16)
H = REFERENCE["L"] / N             # element length: the moment at the disk from the element next to it
PASSAGE = REFERENCE["passage_end"]  # s, the largest displacement and moment are sought over t <= PASSAGE

RUNS = [Run("benchmark", sets=[f"n={N}"], short=[f"analysis.t_end={PASSAGE}"])]


def theta(t):
    """The prescribed spin angle of end 1 (reference.yaml's drive law), t an array."""
    d = REFERENCE["drive"]
    W1, W2, T1, T2, T3 = d["W1"], d["W2"], d["T1"], d["T2"], d["T3"]
    ramp2 = (W2 - W1) / 2 * ((t - T2) - (T3 - T2) / np.pi * np.sin(np.pi * (t - T2) / (T3 - T2)))
    return np.where(t <= T1, W1 / 2 * (t - T1 / np.pi * np.sin(np.pi * t / T1)),
                    np.where(t <= T2, W1 * (t - T1 / 2),
                             np.where(t <= T3, W1 * (t - T1 / 2) + ramp2,
                                      W1 * (t - T1 / 2) + (W2 - W1) / 2 * (T3 - T2) + (W2 - W1) * (t - T3))))


def radial(run):
    return np.hypot(run.disk_uy, run.disk_uz)


def disk_moment_y(run):
    """Bending moment about the element's y axis at the disk's section (the end of the element next
    to it: its moment is linear along it), in the element axes turning with the shaft [N m]."""
    return run.M_y + run.Q_z * H / 2


def disk_moment_z(run):
    return run.M_z - run.Q_y * H / 2


def disk_moment(run):
    return np.hypot(disk_moment_y(run), disk_moment_z(run))


def largest(quantity):
    """The largest value of a history over t <= PASSAGE, and its time."""
    def value_and_time(run):
        y = quantity(run)
        keep = run.t <= PASSAGE + 1e-9
        k = int(np.argmax(np.where(keep, y, -np.inf)))
        return float(y[k]), float(run.t[k])
    return value_and_time


def deviation(columns):
    """max over the converged history's times (every 5 ms, to the run's end) of the distance of the
    disk's (u, v) from reference.csv's, over the converged largest radial displacement: the curves'
    distance, phase errors included. The run has rows at those times (every 1 ms), so nothing is
    interpolated between the converged samples (a 5 ms chord of the 72 rad/s whirl would be off by
    1.6 % of its radius)."""
    def value(run):
        t = np.asarray(run.refcsv("t"))
        keep = t <= run.t[-1] + 1e-9
        du = [np.interp(t[keep], run.t, run.col(c)) - np.asarray(run.refcsv(c))[keep] for c in columns]
        return float(np.max(np.hypot(*du))) / run.ref("converged", "largest_radial")
    return value


CHECKS = [
    Check("static sag of the disk's node at t = 0 (closed form, Timoshenko clamped–clamped) [m]", "benchmark",
          lambda run: run.disk_uz[0], reference=ref("static", "sag"), tolerance=ref("static", "sag_tolerance"),
          error="rel"),
    Check("bending moment at the disk at t = 0 (closed form; lumped mass: + q h²/12) [N m]", "benchmark",
          lambda run: disk_moment(run)[0], reference=ref("static", "moment"),
          tolerance=ref("static", "moment_tolerance"), error="rel"),
    Check("max |spin_angle − θ(t)| (the drive's law) [rad]", "benchmark",
          lambda run: float(np.max(np.abs(run.spin_angle - theta(run.t)))), tolerance=ref("spin_tolerance")),
    Check("max |balance − balance(0)| / (½ I_x Ω₂²) (kinetic + strain + potential − drive work)", "benchmark",
          drift_in("balance", "energy_scale"), tolerance=ref("energy_tolerance")),
    Check(f"largest radial displacement of the disk, t ≤ {PASSAGE} s [m] (converged)", "benchmark",
          lambda run: largest(radial)(run)[0], reference=ref("converged", "largest_radial"),
          tolerance=ref("tolerances", "largest"), error="rel"),
    Check("… its time [s] (converged)", "benchmark", lambda run: largest(radial)(run)[1],
          reference=ref("converged", "largest_radial_time"), tolerance=ref("tolerances", "time")),
    Check(f"largest bending moment at the disk, t ≤ {PASSAGE} s [N m] (converged)", "benchmark",
          lambda run: largest(disk_moment)(run)[0], reference=ref("converged", "largest_moment"),
          tolerance=ref("tolerances", "largest"), error="rel"),
    Check("… its time [s] (converged)", "benchmark", lambda run: largest(disk_moment)(run)[1],
          reference=ref("converged", "largest_moment_time"), tolerance=ref("tolerances", "time")),
    Check("max distance of (disk_uy, disk_uz) from the converged history / largest radial displacement",
          "benchmark", deviation(["disk_uy", "disk_uz"]), tolerance=ref("tolerances", "history")),
    Check("max distance of (disk_uy_rot, disk_uz_rot), turning with end 1, from the converged history / "
          "largest radial displacement", "benchmark", deviation(["disk_uy_rot", "disk_uz_rot"]),
          tolerance=ref("tolerances", "history")),
]


def converged(name, label=None, color="k"):
    return Points(refcsv("t"), refcsv(name), label=label, color=color, marker="--")


PLOT = Plot(f"rotating-shaft: the disk through the critical speed ({N} elements, Δt = 1e-3 s)", [
    Panel("disk (global) [m]",
          series=[Series("benchmark", lambda run: run.disk_uy, label="Catena disk_uy"),
                  Series("benchmark", lambda run: run.disk_uz, label="Catena disk_uz")],
          points=[converged("disk_uy", "converged"), converged("disk_uz")]),
    Panel("disk, axes turning with end 1 [m]",
          series=[Series("benchmark", lambda run: run.disk_uy_rot, label="Catena disk_uy_rot"),
                  Series("benchmark", lambda run: run.disk_uz_rot, label="Catena disk_uz_rot")],
          points=[converged("disk_uy_rot", "converged"), converged("disk_uz_rot")]),
    Panel("radial displacement [m]",
          series=[Series("benchmark", radial, label="Catena √(disk_uy² + disk_uz²)")],
          points=[Points(refcsv("t"), lambda run: np.hypot(run.refcsv("disk_uy"), run.refcsv("disk_uz")),
                         label="converged", color="k", marker="--")]),
    Panel("moment at the disk, element axes [N m]",
          series=[Series("benchmark", disk_moment_y, label="Catena M_y"),
                  Series("benchmark", disk_moment_z, label="Catena M_z")],
          points=[converged("M_y_disk", "converged"), converged("M_z_disk")]),
    Panel("spin rate of end 2 [rad/s]",
          series=[Series("benchmark", lambda run: run.end2_spin, label="end2_spin")],
          lines=[Line(ref("critical_speed"), label="first bending frequency at rest, 56.7 rad/s")]),
    Panel("|balance − balance(0)| / (½ I_x Ω₂²)",
          series=[Series("benchmark", lambda run: floor_log(np.abs(run.balance - run.balance[0]) / run.ref("energy_scale")),
                         label="Catena")],
          yscale="log"),
])
