"""Processes: a child forked after PETSc started refuses to start it (MPI cannot run in both)
and leaves the parent's alone; a child forked before, or spawned, runs (the sweep example);
PETSc's options are given before its start, once per process."""
import multiprocessing
import os
import subprocess
import sys

from conftest import case

import catena

MODEL = case("spin-up-simo")


def simulate_in_child(queue):
    try:
        catena.Model(MODEL, set={"analysis.t_end": 0.02}).simulate().run()
        queue.put("ran")
    except catena.Error as e:
        queue.put(str(e))


def test_a_child_forked_after_petsc_started_refuses_and_the_parent_goes_on():
    parent = catena.Model(MODEL, set={"analysis.t_end": 0.05}).simulate()
    parent.advance(0.02)
    assert catena.started()
    fork = multiprocessing.get_context("fork")
    queue = fork.Queue()
    child = fork.Process(target=simulate_in_child, args=(queue,))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    assert "forked" in queue.get(timeout=5)
    assert parent.run()["status"] == "completed"  # the parent's PETSc and MPI untouched


def test_a_spawned_child_runs_its_own_simulation():
    spawn = multiprocessing.get_context("spawn")
    queue = spawn.Queue()
    child = spawn.Process(target=simulate_in_child, args=(queue,))
    child.start()
    child.join(120)
    assert child.exitcode == 0 and queue.get(timeout=5) == "ran"


def test_workers_forked_before_petsc_started_run_and_finish_it(tmp_path):
    # A pool as the sweep example makes it ("fork": the workers end by os._exit, past the exit
    # handlers); each worker's Open MPI session folder goes to TMPDIR, and is removed when its
    # PETSc finishes.
    printed = run_python(f"""
import concurrent.futures, multiprocessing
def steps(t_end):
    return catena.Model({str(MODEL)!r}, set={{"analysis.t_end": t_end}}).simulate().run()["steps"]
if __name__ == "__main__":
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        print(list(pool.map(steps, [0.02, 0.03])))
""", TMPDIR=str(tmp_path))
    assert printed.splitlines() == ["[2, 3]"]
    assert list(tmp_path.iterdir()) == []


def run_python(code, **environment):
    """`code` in a fresh python3 (PETSc starts once per process) with this package."""
    result = subprocess.run([sys.executable, "-c", "import catena\n" + code], capture_output=True, text=True,
                            env=dict(os.environ, **environment), timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_petsc_options_reach_petsc_before_the_first_simulation_only():
    printed = run_python(f"""
catena.start(["-pc_factor_mat_solver_type", "umfpack"])
print(catena.Model({str(MODEL)!r}, set={{"analysis.t_end": 0.02}}).run()["linear_solver"])
try:
    catena.start(["-snes_monitor"])
except catena.Error as e:
    print(e.exit_code, e)
""")
    assert printed.splitlines() == [
        "umfpack", "1 PETSc runs already: call catena.start(petsc_options=...) before the first simulation"]
    printed = run_python("""
try:
    catena.start(["-options_file", "/no/such/file"])
except catena.Error as e:
    print(e.exit_code, str(e).startswith("PETSc did not start with the options given"))
""")
    assert printed.splitlines() == ["2 True"]
