#!/usr/bin/env python3
"""Write joint_lugre_warming.csv: a synthetic pendulum joint with LuGre friction warming from 25
to 45 degC.

The joint of joint_lugre_pendulum.json (docs/joint-identification.md, "Temperature-dependent
friction"): I = 0.0626 kg m^2, mgCx = 0.05 N m, mgCy = -1.0 N m, offset = -0.04 N m; joint
LuGre friction sigma0 = 300 N m/rad, sigma1 = 2 N m s/rad, Fc = 0.15 N m, one Stribeck term
Fs = 0.08 N m (delta = 1, Omega_s = 0.1 rad/s), cv = 0.05 N m s/rad, the levels Fc, Fs at
T_ref = 35 degC scaled by 1 + kT (T - T_ref) and cv by 1 + kT_v (T - T_ref), kT = -0.012 1/K,
kT_v = -0.02 1/K. The torque follows from a prescribed two-sine motion (inverse dynamics), the
bristle state z (at its sliding value at t = 0) integrated along it by the exact step of the
bristle equation with the velocity held over substeps of 50 us; sampled at 200 Hz for 12 s, with 0.002 N m of Gaussian
noise on the torque (seed 1). Columns: t [s], q [rad], tau [N m], temp [degC]. Python standard
library only:
    /usr/bin/python3 examples/data/joint_lugre_warming.py > examples/data/joint_lugre_warming.csv
"""
import math
import random
import sys

I, MGCX, MGCY, OFFSET = 0.0626, 0.05, -1.0, -0.04
SIGMA0, SIGMA1, FC, FS, OMEGA_S, CV = 300.0, 2.0, 0.15, 0.08, 0.1, 0.05
T_REF, KT, KT_V = 35.0, -0.012, -0.02
RATE, DURATION, SUBSTEPS = 200.0, 12.0, 100
W1, W2 = 2 * math.pi * 0.3, 2 * math.pi * 0.7


def motion(t):
    """Angle [rad], velocity [rad/s] and acceleration [rad/s^2] of the two-sine excitation."""
    q = 0.8 * math.sin(W1 * t) + 0.4 * math.sin(W2 * t + 0.5) + 0.2
    qd = 0.8 * W1 * math.cos(W1 * t) + 0.4 * W2 * math.cos(W2 * t + 0.5)
    qdd = -0.8 * W1 * W1 * math.sin(W1 * t) - 0.4 * W2 * W2 * math.sin(W2 * t + 0.5)
    return q, qd, qdd


def temperature(t):
    """The joint's temperature [degC]: a linear warm-up over the record."""
    return 25.0 + 20.0 * t / DURATION


def g(qd, T):
    """The Stribeck level [N m] at velocity qd and temperature T."""
    return (1 + KT * (T - T_REF)) * (FC + FS * math.exp(-abs(qd) / OMEGA_S))


def bristle_step(z, qd, T, h):
    """z after h [s] with qd held: z relaxes exponentially to g sgn(qd) / sigma0."""
    if qd == 0:
        return z
    level = g(qd, T)
    z_ss = math.copysign(level, qd) / SIGMA0
    return z_ss + (z - z_ss) * math.exp(-SIGMA0 * abs(qd) / level * h)


def main():
    rng = random.Random(1)
    n = int(round(DURATION * RATE))
    out = sys.stdout
    out.write("t,q,tau,temp\n")
    qd0 = motion(0.0)[1]
    z = math.copysign(g(qd0, temperature(0.0)), qd0) / SIGMA0  # sliding at the start
    h = 1.0 / (RATE * SUBSTEPS)
    for k in range(n + 1):
        t = k / RATE
        if k > 0:
            for j in range(SUBSTEPS):
                tm = (k - 1) / RATE + (j + 0.5) * h
                z = bristle_step(z, motion(tm)[1], temperature(tm), h)
        q, qd, qdd = motion(t)
        T = temperature(t)
        zdot = qd - SIGMA0 * abs(qd) / g(qd, T) * z
        friction = SIGMA0 * z + SIGMA1 * zdot + (1 + KT_V * (T - T_REF)) * CV * qd
        tau = (I * qdd + MGCX * math.cos(q) - MGCY * math.sin(q) + OFFSET + friction
               + rng.gauss(0, 0.002))
        out.write(f"{t:.3f},{q:.9f},{tau:.9f},{T:.3f}\n")


if __name__ == "__main__":
    main()
