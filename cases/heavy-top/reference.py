#!/usr/bin/env python3
"""Independent reference for cases/heavy-top: the heavy symmetric top about a fixed point, RK4.

State: q = (q0, q1, q2, q3), the scalar-first unit quaternion mapping body axes to inertial axes,
and w, the angular velocity in body axes. With J_o the inertia about the fixed point (J_cm plus the
parallel-axis term of the centre of mass X = (0, 1, 0) in body axes):

    J_o w' = -w x (J_o w) + X x (m R^T g),      q' = 1/2 q * (0, w),

R the rotation matrix of q, g = (0, 0, -9.81). Prints q and w at t_end for a sequence of steps, so
the convergence of the reference itself can be seen. Python 3 standard library only.

Usage: cases/heavy-top/reference.py [t_end]    (default 0.2)
"""
import sys

m, g = 15.0, (0.0, 0.0, -9.81)
Jcm = (0.234375, 0.46875, 0.234375)
X = (0.0, 1.0, 0.0)
w0 = (0.0, 150.0, -4.61538)


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


# Parallel-axis term m (|X|^2 I - X X^T); X along y, so J_o stays diagonal.
xx = sum(c * c for c in X)
Jo = tuple(Jcm[i] + m * (xx - X[i] * X[i]) for i in range(3))


def rotate_t(q, v):
    """R^T v for the rotation R of the unit quaternion q (body -> inertial)."""
    w, x, y, z = q
    R = ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
         (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
         (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    return tuple(sum(R[k][i] * v[k] for k in range(3)) for i in range(3))


def rhs(s):
    q, w = s[:4], s[4:]
    Jw = tuple(Jo[i] * w[i] for i in range(3))
    gb = rotate_t(q, tuple(m * gi for gi in g))
    tau = cross(X, gb)
    gyro = cross(w, Jw)
    dw = tuple((tau[i] - gyro[i]) / Jo[i] for i in range(3))
    q0, q1, q2, q3 = q
    wx, wy, wz = w
    dq = (0.5 * (-q1 * wx - q2 * wy - q3 * wz),
          0.5 * (q0 * wx + q2 * wz - q3 * wy),
          0.5 * (q0 * wy + q3 * wx - q1 * wz),
          0.5 * (q0 * wz + q1 * wy - q2 * wx))
    return dq + dw


def integrate(t_end, n):
    h = t_end / n
    s = (1.0, 0.0, 0.0, 0.0) + w0
    for _ in range(n):
        k1 = rhs(s)
        k2 = rhs(tuple(s[i] + h / 2 * k1[i] for i in range(7)))
        k3 = rhs(tuple(s[i] + h / 2 * k2[i] for i in range(7)))
        k4 = rhs(tuple(s[i] + h * k3[i] for i in range(7)))
        s = tuple(s[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(7))
        nq = sum(c * c for c in s[:4]) ** 0.5
        s = tuple(c / nq for c in s[:4]) + s[4:]
    return s


if __name__ == "__main__":
    t_end = float(sys.argv[1]) if len(sys.argv) > 1 else 0.2
    print(f"J about the fixed point: {Jo}")
    for n in (2000, 4000, 8000, 16000):
        s = integrate(t_end, n)
        print(f"h = {t_end / n:.3e}: q = " + ", ".join(f"{c:+.8f}" for c in s[:4]) +
              "   w_body = " + ", ".join(f"{c:+.6f}" for c in s[4:]))
