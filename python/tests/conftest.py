"""The Python module's tests (make test-python): the package from build/<preset>/python
(PYTHONPATH, else CATENA_BUILD/python, CATENA_BUILD by default build/release), the command line beside it."""
import os
import pathlib
import subprocess
import sys

import pytest

SOURCE = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("CATENA_BUILD", SOURCE / "build" / "release"))
try:
    import catena
except ImportError:
    sys.path.insert(0, str(BUILD / "python"))
    import catena

# The command line that built the package: build/<preset>/catena, two folders above it.
CATENA = pathlib.Path(catena.__file__).resolve().parents[2] / "catena"


def case(name):
    return SOURCE / "cases" / name / "model.yaml"


def run_cli(model, out, overrides=(), *options):
    """`catena run MODEL --out OUT --quiet --set ...`; fails the test unless it exits 0."""
    command = [str(CATENA), "run", str(model), "--out", str(out), "--quiet"]
    for item in overrides:
        command += ["--set", item]
    result = subprocess.run(command + list(options), capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"{' '.join(command)}: exit {result.returncode}\n{result.stderr}"
    return catena.read(out)


def assert_same_columns(got, expected, what):
    """Bit for bit: the same columns in the same order, every number equal (NaN where NaN)."""
    assert list(got) == list(expected), f"{what}: columns differ"
    for name, column in expected.items():
        assert len(got[name]) == len(column), f"{what}: {name}: {len(got[name])} rows, the file has {len(column)}"
        different = ~((got[name] == column) | (got[name] != got[name]) & (column != column))
        assert not different.any(), (
            f"{what}: {name}: row {different.argmax()}: {got[name][different.argmax()]!r} != "
            f"{column[different.argmax()]!r}")


@pytest.fixture
def in_empty_directory(tmp_path, monkeypatch):
    """The test runs in an empty current directory (out/<model> would go there)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
