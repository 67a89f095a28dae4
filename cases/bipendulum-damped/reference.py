#!/usr/bin/env python3
"""Closed-form dynamic equilibrium of the damped bipendulum (cases/bipendulum-damped).

Bar 1 turns about the vertical z axis at the constant rate Omega (a driven revolute joint at the
origin). Bar 2 hangs from bar 1's far end (radius r0 = L from the axis) on a hinge whose axis is
fixed in bar 1, horizontal and normal to bar 1. phi is bar 2's angle about that hinge measured from
the horizontal, outward position (phi = 0 at t = 0, phi > 0 downwards); it is the case's
`hinge_angle`. In the frame turning with bar 1 the problem has one degree of freedom:

    I_h phi'' + c phi' = -dV/dphi,   I_h = Jt + m (L/2)^2,
    V(phi) = -m g (L/2) sin(phi) - Omega^2/2 [m (r0 + (L/2) cos(phi))^2 + Jt cos^2(phi) + Ja sin^2(phi)]

(gravity plus the centrifugal potential of the bar's mass and of its inertia tensor; there is no
gyroscopic term for a single coordinate). The dynamic equilibrium solves dV/dphi = 0:

    m g (L/2) cos(phi) = Omega^2 sin(phi) [m (L/2) (r0 + (L/2) cos(phi)) + (Jt - Ja) cos(phi)].

Usage: cases/bipendulum-damped/reference.py [--simulate]   (python3 standard library only)
--simulate also integrates the 1-dof equation (RK4, h = 1e-4) for c = 0.05, 0.2, 1.0 and prints
phi at a few times, to show how fast each damping settles.
"""
import math
import sys

L, m, Jt, Ja, g, Omega = 1.0, 0.4565, 0.0308, 0.0001, 32.174, 4.0
r0 = L
I_h = Jt + m * (L / 2) ** 2


def dV(phi):
    """dV/dphi (the negative of the generalized force on phi)."""
    return -(m * g * (L / 2) * math.cos(phi)
             - Omega ** 2 * math.sin(phi) * (m * (L / 2) * (r0 + (L / 2) * math.cos(phi)) + (Jt - Ja) * math.cos(phi)))


def d2V(phi, h=1e-6):
    return (dV(phi + h) - dV(phi - h)) / (2 * h)


def equilibrium():
    lo, hi = 0.0, math.pi / 2  # dV(0) < 0 (gravity pulls down), dV(pi/2) > 0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if dV(mid) < 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def simulate(c, t_end, h=1e-4, report=(1, 2, 5, 10, 20, 30, 60)):
    phi, w, t = 0.0, 0.0, 0.0
    f = lambda p, v: (v, (-dV(p) - c * v) / I_h)
    out = {}
    n = int(round(t_end / h))
    marks = {int(round(r / h)): r for r in report}
    for k in range(1, n + 1):
        k1 = f(phi, w)
        k2 = f(phi + h / 2 * k1[0], w + h / 2 * k1[1])
        k3 = f(phi + h / 2 * k2[0], w + h / 2 * k2[1])
        k4 = f(phi + h * k3[0], w + h * k3[1])
        phi += h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        w += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        if k in marks:
            out[marks[k]] = phi
    return out


if __name__ == "__main__":
    phi = equilibrium()
    k = d2V(phi)
    print(f"equilibrium hinge angle phi* = {phi:.12f} rad ({math.degrees(phi):.6f} deg)")
    print(f"I_h = {I_h:.6f} kg m^2, stiffness d2V/dphi2 = {k:.6f} N m/rad, "
          f"undamped frequency = {math.sqrt(k / I_h):.6f} rad/s, critical damping = {2 * math.sqrt(k * I_h):.6f} N m s/rad")
    cm2 = (0.0, -(r0 + L / 2 * math.cos(phi)), -L / 2 * math.sin(phi))
    print(f"bar 2 centre in the turning frame: radius {-cm2[1]:.12f}, height {cm2[2]:.12f}")
    for c in (0.05, 0.2, 1.0):
        disc = c * c - 4 * k * I_h
        if disc < 0:
            rate = c / (2 * I_h)
        else:
            rate = (c - math.sqrt(disc)) / (2 * I_h)
        print(f"c = {c}: slowest decay rate {rate:.6f} 1/s (time to 1e-4 of 1 rad: {math.log(1e4) / rate:.2f} s)")
    if "--simulate" in sys.argv:
        for c in (0.05, 0.2, 1.0):
            res = simulate(c, 60.0)
            print(f"c = {c}: " + ", ".join(f"t={t}: {p - phi:+.3e}" for t, p in sorted(res.items())) + "  (phi - phi*)")
