"""What the two spin-up cases (cases/spin-up-haug, cases/spin-up-simo) check and plot alike: the
extreme tip deflection against Meijaard's, and the hub on the drive's law psi(t), on run "extreme"."""
import numpy as np

from validation.case import Check, Line, ref
from validation.measures import psi_spin_up


def hub_angle_error(run):
    """Largest |hub_angle - psi(t)|."""
    return np.max(np.abs(run.hub_angle - psi_spin_up(run.t, run.ref("omega_s"), run.ref("T_s"))))


EXTREME_CHECKS = [
    Check("extreme tip_deflection [m]", "extreme", lambda run: np.min(run.tip_deflection),
          reference=ref("extreme_tip_deflection"), tolerance=ref("extreme_tolerance"), error="rel"),
    Check("max |hub_angle − ψ(t)| [rad]", "extreme", hub_angle_error, tolerance=ref("hub_angle_tolerance")),
]


def extreme_lines():
    """Meijaard's extreme tip deflection and its tolerance band."""
    def band(sign):
        return lambda run: run.ref("extreme_tip_deflection") * (1 + sign * run.ref("extreme_tolerance"))
    return [Line(ref("extreme_tip_deflection"), label="reference extreme (Meijaard)"),
            Line(band(-1), label="±1 %", style=":"), Line(band(+1), style=":")]

