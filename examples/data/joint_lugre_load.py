#!/usr/bin/env python3
"""Write joint_lugre_load.csv: a synthetic pendulum joint whose LuGre friction level grows with
the torque it carries.

The joint of joint_lugre_pendulum.json (docs/joint-identification.md, "Load-dependent friction"):
I = 0.0626 kg m^2, mgCx = 0.05 N m, mgCy = -1.0 N m, offset = -0.04 N m; joint LuGre friction
sigma0 = 300 N m/rad, sigma1 = 2 N m s/rad, Fc = 0.15 N m, one Stribeck term Fs = 0.08 N m
(delta = 1, Omega_s = 0.1 rad/s), cv = 0.05 N m s/rad, the bristles' elastic force scaled by 1 + mu |tau| / g(qd) so that the
sliding level is g(qd) + mu |tau| (g = Fc + Fs exp(-|qd| / Omega_s)), mu = 0.15 whether the
motor drives or is back-driven, tau the applied torque. Driven from rest by the multisine torque
tau = 0.7 sin(2 pi 0.5 t) + 0.35 sin(2 pi 1.3 t + 1) + 0.1 sin(2 pi 3.1 t + 2) [N m], simulated
by the classical Runge-Kutta method with steps of 20 us (an integrator independent of
frictionlab's); sampled at 200 Hz for 12 s, with 2e-5 rad of Gaussian noise on the position (seed
1). Columns: t [s], q [rad], tau [N m]. Python standard library only:
    /usr/bin/python3 examples/data/joint_lugre_load.py > examples/data/joint_lugre_load.csv
"""
import math
import random
import sys

I, MGCX, MGCY, OFFSET = 0.0626, 0.05, -1.0, -0.04
SIGMA0, SIGMA1, FC, FS, OMEGA_S, CV = 300.0, 2.0, 0.15, 0.08, 0.1, 0.05
MU = 0.15
RATE, DURATION, SUBSTEPS = 200.0, 12.0, 250


def drive(t):
    """The applied torque [N m] at t [s]."""
    return (0.7 * math.sin(2 * math.pi * 0.5 * t) + 0.35 * math.sin(2 * math.pi * 1.3 * t + 1)
            + 0.1 * math.sin(2 * math.pi * 3.1 * t + 2))


def rhs(t, y):
    """d(q, qd, z)/dt of the joint under the drive."""
    q, qd, z = y
    tau = drive(t)
    level = FC + FS * math.exp(-abs(qd) / OMEGA_S)
    zdot = qd - SIGMA0 * abs(qd) / level * z
    friction = SIGMA0 * z * (1 + MU * abs(tau) / level) + SIGMA1 * zdot + CV * qd
    qdd = (tau - MGCX * math.cos(q) + MGCY * math.sin(q) - OFFSET - friction) / I
    return (qd, qdd, zdot)


def rk4(t, y, h):
    k1 = rhs(t, y)
    k2 = rhs(t + h / 2, [a + h / 2 * b for a, b in zip(y, k1)])
    k3 = rhs(t + h / 2, [a + h / 2 * b for a, b in zip(y, k2)])
    k4 = rhs(t + h, [a + h * b for a, b in zip(y, k3)])
    return [a + h / 6 * (b + 2 * c + 2 * d + e) for a, b, c, d, e in zip(y, k1, k2, k3, k4)]


def main():
    rng = random.Random(1)
    n = int(round(DURATION * RATE))
    h = 1.0 / (RATE * SUBSTEPS)
    out = sys.stdout
    out.write("t,q,tau\n")
    y = [0.0, 0.0, 0.0]
    for k in range(n + 1):
        t = k / RATE
        if k > 0:
            for j in range(SUBSTEPS):
                y = rk4((k - 1) / RATE + j * h, y, h)
        out.write(f"{t:.3f},{y[0] + rng.gauss(0, 2e-5):.9f},{drive(t):.9f}\n")


if __name__ == "__main__":
    main()
