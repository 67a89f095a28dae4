"""The flexible arm's PD hub controller (cases/flexible-arm-pd) two ways (docs/python.md):

- continuous, as a law of the motion in the model, force "-Kp*(e - theta_ref) - Kd*e_rate": each
  time element applies the law's average over the step, with its exact Jacobian;
- sampled, as a digital controller in Python: at the start of each step it reads the hub angle and
  rate, computes the same PD torque and sets the model's input `tau`, which the hub joint's force
  holds over the step (zero-order hold).

A zero-order hold delays the torque by half a sampling period on average (the law's average over
a step is its value at the step's middle to O(dt^2); the held torque is its value at the start), so
the sampled loop differs from the continuous one by O(dt): halving the step halves the difference,
while each loop on its own converges as dt^2 (the midpoint rule). The explanation is checked by
the controller that predicts its inputs half a step ahead (angle + dt/2 rate, rate + dt/2 times the
rate's last difference quotient): the difference then falls as dt^2.
Run: python3 arm_sampled_control.py [--dt ...] [--t-end ...]
"""
import argparse
import pathlib

import numpy as np

import catena

CASE = pathlib.Path(__file__).resolve().parents[2] / "cases" / "flexible-arm-pd" / "model.yaml"
LAW = 'rz: {force: "-Kp*(e - theta_ref) - Kd*e_rate"}'


def sampled_text():
    """The case's model with the hub torque the input `tau` instead of the PD law."""
    text = CASE.read_text()
    assert LAW in text, "the case's controller law changed: update this example"
    return text.replace(LAW, "rz: {force: tau}").replace("\njoints:", "\ninputs: [{name: tau, value: 0}]\njoints:", 1)


def continuous(settings):
    sim = catena.Model(CASE, set=settings).simulate()
    sim.run()
    return sim.sensors


def sampled(settings, predict=False):
    """The sampled controller's run; `predict`: its inputs taken half a step ahead."""
    model = catena.Model(text=sampled_text(), name=str(CASE), set=settings)
    kp, kd, theta_ref = (model.parameters[p] for p in ("Kp", "Kd", "theta_ref"))
    dt = settings["analysis.dt"]
    sim = model.simulate()
    sim.start()
    last_rate = None
    while not sim.complete:
        now = sim.sensor_values()
        angle, rate = now["hub_angle"], now["hub_rate"]
        if predict:
            acceleration = 0.0 if last_rate is None else (rate - last_rate) / dt
            last_rate = rate
            angle, rate = angle + 0.5 * dt * rate, rate + 0.5 * dt * acceleration
        sim.set_input("tau", -kp * (angle - theta_ref) - kd * rate)
        sim.step()
    sim.finish()
    return sim.sensors, theta_ref


def compare(dt, t_end, predict=False):
    """max |theta_sampled - theta_law| / theta_ref over a run of t_end at step dt."""
    settings = {"analysis.dt": dt, "analysis.t_end": t_end}
    law = continuous(settings)
    held, theta_ref = sampled(settings, predict)
    assert np.array_equal(law["t"], held["t"])
    return np.max(np.abs(held["hub_angle"] - law["hub_angle"])) / theta_ref


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dt", type=float, nargs="+", default=[4e-3, 2e-3, 1e-3], help="steps to compare [s]")
    parser.add_argument("--t-end", type=float, default=2.0, help="length of the runs [s]")
    args = parser.parse_args()
    for predict in (False, True):
        print("sampled, inputs predicted half a step ahead" if predict else "sampled, inputs as read")
        differences = []
        for dt in args.dt:
            differences.append(compare(dt, args.t_end, predict))
            ratio = f"   ratio to the previous {differences[-2] / differences[-1]:.3f}" if len(differences) > 1 else ""
            print(f"  dt = {dt:g} s: max |theta_sampled - theta_law| = {differences[-1]:.4e} theta_ref{ratio}")


if __name__ == "__main__":
    main()
