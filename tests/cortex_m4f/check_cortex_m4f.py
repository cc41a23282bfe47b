#!/usr/bin/env python3
"""Compile-only test of the torque estimator for a Cortex-M4F (Debian's gcc-arm-none-eabi and
libnewlib-arm-none-eabi, docs/estimator.md "Cortex-M4F"):

  - the C API (src/estimator/fl_estimator_f32.c, _f64.c: the estimator and the adaptive
    estimator) with arm-none-eabi-gcc -std=c99,
  - the header-only C++ estimator (float and double) with arm-none-eabi-g++ -std=c++20
    -fno-exceptions -fno-rtti,
  - the code written by `frictionlab export c` (float and double; float with --adaptive),
all with -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -O2 and warnings as errors
(-Wdouble-promotion among them). The float objects must not use double precision: no soft-float
double helper (__aeabi_d*, __aeabi_*2d, __aeabi_d2*, libgcc's *df* routines) and no double libm
function (exp, expm1, pow, ...) among their undefined symbols, and no .f64 instruction in their
disassembly; the double objects serve as the positive control (they must show such calls).
Prints the code size of every object (arm-none-eabi-size), the flash a minimal linked program
gains with the estimator (newlib-nano, libm included), the adaptive estimator's linked code (at
most 4 KiB, else a failure), the instructions one step executes (qemu-arm, where installed) and
the state sizes (arm-none-eabi-nm).

Exit 77 (CTest: skipped) only if the toolchain is not installed; CI installs it."""
import argparse
import os
import re
import shutil
import subprocess
import sys

CPU = ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard", "-mthumb", "-O2"]
WARN = ["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wconversion", "-Wdouble-promotion",
        "-Werror"]
DOUBLE_LIBM = {"exp", "expm1", "pow", "fabs", "ceil", "floor", "log", "log1p", "sqrt", "sin",
               "cos", "tan", "tanh", "atan", "atan2", "fmod", "round", "trunc", "hypot", "exp2",
               "ldexp", "frexp", "modf", "cbrt", "fmax", "fmin", "lround", "copysign"}
DOUBLE_HELPER = re.compile(r"^(__aeabi_d\w+|__aeabi_\w*2d\w*|__\w*df\d?$|__\w*df[0-9]?\w*)")

failures = []


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        print("FAILED: " + " ".join(cmd) + "\n" + p.stdout + p.stderr)
        failures.append(" ".join(cmd))
    return p


def undefined(obj):
    out = run(["arm-none-eabi-nm", "-u", obj]).stdout
    return sorted({line.split()[-1] for line in out.splitlines() if line.strip()})


def double_uses(obj):
    """Double-precision helpers, double libm calls and .f64 instructions of an object."""
    bad = [s for s in undefined(obj) if DOUBLE_HELPER.match(s) or s in DOUBLE_LIBM]
    dis = run(["arm-none-eabi-objdump", "-d", obj]).stdout
    bad += sorted({l.split("\t")[-2].strip() for l in dis.splitlines() if ".f64" in l and "\t" in l})
    return bad


def text_size(path):
    out = run(["arm-none-eabi-size", path]).stdout.splitlines()
    text, data, bss = (int(x) for x in out[1].split()[:3])
    return text, data, bss


def executed_instructions(log):
    """Instructions executed in a run logged by qemu's -d in_asm,exec,nochain: each translated
    block's instruction count (its in_asm listing, keyed by its first address) summed over the
    block executions (its "Trace" lines; nochain logs every one)."""
    counts, start, n, total = {}, None, 0, 0
    with open(log) as f:
        for line in f:
            if line.startswith("IN:"):
                start, n = None, 0
            elif re.match(r"^0x[0-9a-f]+:", line):
                if start is None:
                    start = int(line.split(":")[0], 16)
                n += 1
                counts[start] = n
            elif line.startswith("Trace"):
                total += counts[int(line.split("[")[1].split("/")[1], 16)]
    return total


def instructions_per_step(src, work, link):
    """Instructions one float step executes, fixed and adaptive estimator: tests/cortex_m4f/
    count_steps.c linked for the Cortex-M4F and run by qemu-arm in user mode (a Cortex-A15 core:
    the same Thumb-2 and single-precision VFP instruction stream; qemu's linux-user mode does not
    start M-profile ELF files). None if qemu-arm is missing."""
    if shutil.which("qemu-arm") is None:
        print("  (qemu-arm not found: instructions per step not counted; install qemu-user)")
        return None
    counted = {}
    for variant, define in (("input", []), ("fixed", ["-DFIXED"]), ("adaptive", ["-DADAPTIVE"])):
        for steps in (1000, 3000):
            elf = os.path.join(work, f"count_{variant}_{steps}.elf")
            log = elf + ".log"
            run([*link, "-nostartfiles", f"-DSTEPS={steps}", *define,
                 os.path.join(src, "tests", "cortex_m4f", "count_steps.c"),
                 os.path.join(src, "src", "estimator", "fl_estimator_f32.c"), "-lm", "-o", elf])
            run(["qemu-arm", "-cpu", "cortex-a15", "-d", "in_asm,exec,nochain", "-D", log, elf])
            if failures:
                return None
            counted[(variant, steps)] = executed_instructions(log)
    per = {}
    for variant in ("fixed", "adaptive"):
        extra = (counted[(variant, 3000)] - counted[(variant, 1000)]) - \
                (counted[("input", 3000)] - counted[("input", 1000)])
        per[variant] = extra / 2000.0
    return per


def function_sizes(path):
    """The sizes of the functions (text symbols) of an object or program."""
    out = run(["arm-none-eabi-nm", "--print-size", path]).stdout
    sizes = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in ("t", "T"):
            sizes[f[3]] = int(f[1], 16)
    return sizes


def symbol_sizes(obj):
    out = run(["arm-none-eabi-nm", "--print-size", obj]).stdout
    sizes = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:
            sizes[f[3]] = int(f[1], 16)
    return sizes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    for tool in ("arm-none-eabi-gcc", "arm-none-eabi-g++", "arm-none-eabi-nm",
                 "arm-none-eabi-objdump", "arm-none-eabi-size"):
        if shutil.which(tool) is None:
            print(f"SKIPPED: {tool} not found: install gcc-arm-none-eabi, libnewlib-arm-none-eabi "
                  "and libstdc++-arm-none-eabi-newlib (scripts/install-deps.sh)")
            return 77
    src = os.path.abspath(args.source)
    work = os.path.abspath(args.work)
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    inc = ["-I", os.path.join(src, "include"), "-I", work]
    here = os.path.join(src, "tests", "cortex_m4f")

    # The exported code of a joint-scale parameter file, in both precisions.
    params = os.path.join(src, "examples", "data", "joint_estimator.json")
    for prec, name in (("float", "joint_f32"), ("double", "joint_f64")):
        run([args.cli, "export", "c", "--params", params, "--name", name, "--precision", prec,
             "--out", work])
    run([args.cli, "export", "c", "--params", params, "--name", "joint_adaptive_f32",
         "--precision", "float", "--adaptive", "--out", work])

    objs = {}

    def cc(name, source, extra=()):
        obj = os.path.join(work, name + ".o")
        run(["arm-none-eabi-gcc", "-std=c99", *CPU, *WARN, *inc, *extra, "-c", source, "-o", obj])
        objs[name] = obj
        return obj

    def cxx(name, source, extra=()):
        obj = os.path.join(work, name + ".o")
        run(["arm-none-eabi-g++", "-std=c++20", "-fno-exceptions", "-fno-rtti", *CPU, *WARN,
             *inc, *extra, "-c", source, "-o", obj])
        objs[name] = obj
        return obj

    cc("c_api_f32", os.path.join(src, "src", "estimator", "fl_estimator_f32.c"))
    cc("c_api_f64", os.path.join(src, "src", "estimator", "fl_estimator_f64.c"))
    cxx("cpp_f32", os.path.join(here, "estimator_cpp.cpp"), ["-DFRICTIONLAB_SCALAR=float"])
    cxx("cpp_f64", os.path.join(here, "estimator_cpp.cpp"), ["-DFRICTIONLAB_SCALAR=double"])
    cc("export_f32", os.path.join(work, "joint_f32.c"))
    cc("export_f64", os.path.join(work, "joint_f64.c"))
    cc("export_adaptive_f32", os.path.join(work, "joint_adaptive_f32.c"))
    cc("probes", os.path.join(here, "probes.c"))
    if failures:
        return 1

    # No double precision in the float objects; the double ones show it (the check can fail).
    for name in ("c_api_f32", "cpp_f32", "export_f32", "export_adaptive_f32"):
        bad = double_uses(objs[name])
        if bad:
            failures.append(f"{name}: double-precision operations: {', '.join(bad)}")
            print(f"FAILED {name}: uses double precision: {', '.join(bad)}")
        else:
            print(f"ok     {name}: no double-precision operation "
                  f"(calls: {', '.join(undefined(objs[name])) or 'none'})")
    for name in ("c_api_f64", "cpp_f64", "export_f64"):
        if not double_uses(objs[name]):
            failures.append(f"{name}: the double-precision check found nothing (positive control)")
            print(f"FAILED {name}: no soft-float double call found: the check is blind")

    print("\ncortex-m4f code size [bytes] (arm-none-eabi-size, -O2; libm not included):")
    labels = {"c_api_f32": "C API, float (fl_estimator_f32.c)",
              "c_api_f64": "C API, double (fl_estimator_f64.c)",
              "cpp_f32": "C++ header, TorqueEstimator<float>",
              "cpp_f64": "C++ header, TorqueEstimator<double>",
              "export_f32": "export c, float (joint_f32.c)",
              "export_f64": "export c, double (joint_f64.c)",
              "export_adaptive_f32": "export c --adaptive, float"}
    for name, label in labels.items():
        text, data, bss = text_size(objs[name])
        print(f"  {label:40s} text {text:6d}  data {data:4d}  bss {bss:4d}")

    # Flash a minimal program gains with the estimator, newlib-nano's libm functions included.
    link = ["arm-none-eabi-gcc", "-std=c99", *CPU, *inc, "-ffunction-sections", "-fdata-sections",
            "--specs=nano.specs", "--specs=nosys.specs", "-Wl,--gc-sections"]
    prog = os.path.join(here, "program.c")
    elf = {}
    for variant, extra in (("base", []),
                           ("c_api", ["-DUSE_C_API",
                                      os.path.join(src, "src", "estimator", "fl_estimator_f32.c")]),
                           ("export", ["-DUSE_EXPORT", os.path.join(work, "joint_f32.c")]),
                           ("adaptive", ["-DUSE_ADAPTIVE",
                                         os.path.join(src, "src", "estimator",
                                                      "fl_estimator_f32.c")])):
        elf[variant] = os.path.join(work, f"program_{variant}.elf")
        run([*link, prog, *extra, "-lm", "-o", elf[variant]])
    if not failures:
        base = sum(text_size(elf["base"])[:2])
        for variant, label in (("c_api", "C API, float"), ("export", "export c, float"),
                               ("adaptive", "adaptive, float")):
            total = sum(text_size(elf[variant])[:2])
            print(f"  linked program, {label:22s} +{total - base} bytes of flash "
                  f"(estimator + newlib-nano libm)")
        # The adaptive estimator's own code as a firmware links it (--gc-sections): every fl_*
        # function in the program (init, step, enable, freeze, defaults and what they call).
        code = sum(size for name, size in function_sizes(elf["adaptive"]).items()
                   if name.startswith("fl_"))
        print(f"  adaptive estimator, float, linked code  {code} bytes (bound 4096)")
        if code > 4096:
            failures.append(f"the adaptive estimator's code is {code} bytes, over 4 KiB")

    per = instructions_per_step(src, work, link)
    if per is not None:
        print("\ncortex-m4f instructions per step (float, velocity input with linear hold, "
              "reversals; qemu-arm count):")
        print(f"  fixed estimator (fl_estimator_f32_step)       {per['fixed']:.0f}")
        print(f"  adaptive estimator (fl_adaptive_f32_step, ref) {per['adaptive']:.0f}")

    sizes = symbol_sizes(objs["probes"])
    cpp_sizes = symbol_sizes(objs["cpp_f32"])
    print("\ncortex-m4f state [bytes] (arm-none-eabi-nm --print-size):")
    print(f"  fl_estimator_f32 (parameters, bound, z, v_prev)  {sizes.get('fl_probe_c_estimator')}"
          f"   of which parameters {sizes.get('fl_probe_c_params')}")
    print(f"  TorqueEstimator<float> (same content)           "
          f"{cpp_sizes.get('fl_probe_cpp_estimator')}")
    print(f"  state proper: TorqueEstimator<float>::State     {cpp_sizes.get('fl_probe_cpp_state')}"
          f"   export c joint_f32_state {sizes.get('fl_probe_export_state')}")

    if failures:
        print("\n" + str(len(failures)) + " failure(s)")
        return 1
    print("\ncortex-m4f: all objects built, float objects free of double precision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
