#!/usr/bin/python3
"""Independent reference for cases/bipendulum-spherical: two rigid bars in series, bar 1 hanging
from a spherical joint at the origin, bar 2 from a spherical joint at bar 1's far end, in minimal
coordinates (two spherical angles per bar), Lagrange's equations integrated with classical RK4.

Formulation (independent of Catena's rigid bodies, rotation unknowns and joint multipliers): bar k
is its unit direction e_k = C_k (sin t cos p, sin t sin p, cos t), (t, p) its two angles in a chart
C_k (a fixed rotation). Each bar's inertia about its centre is Jt across the axis and Ja along it;
the joint forces pass through the bar's axis and the transverse inertias are equal, so the spin
about the bar axis keeps its initial value, zero here, and the kinetic energy is
    T = 1/2 m (|c1'|^2 + |c2'|^2) + 1/2 Jt (|e1'|^2 + |e2'|^2),  c1 = L/2 e1,  c2 = L e1 + L/2 e2
(Ja does not enter). With Y = (c1, c2, e1, e2) = Y(q), Y' = J q', Y'' = J q'' + h(q, q') and the
weights W = diag(m, m, Jt, Jt), the equations of motion are J^T W (J q'' + h) = J^T F, F the
weights m g on c1, c2. A chart is replaced (between steps) when a bar comes within 37 degrees of its
chart's pole: the new chart puts the bar on its equator, so no coordinate singularity is met.

Set-up as cases/bipendulum-spherical/model.yaml: L = 1, m = 0.4565, Jt = 0.0308, g = 32.174 along
-z, both bars along -y at t = 0, the whole turning rigidly at Omega = 4 rad/s about z.

Usage:
  cases/bipendulum-spherical/reference.py                 # convergence table (h = 4e-4, 2e-4, 1e-4)
  cases/bipendulum-spherical/reference.py --csv FILE [--h H] [--t-end T] [--every DT]
      write t, cm1_x, cm1_y, cm1_z, cm2_x, cm2_y, cm2_z every DT (default 0.01) to FILE
Needs numpy (Debian's python3-numpy).
"""
import argparse
import math
import sys

import numpy as np

L, m, Jt, g, Omega = 1.0, 0.4565, 0.0308, 32.174, 4.0
GRAV = np.array([0.0, 0.0, -g])


def angle_vectors(C, t, p):
    st, ct, sp, cp = math.sin(t), math.cos(t), math.sin(p), math.cos(p)
    e = C @ np.array([st * cp, st * sp, ct])
    et = C @ np.array([ct * cp, ct * sp, -st])
    ep = C @ np.array([-st * sp, st * cp, 0.0])
    ett = -e
    etp = C @ np.array([-ct * sp, ct * cp, 0.0])
    epp = C @ np.array([-st * cp, -st * sp, 0.0])
    return e, et, ep, ett, etp, epp


def rhs(charts, y):
    q, v = y[:4], y[4:]
    E, H = [], []
    for k in range(2):
        e, et, ep, ett, etp, epp = angle_vectors(charts[k], q[2 * k], q[2 * k + 1])
        E.append(np.column_stack((et, ep)))
        td, pd = v[2 * k], v[2 * k + 1]
        H.append(ett * td * td + 2 * etp * td * pd + epp * pd * pd)
    Z = np.zeros((3, 2))
    J = np.block([[0.5 * L * E[0], Z], [L * E[0], 0.5 * L * E[1]], [E[0], Z], [Z, E[1]]])  # 12 x 4
    h = np.concatenate((0.5 * L * H[0], L * H[0] + 0.5 * L * H[1], H[0], H[1]))
    w = np.array([m] * 6 + [Jt] * 6)
    F = np.concatenate((m * GRAV, m * GRAV, np.zeros(6)))
    JW = J.T * w
    a = np.linalg.solve(JW @ J, J.T @ F - JW @ h)
    return np.concatenate((v, a))


def directions(charts, y):
    out = []
    for k in range(2):
        e, et, ep, *_ = angle_vectors(charts[k], y[2 * k], y[2 * k + 1])
        out.append((e, et * y[4 + 2 * k] + ep * y[5 + 2 * k]))
    return out


def recharts(charts, y):
    """Moves a bar that came near its chart's pole onto the equator of a new chart."""
    for k in range(2):
        if abs(math.sin(y[2 * k])) > 0.6:
            continue
        e, ed = directions(charts, y)[k]
        n = np.cross(e, ed)
        if np.linalg.norm(n) < 1e-8 * max(1.0, np.linalg.norm(ed)):
            n = np.cross(e, [1.0, 0.0, 0.0] if abs(e[0]) < 0.9 else [0.0, 1.0, 0.0])
        z = n / np.linalg.norm(n)
        x = e
        yv = np.cross(z, x)
        charts[k] = np.column_stack((x, yv, z))
        # e = C (1, 0, 0): t = pi/2, p = 0; e_t = -z, e_p = yv
        y[2 * k], y[2 * k + 1] = math.pi / 2, 0.0
        y[4 + 2 * k], y[5 + 2 * k] = -ed @ z, ed @ yv


def initial_state():
    charts = [np.eye(3), np.eye(3)]
    # e = (0, -1, 0): t = pi/2, p = -pi/2; spinning at Omega about z: p' = Omega, t' = 0
    y = np.array([math.pi / 2, -math.pi / 2, math.pi / 2, -math.pi / 2, 0.0, Omega, 0.0, Omega])
    return charts, y


def centres(charts, y):
    (e1, _), (e2, _) = directions(charts, y)
    return 0.5 * L * e1, L * e1 + 0.5 * L * e2


def energy(charts, y):
    (e1, d1), (e2, d2) = directions(charts, y)
    c1, c2 = 0.5 * L * e1, L * e1 + 0.5 * L * e2
    v1, v2 = 0.5 * L * d1, L * d1 + 0.5 * L * d2
    T = 0.5 * m * (v1 @ v1 + v2 @ v2) + 0.5 * Jt * (d1 @ d1 + d2 @ d2)
    Lz = m * (np.cross(c1, v1)[2] + np.cross(c2, v2)[2]) + Jt * (np.cross(e1, d1)[2] + np.cross(e2, d2)[2])
    return T + m * g * (c1[2] + c2[2]), Lz


def integrate(h, t_end, every, callback):
    charts, y = initial_state()
    n_out = round(every / h)
    if abs(n_out * h - every) > 1e-12 * every:
        sys.exit(f"the step {h} must divide the output interval {every}")
    n_steps = round(t_end / h)
    callback(0.0, charts, y)
    for i in range(1, n_steps + 1):
        k1 = rhs(charts, y)
        k2 = rhs(charts, y + 0.5 * h * k1)
        k3 = rhs(charts, y + 0.5 * h * k2)
        k4 = rhs(charts, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        recharts(charts, y)
        if i % n_out == 0:
            callback(i * h, charts, y)


def trajectory(h, t_end, every):
    rows = []
    integrate(h, t_end, every, lambda t, c, y: rows.append((t, *centres(c, y)[0], *centres(c, y)[1],
                                                           *energy(c, y))))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--csv", help="write the reference to this CSV file")
    p.add_argument("--h", type=float, default=1e-4, help="RK4 step (default 1e-4)")
    p.add_argument("--t-end", type=float, default=5.0, help="end time (default 5)")
    p.add_argument("--every", type=float, default=0.01, help="output interval (default 0.01)")
    a = p.parse_args()
    if a.csv:
        rows = trajectory(a.h, a.t_end, a.every)
        E0, L0 = rows[0][7], rows[0][8]
        with open(a.csv, "w") as f:
            f.write("# bipendulum-spherical: centres of mass of the two bars [ft]. Independent reference by\n"
                    "# cases/bipendulum-spherical/reference.py (minimal coordinates, two spherical angles per bar,\n"
                    f"# Lagrange's equations, RK4 with h = {a.h:g} s; energy kept to "
                    f"{max(abs(r[7] - E0) for r in rows):.1e}, Lz to {max(abs(r[8] - L0) for r in rows):.1e}).\n"
                    "t,cm1_x,cm1_y,cm1_z,cm2_x,cm2_y,cm2_z\n")
            for r in rows:
                f.write(f"{r[0]:.6g}," + ",".join(f"{(x if abs(x) > 1e-14 else 0.0):.12g}" for x in r[1:7]) + "\n")
        print(f"wrote {a.csv}: {len(rows)} rows, t = 0 ... {rows[-1][0]:g}")
        return
    print(f"RK4 convergence, t_end = {a.t_end}: largest difference of the centres over the output times")
    prev = None
    for h in (4e-4, 2e-4, 1e-4):
        rows = trajectory(h, a.t_end, a.every)
        E0, L0 = rows[0][7], rows[0][8]
        line = (f"h = {h:.0e}: cm2 at t_end = ({rows[-1][4]:+.9f}, {rows[-1][5]:+.9f}, {rows[-1][6]:+.9f}), "
                f"|dE| <= {max(abs(r[7] - E0) for r in rows):.1e}, |dLz| <= {max(abs(r[8] - L0) for r in rows):.1e}")
        if prev:
            line += f", vs h = {2 * h:.0e}: {max(max(abs(x - y) for x, y in zip(r[1:7], s[1:7])) for r, s in zip(rows, prev)):.1e}"
        print(line, flush=True)
        prev = rows


if __name__ == "__main__":
    main()
