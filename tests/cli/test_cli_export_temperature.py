#!/usr/bin/env python3
"""`frictionlab export c --adaptive --temperature` end to end, laid out as docs/cli.md ("export
c") tells a user: `fit-joint --method idim --temperature temp --temperature-law linear` on
examples/data/joint_warming.csv, then `export c --adaptive --params
examples/data/sensorless_fit.json --temperature joint_fit.json`. The adaptive estimator's start
baked into NAME.c and stated in NAME.h against the joint_fit.json's own numbers (read here with
json; the rule of docs/estimator.md, "Online adaptation"): theta[kT], its variance P0, T_ref and
the adapt mask with kT's bit; at the fit's T_ref, at another --temperature-ref (the linear law's
relative slope there) and for the exponential law (kT itself, carried to first order); the code
compiles warning-free; and the errors (exit status 1, "frictionlab: error: ..." naming the option
or the file and the key, nothing written). Python standard library only."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli  # noqa: E402


def f32(x):
    """x rounded to float, as the float export bakes it."""
    return struct.unpack("f", struct.pack("f", x))[0]


def baked(c_text, pattern):
    """The float literal of `pattern` (a regex with one group) in NAME.c, as a number: its last
    match (NAME_adaptive_default_options follows the library's code, which has its own),
    rounded to float (its 9 digits read back to the float baked)."""
    m = re.findall(pattern, c_text)
    return f32(float(m[-1].rstrip("f"))) if m else None


def fit_joint(cli, law, out):
    """fit-joint idim with a temperature law on the warming joint; its joint_fit.json and the
    law's kT, kT_v, T_ref and se(kT)."""
    p = cli.run("fit-joint", "--method", "idim", "--input",
                os.path.join(cli.data, "joint_warming.csv"), "--time", "t", "--position", "q",
                "--torque", "tau", "--temperature", "temp", "--temperature-law", law,
                "--no-plots", "--out", out)
    jf = os.path.join(out, "joint_fit.json")
    cli.check(f"fit-joint --temperature-law {law}", p.returncode == 0 and os.path.exists(jf),
              p.stderr)
    with open(jf, encoding="utf-8") as f:
        fit = json.load(f)
    law_json = fit["joint"]["temperature"]
    se = {e["name"]: e["std_error"] for e in fit["parameters"]}
    return jf, law_json, se["kT"]


def export(cli, jf, name, *extra):
    """export c --adaptive of sensorless_fit.json seeded from `jf`; (header, source) texts."""
    gen = os.path.join(cli.work, "gen")
    p = cli.run("export", "c", "--params", os.path.join(cli.data, "sensorless_fit.json"),
                "--adaptive", "--temperature", jf, "--name", name, "--out", gen, *extra)
    cli.check(f"export c --adaptive --temperature ({name})", p.returncode == 0, p.stderr)
    if p.returncode != 0:
        return "", ""
    with open(os.path.join(gen, name + ".h"), encoding="utf-8") as f:
        header = f.read()
    with open(os.path.join(gen, name + ".c"), encoding="utf-8") as f:
        source = f.read()
    return header, source


def check_start(cli, name, header, source, kT, T_ref, P0):
    """The start baked into NAME.c and stated in NAME.h."""
    got = {"kT": baked(source, r"a->theta\[\w+_ADAPT_KT\] = ([^;]+);"),
           "T_ref": baked(source, r"o->T_ref = ([^;]+);"),
           "P0": baked(source, r"o->P0\[5\] = ([^;]+);")}
    want = {"kT": f32(kT), "T_ref": f32(T_ref), "P0": f32(P0)}
    cli.check(f"{name}: the baked kT, T_ref and P0 of kT", got == want, f"{got} != {want}")
    cli.check(f"{name}: kT adapts (mask 0x3e)", "o->adapt = 0x3eu;" in source
              and "sigma2, offset and kT adapt, Km is frozen" in header, header[-3000:])
    cli.check(f"{name}: the header states T_ref and the notes",
              f"T_ref {T_ref:g} degC;" in header and "is not carried" in header
              and "kT_v = " in header, header[:6000])


def check_compiles(cli, name):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return
    c = os.path.join(cli.work, "gen", name + ".c")
    q = subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion",
                        "-Wdouble-promotion", "-Werror", "-c", c, "-o", c + ".o"],
                       capture_output=True, text=True)
    cli.check(f"{name}: the seeded code compiles warning-free (C99)", q.returncode == 0, q.stderr)


def check_errors(cli, jf, kT, T_ref):
    fit = os.path.join(cli.data, "sensorless_fit.json")
    out = os.path.join(cli.work, "refused")
    base = ["export", "c", "--params", fit, "--out", out]
    err = "frictionlab: error: "
    cli.expect_error("--temperature without --adaptive", base + ["--temperature", jf],
                     err + "--temperature (Python temperature=) seeds the adaptive estimator's "
                     "kT: it needs --adaptive (adaptive=True)", out)
    cli.expect_error("--temperature-ref without --temperature",
                     base + ["--adaptive", "--temperature-ref", "30"],
                     err + "--temperature-ref (Python temperature_ref=) is the temperature of "
                     "the --params levels for a --temperature fit (temperature=): give "
                     "--temperature too", out)
    cli.expect_error("--temperature-ref not finite",
                     base + ["--adaptive", "--temperature", jf, "--temperature-ref", "nan"],
                     err + "--temperature-ref (Python temperature_ref=) must be a finite "
                     "temperature [degC], got nan", out)
    cli.expect_error("--temperature of a fit.json", base + ["--adaptive", "--temperature", fit],
                     err + fit + ": key 'format': expected \"frictionlab-joint-fit\" (a "
                     "joint_fit.json of fit-joint with --temperature-law), got "
                     "\"frictionlab-fit\": this is a fit.json from `fit`", out)
    plain = os.path.join(cli.work, "plain")
    cli.run("fit-joint", "--method", "idim", "--input",
            os.path.join(cli.data, "joint_warming.csv"), "--time", "t", "--position", "q",
            "--torque", "tau", "--no-plots", "--out", plain)
    plain_jf = os.path.join(plain, "joint_fit.json")
    cli.expect_error("--temperature of a joint fit without a law",
                     base + ["--adaptive", "--temperature", plain_jf],
                     err + plain_jf + ": joint: temperature: missing: this joint fit has no "
                     "temperature law (fit-joint --method idim --temperature COLUMN "
                     "--temperature-law linear|exponential fits one)", out)
    hot = 150.0  # 1 + kT (150 - T_ref) < 0 for kT = -0.012 1/K
    scale = 1 + kT * (hot - T_ref)
    cli.expect_error("--temperature-ref beyond the linear law",
                     base + ["--adaptive", "--temperature", jf, "--temperature-ref", "150"],
                     err + jf + f": joint: temperature: its linear law's scale at "
                     f"--temperature-ref 150 degC, 1 + kT (T_ref - {T_ref:g}) = {scale:.6g}, "
                     "is not > 0 (its levels would push there): give a temperature the law "
                     "holds at", out)
    p = cli.run("export", "c", "--params", jf, "--km", "0.5", "--out", out)
    cli.check("export c of the temperature fit itself: refused, pointing to --temperature",
              p.returncode == 1 and f"`export c --adaptive --temperature {jf}`" in p.stderr
              and not os.path.exists(out), p.stderr)


def main():
    cli = Cli(timeout=60)
    jf, law, se = fit_joint(cli, "linear", os.path.join(cli.work, "warm"))
    kT, T_ref = law["kT"], law["T_ref"]
    header, source = export(cli, jf, "warm")
    check_start(cli, "linear law at its T_ref", header, source, kT, T_ref, se * se)
    check_compiles(cli, "warm")
    # --temperature-ref 30: the levels of --params hold at 30 degC; the law's slope there
    c = 1 + kT * (30 - T_ref)
    header, source = export(cli, jf, "warm30", "--temperature-ref", "30")
    check_start(cli, "linear law at --temperature-ref 30", header, source, kT / c, 30.0,
                (se / c) ** 2)
    ejf, elaw, ese = fit_joint(cli, "exponential", os.path.join(cli.work, "warm_exp"))
    header, source = export(cli, ejf, "warm_exp", "--temperature-ref", "30")
    check_start(cli, "exponential law", header, source, elaw["kT"], 30.0, ese * ese)
    cli.check("exponential law: carried to first order, said in the header",
              "is carried to first order" in header, header[:6000])
    check_errors(cli, jf, kT, T_ref)
    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
