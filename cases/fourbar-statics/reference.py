#!/usr/bin/python3
"""Independent reference for cases/fourbar-statics: the static equilibrium of the four-bar as the
minimum of its potential energy over its one degree of freedom, the crank angle theta.

Plane x-y, y up, gravity -g y. Ground pivots A = (0, 0) (crank) and D = (d, 0) (rocker); crank
AB = a at theta from +x, coupler BC = b at psi, rocker DC = c at phi, all counter-clockwise from +x.
Loop closure in closed form (the open branch, C above the line BD): with f = D - B,

    p = (b^2 - c^2 + |f|^2) / (2 |f|),   h = sqrt(b^2 - p^2),   C = B + (p f + h J f) / |f|,

J the rotation by +90 degrees. The links are uniform bars (centres at their middles); the
counterweight is a point mass mw on the rocker's extension, e behind D: D - e (C - D)/c. The
torsion spring sits at hinge B, between crank and coupler: beta = psi - theta, energy
k/2 (beta - beta_r)^2. So

    V(theta) = g [m1 yA_B/2 + m2 (yB + yC)/2 + m3 (yC + yD)/2 + mw y_cw] + k/2 (beta - beta_r)^2.

V'(theta) is computed exactly from the velocity analysis (C' = B' + w2 J (C - B) = w3 J (C - D),
two linear equations for w2 = psi', w3 = phi'); the equilibrium is its root by Brent's method
(scipy.optimize.brentq, xtol 1e-15), cross-checked by a bounded minimization of V itself
(scipy.optimize.minimize_scalar, which can only find the minimum to about sqrt(eps) in theta) and
by a scan of V over the whole turn (the only local minimum). V'' > 0 (central difference of V')
shows it is a minimum.

Usage: cases/fourbar-statics/reference.py      (prints the figures of reference.yaml)
Needs numpy and scipy (Debian's python3-numpy, python3-scipy).
"""
import math

import numpy as np
from scipy.optimize import brentq, minimize_scalar

# The model's parameters (cases/fourbar-statics/model.yaml; keep them equal).
a, b, c, d = 0.20, 0.45, 0.35, 0.50        # crank, coupler, rocker, ground [m]
rhoA = 2.355                                # steel flat bar 30 x 10 mm [kg/m]
m1, m2, m3 = rhoA * a, rhoA * b, rhoA * c   # link masses [kg]
mw, e = 1.5, 0.10                           # counterweight [kg], its distance behind D [m]
k = 2.0                                     # torsion spring at B [N m/rad]
beta_r = math.radians(60.0)                 # its rest angle psi - theta [rad]
theta0 = math.radians(15.0)                 # the start [rad]
g = 9.81

J = np.array([[0.0, -1.0], [1.0, 0.0]])      # +90 degrees
D = np.array([d, 0.0])


def configuration(th):
    """B, C and the coupler and rocker angles psi, phi at crank angle th (open branch)."""
    B = np.array([a * math.cos(th), a * math.sin(th)])
    f = D - B
    fl = math.hypot(*f)
    p = (b * b - c * c + fl * fl) / (2 * fl)
    h = math.sqrt(b * b - p * p)
    C = B + (p * f + h * (J @ f)) / fl
    psi = math.atan2(C[1] - B[1], C[0] - B[0])
    phi = math.atan2(C[1] - D[1], C[0] - D[0])
    return B, C, psi, phi


def spring_angle(th, psi):
    """beta = psi - theta, continuous along the branch (beta - beta_r in (-pi, pi])."""
    beta = psi - th
    return beta - 2 * math.pi * round((beta - beta_r) / (2 * math.pi))


def heights(B, C):
    """Heights of the centres of crank, coupler, rocker and of the counterweight."""
    y_cw = D[1] - e * (C[1] - D[1]) / c
    return B[1] / 2, (B[1] + C[1]) / 2, (C[1] + D[1]) / 2, y_cw


def potential(th):
    B, C, psi, _ = configuration(th)
    y1, y2, y3, yw = heights(B, C)
    beta = spring_angle(th, psi)
    return g * (m1 * y1 + m2 * y2 + m3 * y3 + mw * yw) + 0.5 * k * (beta - beta_r) ** 2


def rates(th):
    """psi' and phi' (per unit theta') from C' = B' + w2 J (C - B) = w3 J (C - D)."""
    B, C, _, _ = configuration(th)
    Bdot = a * np.array([-math.sin(th), math.cos(th)])
    # w2 J (C - B) - w3 J (C - D) = -B'
    M = np.column_stack((J @ (C - B), -(J @ (C - D))))
    w2, w3 = np.linalg.solve(M, -Bdot)
    return w2, w3


def dpotential(th):
    """V'(theta), exact."""
    B, C, psi, _ = configuration(th)
    w2, w3 = rates(th)
    Bdot = a * np.array([-math.sin(th), math.cos(th)])
    Cdot = w3 * (J @ (C - D))
    dy1, dy2, dy3 = Bdot[1] / 2, (Bdot[1] + Cdot[1]) / 2, Cdot[1] / 2
    dyw = -e * Cdot[1] / c
    beta = spring_angle(th, psi)
    return g * (m1 * dy1 + m2 * dy2 + m3 * dy3 + mw * dyw) + k * (beta - beta_r) * (w2 - 1.0)


def main():
    # The whole turn: local minima of V on a 0.25 degree grid.
    grid = np.radians(np.arange(-180.0, 180.0, 0.25))
    v = np.array([potential(t) for t in grid])
    n = len(grid)
    minima = [i for i in range(n) if v[i] < v[i - 1] and v[i] < v[(i + 1) % n]]
    assert len(minima) == 1, f"{len(minima)} local minima"
    i = minima[0]
    lo, hi = grid[i] - math.radians(1), grid[i] + math.radians(1)
    th = brentq(dpotential, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=200)
    by_min = minimize_scalar(potential, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12}).x
    h = 1e-5
    d2 = (dpotential(th + h) - dpotential(th - h)) / (2 * h)
    d2_fd = (potential(th + 1e-4) - 2 * potential(th) + potential(th - 1e-4)) / 1e-8
    B, C, psi, phi = configuration(th)
    B0, C0, psi0, phi0 = configuration(theta0)
    beta, beta0 = spring_angle(th, psi), spring_angle(theta0, psi0)
    spring_moment = -k * (beta - beta_r)        # on the coupler, about +z
    weight = m1 + m2 + m3 + mw
    print(f"# V has one local minimum on the turn; V'(theta*) = {dpotential(th):.1e} N m")
    print(f"# minimize_scalar(V) differs by {abs(by_min - th):.1e} rad; "
          f"V'' by differences of V: {d2_fd:.6f} N m/rad")
    print(f"# V(start) - V(theta*) = {potential(theta0) - potential(th):.6f} J")
    print(f"theta_deg: {math.degrees(th):.15g}")
    print(f"theta: {th:.17g}")
    print(f"psi_deg: {math.degrees(psi):.15g}")
    print(f"phi_deg: {math.degrees(phi):.15g}")
    print(f"beta_deg: {math.degrees(beta):.15g}")
    print(f"second_derivative: {d2:.12g}          # V''(theta*) [N m/rad] > 0: a minimum")
    print(f"spring_moment: {spring_moment:.15g}")
    print(f"start: {{theta_deg: {math.degrees(theta0):.15g}, psi_deg: {math.degrees(psi0):.15g}, "
          f"phi_deg: {math.degrees(phi0):.15g}}}")
    print("relative:   # the joints' relative_rz at equilibrium (from the start)")
    print(f"  crank: {th - theta0:.17g}")
    print(f"  spring: {beta - beta0:.17g}")
    print(f"  rocker: {phi - phi0:.17g}")
    print(f"total_weight: {weight * g:.15g}")
    print(f"B: [{B[0]:.15g}, {B[1]:.15g}]")
    print(f"C: [{C[0]:.15g}, {C[1]:.15g}]")


if __name__ == "__main__":
    main()
