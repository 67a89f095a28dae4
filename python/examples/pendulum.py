"""A pendulum in ten lines of Python (docs/python.md): a rigid body on a hinge, released level."""
import catena

pendulum = catena.Model(text="""
name: pendulum
nodes: [{name: bob, position: [1, 0, 0]}]
rigid_bodies: [{name: body, node: bob, mass: 1, inertia: [0.01, 0.01, 0.01]}]
joints: [{name: hinge, kind: revolute, node: bob, at: [0, 0, 0], axis: [0, 0, 1]}]
gravity: [0, -9.81, 0]
sensors: [{name: angle, element: hinge, quantity: relative_rz}]
analysis: {dt: 0.01, t_end: 2.4}
""")
sim = pendulum.simulate()
while sim.step():
    if sim.step_index % 20 == 0:
        print(f"t = {sim.time:4.2f} s   angle = {sim.sensor_values()['angle']:+.4f} rad")
