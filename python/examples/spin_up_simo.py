"""The tutorial of docs/python.md: the validated case cases/spin-up-simo (a flexible beam spun up
by its hub, Simo & Vu-Quoc), run from Python and compared with its reference (Meijaard's extreme
tip deflection, cases/spin-up-simo/reference.yaml).

    PYTHONPATH=build/release/python python3 python/examples/spin_up_simo.py
"""
import math
import pathlib

import yaml

import catena

CASE = pathlib.Path(__file__).resolve().parents[2] / "cases" / "spin-up-simo"

# The extreme comes during the spin-up (T_s = 15 s): half of it is enough, as tools/validate runs it.
model = catena.Model(CASE / "model.yaml", set={"analysis.t_end": 7.5})
print(model, model.sensors)
sim = model.simulate()

# Step to 5 s and look at the state: the hub's angle follows the drive's law psi(t).
sim.advance(5.0)
omega_s, T_s = model.parameters["omega_s"], model.parameters["T_s"]
psi = omega_s / T_s * (sim.time**2 / 2 + (T_s / (2 * math.pi)) ** 2 * (math.cos(2 * math.pi * sim.time / T_s) - 1))
hub_angle = sim.sensor_values()["hub_angle"]
print(f"t = {sim.time:.2f} s: hub angle {hub_angle:.9f} rad, drive's law {psi:.9f} rad")
print("tip position", sim.node("tip")["position"])

summary = sim.run()  # on to t_end
deflection = sim.sensors["tip_deflection"]
extreme = deflection.min()
reference = yaml.safe_load((CASE / "reference.yaml").read_text())
error = extreme / reference["extreme_tip_deflection"] - 1
print(f"{summary['steps']} steps, {summary['newton_iterations']} Newton iterations, {summary['wall_seconds']:.2f} s")
print(f"extreme tip deflection {extreme:.4f} m at t = {sim.sensors['t'][deflection.argmin()]:.2f} s; "
      f"Meijaard {reference['extreme_tip_deflection']} m: {100 * error:+.2f} % "
      f"(tolerance {100 * reference['extreme_tolerance']:.0f} %)")
drift = abs(sim.energy["balance"] - sim.energy["balance"][0]).max() / reference["energy_scale"]
tolerance = float(reference["energy_tolerance"])  # "1e-8" is a string to YAML 1.1 (PyYAML)
print(f"energy balance drift {drift:.1e} of the rigid kinetic energy at omega_s (tolerance {tolerance:g})")
