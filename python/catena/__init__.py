"""Catena from Python: read and check models, run and step simulations, read finished runs.

    import catena
    m = catena.Model("cases/spin-up-simo/model.yaml", set={"analysis.t_end": 1.0})
    sim = m.simulate()          # in memory: no file written (out="DIR" writes what `catena run` writes)
    sim.advance(0.5)
    print(sim.time, sim.node("tip")["position"], sim.sensor_values())
    summary = sim.run()         # to t_end; sim.sensors, sim.energy: dicts of NumPy arrays
    catena.read("out/spin-up-simo").sensors["tip_y"]

The API and a tutorial: docs/python.md.
"""
from ._analyses import Buckling, Gradient, Modes, Sensitivities
from ._catena import Checkpoint, Error, Simulation, rank, size, start, started
from ._model import Model
from ._results import Results, read

__all__ = ["Buckling", "Checkpoint", "Error", "Gradient", "Model", "Modes", "Results", "Sensitivities", "Simulation",
           "rank", "read", "size", "start", "started"]
