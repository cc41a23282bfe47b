#!/usr/bin/env python3
"""Write sine_velocity_warming.csv: the input of sine_velocity.csv on a warming joint.

A 1 Hz sinusoidal velocity of amplitude 5 mm/s sampled at 100 Hz for 4 s while the temperature
rises linearly from 25 to 45 degC (the range of Park et al., Sensors 2022). Columns: t [s],
v [m/s], temp [degC]. Driven through examples/data/lugre_warming.json in docs/cli.md
("simulate ... --temperature"). Python standard library only:
    /usr/bin/python3 examples/data/sine_velocity_warming.py > examples/data/sine_velocity_warming.csv
"""
import math
import sys


def main():
    n, rate = 400, 100.0
    out = sys.stdout
    out.write("t,v,temp\n")
    for k in range(n + 1):
        t = k / rate
        v = 0.005 * math.sin(2 * math.pi * t)
        temp = 25.0 + 20.0 * k / n
        out.write(f"{t:.2f},{v:.9g},{temp:.6g}\n")


if __name__ == "__main__":
    main()
