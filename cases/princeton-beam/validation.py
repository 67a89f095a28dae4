"""princeton-beam: what tools/validate runs, checks and plots; the references are in reference.csv
(tip displacements by load angle), the tolerances in reference.yaml, the set-up and discussion in
README.md."""
from validation.case import Check, Run, ref, refcsv_at

ANGLES = [0, 15, 30, 45, 60, 75, 90]  # degrees, the rows of reference.csv

RUNS = [Run(f"angle{angle}", sets=["load=8.896", f"angle={angle}"]) for angle in ANGLES]


def final(sensor):
    """The sensor at the full load (the last frame of the static run)."""
    return lambda run: run.col(sensor)[-1]


CHECKS = [
    Check(f"{sensor} [m], P = 8.896 N, β = {angle}°", f"angle{angle}", final(sensor),
          reference=refcsv_at("angle", angle, sensor), tolerance=ref("tolerance"), error="rel",
          abs_below=ref("abs_below"), abs_tolerance=ref("abs_tolerance"))
    for angle in ANGLES for sensor in ("tip_uy", "tip_uz")
]
