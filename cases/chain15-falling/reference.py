#!/usr/bin/python3
"""Independent reference for cases/chain15-falling: the fifteen-bar chain as a planar 15-link
pendulum in minimal coordinates (the absolute angle of each bar), RK4.

The chain starts at rest in the y-z plane with gravity along -z, so it moves in that plane; each
bar turns about the x axis only, across its axis, with inertia It about its centre (the axial Ia
never enters). With theta_i the angle of bar i from +y towards +z, u_i = (cos, sin)(theta_i), the
centres are c_k = sum_{j<k} L u_j + L/2 u_k (point 1 at the origin), and Lagrange's equations read

    sum_j [m L^2 a_ij cos(th_i - th_j) + It d_ij] th_j'' = - m L^2 sum_j a_ij sin(th_i - th_j) th_j'^2
                                                          - m g L (N - i + 1/2) cos th_i,
    a_ij = N - max(i, j) + 1/2 (i != j),   a_ii = N - i + 1/4     (1-based, N = 15).

The force that bar 7 applies to bar 8 at point 8 is the rate of momentum of bars 8 ... 15 minus
their weight: sum_{k>=8} m c_k'' - 8 m g. Initial shape: the closed-form hanging arches of
cases/chain15-falling/README.md (u = 1.2430437482958996: bars 1, 5 at a1 below the horizontal,
2, 4 at a2, 3 level, tan a2 = u, tan a1 = 2u; the same for each arch), at rest; points 6, 11, 16
are let go at t = 0 and point 1 stays pinned.

Usage:
  cases/chain15-falling/reference.py                      # convergence table of the reference itself
  cases/chain15-falling/reference.py --csv FILE [--h H] [--t-end T] [--every DT]
      write t, bar3_z, bar8_z, bar13_z, joint8_force (every DT, default 1e-4) and
      the energy (kinetic + potential, potential zero at z = 0) to FILE
Needs numpy (Debian's python3-numpy).
"""
import argparse
import math

import numpy as np

N, L, m, It, g = 15, 1.0, 0.4565, 0.0308, 32.174
U = 1.2430437482958996
idx = np.arange(1, N + 1)
A = N - np.maximum.outer(idx, idx) + 0.5
A[np.diag_indices(N)] = N - idx + 0.25
GRAV_COEF = m * g * L * (N - idx + 0.5)
# W[k, j]: weight of bar j's direction in the centre of bar k (1 for j < k, 1/2 for j = k)
W = np.tril(np.ones((N, N)), -1) + 0.5 * np.eye(N)


def initial_angles():
    a1, a2 = math.atan(2 * U), math.atan(U)
    arch = [-a1, -a2, 0.0, a2, a1]
    return np.array(arch * 3)


def accelerations(th, om):
    c, s = np.cos(th), np.sin(th)
    cosd = np.outer(c, c) + np.outer(s, s)       # cos(th_i - th_j)
    sind = np.outer(s, c) - np.outer(c, s)       # sin(th_i - th_j)
    M = m * L * L * A * cosd + It * np.eye(N)
    f = -m * L * L * (A * sind) @ (om * om) - GRAV_COEF * c
    return np.linalg.solve(M, f)


def rhs(y):
    th, om = y[:N], y[N:]
    return np.concatenate((om, accelerations(th, om)))


def observe(y):
    th, om = y[:N], y[N:]
    al = accelerations(th, om)
    c, s = np.cos(th), np.sin(th)
    cy, cz = L * W @ c, L * W @ s                                     # centres (y, z)
    vy, vz = L * W @ (-s * om), L * W @ (c * om)
    ay = L * W @ (-s * al - c * om * om)
    az = L * W @ (c * al - s * om * om)
    fy = m * ay[7:].sum()
    fz = m * az[7:].sum() + (N - 7) * m * g
    kin = 0.5 * m * (vy @ vy + vz @ vz) + 0.5 * It * (om @ om)
    pot = m * g * cz.sum()
    return cz[2], cz[7], cz[12], math.hypot(fy, fz), kin + pot


def integrate(h, t_end, every):
    y = np.concatenate((initial_angles(), np.zeros(N)))
    n_out = round(every / h)
    n = round(t_end / h)
    rows = [(0.0, *observe(y))]
    for i in range(1, n + 1):
        k1 = rhs(y)
        k2 = rhs(y + 0.5 * h * k1)
        k3 = rhs(y + 0.5 * h * k2)
        k4 = rhs(y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        if i % n_out == 0:
            rows.append((i * h, *observe(y)))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--csv", help="write the reference to this CSV file")
    p.add_argument("--h", type=float, default=1e-5, help="RK4 step (default 1e-5)")
    p.add_argument("--t-end", type=float, default=1.5, help="end time (default 1.5)")
    p.add_argument("--every", type=float, default=1e-4, help="output interval (default 1e-4)")
    a = p.parse_args()
    if a.csv:
        rows = integrate(a.h, a.t_end, a.every)
        E0 = rows[0][5]
        with open(a.csv, "w") as f:
            f.write("# chain15-falling: independent reference by cases/chain15-falling/reference.py (planar\n"
                    f"# 15-link pendulum in minimal coordinates, RK4, h = {a.h:g} s; energy kept to "
                    f"{max(abs(r[5] - E0) for r in rows):.1e}).\n"
                    "t,bar3_z,bar8_z,bar13_z,joint8_force,energy\n")
            for r in rows:
                f.write(f"{r[0]:.8g}," + ",".join(f"{x:.12g}" for x in r[1:]) + "\n")
        print(f"wrote {a.csv}: {len(rows)} rows, t = 0 ... {rows[-1][0]:g}")
        return
    prev = None
    for h in (4e-5, 2e-5, 1e-5):
        rows = integrate(h, a.t_end, 1e-3)
        E0 = rows[0][5]
        line = f"h = {h:.0e}: |dE| <= {max(abs(r[5] - E0) for r in rows):.1e}"
        if prev:
            dz = max(max(abs(x - y) for x, y in zip(r[1:4], s[1:4])) for r, s in zip(rows, prev))
            df = max(abs(r[4] - s[4]) / max(1.0, abs(r[4])) for r, s in zip(rows, prev))
            line += f", vs h = {2 * h:.0e}: z {dz:.1e}, joint8_force (relative) {df:.1e}"
        print(line, flush=True)
        prev = rows


if __name__ == "__main__":
    main()
