#!/usr/bin/python3
"""Independent reference for cases/flexible-arm-pd: the linear hub-beam model with the clamped-free
beam's assumed modes (Euler-Bernoulli), under the PD hub torque tau = -Kp (theta - theta_ref) - Kd theta'.

The arm's lateral motion is y(x, t) = x theta(t) + w(x, t), w the deflection relative to the hub's
turning axes, w = sum_i phi_i(x) q_i(t), phi_i the exact clamped-free modes
    phi_i(x) = cosh(b x) - cos(b x) - sigma_i (sinh(b x) - sin(b x)),  b = beta_i L / L,
    cos(beta_i L) cosh(beta_i L) = -1,  sigma_i = (cosh + cos) / (sinh + sin) of beta_i L,
with omega_i = (beta_i L)^2 sqrt(EI / (rho A L^4)). The kinetic energy 1/2 J_h theta'^2 +
1/2 int rho A (x theta' + w')^2 dx and the strain energy 1/2 int EI w''^2 dx give, for (theta, q_1 .. q_N),
    M = [[J_h + rho A L^3/3, c^T], [c, diag(m_i)]],  c_i = int rho A x phi_i dx,  m_i = int rho A phi_i^2 dx,
    K = diag(Kp, m_i omega_i^2),  D = diag(Kd, 0 ...),  M q'' + D q' + K q = [Kp theta_ref, 0 ...].
The closed-loop eigenvalues are the roots of det(s^2 M + s D + K) = 0 (the first-order companion
form, scipy.linalg.eig); the step response from rest at theta = 0 is integrated with SciPy's DOP853
at rtol 1e-12. The integrals are taken by quadrature of phi written without the cancellation of
cosh - sigma sinh (the high modes' cosh(beta L) reaches 1e13).

The beam's rotary inertia, kept in Catena's model (rho I = 3e-7 kg m), is left out: it changes the
three pairs by about (beta r / L)^2 / 2 < 1e-5 (r^2 = h^2 / 12, beta L <= 4.7), far below the
tolerances.

Usage: cases/flexible-arm-pd/reference.py [--write] [--modes N] [--kd-factor F]
  prints the modal convergence of the closed-loop eigenvalues and the settling time;
  --write rewrites reference.csv (the step response, every 5 ms) and the computed entries of
  reference.yaml (between its '# computed by reference.py' markers);
  --kd-factor F multiplies Kd in the reference (to show a check failing: F = 1.2).
Needs /usr/bin/python3 with numpy and scipy (Debian's python3-scipy).
"""
import argparse
import os
import sys

import numpy as np
from scipy import integrate, linalg, optimize

HERE = os.path.dirname(os.path.abspath(__file__))

# model.yaml's parameters (SI)
L, E, RHO, H, B = 1.0, 70e9, 2700.0, 0.003, 0.05
J_H, KP, KD, THETA_REF = 0.5, 10.0, 3.5, 0.1
RHO_A = RHO * B * H            # 0.405 kg/m
EI = E * B * H ** 3 / 12       # 7.875 N m^2, bending in the plane of motion
T_END, SAMPLE = 4.0, 0.005     # the response's span and reference.csv's spacing [s]
MODES = 8                      # assumed modes of the reference (converged to 1e-9: --modes)
SETTLING_BAND = 0.02           # settling: |theta - theta_ref| <= 2 % of theta_ref from then on


def beta_l(count):
    """The first `count` roots of cos(x) cosh(x) = -1, written as cos(x) + 1/cosh(x) = 0."""
    f = lambda x: np.cos(x) + 1.0 / np.cosh(x)
    return np.array([optimize.brentq(f, (k + 0.5) * np.pi - 1.0, (k + 0.5) * np.pi + 1.0, xtol=1e-15)
                     for k in range(count)])


def mode_shape(bl, x):
    """phi(x) of the clamped-free mode with root bl, without cancellation: cosh - sigma sinh =
    ((1 - sigma) e^{bx} + (1 + sigma) e^{-bx}) / 2, 1 - sigma = (sin - cos - e^{-bl}) / (sinh + sin)."""
    k = bl / L
    one_minus_sigma = (np.sin(bl) - np.cos(bl) - np.exp(-bl)) / (np.sinh(bl) + np.sin(bl))
    sigma = 1.0 - one_minus_sigma
    return (0.5 * (one_minus_sigma * np.exp(k * x) + (1 + sigma) * np.exp(-k * x))
            - np.cos(k * x) + sigma * np.sin(k * x))


class ModalModel:
    """M, D, K and the tip's mode values of the hub-beam model with `modes` assumed modes."""

    def __init__(self, modes, kd=KD, kp=KP):
        bl = beta_l(modes)
        self.omega = bl ** 2 * np.sqrt(EI / (RHO_A * L ** 4))
        quad = lambda f: integrate.quad(f, 0.0, L, limit=400, epsabs=1e-14, epsrel=1e-13)[0]
        m = np.array([RHO_A * quad(lambda x, b=b: mode_shape(b, x) ** 2) for b in bl])
        c = np.array([RHO_A * quad(lambda x, b=b: x * mode_shape(b, x)) for b in bl])
        n = modes + 1
        self.M = np.zeros((n, n))
        self.M[0, 0] = J_H + RHO_A * L ** 3 / 3
        self.M[0, 1:] = self.M[1:, 0] = c
        self.M[1:, 1:] = np.diag(m)
        self.K = np.diag(np.concatenate([[kp], m * self.omega ** 2]))
        self.D = np.zeros((n, n))
        self.D[0, 0] = kd
        self.kp = kp
        self.tip = np.array([mode_shape(b, L) for b in bl])  # w(L) = tip . q

    def eigenvalues(self):
        """The roots s of det(s^2 M + s D + K) with Im s >= 0, by increasing |s|."""
        n = len(self.M)
        A = np.block([[np.zeros((n, n)), np.eye(n)],
                      [-linalg.solve(self.M, self.K), -linalg.solve(self.M, self.D)]])
        s = linalg.eigvals(A)
        s = s[s.imag >= 0]
        return s[np.argsort(np.abs(s))]

    def step_response(self, times, theta_ref=THETA_REF):
        """theta, theta' and the tip deflection w(L) at `times`, from rest at theta = 0, and the
        dense solution (for the settling time)."""
        n = len(self.M)
        f = np.zeros(n)
        f[0] = self.kp * theta_ref
        Minv_K, Minv_D, Minv_f = (linalg.solve(self.M, X) for X in (self.K, self.D, f))

        def rhs(_, y):
            q, v = y[:n], y[n:]
            return np.concatenate([v, Minv_f - Minv_K @ q - Minv_D @ v])

        sol = integrate.solve_ivp(rhs, (0.0, times[-1]), np.zeros(2 * n), method="DOP853", t_eval=times,
                                  dense_output=True, rtol=1e-12, atol=1e-15 * max(theta_ref, 1e-300))
        if not sol.success:
            raise RuntimeError(sol.message)
        return sol.y[0], sol.y[n], self.tip @ sol.y[1:n], sol.sol


def settling_time(theta, dense, times, theta_ref=THETA_REF, band=SETTLING_BAND):
    """The last time |theta - theta_ref| = band theta_ref (from then on it stays inside), from the
    sampled history, refined on the dense solution by root finding."""
    outside = np.nonzero(np.abs(theta - theta_ref) > band * theta_ref)[0]
    k = outside[-1]
    g = lambda t: abs(dense(t)[0] - theta_ref) - band * theta_ref
    return optimize.brentq(g, times[k], times[k + 1], xtol=1e-12)


def pair_row(s):
    """natural frequency [rad/s], damping ratio, damped frequency [rad/s] of the root s."""
    return abs(s), -s.real / abs(s), s.imag


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite reference.csv and reference.yaml's computed part")
    parser.add_argument("--modes", type=int, default=MODES, help=f"assumed modes (default {MODES})")
    parser.add_argument("--kd-factor", type=float, default=1.0, help="Kd times this in the reference")
    args = parser.parse_args()
    kd = KD * args.kd_factor
    print(f"rho A = {RHO_A:.6g} kg/m, EI = {EI:.6g} N m^2, J_h = {J_H} kg m^2, Kp = {KP} N m/rad, Kd = {kd} N m s/rad")
    print(f"clamped-free: beta L = {', '.join(f'{b:.10f}' for b in beta_l(3))}; "
          f"f = {', '.join(f'{w / (2 * np.pi):.6f}' for w in ModalModel(3).omega)} Hz")
    print("\nclosed-loop pairs (natural frequency [rad/s], damping ratio) against the number of assumed modes:")
    for n in (1, 2, 3, 4, 6, 8, 12, 16):
        s = ModalModel(n, kd).eigenvalues()
        print(f"  N = {n:2d}: " + "  ".join("({:.9f}, {:.9f})".format(*pair_row(x)[:2]) for x in s[:4]))
    model = ModalModel(args.modes, kd)
    s = model.eigenvalues()
    times = np.round(np.arange(0.0, T_END + SAMPLE / 2, SAMPLE), 12)
    theta, rate_history, tip, dense = model.step_response(times)
    fine = np.linspace(0.0, T_END, 40001)
    t_s = settling_time(dense(fine)[0], dense, fine)
    rate = dense(t_s)[len(model.M)]  # theta' there: how much an error in theta moves the settling time
    print(f"\nsettling time (|theta - theta_ref| <= {SETTLING_BAND:g} theta_ref from then on): {t_s:.6f} s, "
          f"theta' there {rate:.6e} rad/s")
    print(f"largest |tip deflection|: {np.max(np.abs(tip)):.6e} m; overshoot of theta: {np.max(theta) / THETA_REF - 1:.4%}")
    if args.write:
        write(s, times, theta, rate_history, tip, t_s, rate)


def write(s, times, theta, rate, tip, t_s, settling_rate):
    with open(os.path.join(HERE, "reference.csv"), "w") as f:
        f.write("# flexible-arm-pd: the linear modal model's step response (reference.py --write; "
                f"{MODES} assumed modes, DOP853 at rtol 1e-12), theta_ref = {THETA_REF} rad\n")
        f.write("t,hub_angle,hub_rate,tip_deflection\n")
        for row in zip(times, theta, rate, tip):
            f.write(",".join(f"{v:.17g}" for v in row) + "\n")
    lines = [f"pairs:   # the closed-loop roots s = -zeta omega_n + i omega_d, {MODES} assumed modes"]
    for name, x in zip(("rigid", "flexible_1", "flexible_2"), s[:3]):
        wn, zeta, wd = pair_row(x)
        lines.append(f"  {name}: {{natural_frequency: {wn:.12g}, damping_ratio: {zeta:.12g}, "
                     f"damped_frequency: {wd:.12g}}}")
    lines.append(f"settling_time: {t_s:.9g}          # s, to {SETTLING_BAND:g} theta_ref")
    lines.append(f"settling_rate: {settling_rate:.9g}     # rad/s, theta' at the settling time")
    path = os.path.join(HERE, "reference.yaml")
    with open(path) as f:
        text = f.read()
    head, rest = text.split("# computed by reference.py\n", 1)
    _, tail = rest.split("# end of computed\n", 1)
    with open(path, "w") as f:
        f.write(head + "# computed by reference.py\n" + "\n".join(lines) + "\n# end of computed\n" + tail)
    print("wrote reference.csv and reference.yaml's computed entries")


if __name__ == "__main__":
    sys.exit(main())
