#!/usr/bin/env python3
"""Layers depend downward only (docs/architecture.md).

Every #include "frictionlab/<layer>/..." in include/frictionlab/<L>/ and src/<L>/ must name L
itself or a layer below it. The order (each layer may use those listed before it):

  models (with integrate/stepper.hpp, frictionlab/format.hpp, limits.hpp and names.hpp), integrate, estimator, signal,
  sim, robot, data, identify, workflows, io, mujoco

Prints one line per violation ("FILE:LINE: <L> includes <M>/...") and exits 1 if there is any.
"""
import pathlib
import re
import sys

ORDER = ["models", "integrate", "estimator", "signal", "sim", "robot", "data", "identify",
         "workflows", "io", "mujoco"]
# What each layer may include besides itself (its dependencies in src/CMakeLists.txt, closed).
ALLOWED = {
    "models": {"models"},
    "integrate": {"models", "integrate"},
    "estimator": {"models", "estimator"},
    "signal": {"models", "signal"},
    "sim": {"models", "integrate", "sim"},
    "robot": {"robot"},
    "data": {"models", "integrate", "signal", "sim", "data"},
    "identify": {"models", "integrate", "signal", "sim", "robot", "data", "identify"},
    "workflows": {"models", "integrate", "signal", "sim", "robot", "data", "identify",
                  "workflows"},
    "io": {"models", "integrate", "signal", "sim", "data", "identify", "workflows", "estimator",
           "robot", "io"},
    "mujoco": {"models", "integrate", "signal", "sim", "data", "identify", "workflows",
               "estimator", "robot", "io", "mujoco"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"frictionlab/([a-z_]+)(/|\.hpp")')


def layer_of_include(name):
    # frictionlab/format.hpp, limits.hpp and names.hpp are part of the base target
    # (frictionlab::models).
    return "models" if name in ("format", "limits", "names") else name


def main():
    root = pathlib.Path(sys.argv[1])
    bad = checked = 0
    for layer in ORDER:
        dirs = [root / "include" / "frictionlab" / layer, root / "src" / layer]
        for d in dirs:
            for f in sorted(d.glob("*")):
                if f.suffix not in (".hpp", ".h", ".cpp", ".c"):
                    continue
                checked += 1
                for n, line in enumerate(f.read_text().splitlines(), 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    used = layer_of_include(m.group(1))
                    if used == "integrate" and "integrate/stepper.hpp" in line:
                        used = "models"  # std-only, part of frictionlab::models
                    if used not in ALLOWED[layer]:
                        bad += 1
                        print(f"{f.relative_to(root)}:{n}: {layer} includes {line.strip()}")
    if checked < 100:
        print(f"layers: only {checked} files found under {root}: wrong root?")
        return 1
    print(f"layers: {checked} files checked, {bad} upward includes")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
