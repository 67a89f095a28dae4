"""The histories of an in-memory run from Python are the command line's energy.csv and
sensors.csv bit for bit, on every shipped case with a time history (shortened); stepping equals
running; advance lands on the nominal step."""

import pytest
from conftest import SOURCE, assert_same_columns, case, run_cli

import catena

STEPS = 100  # nominal steps of each case's short run


def time_history_cases():
    names = sorted(path.parent.name for path in (SOURCE / "cases").glob("*/model.yaml"))
    return [name for name in names if catena.Model(case(name)).analysis in ("dynamic", "static")]


def short(name):
    """The case's first STEPS nominal steps (its whole run when shorter)."""
    model = catena.Model(case(name))
    return [f"analysis.t_end={min(model.t_end, STEPS * model.dt)!r}"]


@pytest.mark.parametrize("name", time_history_cases())
def test_in_memory_histories_equal_the_command_lines_files(name, tmp_path):
    overrides = short(name)
    files = run_cli(case(name), tmp_path / "cli", overrides)
    sim = catena.Model(case(name), set=overrides).simulate()
    summary = sim.run()
    assert summary["status"] == "completed"
    assert summary["steps"] == files.summary["steps"]
    assert_same_columns(sim.energy, files.energy, f"{name}: energy")
    assert_same_columns(sim.sensors, files.sensors, f"{name}: sensors")


@pytest.mark.parametrize("name", ["chain15-falling", "spin-up-simo"])
def test_stepping_to_the_end_equals_run(name):
    model = catena.Model(case(name), set=short(name))
    whole = model.simulate()
    whole.run()
    stepped = model.simulate()
    steps = 0
    while stepped.step():
        steps += 1
    assert steps == stepped.nominal_steps == stepped.step_index
    assert not stepped.step()  # complete: nothing more to do
    stepped.finish()
    assert_same_columns(stepped.sensors, whole.sensors, f"{name}: sensors")
    assert_same_columns(stepped.energy, whole.energy, f"{name}: energy")


def test_advance_lands_on_the_nominal_step_at_or_after_t():
    model = catena.Model(case("spin-up-simo"), set={"analysis.t_end": 0.2})  # dt = 0.01
    sim = model.simulate()
    assert sim.advance(0.055) == 6
    assert sim.step_index == 6
    assert sim.time == pytest.approx(0.06, abs=1e-12)
    assert sim.advance(0.06) == 0  # there already
    assert sim.advance(1.0) == 14  # stops at t_end
    assert sim.complete and sim.time == pytest.approx(0.2, abs=1e-12)
    assert len(sim.sensors["t"]) == 21  # a row at t = 0 and after every step


def test_state_now_matches_the_last_row():
    sim = catena.Model(case("spin-up-simo"), set={"analysis.t_end": 0.5}).simulate()
    sim.advance(0.3)
    now = sim.sensor_values()
    rows = sim.sensors
    assert rows["t"][-1] == sim.time
    for name, value in now.items():
        assert value == rows[name][-1], name
    energy = sim.energy_now()
    assert energy["kinetic"] == sim.energy["kinetic"][-1]
    tip = sim.node("tip")
    assert tip["position"].shape == (3,) and tip["orientation"].shape == (4,) and tip["rotation"].shape == (3, 3)
    assert sum(q * q for q in tip["orientation"]) == pytest.approx(1.0)
    with pytest.raises(KeyError, match="no node 'nowhere'"):
        sim.node("nowhere")
