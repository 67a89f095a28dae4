"""bipendulum-spherical: what tools/validate runs, checks and plots; the references and tolerances
are in reference.yaml, the independent reference in reference.csv (reference.py), the set-up and
discussion in README.md."""
import numpy as np

from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import deviation_in, drift_in

STEPS = ["0.004", "0.002", "0.001"]  # reference.yaml's convergence steps

RUNS = [Run("main", short=["analysis.t_end=2"])] + [
    Run(f"dt{dt}", sets=["analysis.t_end=1", f"analysis.dt={dt}", "analysis.output_every=1"]) for dt in STEPS]


def ground_joint_error(run):
    """Largest distance of bar 1's centre from L/2 about the ground joint at the origin."""
    distance = np.sqrt(run.cm1_x ** 2 + run.cm1_y ** 2 + run.cm1_z ** 2)
    return np.max(np.abs(distance - run.ref("ground_joint", "distance")))


def convergence_ratio(run):
    """(z(4h) - z(2h)) / (z(2h) - z(h)) of cm2_z at t = 1: 4 at second order."""
    z = [run.other(f"dt{dt}", "cm2_z", 1) for dt in STEPS]
    return (z[0] - z[1]) / (z[1] - z[2])


CHECKS = [
    Check("max |balance − balance(0)| / K0", "main",
          drift_in("balance", "energy_scale_K0"),
          tolerance=ref("energy_tolerance")),
    Check("max |Lz − Lz(0)| / K0", "main",
          drift_in("Lz", "energy_scale_K0"),
          tolerance=ref("Lz_tolerance")),
    Check("ground joint: max ||x(bar1)| − L/2| [ft]", "main", ground_joint_error,
          tolerance=ref("ground_joint", "tolerance")),
    Check("convergence ratio of cm2_z(1), Δt = 0.004, 0.002, 0.001", "dt0.001", convergence_ratio,
          reference=ref("convergence", "expected_ratio"), tolerance=ref("convergence", "ratio_tolerance")),
]

PLOT = Plot("bipendulum-spherical: bar 2's centre (no published curve; Δt = 0.004 for comparison)", [
    Panel("bar 2 centre [ft]",
          series=[
              Series("main", lambda run: run.cm2_x, label="cm2_x, Δt = 0.001"),
              Series("main", lambda run: run.cm2_y, label="cm2_y, Δt = 0.001"),
              Series("main", lambda run: run.cm2_z, label="cm2_z, Δt = 0.001"),
              Series("dt0.004", lambda run: run.cm2_z, label="cm2_z, Δt = 0.004", style="--")]),
    Panel("|x(t) − x(0)| / K0 [–]",
          series=[
              Series("main", deviation_in("balance", "energy_scale_K0"), label="balance"),
              Series("main", deviation_in("Lz", "energy_scale_K0"), label="Lz")],
          lines=[
              Line(ref("Lz_tolerance"), label="tolerance 1e-8 K0")],
          yscale="log"),
])
