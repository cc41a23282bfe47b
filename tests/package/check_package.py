#!/usr/bin/env python3
"""Install frictionlab from a build tree into a temporary prefix and use it from outside.

1. `cmake --install BUILD --prefix WORK/prefix`: headers, libraries, the CLI and the CMake
   package (frictionlabConfig.cmake, frictionlabConfigVersion.cmake, exported targets).
2. tests/package/full: find_package(frictionlab REQUIRED), links frictionlab::frictionlab, fits,
   simulates and writes a model (its own checks against the truth and the invariants).
3. tests/package/models_only: find_package(frictionlab REQUIRED COMPONENTS models), links
   frictionlab::models only; its configure step fails if any third-party target was defined,
   and here its compile command must name no Eigen or Ceres directory.
4. tests/package/mujoco (where frictionlab::mujoco was built): a C project with
   find_package(frictionlab REQUIRED COMPONENTS mujoco) builds and runs
   examples/mujoco/servo_pendulum.c against the installed library.
5. The installed CLI runs and reports the project's version.
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys


def run(cmd, what, cwd=None):
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        raise SystemExit(f"package: {what} failed (exit {p.returncode}): {' '.join(map(str, cmd))}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--build", required=True, type=pathlib.Path)
    ap.add_argument("--source", required=True, type=pathlib.Path)
    ap.add_argument("--work", required=True, type=pathlib.Path)
    ap.add_argument("--generator", default="Ninja")
    ap.add_argument("--version", required=True)
    ap.add_argument("--cxx-flags", default="")
    a = ap.parse_args()

    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        print(("ok      " if ok else "FAILED  ") + what)
        if ok:
            passed += 1
        else:
            failed += 1

    shutil.rmtree(a.work, ignore_errors=True)
    prefix = a.work / "prefix"
    run([a.cmake, "--install", a.build, "--prefix", prefix], "install")
    cmake_dir = prefix / "lib" / "cmake" / "frictionlab"
    for f in ["include/frictionlab/models/lugre.hpp", "include/frictionlab/workflows/progress.hpp",
              "bin/frictionlab", "lib/cmake/frictionlab/frictionlabConfig.cmake",
              "lib/cmake/frictionlab/frictionlabConfigVersion.cmake",
              "lib/cmake/frictionlab/frictionlabTargets.cmake",
              "lib/cmake/frictionlab/frictionlabModelsTargets.cmake"]:
        check((prefix / f).exists(), f"installed {f}")
    libs = sorted(p.name for p in (prefix / "lib").glob("libfrictionlab_*"))
    check(len(libs) >= 7, f"installed libraries: {', '.join(libs)}")

    for name, exe in [("full", "consumer"), ("models_only", "models_consumer")]:
        bdir = a.work / name
        cfg = [a.cmake, "-S", a.source / "tests" / "package" / name, "-B", bdir, "-G", a.generator,
               "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={prefix}",
               "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
        if a.cxx_flags:
            cfg += [f"-DCMAKE_CXX_FLAGS={a.cxx_flags}", f"-DCMAKE_EXE_LINKER_FLAGS={a.cxx_flags}"]
        run(cfg, f"configure {name}")
        run([a.cmake, "--build", bdir], f"build {name}")
        out = run([bdir / exe], f"run {name}")
        sys.stdout.write(out)
        check(out.rstrip().endswith(f"{exe}: ok"), f"{name}: the consumer's own checks pass")
        commands = json.loads((bdir / "compile_commands.json").read_text())
        cmd = " ".join(c["command"] for c in commands)
        check(str(prefix / "include") in cmd, f"{name}: compiled against the installed headers")
        if name == "models_only":
            check("eigen3" not in cmd.lower() and "ceres" not in cmd.lower(),
                  "models_only: no Eigen or Ceres on the include path")

    if list((prefix / "lib").glob("libfrictionlab_mujoco.*")):
        # frictionlab's friction inside MuJoCo: a C consumer of the installed frictionlab::mujoco
        bdir = a.work / "mujoco"
        example = a.source / "examples" / "mujoco"
        cfg = [a.cmake, "-S", a.source / "tests" / "package" / "mujoco", "-B", bdir, "-G",
               a.generator, "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={prefix}",
               f"-DFRICTIONLAB_EXAMPLE_DIR={example}", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
        if a.cxx_flags:
            cfg += [f"-DCMAKE_EXE_LINKER_FLAGS={a.cxx_flags}"]
        run(cfg, "configure mujoco")
        run([a.cmake, "--build", bdir], "build mujoco")
        out = run([bdir / "servo_pendulum", example], "run mujoco")
        sys.stdout.write(out.splitlines()[-1] + "\n")
        check("after the drop at rest" in out, "mujoco: the example runs on the installed library")
        commands = json.loads((bdir / "compile_commands.json").read_text())
        cmd = " ".join(c["command"] for c in commands)
        check(str(prefix / "include") in cmd, "mujoco: compiled against the installed headers")

    version = run([prefix / "bin" / "frictionlab", "--version"], "installed CLI").strip()
    check(a.version in version, f"installed CLI: '{version}'")
    print(f"package: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
