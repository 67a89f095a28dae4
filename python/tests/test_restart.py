"""A run continued from Python from a checkpoint equals the uninterrupted run, bit for bit."""
from conftest import assert_same_columns, case

import catena

MODEL = catena.Model(case("spin-up-simo"), set={"analysis.t_end": 0.4})  # 40 steps


def after(columns, t):
    """The rows after time t."""
    keep = columns["t"] > t
    return {name: values[keep] for name, values in columns.items()}


def test_restart_from_a_checkpoint_equals_the_uninterrupted_run(tmp_path):
    whole = MODEL.simulate()
    whole.run()
    first = MODEL.simulate(tmp_path, checkpoint_every=10)
    first.advance(0.25)  # checkpoints at steps 10 and 20, not beyond
    first.finish()
    checkpoint = tmp_path / "checkpoint_000020.ckpt"
    assert checkpoint.is_file(), sorted(p.name for p in tmp_path.iterdir())

    continued = MODEL.simulate(restart=checkpoint)
    continued.start()
    assert continued.step_index == 20 and continued.time == whole.sensors["t"][20]
    summary = continued.run()
    assert summary["restarted_from"] == str(checkpoint) and summary["steps"] == whole.summary["steps"]
    assert_same_columns(continued.sensors, after(whole.sensors, whole.sensors["t"][20]), "sensors")
    assert_same_columns(continued.energy, after(whole.energy, whole.energy["t"][20]), "energy")

    # Into the run's own directory: the files end as the uninterrupted run's. (The first run holds
    # the directory as long as it lives.)
    del first
    MODEL.simulate(tmp_path, restart=checkpoint).run()
    files = catena.read(tmp_path)
    assert_same_columns(files.sensors, whole.sensors, "sensors.csv")
    assert_same_columns(files.energy, whole.energy, "energy.csv")


def test_a_checkpoint_in_memory_continues_bit_for_bit(tmp_path):
    whole = MODEL.simulate()
    whole.run()
    first = MODEL.simulate()
    first.advance(0.15)
    checkpoint = first.checkpoint()
    assert checkpoint.step_index == 15 and checkpoint.time == whole.sensors["t"][15]
    first.save_checkpoint(tmp_path / "at-15.ckpt")
    first.run()  # the first goes on undisturbed
    assert_same_columns(first.sensors, whole.sensors, "sensors")
    for continued in (MODEL.simulate(resume=checkpoint), MODEL.simulate(restart=tmp_path / "at-15.ckpt")):
        continued.run()
        assert_same_columns(continued.sensors, after(whole.sensors, checkpoint.time), "sensors")
        assert_same_columns(continued.energy, after(whole.energy, checkpoint.time), "energy")
