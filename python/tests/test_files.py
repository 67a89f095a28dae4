"""A run from Python with out=DIR writes what `catena run` writes; an in-memory run writes
nothing at all; catena.read gives a run's files back."""
import os

from conftest import case, run_cli

import catena

SHORT = {"analysis.t_end": 0.3}  # 30 steps of the spin-up beam


def test_out_writes_the_command_lines_files(tmp_path):
    run_cli(case("spin-up-simo"), tmp_path / "cli", [f"{k}={v!r}" for k, v in SHORT.items()])
    summary = catena.Model(case("spin-up-simo"), set=SHORT).run(tmp_path / "py")
    for name in ("energy.csv", "sensors.csv"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    cli_files = sorted(os.listdir(tmp_path / "cli"))
    assert sorted(os.listdir(tmp_path / "py")) == cli_files
    assert "results.pvd" in cli_files  # VTK frames too: the VTK module was found beside the package
    assert summary == catena.read(tmp_path / "py").summary
    assert summary["status"] == "completed" and summary["steps"] == 30


def test_in_memory_run_writes_no_file(in_empty_directory):
    sim = catena.Model(case("spin-up-simo"), set=SHORT).simulate()
    assert sim.out is None
    summary = sim.run()
    assert summary["status"] == "completed"
    assert len(sim.sensors["t"]) == 31
    assert list(in_empty_directory.iterdir()) == []


def test_read_gives_the_files_as_arrays(tmp_path):
    files = run_cli(case("spin-up-simo"), tmp_path, ["analysis.t_end=0.05"])
    assert list(files.energy)[:3] == ["t", "kinetic", "strain"]
    assert list(files.sensors) == ["t", "tip_deflection", "hub_angle"]
    assert files.sensors["t"][-1] == 0.05 and len(files.sensors["t"]) == 6
    assert files.summary["model_name"] == "spin-up-simo"
    assert files.modes is None and files.sensitivities is None
