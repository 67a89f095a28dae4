"""Linearized analyses and derivatives as data: Model.modes, Model.buckling, Model.sensitivity and
Model.gradient give the command line's numbers bit for bit, as NumPy arrays and dicts."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from conftest import CATENA, SOURCE, assert_same_columns, case, run_cli

import catena
from catena._results import read_csv

CANTILEVER = SOURCE / "tests" / "solvers" / "models" / "cantilever_modes.yaml"
ARM_MODES = {"analysis.modes": 4}  # the arm's PD closed loop: damped modes, complex s
DESIGN_SHORT = {"analysis.t_end": 0.5}  # 100 steps of Hou's slider-crank


def modes_columns(modes):
    """A catena.Modes as modes.csv's columns."""
    return {"mode": modes.mode.astype(float), "frequency_hz": modes.frequency_hz,
            "natural_frequency_hz": modes.natural_frequency_hz, "damping_ratio": modes.damping_ratio,
            "s_real": modes.s.real, "s_imag": modes.s.imag, "kind": np.array(modes.kind, dtype=str)}


def test_modes_equal_the_command_lines_modes_csv(tmp_path, monkeypatch):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    arm = catena.Model(case("flexible-arm-pd"), set=ARM_MODES)
    assert arm.analysis == "dynamic"
    modes = arm.modes()
    cli = run_cli(case("flexible-arm-pd"), tmp_path / "cli", ["analysis.type=eigen", "analysis.modes=4"])
    assert_same_columns(modes_columns(modes), cli.modes, "modes")
    assert modes.kind == ["elastic"] * 4 and modes.s.dtype == complex and (modes.s.real < 0).all()
    assert modes.summary["mode_1_frequency_hz"] == cli.summary["mode_1_frequency_hz"]
    assert modes.sensitivities is None and modes.directory is None
    assert list(temporary.iterdir()) == []  # the temporary directory is gone, mode shapes and all


def test_mode_sensitivities_equal_the_command_lines_and_out_keeps_the_shapes(tmp_path):
    modes = catena.Model(CANTILEVER).modes(tmp_path / "py", sensitivity="E,rho")
    cli = run_cli(CANTILEVER, tmp_path / "cli", (), "--sensitivity", "E,rho")
    assert_same_columns(modes_columns(modes), cli.modes, "modes")
    expected = read_csv(tmp_path / "cli" / "mode_sensitivities.csv")
    assert_same_columns(modes.sensitivities, expected, "mode_sensitivities")
    assert list(modes.sensitivities)[1:3] == ["frequency_hz:E", "natural_frequency_hz:E"]
    assert modes.directory == str(tmp_path / "py")
    assert (tmp_path / "py" / "modes" / "mode_08" / "results.pvd").is_file()


def test_buckling_equals_its_summarys_factors(tmp_path):
    buckling = catena.Model(case("buckling-lateral")).buckling(sensitivity=["E"])
    cli = run_cli(case("buckling-lateral"), tmp_path, (), "--sensitivity", "E")
    assert buckling.critical_load_factor_linear == cli.summary["critical_load_factor_linear"]
    assert buckling.critical_load_factor_tracked == cli.summary["critical_load_factor_tracked"]
    assert buckling.preload == cli.summary["preload"] == 0
    assert 1.0 < buckling.critical_load_factor_linear < 1.05  # F_cr / F_th, Timoshenko's load
    assert_same_columns(buckling.path, cli.buckling, "buckling")
    expected = read_csv(tmp_path / "buckling_sensitivities.csv")
    assert buckling.sensitivities == {"critical_load_factor_linear:E": expected["critical_load_factor_linear:E"][0]}


def test_sensitivities_equal_the_command_lines_sensitivities_csv(tmp_path):
    design = catena.Model(case("slider-crank-design"), set=DESIGN_SHORT)
    derivatives = design.sensitivity(["a0", "l1"])
    cli = run_cli(case("slider-crank-design"), tmp_path, ["analysis.t_end=0.5"], "--sensitivity", "a0,l1")
    assert_same_columns(derivatives.derivatives, cli.sensitivities, "sensitivities")
    assert_same_columns(derivatives.sensors, cli.sensors, "sensors")
    assert derivatives.objective == cli.summary["objective"]
    assert derivatives.objective_gradient == cli.summary["objective_gradient"]
    assert list(derivatives.objective_gradient) == ["a0", "l1"]


def test_a_simulation_gives_its_sensitivities_so_far():
    crank = catena.Model(case("slider-crank-rigid"), set={"analysis.t_end": 0.1})
    sim = crank.simulate(sensitivity=["T"])
    sim.advance(0.05)
    rows = sim.sensitivities
    energy = [name for name in sim.energy if name != "t"]
    assert list(rows) == ["t"] + [f"{name}:T" for name in crank.sensors + energy]
    assert (rows["t"] == sim.sensors["t"]).all() and rows["t"][-1] == 0.05  # the rows so far, with sensors.csv's
    assert all(len(column) == len(rows["t"]) for column in rows.values())
    assert catena.Model(case("slider-crank-rigid")).simulate().sensitivities is None


def test_gradient_equals_the_command_lines_and_a_central_difference(tmp_path):
    design = catena.Model(case("slider-crank-design"), set=DESIGN_SHORT)
    objective, gradient = design.gradient(["a0", "a1"])
    cli = run_cli(case("slider-crank-design"), tmp_path, ["analysis.t_end=0.5"], "--gradient", "a0,a1")
    assert objective == cli.summary["objective"]
    assert gradient == cli.summary["objective_gradient"]
    # The central difference's error: its truncation, δ²/6 Ψ''', and the objective's rounding over
    # δ (the runs converge to newton_tolerance 1e-13). At δ = 1e-4, between the δ where either
    # dominates, both stay below 1e-9 of the gradient: 1e-8 checks the adjoint to eight digits.
    delta = 1e-4
    psi = [catena.Model(case("slider-crank-design"), set={**DESIGN_SHORT, "a0": 1 + sign * delta}).run()["objective"]
           for sign in (1, -1)]
    assert gradient["a0"] == pytest.approx((psi[0] - psi[1]) / (2 * delta), rel=1e-8)


def test_the_wrong_analysis_is_refused_with_what_to_do():
    with pytest.raises(ValueError, match=r"modes\(sensitivity"):
        catena.Model(CANTILEVER).sensitivity(["E"])
    with pytest.raises(catena.Error) as raised:  # an objective belongs to a time run
        catena.Model(case("slider-crank-design")).modes()
    assert raised.value.exit_code == 2 and str(raised.value).startswith(str(case("slider-crank-design")) + ":42:5: ")
    assert "(modes() runs this dynamic model with analysis.type=eigen, which refuses" in str(raised.value)
    with pytest.raises(catena.Error) as raised:
        catena.Model(case("slider-crank-rigid"), set={"analysis.t_end": 0.01}).gradient(["T"])
    assert raised.value.exit_code == 2 and "objective" in str(raised.value)


# A body on a hinge under gravity whose spring law turns NaN (e < -0.5) before it can hold the body
# up: the static equilibrium the modes are about fails at the law's place (line 8, column 25).
WEAK_HINGE = """name: weak-hinge
parameters: {k: 10}
gravity: [0, -9.81, 0]
nodes: [{name: arm, position: [1, 0, 0]}]
rigid_bodies: [{name: body, node: arm, mass: 1, inertia: [0.1, 0.1, 0.1]}]
joints:
  - {name: hub, kind: revolute, node: arm, at: [0, 0, 0],
     laws: {rz: {force: "-k*e*sqrt(e + 0.5)"}}}
analysis: {type: eigen, modes: 2}
"""


def test_a_quiet_analysis_that_fails_prints_nothing_and_raises_the_command_lines_message(tmp_path, capfd):
    model = tmp_path / "hinge.yaml"
    model.write_text(WEAK_HINGE)
    with pytest.raises(catena.Error) as raised:
        catena.Model(model).modes(quiet=True)
    assert capfd.readouterr().err == ""
    assert raised.value.exit_code == 3
    assert f"{model}:8:25: joints[0].laws.rz.force: the law '-k*e*sqrt(e + 0.5)' at e = " in str(raised.value)
    # `catena run --quiet` prints its failure all the same: the message the exception carries.
    cli = subprocess.run([str(CATENA), "run", str(model), "--out", str(tmp_path / "cli"), "--quiet"],
                         capture_output=True, text=True, check=False)
    assert (cli.returncode, cli.stderr) == (3, str(raised.value) + "\n")
    with pytest.raises(catena.Error) as raised:  # a buckling analysis failing alike
        catena.Model(model).buckling(quiet=True)
    assert capfd.readouterr().err == ""
    assert raised.value.exit_code == 3 and "not stable at the preload" in str(raised.value)
    # Bad input, refused before the analysis starts.
    with pytest.raises(catena.Error) as raised:
        catena.Model(CANTILEVER).modes(quiet=True, sensitivity=["nope"])
    assert capfd.readouterr().err == ""
    assert raised.value.exit_code == 2 and "--sensitivity: 'nope' is not a parameter of the model" in str(raised.value)


# Under mpirun every rank runs it: the modes (in a temporary directory in argv[2]) and a gradient,
# each rank's into argv[3].
ON_EVERY_RANK = """
import json, pathlib, sys, tempfile
sys.path.insert(0, sys.argv[1])
import catena
tempfile.tempdir = sys.argv[2]
modes = catena.Model(sys.argv[4], set={"analysis.modes": 4}).modes()
gradient = catena.Model(sys.argv[5], set={"analysis.t_end": 0.1}).gradient("a0,a1")
derivatives = catena.Model(sys.argv[5], set={"analysis.t_end": 0.1}).sensitivity("a0").derivatives
derivatives = {name: column.tolist() for name, column in derivatives.items()}
pathlib.Path(sys.argv[3], f"rank{catena.rank()}.json").write_text(
    json.dumps([modes.frequency_hz.tolist(), gradient, derivatives]))
"""
MPIRUN = shutil.which("mpirun") or shutil.which("mpiexec")


@pytest.mark.skipif(MPIRUN is None, reason="no mpirun (openmpi-bin)")
def test_two_ranks_get_rank_0s_modes_and_gradient(tmp_path):
    script, temporary = tmp_path / "on_every_rank.py", tmp_path / "tmp"
    script.write_text(ON_EVERY_RANK)
    temporary.mkdir()
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    package = str(pathlib.Path(catena.__file__).resolve().parents[1])
    command = [MPIRUN, "-n", "2", sys.executable, str(script), package, str(temporary), str(tmp_path),
               str(case("flexible-arm-pd")), str(case("slider-crank-design"))]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1)]
    # The modes read from rank 0's directory, the summary's gradient rank 0's, the sensitivities'
    # rows rank 0's (element sensors' derivatives, a joint's coordinate among them, are its alone).
    assert ranks[1] == ranks[0]
    assert any(value != 0.0 for name, column in ranks[1][2].items() if name.startswith("theta1:") for value in column)
    one = catena.Model(case("flexible-arm-pd"), set=ARM_MODES).modes().frequency_hz
    # Both linearize about the equilibrium Newton converged to (newton_tolerance 1e-10), each
    # factorizing in its own order: the frequencies agree to the equilibrium's tolerance.
    assert ranks[0][0] == pytest.approx(one.tolist(), rel=1e-8)
    assert list(temporary.iterdir()) == []
