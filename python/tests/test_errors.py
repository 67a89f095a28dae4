"""Errors are catena.Error (a RuntimeError) with `catena run`'s located message and exit code,
printed nowhere."""
import pathlib

import pytest
from conftest import case

import catena

PENDULUM = pathlib.Path(case("bathe-pendulum")).read_text()


def test_a_model_file_error_is_located_with_exit_code_2(tmp_path, capfd):
    bad = tmp_path / "bad.yaml"
    bad.write_text(PENDULUM.replace("EA: EA", "EB: EA"))
    with pytest.raises(catena.Error) as raised:
        catena.Model(bad)
    line = 1 + PENDULUM[: PENDULUM.index("EA: EA")].count("\n")
    assert str(raised.value).startswith(f"{bad}:{line}:"), str(raised.value)
    assert "EB" in str(raised.value)
    assert raised.value.exit_code == 2
    assert isinstance(raised.value, RuntimeError)
    assert capfd.readouterr().err == ""


def test_model_text_errors_cite_the_given_name(capfd):
    with pytest.raises(catena.Error) as raised:
        catena.Model(text=PENDULUM.replace("EA: EA", "EB: EA"), name="my-pendulum").simulate()
    assert str(raised.value).startswith("my-pendulum:"), str(raised.value)
    assert raised.value.exit_code == 2
    assert capfd.readouterr().err == ""


def test_a_bad_override_is_refused_when_simulating_too(capfd):
    model = catena.Model(case("bathe-pendulum"))
    with pytest.raises(catena.Error) as raised:
        catena.Model(case("bathe-pendulum"), set={"analysis.dt": -1})
    assert raised.value.exit_code == 2 and "analysis.dt" in str(raised.value)
    with pytest.raises(catena.Error) as raised:
        model.simulate(restart="no-such-checkpoint.ckpt")
    assert raised.value.exit_code == 2 and "no-such-checkpoint.ckpt" in str(raised.value)
    assert capfd.readouterr().err == ""


def test_a_solver_failure_is_exit_code_3_and_the_run_reports_it(tmp_path):
    # A tolerance below round-off: the first step fails even at dt_min.
    model = catena.Model(case("spin-up-simo"), set={"analysis.newton_tolerance": 1e-300, "analysis.t_end": 0.1})
    with pytest.raises(catena.Error) as raised:
        model.run(tmp_path)
    assert raised.value.exit_code == 3
    assert "Newton failed" in str(raised.value) and "results up to t = 0" in str(raised.value)
    assert catena.read(tmp_path).summary["status"] == "failed"


# Rigid links on revolute joints about z, a parallelogram (tests/support/four_bar_model.hpp): in
# 3D over-constrained three times, with `planar: xy` a mechanism.
FOUR_BAR = """name: four-bar
nodes:
  - {name: crank, position: [0, 0.5, 0]}
  - {name: coupler, position: [1, 1, 0]}
  - {name: rocker, position: [2, 0.5, 0]}
rigid_bodies:
  - {name: b1, node: crank, mass: 1, inertia: [0.08, 0.001, 0.08]}
  - {name: b2, node: coupler, mass: 2, inertia: [0.001, 0.6, 0.6]}
  - {name: b3, node: rocker, mass: 1, inertia: [0.08, 0.001, 0.08]}
joints:
  - {name: A, kind: revolute, node: crank, at: [0, 0, 0]}
  - {name: B, kind: revolute, nodes: [crank, coupler], at: [0, 1, 0]}
  - {name: C, kind: revolute, nodes: [coupler, rocker], at: [2, 1, 0]}
  - {name: D, kind: revolute, node: rocker, at: [2, 0, 0]}
analysis: {dt: 0.01, t_end: 1}
"""


def test_check_refuses_redundant_constraints_as_catena_check_does(capfd):
    with pytest.raises(catena.Error) as raised:
        catena.Model(text=FOUR_BAR, name="spatial.yaml").check()
    assert raised.value.exit_code == 2
    assert "3 unknown(s) cannot be determined" in str(raised.value) and "spatial.yaml:" in str(raised.value)
    facts = catena.Model(text=FOUR_BAR + "planar: xy\n", name="planar.yaml").check()
    assert facts["constraints"] == "independent"
    assert facts["elements"]["joint (revolute)"] == 4 and facts["nodes"] == ["crank", "coupler", "rocker"]
    assert facts["analysis"] == {"type": "dynamic", "integrator": "midpoint", "dt": 0.01, "t_end": 1.0}
    assert facts["unknowns"] > 0 and facts["nonzeros"] > facts["unknowns"]
    assert capfd.readouterr().err == ""
