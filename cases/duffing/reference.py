#!/usr/bin/python3
"""Closed-form period of the Duffing oscillator of cases/duffing (README.md).

A mass m on the spring F(x) = -k1 x - k3 x^3, potential V(x) = k1 x^2/2 + k3 x^4/4, launched from
x = 0 at the speed v0, swings between -A and A with V(A) = m v0^2/2:

    A^2 = (-k1 + sqrt(k1^2 + 2 k3 m v0^2)) / k3.

The energy integral gives the period

    T = 4 ∫_0^A dx / sqrt(2/m (V(A) - V(x)))
      = 4 sqrt(m / (k1 + k3 A^2)) K(k),   k = k3 A^2 / (2 (k1 + k3 A^2)),

K the complete elliptic integral of the first kind with parameter k (SciPy's ellipk); with
k3 = 0 it is 2 pi sqrt(m / k1). The script checks the closed form against the integral itself
(the substitution x = A sin(u) removes its endpoint singularity) and prints the values of
reference.yaml, and the midpoint rule's period error estimate (ω h)^2/12 at the case's steps.

Usage: cases/duffing/reference.py   (python3 with SciPy: python3-scipy)
"""
import math

from scipy import integrate, special

m, k1, k3, v0 = 1.0, 1.0, 4.0, 2.0   # model.yaml's parameters


def amplitude():
    return math.sqrt((-k1 + math.sqrt(k1 ** 2 + 2 * k3 * m * v0 ** 2)) / k3)


def period_closed_form(A):
    return 4 * math.sqrt(m / (k1 + k3 * A ** 2)) * special.ellipk(k3 * A ** 2 / (2 * (k1 + k3 * A ** 2)))


def period_by_quadrature(A):
    V = lambda x: 0.5 * k1 * x ** 2 + 0.25 * k3 * x ** 4
    # x = A sin(u): dx / sqrt(V(A) - V(x)) is smooth in u on [0, pi/2].
    f = lambda u: A * math.cos(u) / math.sqrt(2 / m * (V(A) - V(A * math.sin(u)))) if u < math.pi / 2 else \
        1 / math.sqrt((k1 + k3 * A ** 2) / m)
    return 4 * integrate.quad(f, 0, math.pi / 2, epsabs=1e-14, epsrel=1e-14)[0]


def main():
    A = amplitude()
    T = period_closed_form(A)
    assert abs(T - period_by_quadrature(A)) < 1e-12 * T
    omega_max = math.sqrt((k1 + 3 * k3 * A ** 2) / m)   # the stiffest local frequency, at ±A
    print(f"amplitude: {A:.15g}")
    print(f"period: {T:.15g}")
    print(f"linear period 2 pi sqrt(m/k1): {2 * math.pi * math.sqrt(m / k1):.15g}")
    for h in (0.01, 0.005):
        print(f"dt {h}: midpoint period error estimate (omega h)^2/12 between "
              f"{(2 * math.pi / T * h) ** 2 / 12:.3g} and {(omega_max * h) ** 2 / 12:.3g} of T")


if __name__ == "__main__":
    main()
