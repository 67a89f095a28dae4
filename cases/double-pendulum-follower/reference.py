#!/usr/bin/env python3
"""Independent references for two planar mechanisms of Hou (seed 004), by Lagrange's equations in
minimal coordinates, integrated with RK4 (python3 standard library only).

double-pendulum-follower (Table 1): links of mass m = 1, length l = 1, centroidal inertia
J = 0.08333, pinned at the origin, straight along +x and at rest at t = 0, no gravity; a force F = 2
at the free end, normal to link 2 (+90 deg from link 2's direction). Coordinates: a1, a2, the
ABSOLUTE angles of links 1 and 2 from +x.
    M11 = J + m l^2/4 + m l^2, M12 = m l^2/2 cos(a1 - a2), M22 = J + m l^2/4
    M [a1'', a2''] + m l^2/2 sin(a1 - a2) [a2'^2, -a1'^2] = [F l cos(a2 - a1), F l]

slider-crank-rigid (Table B.1): crank of length 1 (mass 1, J1 = 0.08333 about its centre) pinned
at the origin, rod of length 2 (mass 1, J2 = 0.33333) from the crank pin to a massless slider on
the x axis, torque T = 2 on the crank, no gravity, at rest at theta = 0 (crank along +x, slider at
(3, 0)). One coordinate, the crank angle theta; the rod angle phi has sin(phi) = -sin(theta)/2.
    M(theta) theta'' + 1/2 M'(theta) theta'^2 = T,
    M = J1 + m1/4 + m2 |d r2/d theta|^2 + J2 (d phi/d theta)^2,  r2 the rod's centre.

Usage: cases/double-pendulum-follower/reference.py   (both mechanisms; slider-crank-rigid points here)
"""
import math


def rk4(f, y, t_end, n, marks):
    h = t_end / n
    out = {}
    idx = {int(round(t / h)): t for t in marks}
    for k in range(1, n + 1):
        k1 = f(y)
        k2 = f([y[i] + h / 2 * k1[i] for i in range(len(y))])
        k3 = f([y[i] + h / 2 * k2[i] for i in range(len(y))])
        k4 = f([y[i] + h * k3[i] for i in range(len(y))])
        y = [y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(len(y))]
        if k in idx:
            out[idx[k]] = y
    return out


def double_pendulum(y, m=1.0, l=1.0, J=0.08333, F=2.0):
    a1, a2, w1, w2 = y
    M11 = J + m * l * l / 4 + m * l * l
    M12 = m * l * l / 2 * math.cos(a1 - a2)
    M22 = J + m * l * l / 4
    s = m * l * l / 2 * math.sin(a1 - a2)
    r1 = F * l * math.cos(a2 - a1) - s * w2 * w2
    r2 = F * l + s * w1 * w1
    det = M11 * M22 - M12 * M12
    return [w1, w2, (M22 * r1 - M12 * r2) / det, (M11 * r2 - M12 * r1) / det]


def slider_crank_mass(th, m1=1.0, J1=0.08333, m2=1.0, J2=0.33333):
    phi = math.asin(-math.sin(th) / 2)
    k = -math.cos(th) / (2 * math.cos(phi))
    drx = -math.sin(th) - math.sin(phi) * k
    dry = math.cos(th) + math.cos(phi) * k
    return J1 + m1 / 4 + m2 * (drx * drx + dry * dry) + J2 * k * k


def slider_crank(y, T=2.0):
    th, w = y
    e = 1e-6
    dM = (slider_crank_mass(th + e) - slider_crank_mass(th - e)) / (2 * e)
    return [w, (T - 0.5 * dM * w * w) / slider_crank_mass(th)]


if __name__ == "__main__":
    print("double-pendulum-follower: a1 (= theta1), a2 (absolute angle of link 2), a1', a2'; "
          "a2 - a1 and a2' - a1' are the elbow's relative angle and rate")
    for n in (2000, 4000):
        r = rk4(double_pendulum, [0.0, 0.0, 0.0, 0.0], 1.0, n, [0.1, 0.5, 1.0])
        for t, y in sorted(r.items()):
            print(f"  h = {1.0 / n:.1e}, t = {t}: a1 = {y[0]:.6f}, a2 = {y[1]:.6f}, w1 = {y[2]:.6f}, w2 = {y[3]:.6f}"
                  f"  (relative: {y[1] - y[0]:.6f}, {y[3] - y[2]:.6f})")
    print("slider-crank-rigid: theta1, omega1")
    for n in (2000, 4000):
        r = rk4(slider_crank, [0.0, 0.0], 1.0, n, [0.1, 0.5, 1.0])
        for t, y in sorted(r.items()):
            print(f"  h = {1.0 / n:.1e}, t = {t}: theta1 = {y[0]:.6f}, omega1 = {y[1]:.6f}")
