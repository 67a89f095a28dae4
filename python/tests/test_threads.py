"""The solve releases the GIL: another Python thread makes progress while a run solves."""
import threading
import time

from conftest import case

import catena


def test_a_second_thread_runs_while_a_simulation_solves():
    sim = catena.Model(case("spin-up-simo")).simulate()  # 3000 steps
    sim.start()
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    worker = threading.Thread(target=count)
    worker.start()
    try:
        begin = time.perf_counter()
        sim.run()
        end = time.perf_counter()
    finally:
        done.set()
        worker.join()
    during = [t for t in ticks if begin < t < end]
    # The run takes more than half a second: the thread ticked all along (a tick per millisecond
    # at most), not only before and after it. Holding the GIL, the run would leave it none.
    assert end - begin > 0.1
    assert len(during) >= 0.1 * (end - begin) / 0.001, (len(during), end - begin)
    assert during[0] - begin < 0.1 and end - during[-1] < 0.1


def test_two_threads_stepping_two_simulations_take_turns():
    model = catena.Model(case("spin-up-simo"), set={"analysis.t_end": 0.2})
    alone = model.simulate()
    alone.run()
    sims = [model.simulate() for _ in range(2)]
    threads = [threading.Thread(target=s.run) for s in sims]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in sims:
        assert (s.sensors["tip_deflection"] == alone.sensors["tip_deflection"]).all()
