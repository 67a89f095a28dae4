"""The examples of python/examples/ run (the sweep at a reduced size) and give the physics."""
import math
import os
import pathlib
import runpy
import subprocess
import sys

import pytest
import scipy.special

import catena

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
PACKAGE_DIR = str(pathlib.Path(catena.__file__).resolve().parents[1])


def test_pendulum_swings_to_the_other_side_in_half_its_period(capsys):
    sim = runpy.run_path(str(EXAMPLES / "pendulum.py"))["sim"]
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 12 and printed[0].startswith("t = 0.20 s")
    t, angle = sim.sensors["t"], sim.sensors["angle"]
    # Released level: energy conservation takes it to the level on the other side, -pi ...
    assert angle.min() == pytest.approx(-math.pi, abs=1e-3)
    # ... in half the period of a physical pendulum of amplitude pi/2: 2 K(sin^2(pi/4)) / omega0,
    # omega0^2 = m g l / (J + m l^2).
    omega0 = math.sqrt(9.81 * 1.0 / (0.01 + 1.0))
    half_period = 2 * scipy.special.ellipk(math.sin(math.pi / 4) ** 2) / omega0
    assert t[angle.argmin()] == pytest.approx(half_period, abs=0.01)


def test_sweep_in_parallel_processes_plots_the_deflection(tmp_path):
    png = tmp_path / "sweep.png"
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    result = subprocess.run([sys.executable, str(EXAMPLES / "spin_up_sweep.py"), "--times", "4", "8", "--dt", "0.05",
                             "--settle", "1", "--workers", "2", "--png", str(png)],
                            env=env, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    deflections = [float(line.split("=")[-1].split()[0]) for line in result.stdout.splitlines() if "T_s" in line]
    assert len(deflections) == 2
    # Spun up twice as fast, the beam lags further behind its hub.
    assert abs(deflections[0]) > abs(deflections[1]) > 0
    assert png.stat().st_size > 10000 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"



def test_the_tutorial_reproduces_the_validated_spin_up(capsys):
    tutorial = runpy.run_path(str(EXAMPLES / "spin_up_simo.py"))
    printed = capsys.readouterr().out
    assert "extreme tip deflection" in printed
    assert abs(tutorial["error"]) < tutorial["reference"]["extreme_tolerance"]
    assert tutorial["drift"] < tutorial["tolerance"]
    assert abs(tutorial["hub_angle"] - tutorial["psi"]) < float(tutorial["reference"]["hub_angle_tolerance"])


def test_sampled_control_differs_from_the_law_by_the_holds_half_step_delay():
    example = runpy.run_path(str(EXAMPLES / "arm_sampled_control.py"))
    compare = example["compare"]
    # A zero-order hold lags by half a step: the sampled loop leaves the continuous law's response
    # by O(dt) (halving the step halves it; measured 4.1e-3 and 2.0e-3 theta_ref at 4 and 2 ms) ...
    plain = [compare(dt, 1.0) for dt in (4e-3, 2e-3)]
    assert 1.9 < plain[0] / plain[1] < 2.1
    # ... and predicting the inputs half a step ahead removes that term: the rest is O(dt^2)
    # (measured 4.5e-5 and 1.1e-5), the size of the law's own step error (6.8e-5 at 4 ms).
    predicted = [compare(dt, 1.0, predict=True) for dt in (4e-3, 2e-3)]
    assert 3.6 < predicted[0] / predicted[1] < 4.4
    assert predicted[1] < plain[1] / 50
