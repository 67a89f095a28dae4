"""Named inputs set from Python between steps are held over the next steps (zero-order hold): a
torque set at t = 0.1 s gives the motion of the same torque as a table of the model."""
import pytest
from conftest import assert_same_columns

import catena

HINGE = """
name: driven-hinge
nodes: [{{name: arm, position: [1, 0, 0]}}]
rigid_bodies: [{{name: body, node: arm, mass: 1, inertia: [0.1, 0.1, 0.1]}}]
inputs: [{input}]
joints:
  - {{name: hub, kind: revolute, node: arm, at: [0, 0, 0], laws: {{rz: {{force: torque}}}}}}
sensors: [{{name: angle, element: hub, quantity: relative_rz}}]
analysis: {{dt: 0.01, t_end: 0.3}}
"""


def test_an_input_set_between_steps_is_held_as_a_table_holds_it():
    from_python = catena.Model(text=HINGE.format(input="{name: torque, value: 0}"), name="hinge").simulate()
    from_python.advance(0.1)
    assert from_python.sensor_values()["angle"] == 0.0  # no torque yet
    from_python.set_input("torque", 2.0)
    from_python.run()
    table = catena.Model(text=HINGE.format(input="{name: torque, table: [[0, 0], [0.1, 2]]}"), name="hinge").simulate()
    table.run()
    assert_same_columns(from_python.sensors, table.sensors, "sensors")
    # A constant torque from 0.1 s: the angle grows as (torque / J) (t - 0.1)^2 / 2, J = 1 + 0.1.
    assert from_python.sensors["angle"][-1] == pytest.approx(2.0 / 1.1 * 0.2**2 / 2, rel=1e-6)


def test_an_unknown_input_is_refused_by_name():
    sim = catena.Model(text=HINGE.format(input="{name: torque, value: 0}"), name="hinge").simulate()
    with pytest.raises(Exception, match="torq"):
        sim.set_input("torq", 1.0)
