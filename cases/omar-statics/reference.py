#!/usr/bin/python3
"""Closed-form references of cases/omar-statics (written to reference.yaml by hand from this output).

n uniform links of mass m and length L on revolute joints about y, link 1 hinged to the ground at
the origin, gravity g along -z. At rest in the start configuration link k points along
(sin th_k, 0, -cos th_k), th_k = theta1 + (k - 1) dtheta from the downward vertical. Its centre is
at height Z_k = -L (sum_{i<k} cos th_i + cos th_k / 2), so the potential of gravity relative to
the hinge height is

    V = m g sum_k Z_k = -m g L sum_k (n - k + 1/2) cos th_k

(link k's cosine counts fully in the n - k links below it and half in itself). The stable
equilibrium hangs straight down (th_k = 0): V_hang = -m g L sum_k (n - k + 1/2) = -m g L n^2 / 2,
every link turned by th_k about +y, centre k at (0, 0, -(k - 1/2) L), end k at (0, 0, -k L).
Catena's energy.csv writes the potential from the start configuration (README.md, "Output
files": -sum m g . (x - X)), so at the equilibrium it shows V_hang - V_start.

Sums by math.fsum; V_hang also in exact fractions (m, g, L as decimals).
"""
import math
from fractions import Fraction

m, g, L = 1.7595, 9.81, 1.5


def potential(n, theta1_deg, dtheta_deg):
    """V relative to the hinge height [J] of the chain at rest with the given start angles."""
    th = [math.radians(theta1_deg + (k - 1) * dtheta_deg) for k in range(1, n + 1)]
    return -m * g * L * math.fsum((n - k + 0.5) * math.cos(th[k - 1]) for k in range(1, n + 1))


def hanging_exact(n):
    return -Fraction("1.7595") * Fraction("9.81") * Fraction("1.5") * Fraction(n * n, 2)


VARIANTS = {  # name: (n, theta1 [deg], dtheta [deg]) and the --set of the run
    "pendulum": (1, 90.0, 0.0),
    "chain_tilted": (50, 5.0, 1.0),
    "chain_horizontal": (50, 90.0, 0.0),
}

if __name__ == "__main__":
    for name, (n, t1, dt) in VARIANTS.items():
        v_start = potential(n, t1, dt) if t1 != 90.0 or dt != 0.0 else 0.0  # cos 90 deg is 6e-17, not 0
        v_hang = hanging_exact(n)
        print(f"{name}: n = {n}, theta1 = {t1}, dtheta = {dt}")
        print(f"  hanging_potential: {float(v_hang)!r}   # exact: {v_hang}")
        print(f"  start_potential: {v_start!r}")
        print(f"  final_potential: {float(v_hang) - v_start!r}   # energy.csv, from the start")
        print(f"  last link end z: {-n * L!r}; last link turned by {t1 + (n - 1) * dt} deg")
