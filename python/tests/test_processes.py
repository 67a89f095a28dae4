"""Processes: a child forked after PETSc started refuses to start it (MPI cannot run in both)
and leaves the parent's alone; a child forked before, or spawned, runs (the sweep example)."""
import multiprocessing

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
