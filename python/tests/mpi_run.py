"""Run by test_mpi.py as `mpirun -n N python3 mpi_run.py PACKAGE_DIR OUT_DIR`: every rank runs the
same script (the calls are collective) and writes what it got to OUT_DIR/rank<r>.json."""
import json
import pathlib
import sys

sys.path.insert(0, sys.argv[1])
import catena  # noqa: E402

SOURCE = pathlib.Path(__file__).resolve().parents[2]
model = catena.Model(SOURCE / "cases" / "chain15-falling" / "model.yaml", set={"analysis.t_end": 0.05})
sim = model.simulate()
sim.advance(0.02)
now = sim.sensor_values()
summary = sim.run()
result = {
    "rank": catena.rank(),
    "size": catena.size(),
    "rows_per_rank": summary["rows_per_rank"],
    "sensors": {name: column.tolist() for name, column in sim.sensors.items()},
    "energy": {name: column.tolist() for name, column in sim.energy.items()},
    "at_0.02": now,
    "last_node": sim.node(model.nodes[-1])["position"].tolist(),
}
(pathlib.Path(sys.argv[2]) / f"rank{catena.rank()}.json").write_text(json.dumps(result))
