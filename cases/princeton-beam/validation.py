"""princeton-beam: what tools/validate runs, checks and plots; the references are in reference.csv
(tip displacements by load angle, columns tip_uy_<load> and tip_uz_<load>), the tolerances in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Panel, Plot, Points, Run, Series, ref, refcsv, refcsv_at

ANGLES = [0, 15, 30, 45, 60, 75, 90]  # degrees, the rows of reference.csv
LOADS = ["4.448", "8.896", "13.345"]  # N, the column pairs of reference.csv
PUBLISHED = {"8.896", "13.345"}       # ANSYS figures (Obrezkov et al. 2022); 4.448: Catena's own, mesh-converged

RUNS = [Run(f"P{load}_angle{angle}", sets=[f"load={load}", f"angle={angle}"]) for load in LOADS for angle in ANGLES]


def final(sensor):
    """The sensor at the full load (the last frame of the static run)."""
    return lambda run: run.col(sensor)[-1]


def check(load, angle, sensor):
    """tip_uy or tip_uz at one load and angle against its column of reference.csv: within 2 % of
    ANSYS at the published loads, within 0.1 % of the converged figures at 4.448 N."""
    published = load in PUBLISHED
    return Check(f"{sensor} [m], P = {load} N, β = {angle}° ({'ANSYS' if published else 'Catena, mesh-converged'})",
                 f"P{load}_angle{angle}", final(sensor), reference=refcsv_at("angle", angle, f"{sensor}_{load}"),
                 tolerance=ref("tolerance" if published else "converged_tolerance"), error="rel",
                 abs_below=ref("abs_below"), abs_tolerance=ref("abs_tolerance" if published else "converged_abs_tolerance"))


CHECKS = [check(load, angle, sensor) for load in LOADS for angle in ANGLES for sensor in ("tip_uy", "tip_uz")]


def over_angles(load, sensor):
    """Catena's final tip_uy or tip_uz at one load against the angle (one run per angle)."""
    return lambda run: np.array([run.other(f"P{load}_angle{a}", sensor, 1.0) for a in ANGLES])


def panel(sensor):
    return Panel(f"{sensor} [m]", xlabel="load angle β [°]",
                 series=[Series(f"P{load}_angle0", over_angles(load, sensor), label=f"Catena, {load} N",
                                x=lambda run: np.array(ANGLES, dtype=float), style="-", color=f"C{k}")
                         for k, load in enumerate(LOADS)],
                 points=[Points(refcsv("angle"), refcsv(f"{sensor}_{load}"), color=f"C{k}",
                                label=f"{'ANSYS' if load in PUBLISHED else 'Catena, mesh-converged'}, {load} N")
                         for k, load in enumerate(LOADS)])


PLOT = Plot("princeton-beam: tip displacement against the load angle (16 elements)", [panel("tip_uy"), panel("tip_uz")])
