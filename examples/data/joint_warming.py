#!/usr/bin/env python3
"""Write joint_warming.csv: a synthetic pendulum joint warming from 25 to 45 degC.

The joint of docs/joint-identification.md, "Temperature-dependent friction": I = 0.0626 kg m^2,
mgCx = 0.05 N m, mgCy = -1.0 N m, offset = -0.07 N m, Fv = 0.047 N m s/rad, Fc = 0.18 N m at
T_ref = 35 degC, linear law with kT = -0.012 1/K and kT_v = -0.02 1/K; a two-sine excitation
sampled at 200 Hz for 12 s, with 0.005 N m of Gaussian noise on the torque (seed 1). Columns:
t [s], q [rad], tau [N m], temp [degC]. Python standard library only:
    /usr/bin/python3 examples/data/joint_warming.py > examples/data/joint_warming.csv
"""
import math
import random
import sys

I, MGCX, MGCY, OFFSET, FV, FC = 0.0626, 0.05, -1.0, -0.07, 0.047, 0.18
T_REF, KT, KT_V = 35.0, -0.012, -0.02


def main():
    rng = random.Random(1)
    w1, w2 = 2 * math.pi * 0.3, 2 * math.pi * 0.7
    n, rate = 2400, 200.0
    out = sys.stdout
    out.write("t,q,tau,temp\n")
    for k in range(n + 1):
        t = k / rate
        q = 0.8 * math.sin(w1 * t) + 0.4 * math.sin(w2 * t + 0.5) + 0.2
        qd = 0.8 * w1 * math.cos(w1 * t) + 0.4 * w2 * math.cos(w2 * t + 0.5)
        qdd = -0.8 * w1 * w1 * math.sin(w1 * t) - 0.4 * w2 * w2 * math.sin(w2 * t + 0.5)
        temp = 25.0 + 20.0 * k / n
        dT = temp - T_REF
        sgn = (qd > 0) - (qd < 0)
        tau = (I * qdd + MGCX * math.cos(q) - MGCY * math.sin(q) + OFFSET
               + (1 + KT_V * dT) * FV * qd + (1 + KT * dT) * FC * sgn + rng.gauss(0, 0.005))
        out.write(f"{t:.3f},{q:.9f},{tau:.9f},{temp:.3f}\n")


if __name__ == "__main__":
    main()
