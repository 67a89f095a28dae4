"""Ctrl-C (SIGINT) during advance() or run(): the run stops after the current step as `catena run`
stops (a last row, a checkpoint, summary.json "interrupted"), then KeyboardInterrupt is raised."""
import os
import signal
import threading

import pytest
from conftest import case

import catena


def interrupt_after(seconds):
    """SIGINT to this process in `seconds`, from another thread, as Ctrl-C sends it."""
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize("how", ["run", "advance"])
def test_ctrl_c_stops_after_the_current_step_and_raises_keyboard_interrupt(tmp_path, how):
    sim = catena.Model(case("spin-up-simo")).simulate(tmp_path, checkpoint_every=100000)  # 3000 steps, ~0.7 s
    sim.start()
    timer = interrupt_after(0.2)
    with pytest.raises(KeyboardInterrupt):
        sim.run() if how == "run" else sim.advance(30.0)
    timer.join()
    assert 0 < sim.step_index < sim.nominal_steps
    assert not sim.step()  # stopped for good, as catena run is
    summary = sim.summary if how == "run" else sim.finish()
    assert summary["status"] == "interrupted" and f"at t = {sim.time:.6f} s" in summary["message"]
    # The stopping step's row and checkpoint are there to continue from.
    assert sim.sensors["t"][-1] == sim.time
    assert summary["checkpoint"].endswith(f"checkpoint_{sim.step_index:06d}.ckpt")
    assert catena.read(tmp_path).summary == summary


def test_ctrl_c_between_steps_of_a_python_loop_leaves_the_run_going():
    sim = catena.Model(case("spin-up-simo"), set={"analysis.t_end": 0.1}).simulate()
    sim.step()
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        sim.step()
    assert sim.step()  # Python's own KeyboardInterrupt: the simulation goes on
