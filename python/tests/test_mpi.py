"""`mpirun -n 2 python3 script.py`: every rank gets rank 0's results, and they are the one-rank
run's to round-off (1e-10 of each column's scale, as tests/mpi/two_ranks_match_one.sh compares
the command line's files: the factorization's order differs)."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import catena

SCRIPT = pathlib.Path(__file__).with_name("mpi_run.py")
PACKAGE_DIR = str(pathlib.Path(catena.__file__).resolve().parents[1])
MPIRUN = shutil.which("mpirun") or shutil.which("mpiexec")


def run(command, out):
    out.mkdir()
    # Open MPI refuses root and more ranks than cores unless told (tests/CMakeLists.txt, MPI tests).
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    result = subprocess.run(command + [sys.executable, str(SCRIPT), PACKAGE_DIR, str(out)], env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    return [json.loads(path.read_text()) for path in sorted(out.glob("rank*.json"))]


def assert_close(two, one, what, tolerance=1e-10):
    """Each column (or value) of `two` within `tolerance` of `one`'s, relative to its largest."""
    for name, column in one.items():
        column, two[name] = ([column], [two[name]]) if isinstance(column, float) else (column, two[name])
        scale = max(1.0, max(abs(x) for x in column))
        worst = max(abs(a - b) for a, b in zip(two[name], column))
        assert len(two[name]) == len(column) and worst <= tolerance * scale, (what, name, worst)


@pytest.mark.skipif(MPIRUN is None, reason="no mpirun (openmpi-bin)")
def test_two_ranks_equal_one(tmp_path):
    one = run([], tmp_path / "one")
    two = run([MPIRUN, "-n", "2"], tmp_path / "two")
    assert [r["rank"] for r in two] == [0, 1] and two[0]["size"] == 2 and one[0]["size"] == 1
    assert len(two[0]["rows_per_rank"]) == 2 and min(two[0]["rows_per_rank"]) > 0
    # Every rank has rank 0's numbers.
    for key in ("sensors", "energy", "at_0.02", "last_node"):
        assert two[1][key] == two[0][key], key
    assert_close(two[0]["sensors"], one[0]["sensors"], "sensors", 1e-8)  # reactions: the constraints' conditioning
    assert_close(two[0]["energy"], one[0]["energy"], "energy")
    assert_close(two[0]["at_0.02"], one[0]["at_0.02"], "sensor values at 0.02 s", 1e-8)
