#!/usr/bin/env python3
"""A synthetic joint record with Stribeck friction, for the exports of a joint fit
(tests/estimator.cmake: `fit-joint --method sr3` on it, then `export c`, compiled and compared
with the joint model; tests/cli/test_cli_export.py: every export of such a fit).

An analytic trajectory (q a sum of two sines at 1 kHz over 4 s, qd and qdd exact) and the torque
of the joint with gravity, an offset and the steady-state friction
    tau_f = sgn(qd) (Fc + Fs exp(-(|qd| / ws)^2)) + Fv qd
along it, from the equation of motion (docs/joint-identification.md, "The joint model").
Columns: time [s], angle [rad], torque [N m]. Usage: joint_stribeck_record.py OUT.csv
Python standard library only.
"""
import csv
import math
import sys

TRUTH = {"I": 0.0626, "mgCx": 0.05, "mgCy": -1.0, "offset": -0.07, "Fv": 0.047, "Fc": 0.18,
         "Fs": 0.12, "ws": 0.3}


def write_record(path):
    w1, w2 = 2 * math.pi * 0.3, 2 * math.pi * 0.7
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["time", "angle", "torque"])
        for k in range(4001):
            t = k * 1e-3
            q = 0.8 * math.sin(w1 * t) + 0.4 * math.sin(w2 * t + 0.5) + 0.2
            qd = 0.8 * w1 * math.cos(w1 * t) + 0.4 * w2 * math.cos(w2 * t + 0.5)
            qdd = -0.8 * w1 * w1 * math.sin(w1 * t) - 0.4 * w2 * w2 * math.sin(w2 * t + 0.5)
            sgn = (qd > 0) - (qd < 0)
            g = TRUTH["Fc"] + TRUTH["Fs"] * math.exp(-(abs(qd) / TRUTH["ws"]) ** 2)
            tau = (TRUTH["I"] * qdd + TRUTH["mgCx"] * math.cos(q) - TRUTH["mgCy"] * math.sin(q)
                   + TRUTH["offset"] + TRUTH["Fv"] * qd + g * sgn)
            out.writerow([f"{t:.6f}", repr(q), repr(tau)])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: joint_stribeck_record.py OUT.csv")
    write_record(sys.argv[1])
