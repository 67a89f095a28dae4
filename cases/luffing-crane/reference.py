#!/usr/bin/python3
"""Independent reference for cases/luffing-crane: the equilibrium boom angle of the luffing crane
and the cylinder force there, two ways.

Plane x-z (z up), boom elevation theta (from +x, up positive). Boom hinged at H = (0, 0, hH),
length lB, uniform mass mB, point mass M at the tip; the cylinder from the ground point
G = (xG, 0, 0) to the boom point P = H + lP (cos theta, 0, sin theta): s = P - G, length
L = |s|, axis u = s / L. The barrel (mass mb) turns about G with the cylinder, its centre of mass
lb from G along u; the rod (mass mr) turns with it and moves with P, its centre lr from P back
along u. The spring acts on the length: energy k/2 (L - L_rest)^2, force k (L - L_rest) (tension
positive).

1. Potential energy, V(theta) = g [mB zB + M zT + mb (lb u_z) + mr (P_z - lr u_z)]
   + k/2 (L - L_rest)^2, with the exact V'(theta) (L' = s.P'/L, u' = (P' - u L')/L); the
   equilibrium is the root of V' (Brent, xtol 1e-15) next to the only local minimum of V on
   (-80, 80) degrees, V'' > 0 there (central difference of V').

2. Forces (a check of 1 that never writes V). The force F that the rod applies to the boom at P:
   along u, the rod's balance (the prismatic joint carries only transverse forces and moments
   besides the spring): F.u = -k (L - L_rest) - mr g u_z (the rod's weight along u); across u,
   the moment balance of barrel and rod about G (the universal joint and the spherical one carry
   no moment in the plane): L (u x F) = -(lb mb + (L - lr) mr) g (u x z), i.e.
   F_perp = -(lb mb + (L - lr) mr) g / L * (z - u_z u). The boom's moment balance about the
   hinge, (P - H) x F + weights = 0 (y component), gives theta again by Brent.

Usage: cases/luffing-crane/reference.py      (prints the figures of reference.yaml)
Needs numpy and scipy (Debian's python3-numpy, python3-scipy).
"""
import math

import numpy as np
from scipy.optimize import brentq

# The model's parameters (cases/luffing-crane/model.yaml; keep them equal).
hH, lB, mB, M = 5.0, 8.0, 400.0, 1000.0     # hinge height, boom length, boom mass, tip mass
xG, lP = 1.0, 3.0                           # cylinder's ground point x, its boom point from H
mb, lb = 30.0, 1.5                          # barrel mass, its centre from G (a 3 m tube)
mr, lr = 20.0, 1.5                          # rod mass, its centre from P (a 3 m rod)
k, L_rest = 1e6, 5.0                        # cylinder spring [N/m], its rest length [m]
g = 9.81
Z = np.array([0.0, 0.0, 1.0])
H = np.array([0.0, 0.0, hH])
G = np.array([xG, 0.0, 0.0])


def boom(th):
    return np.array([math.cos(th), 0.0, math.sin(th)])


def cylinder(th):
    P = H + lP * boom(th)
    s = P - G
    L = float(np.linalg.norm(s))
    return P, s, L, s / L


def potential(th):
    P, _, L, u = cylinder(th)
    z = mB * (hH + lB / 2 * math.sin(th)) + M * (hH + lB * math.sin(th)) + mb * (lb * u[2]) + mr * (P[2] - lr * u[2])
    return g * z + 0.5 * k * (L - L_rest) ** 2


def dpotential(th):
    P, s, L, u = cylinder(th)
    dP = lP * np.array([-math.sin(th), 0.0, math.cos(th)])
    dL = float(s @ dP) / L
    du = (dP - u * dL) / L
    dz = mB * lB / 2 * math.cos(th) + M * lB * math.cos(th) + mb * lb * du[2] + mr * (dP[2] - lr * du[2])
    return g * dz + k * (L - L_rest) * dL


def moment_balance(th):
    """y moment about H on the boom (the hinge turns about -y: elevation up is positive)."""
    P, _, L, u = cylinder(th)
    axial = -k * (L - L_rest) - mr * g * u[2]      # F.u: the rod's balance along u
    across = -(lb * mb + (L - lr) * mr) * g / L   # F_perp = across * (z - u_z u)
    F = axial * u + across * (Z - u[2] * u)
    weights = [(H + lB / 2 * boom(th), -mB * g * Z), (H + lB * boom(th), -M * g * Z)]
    m = np.cross(P - H, F) + sum(np.cross(x - H, f) for x, f in weights)
    return -m[1]


def main():
    global mb, mr
    grid = np.radians(np.arange(-80.0, 80.0, 0.25))
    v = np.array([potential(t) for t in grid])
    minima = [i for i in range(1, len(grid) - 1) if v[i] < v[i - 1] and v[i] < v[i + 1]]
    assert len(minima) == 1, f"{len(minima)} local minima"
    i = minima[0]
    lo, hi = grid[i - 1], grid[i + 1]
    th = brentq(dpotential, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=200)
    th_f = brentq(moment_balance, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=200)
    h = 1e-6
    d2 = (dpotential(th + h) - dpotential(th - h)) / (2 * h)
    P, s, L, u = cylinder(th)
    _, _, L0, _ = cylinder(0.0)
    # The weights' moment about the hinge without the cylinder's own: what a massless cylinder holds.
    print(f"# V' = {dpotential(th):.1e} N m at theta*; the moment balance gives theta* to {abs(th_f - th):.1e} rad")
    print(f"# V(start) - V(theta*) = {potential(0.0) - potential(th):.6g} J")
    print(f"theta_deg: {math.degrees(th):.15g}")
    print(f"theta: {th:.17g}")
    print(f"second_derivative: {d2:.12g}     # V''(theta*) [N m/rad]")
    print(f"cylinder_length: {L:.15g}")
    print(f"cylinder_force: {k * (L - L_rest):.15g}")
    print(f"start_length: {L0:.17g}")
    print(f"extension: {L - L0:.17g}")
    print(f"tip_z: {hH + lB * math.sin(th):.15g}")
    print(f"total_weight: {(mB + M + mb + mr) * g:.15g}")
    # Without the barrel's and rod's weights (a massless cylinder), for comparison.
    mb0, mr0 = mb, mr
    mb = mr = 0.0
    th0 = brentq(dpotential, lo, hi, xtol=1e-15)
    print(f"# massless cylinder: theta* = {math.degrees(th0):.12g} deg, "
          f"force {k * (cylinder(th0)[2] - L_rest):.12g} N")
    mb, mr = mb0, mr0


if __name__ == "__main__":
    main()
