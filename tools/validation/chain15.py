"""What the two cases of Franchi's fifteen-bar chain (cases/chain15-falling, cases/chain15-driven)
check and plot alike: bars 3, 8 and 13 and joint 8's force at the case's step (run "dt1e-3")
against half that step (run "dt5e-4") and against the sensors stored in reference.yaml at
dt = 2.5e-4, at the times of reference.yaml's convergence entry."""
import numpy as np

from validation.case import Check, Panel, Plot, Points, Series, ref
from validation.measures import TIME_SLACK, floor_log

BARS = ["bar3_z", "bar8_z", "bar13_z"]
STORED = "sensors_dt_2.5e-4"  # reference.yaml: rows of t and the sensors at dt = 2.5e-4


def bars_step_difference(run):
    """Largest |bar z(dt) - bar z(dt/2)| at the convergence times."""
    times = run.ref("convergence", "times")
    return max(np.abs(run.other("dt1e-3", c, s) - run.other("dt5e-4", c, s)) for c in BARS for s in times)


def force_step_change(run):
    """Largest relative change of joint8_force from dt to dt/2 at the force's convergence times."""
    times = run.ref("convergence", "force_times")
    return max(np.abs(run.other("dt1e-3", "joint8_force", s) / run.other("dt5e-4", "joint8_force", s) - 1)
               for s in times)


def bars_against_stored(run):
    """Largest |bar z - stored bar z| up to the last convergence time."""
    t_max = max(run.ref("convergence", "times"))
    return max(np.abs(run.at(run.col(c), r["t"]) - r[c])
               for r in run.ref(STORED) if r["t"] <= t_max + TIME_SLACK for c in BARS)


def convergence_checks(times_text, force_times_text):
    """The three rows of convergence in dt (the texts name the times)."""
    return [
        Check(f"max |Δz| of bar3/8/13_z, Δt = 1e-3 vs 5e-4, t = {times_text} [ft]", "dt5e-4",
              bars_step_difference, tolerance=ref("convergence", "positions")),
        Check(f"max relative change of joint8_force, Δt = 1e-3 vs 5e-4, t = {force_times_text}", "dt5e-4",
              force_step_change, tolerance=ref("convergence", "joint8_force")),
        Check(f"max |bar3/8/13_z − reference.yaml (Δt = 2.5e-4)|, Δt = 1e-3, t = {times_text} [ft]", "dt1e-3",
              bars_against_stored, tolerance=ref("convergence", "positions")),
    ]


def stored(column):
    """A column of the stored sensors, for reference points."""
    return lambda run: [r[column] for r in run.ref(STORED)]


def plot(name):
    return Plot(f"{name}: bar centres and joint 8 force (no published curve; Δt halved for comparison)", [
        Panel("bar centre z [ft]",
              series=[Series("dt1e-3", lambda run, c=c: run.col(c), label=f"{c}, Δt = 1e-3") for c in BARS]
              + [Series("dt5e-4", lambda run: run.bar8_z, label="bar8_z, Δt = 5e-4", style="--", color="C1")],
              points=[Points(stored("t"), stored("bar8_z"), label="bar8_z, Δt = 2.5e-4 (reference.yaml)",
                             color="C1")]),
        Panel("joint8_force [lbf]",
              series=[Series("dt1e-3", lambda run: floor_log(run.joint8_force), label="Δt = 1e-3"),
                      Series("dt5e-4", lambda run: floor_log(run.joint8_force), label="Δt = 5e-4", style="--")],
              points=[Points(stored("t"), stored("joint8_force"), label="Δt = 2.5e-4 (reference.yaml)")],
              yscale="log"),
    ])
