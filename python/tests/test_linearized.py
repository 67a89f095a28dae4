"""Eigen and buckling analyses from Python: run whole into a directory, the same files as
`catena run`, read back with catena.read."""
import pytest
from conftest import SOURCE, case, run_cli

import catena

CANTILEVER = SOURCE / "tests" / "solvers" / "models" / "cantilever_modes.yaml"


def test_buckling_writes_the_command_lines_files(tmp_path):
    cli = run_cli(case("buckling-lateral"), tmp_path / "cli")
    sim = catena.Model(case("buckling-lateral")).simulate(tmp_path / "py")
    summary = sim.run()
    assert sim.summary == summary  # kept once finished, as a time run's
    assert (tmp_path / "py" / "buckling.csv").read_bytes() == (tmp_path / "cli" / "buckling.csv").read_bytes()
    assert summary["status"] == "completed"
    assert summary["critical_load_factor_linear"] == cli.summary["critical_load_factor_linear"]


def test_eigen_modes_are_read_back_and_need_a_directory(tmp_path):
    model = catena.Model(CANTILEVER)
    assert model.analysis == "eigen"
    with pytest.raises(catena.Error) as raised:
        model.simulate()
    assert raised.value.exit_code == 2 and "give an output directory" in str(raised.value)
    model.run(tmp_path)
    cli = run_cli(CANTILEVER, tmp_path / "cli")
    modes = catena.read(tmp_path).modes
    assert (modes["frequency_hz"] == cli.modes["frequency_hz"]).all() and modes["kind"][0] in ("elastic", "rigid")
    with pytest.raises(catena.Error, match="not stepped"):
        catena.Model(CANTILEVER).simulate(tmp_path / "again").step()
