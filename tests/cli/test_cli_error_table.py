#!/usr/bin/env python3
"""Error-path table of the frictionlab command line: every row is a malformed input
or command line of one command, run in its own fresh directory holding only the row's input
files. Each row asserts the exit status (1: an input error found by frictionlab; CLI11's
statuses 105/106/109: a command-line error), that stderr holds the expected message fragment,
and that the directory listing (recursive) is the same after the run as before: no output file
appears and no input changes (also when an output path is an input, directly or through a
symbolic link). The table covers every command and export format listed by --help, and at least
60 rows. Single cases with a more specific check stay in test_cli_errors.py; test_cli_safe_io.py
also times the output-location and limit checks (found before any work).

Row: (name, argv, files, status, fragment). In argv and in file contents, {data} is
examples/data; in the fragment, {dir} is the row's directory (absolute). files maps a relative
path to its content, created in the order given: str (text), bytes, None (an empty directory)
or a callable(path, data) that creates the entry (.mat files via scipy: mat(); a copy of a file
of examples/data: copy(); a symbolic link: symlink()). The listing compared before and after
the run holds every directory, every file with its size and SHA-256 and every symbolic link
with its target, so an input rewritten with the same size is caught too."""
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys

sys.dont_write_bytecode = True  # importing the harness must not write into the source tree
from cli_harness import Cli, fresh_dir  # noqa: E402

OI = "; writing it would replace the input (choose another output path)"
USAGE = 105   # CLI11 ValidationError (a bad option value)
EXTRAS = 109  # an unknown option or command (did you mean)
REQUIRED = 106

# ---- input files used by several rows ----
LUGRE = '{"model": "lugre", "params": {"sigma0": 1e5, "sigma1": 0.5, "sigma2": 0.4}}\n'
# the same with levels -1 %/K and a viscous term -2 %/K about 25 degC (linear: none beyond 75 degC)
LUGRE_WARMING = ('{"model": "lugre", "params": {"sigma0": 1e5, "sigma1": 0.5, "sigma2": 0.4}, '
                 '"temperature": {"law": "linear", "T_ref": 25, "kT": -0.01, "kT_v": -0.02}}\n')
REC = "t,v,F\n" + "".join(f"{k / 100},{0.1 * (k % 7 - 3)},{0.5 * (k % 5 - 2)}\n"
                          for k in range(40))
# 40 samples at 100 Hz, the 21st 5 ms late: a step 50 % longer than the median, then one shorter
UNEVEN_REC = "t,v,F\n" + "".join(f"{k / 100 + (0.005 if k == 20 else 0)},{0.1 * (k % 7 - 3)},"
                                  f"{0.5 * (k % 5 - 2)}\n" for k in range(40))
JOINT_REC = "t,q,u\n" + "".join(f"{k / 100},{0.01 * k},{0.1 * (k % 3)}\n" for k in range(60))
FIT = json.dumps({"format": "frictionlab-fit", "version": 1, "problem": "sensorless",
                  "method": "lsq", "model_name": "lugre", "Km": 2,
                  "model": {"model": "lugre", "params": {"sigma0": 1e4}}})
JOINT_FIT = json.dumps({"format": "frictionlab-joint-fit", "version": 1, "method": "idim",
                        "joint": {"I": 0.05, "friction": {"model": "coulomb",
                                                          "params": {"Fc": 0.1}}}})
ESTIMATOR = json.dumps({"format": "frictionlab-estimator", "version": 1, "Km": 0.5,
                        "hold": "linear", "friction": {"model": "lugre", "params": {}}})
SERVO = json.dumps({"kt": 0.4, "R": 4.0, "armature": 0.002, "q_offset": 0.0,
                    "friction_base": 0.01, "friction_viscous": 0.004, "model": "m1",
                    "actuator": "xl330"})
SENSORLESS_REC = "t,current,velocity,torque\n" + "".join(
    f"{k / 100},{0.3 * (k % 9 - 4) + 0.1},{0.1 * (k % 9 - 4)},{0.25 * (k % 9 - 4) + 0.05}\n"
    for k in range(60))
ROBOT_FIT = json.dumps({"format": "frictionlab-robot-fit", "version": 1, "joints": ["q1", "q2"],
                        "friction": {"model": "linear"},
                        "parameters": [{"name": "Fc_q1", "expression": "Fc_q1 + 0.5 Fc_q2",
                                        "terms": [["Fc_q1", 1.0], ["Fc_q2", 0.5]],
                                        "value": 0.3}]})
JOINT = '{"joint": {"I": 0.05, "friction": {"model": "coulomb", "params": {"Fc": 0.1}}}}'
HUGE_LUGRE = ('{"model": "lugre", "params": {"sigma0": 1e308, "sigma1": 1e308, '
              '"sigma2": 0.4}}\n')
ACTUATOR = json.dumps({"format": "frictionlab-actuator", "version": 1, "name": "mine",
                       "drive": "voltage", "supply_voltage": {"value": 7.4, "unit": "V"},
                       "motor": {"torque_constant": {"range": [0.3, 3], "unit": "Nm/A"},
                                 "resistance": {"range": [0.5, 5], "unit": "ohm"},
                                 "armature": {"range": [0.0001, 0.05], "unit": "kg m^2"}},
                       "control": {"law": "p", "error_gain": {"value": 0.003, "unit": "1/rad"}}})
FLEET = json.dumps({"format": "frictionlab-fleet", "version": 1, "joint_types": {"j": {
    "command": "fit", "options": {"problem": "friction", "model": "coulomb", "time": "t",
                                  "velocity": "v", "force": "F"}}}})
ENTRY = '{"position": 0, "goal_position": 0.1, "timestamp": %s, "torque_enable": true}'


def log(entries, header='"mass": 0.49, "length": 0.1, "kp": 100, "dt": 0.005, "motor": "xl330"'):
    return "{" + header + ', "entries": [' + ",".join(entries) + "]}"


LOG = log([ENTRY % "0", ENTRY % "0.005", ENTRY % "0.01"])


def mat(variables):
    def write(path, data):
        import numpy as np
        import scipy.io
        scipy.io.savemat(path, {k: np.asarray(v, dtype=float) for k, v in variables.items()})
    return write


def sqlite_tables(*names):
    """An SQLite database (another application's) with these empty tables."""
    def write(path, data):
        import sqlite3
        conn = sqlite3.connect(path)
        for n in names:
            conn.execute(f"CREATE TABLE {n} (x INTEGER)")
        conn.commit()
        conn.close()
    return write


def copy(name):
    """A copy of examples/data/`name`."""
    return lambda path, data: shutil.copyfile(os.path.join(data, name), path)


def symlink(target):
    """A symbolic link to `target` (relative to the link's directory)."""
    return lambda path, data: os.symlink(target, path)


def fifo():
    """A FIFO (named pipe): a reader that opened it would wait for a writer for ever."""
    return lambda path, data: os.mkfifo(path)


# A header of 1,000,003 columns (7.9 MB), a NUL byte in a field after the first KiB, and JSON
# nested 100,000 deep inside a SYSTEM.json.
WIDE = ",".join(f"c{k}" for k in range(1000003)) + "\n"
NUL_LATE = "t,v\n" + "".join(f"{k},0\n" for k in range(300)) + "300,1\x00\n"
DEEP_PREFIX = '{"system": "joint", "params": '
DEEP_SYSTEM = DEEP_PREFIX + "[" * 100000 + "]" * 100000 + "}"


def read_only(text):
    """A file holding `text` without any write permission."""
    def write(path, data):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(path, 0o444)
    return write


SIM = ["simulate", "--model", "m.json", "--input", "in.csv", "--output", "out.csv"]
FIT_ARGS = ["fit", "--input", "r.csv", "--velocity", "v", "--force", "F", "--out", "o"]
CMP_ARGS = ["compare", "--input", "r.csv", "--velocity", "v", "--force", "F", "--out", "o"]
# A two-joint arm and a record of it (columns q1 q2 dq1 dq2 tau1 tau2).
ARM_URDF = ("<robot name='two'><link name='base'/><link name='a'><inertial><mass value='1'/>"
            "<inertia ixx='0.01' ixy='0' ixz='0' iyy='0.01' iyz='0' izz='0.01'/></inertial>"
            "</link><link name='b'/><joint name='j1' type='revolute'><parent link='base'/>"
            "<child link='a'/><axis xyz='0 0 1'/><limit lower='-3' upper='3' effort='1' "
            "velocity='1'/></joint><joint name='j2' type='revolute'><parent link='a'/>"
            "<child link='b'/><origin xyz='0.3 0 0'/><axis xyz='0 1 0'/><limit lower='-3' "
            "upper='3' effort='1' velocity='1'/></joint></robot>")
ARM_REC = "time,q1,q2,dq1,dq2,tau1,tau2\n" + "".join(
    f"{k / 100},{0.01 * k},{0.02 * k},1,2,0.1,0.2\n" for k in range(60))
FR = ["fit-robot", "--robot", "arm.urdf", "--input", "arm.csv", "--out", "o"]
FJ = ["fit-joint", "--input", "j.csv", "--position", "q", "--torque", "u", "--out", "o"]
EJ = ["eval-joint", "--joint", "J.json", "--input", "j.csv", "--position", "q", "--torque", "u",
      "--out", "o"]
EA = ["eval-actuator", "--params", "p.json", "--logs", "log.json", "--json", "mae.json"]
FA = ["fit-actuator", "--logs", "log.json", "--out", "o"]
SAME = ["simulate", "--model", "m.json", "--input", "same.csv"]
SENSORLESS = ["fit", "--problem", "sensorless", "--input", "train.csv", "--current", "current",
              "--velocity", "velocity", "--force", "torque"]
CHECK = ["actuator", "check", "a.json", "log.json"]


def rows_with(command, argv, files, key, cases, status=1):
    """Rows of `command` run as `argv` on `files`, but for the file `key`, whose content each case
    gives (a variant of one input, the others well-formed): cases are (name, content,
    fragment), each row named "COMMAND: NAME" and expecting `status`."""
    return [(f"{command}: {name}", argv, {**files, key: content}, status, fragment)
            for name, content, fragment in cases]


def bad_options(command, argv, files, cases, status=USAGE):
    """Rows of `command` run as `argv` plus each case's options on `files` (well-formed):
    cases are (options, fragment), each row named "COMMAND: OPTIONS" and expecting `status`."""
    return [(f"{command}: {' '.join(options)}", argv + options, files, status, fragment)
            for options, fragment in cases]

# 1000 samples at 100 Hz with a 1000 s pause between samples 500 and 501 (1-based)
GAP_REC = "t,v,F\n" + "".join(
    f"{k / 100 + (1000 - 0.01 if k >= 500 else 0):.2f},{0.1 * (k % 7 - 3)},{0.5 * (k % 5 - 2)}\n"
    for k in range(1000))
GAP_JOINT = "t,q,u\n" + "".join(
    f"{k / 100 + (1000 - 0.01 if k >= 500 else 0):.2f},{0.01 * (k % 50)},{0.1 * (k % 3)}\n"
    for k in range(1000))

ROWS = [
    # ---- simulate: CSV input ----
    ("simulate: empty CSV", SIM, {"m.json": LUGRE, "in.csv": ""}, 1,
     "in.csv: empty file: expected a header line"),
    ("simulate: header-only CSV", SIM, {"m.json": LUGRE, "in.csv": "t,v\n"}, 1,
     "in.csv: needs at least 2 data rows, found 0"),
    ("simulate: semicolon delimiter", SIM, {"m.json": LUGRE, "in.csv": "t;v\n0;0\n1;1\n"}, 1,
     "in.csv:1: one column named 't;v': the columns seem to be separated by ';'; frictionlab "
     "reads comma-separated values (t,v,F)"),
    ("simulate: blank line inside the data", SIM,
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n\n1,1\n"}, 1, "in.csv:3: blank line inside the data"),
    ("simulate: infinite cell", SIM, {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,inf\n"}, 1,
     "in.csv:3:2: non-finite value 'inf' (column 'v')"),
    ("simulate: decreasing time", SIM, {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n0.5,0\n"}, 1,
     "in.csv:4:1: column 't' must be strictly increasing: 0.5 follows 1 (line 3)"),
    ("simulate: empty cell", SIM, {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,\n"}, 1,
     "in.csv:3:2: empty cell (column 'v')"),
    ("simulate: a temperature law without the input's temperature", SIM,
     {"m.json": LUGRE_WARMING, "in.csv": "t,v,T\n0,0,25\n1,1,30\n"}, 1,
     "m.json has a temperature law: give the input's temperature column with --temperature"),
    ("simulate: a temperature for a model without a law", SIM + ["--temperature", "T"],
     {"m.json": LUGRE, "in.csv": "t,v,T\n0,0,25\n1,1,30\n"}, 1,
     "--temperature T: m.json has no temperature law"),
    ("simulate: no such temperature column", SIM + ["--temperature", "temp"],
     {"m.json": LUGRE_WARMING, "in.csv": "t,v,T\n0,0,25\n1,1,30\n"}, 1,
     "in.csv:1: has no column 'temp' (--temperature): columns found: t, v, T"),
    ("simulate: a temperature beyond the linear law's reach", SIM + ["--temperature", "T"],
     {"m.json": LUGRE_WARMING, "in.csv": "t,v,T\n0,0,25\n1,1,90\n"}, 1,
     "in.csv line 3: temperature = 90 degC: the linear temperature law has no positive scale"),
    ("export: a model file with a temperature law", ["export", "c", "--params", "m.json",
                                                      "--out", "out"],
     {"m.json": LUGRE_WARMING}, 1, "m.json: key 'temperature': a model's temperature law runs "
     "only in `simulate"),
    ("simulate: extra field", SIM, {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1,2\n"}, 1,
     "in.csv:3:3: expected 2 fields (t, v), found 3"),
    ("simulate: comment after the header", SIM,
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n# note\n1,1\n"}, 1,
     "in.csv:3: comment lines are allowed only before the header"),
    ("simulate: input is a directory", SIM, {"m.json": LUGRE, "in.csv": None}, 1,
     "in.csv: is a directory, expected a CSV file"),
    # ---- simulate: MODEL.json ----
    *rows_with("simulate", SIM, {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n"}, "m.json", [
        ("model is a directory", None, "m.json: is a directory, expected a MODEL.json file"),
        ("empty MODEL.json", "", "m.json:1:1: JSON syntax error"),
        ("negative sigma0", '{"model": "lugre", "params": {"sigma0": -1e5}}',
         "m.json: parameter 'sigma0': must be > 0, got -1e+05"),
        ("NaN parameter (not JSON)", '{"model": "lugre", "params": {"sigma0": NaN}}',
         "m.json:1:41: JSON syntax error"),
        ("parameter as a string", '{"model": "lugre", "params": {"Fc": "1"}}',
         "m.json: parameter 'Fc': expected a number, got string"),
        ("duplicate key", '{"model": "lugre", "model": "dahl"}', "duplicate key 'model'"),
        ("MODEL.json is an array", "[1]", "m.json: expected a JSON object"),
        ("a fit.json as --model", FIT,
         "m.json: this is a fit.json from `fit`, not a MODEL.json (a friction model)")]),
    ("simulate: a SYSTEM.json as --model",
     ["simulate", "--model", "{data}/stick_slip.json", "--input", "in.csv", "--output",
      "out.csv"], {"in.csv": "t,v\n0,0\n1,1\n"}, 1,
     "stick_slip.json: this is a SYSTEM.json (a coupled system for simulate --system), not a "
     "MODEL.json"),
    ("simulate: an actuator parameter file as --model", SIM,
     {"m.json": SERVO, "in.csv": "t,v\n0,0\n1,1\n"}, 1,
     "m.json: this is an actuator parameter file (BAM's keys; fit-actuator writes m1.json .. "
     "m6.json), not a MODEL.json"),
    # ---- simulate: SYSTEM.json ----
    ("simulate: a MODEL.json as --params",
     ["simulate", "--system", "stick-slip", "--params", "m.json", "--output", "out.csv"],
     {"m.json": LUGRE}, 1,
     "m.json: this is a MODEL.json (a friction model), not a SYSTEM.json"),
    ("simulate: SYSTEM.json with a negative mass",
     ["simulate", "--system", "stick-slip", "--params", "s.json", "--output", "out.csv"],
     {"s.json": '{"system": "stick-slip", "params": {"m": -1}, "friction": {"model": "lugre"}}'},
     1, "s.json: parameter 'm': must be > 0"),
    ("simulate: SYSTEM.json is a directory",
     ["simulate", "--system", "joint", "--params", "s.json", "--output", "out.csv"],
     {"s.json": None}, 1, "s.json: is a directory, expected a SYSTEM.json file"),
    # ---- simulate: options ----
    ("simulate: --dt 0", SIM + ["--dt", "0"], {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n"},
     USAGE, "--dt: must be a number > 0, got 0"),
    ("simulate: --output-dt -1",
     ["simulate", "--system", "joint", "--params", "{data}/joint.json", "--output", "out.csv",
      "--output-dt", "-1"], {}, USAGE, "--output-dt: must be a number >= 0, got -1"),
    ("simulate: did you mean --integrator", SIM + ["--integator", "rk4"],
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n"}, EXTRAS,
     "unknown option --integator for `simulate`; did you mean --integrator?"),
    ("simulate: --rtol nan",
     ["simulate", "--system", "joint", "--params", "{data}/joint.json", "--output", "out.csv",
      "--rtol", "nan"], {}, USAGE, "--rtol: expected a number, got 'nan'"),
    # ---- fit ----
    ("fit: header-only record", FIT_ARGS, {"r.csv": "t,v,F\n"}, 1,
     "r.csv:1: the file has a header line (t, v, F) but no data rows"),
    ("fit: empty record", FIT_ARGS, {"r.csv": ""}, 1, "r.csv: empty file: expected a header line"),
    ("fit: record is a directory", FIT_ARGS, {"r.csv": None}, 1,
     "r.csv: is a directory, expected a record file (.csv or .mat)"),
    ("fit: record without an extension is a directory",
     ["fit", "--input", "rec", "--velocity", "v", "--force", "F", "--out", "o"], {"rec": None},
     1, "rec: is a directory, expected a record file (.csv or .mat)"),
    ("fit: non-increasing time", FIT_ARGS, {"r.csv": "t,v,F\n0,0,0\n0,1,1\n"}, 1,
     "r.csv:3:1: column 't' must be strictly increasing"),
    ("fit: missing force column",
     ["fit", "--input", "r.csv", "--velocity", "v", "--force", "tau", "--out", "o"],
     {"r.csv": REC}, 1, "r.csv:1: no column 'tau' (columns found: t, v, F)"),
    ("fit: column index out of range",
     ["fit", "--input", "r.csv", "--velocity", "1", "--force", "7", "--out", "o"],
     {"r.csv": REC}, 1, "r.csv:1: column index 7 out of range: the file has 3 columns"),
    *bad_options("fit", FIT_ARGS, {"r.csv": REC}, [
        (["--starts", "0"], "--starts: must be an integer >= 1, got 0"),
        (["--starts", "2.5"], "--starts: expected an integer, got '2.5'"),
        (["--spread", "0.5"], "--spread: must be a number >= 1, got 0.5"),
        (["--warmup", "-1"], "--warmup: must be a number >= 0, got -1"),
        (["--lowpass", "abc"], "--lowpass: expected a number, got 'abc'")]),
    ("fit: did you mean --no-plots", FIT_ARGS + ["--no-plot"], {"r.csv": REC}, EXTRAS,
     "unknown option --no-plot for `fit`; did you mean --no-plots?"),
    ("fit: stray positional argument", FIT_ARGS + ["extra"], {"r.csv": REC}, EXTRAS,
     "unexpected argument 'extra': `fit` takes no positional arguments"),
    ("fit: .mat that is not a .mat", FIT_ARGS[:2] + ["r.mat"] + FIT_ARGS[3:],
     {"r.mat": b"MATLAB 5.0 MAT-file, but nothing after the header"}, 1,
     "r.mat: not a MATLAB .mat file"),
    ("fit: .mat without the variable",
     ["fit", "--input", "r.mat", "--time", "t", "--velocity", "v", "--force", "F", "--out", "o"],
     {"r.mat": mat({"t": [0, 1, 2], "v": [0, 1, 2]})}, 1, "r.mat: no variable 'F'"),
    ("fit: .mat matrix of the wrong shape",
     ["fit", "--problem", "sensorless", "--input", "r.mat", "--matrix", "M", "--out", "o"],
     {"r.mat": mat({"M": [[0, 1, 2], [1, 2, 3], [2, 3, 4]]})}, 1, "r.mat: variable 'M'"),
    ("fit: .mat is a directory", FIT_ARGS[:2] + ["r.mat"] + FIT_ARGS[3:], {"r.mat": None}, 1,
     "r.mat: is a directory, expected a MATLAB .mat file"),
    ("fit: unknown model", FIT_ARGS + ["--model", "lugra"], {"r.csv": REC}, 1,
     "unknown model 'lugra'"),
    ("fit: JSON given as the record", FIT_ARGS[:2] + ["f.json"] + FIT_ARGS[3:], {"f.json": FIT},
     1, "f.json: this is a fit.json from `fit`, not a CSV file"),
    ("fit: --resample across a 1000 s gap", FIT_ARGS + ["--resample", "100"],
     {"r.csv": GAP_REC}, 1,
     "r.csv: sample 501: resampling: a gap of 1000 s from t = 4.99 s to t = 1004.99 s is longer "
     "than 10 times the median step 0.01 s: interpolation would invent the data inside it; "
     "split the record at the gap, or allow it explicitly (max gap in seconds: --max-gap"),
    ("fit: --max-gap below the gap", FIT_ARGS + ["--resample", "100", "--max-gap", "10"],
     {"r.csv": GAP_REC}, 1,
     "r.csv: sample 501: resampling: a gap of 1000 s from t = 4.99 s to t = 1004.99 s is longer "
     "than the largest gap allowed, 10 s"),
    ("fit: --max-gap without --resample", FIT_ARGS + ["--max-gap", "10"], {"r.csv": REC}, 107,
     "--max-gap requires --resample"),
    ("fit: --max-gap 0", FIT_ARGS + ["--resample", "100", "--max-gap", "0"], {"r.csv": REC},
     USAGE, "--max-gap: must be a number > 0, got 0"),
    ("fit: .mat with the same variable for velocity and force",
     ["fit", "--input", "r.mat", "--time", "t", "--velocity", "v", "--force", "v", "--out", "o"],
     {"r.mat": mat({"t": [0, 1, 2], "v": [0, 1, 2]})}, 1,
     "r.mat: velocity and force name the same variable 'v': each channel needs its own variable"),
    ("fit: the same column for velocity and force",
     ["fit", "--input", "r.csv", "--velocity", "v", "--force", "1", "--out", "o"],
     {"r.csv": REC}, 1,
     "r.csv:1: velocity and force name the same column 1 'v': each channel needs its own column"),
    # ---- compare ----
    ("compare: header-only record", CMP_ARGS, {"r.csv": "t,v,F\n"}, 1,
     "r.csv:1: the file has a header line (t, v, F) but no data rows"),
    ("compare: --starts -3", CMP_ARGS + ["--starts", "-3"], {"r.csv": REC}, USAGE,
     "--starts: must be an integer >= 1, got -3"),
    ("compare: did you mean --models", CMP_ARGS + ["--model", "lugre"], {"r.csv": REC}, EXTRAS,
     "unknown option --model for `compare`; did you mean --models?"),
    ("compare: NaN in the record", CMP_ARGS, {"r.csv": "t,v,F\n0,0,0\n1,NaN,0\n"}, 1,
     "r.csv:3:2: non-finite value 'NaN' (column 'v')"),
    ("fit: tab-separated record", FIT_ARGS, {"r.csv": "t\tv\tF\n0\t0\t0\n"}, 1,
     "r.csv:1: one column named 't\\x09v\\x09F': the columns seem to be separated by tabs"),
    ("fit: a BAM log as the record", FIT_ARGS[:2] + ["log.csv"] + FIT_ARGS[3:],
     {"log.csv": LOG}, 1, "log.csv: this is a BAM servo log, not a CSV file"),
    ("fit: sensorless without --current", SENSORLESS[:5] + SENSORLESS[7:] + ["--out", "o"],
     {"train.csv": SENSORLESS_REC}, 1,
     "train.csv: no current channel (required here; channels present: time, velocity, force; "
     "give its column with --current COLUMN; Python current=)"),
    ("fit: --lowpass on uneven samples", FIT_ARGS + ["--lowpass", "5"], {"r.csv": UNEVEN_REC}, 1,
     "resample to a uniform rate first (--resample HZ; Python resample_rate=HZ)"),
    ("fit: --hold cubic", FIT_ARGS + ["--hold", "cubic"], {"r.csv": REC}, USAGE,
     "--hold: cubic not in {linear,zoh}"),
    ("fit: --method grid --hold linear", FIT_ARGS + ["--method", "grid", "--hold", "linear"],
     {"r.csv": REC}, 1, "method grid simulates as reference 000 does, by forward Euler with the "
     "input held between samples (zoh): hold linear does not apply to it"),
    # ---- excite ----
    ("excite: a URDF has no acceleration limits", ["excite", "--robot", "arm.urdf"],
     {"arm.urdf": ARM_URDF}, 1,
     "arm.urdf: joint 'j1': no acceleration limit in the robot description (the design needs "
     "position, velocity and acceleration limits for every joint) (--velocity-limit V1,...,Vn "
     "and --acceleration-limit A1,...,An give them)"),
    ("excite: one acceleration limit for two joints",
     ["excite", "--robot", "arm.urdf", "--acceleration-limit", "5"], {"arm.urdf": ARM_URDF}, 1,
     "--acceleration-limit: expected 2 values (one per joint), got 1"),
    ("excite: --check of a record whose torque columns are missing",
     ["excite", "--robot", "arm.urdf", "--check", "arm.csv", "--torque", "u"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 1,
     "arm.csv:1: no column 'u1' (columns found: time, q1, q2, dq1, dq2, tau1, tau2)"),
    # ---- export robot ----
    ("export robot: a fit.json instead of a robot_fit.json",
     ["export", "robot", "--params", "fit.json"], {"fit.json": '{"format": "frictionlab-fit"}'}, 1,
     "fit.json: expected a robot_fit.json of frictionlab fit-robot"),
    ("export robot: --urdf that is not XML",
     ["export", "robot", "--params", "r.json", "--urdf", "arm.urdf"],
     {"r.json": '{"format": "frictionlab-robot-fit", "joints": ["j1"], "parameters": []}',
      "arm.urdf": "robot: x"}, 1, "arm.urdf:"),
    ("export robot: --output is the URDF it reads",
     ["export", "robot", "--params", "r.json", "--urdf", "arm.urdf", "--output", "arm.urdf"],
     {"r.json": '{"format": "frictionlab-robot-fit", "joints": ["j1"], "parameters": []}',
      "arm.urdf": ARM_URDF}, 1, "arm.urdf"),
    # ---- fit-robot ----
    ("fit-robot: --loaded without --payload-mass", FR + ["--loaded", "arm.csv"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 107,
     "--loaded requires --payload-mass"),
    ("fit-robot: --loaded with torques", FR + ["--loaded", "arm.csv", "--payload-mass", "2"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 1,
     "arm.csv: the record has joint torques: drive gains are identified from motor currents"),
    ("fit-robot: a friction model that is not in the registry", FR + ["--friction", "sigmoidal"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 1, "unknown model 'sigmoidal'; known: coulomb"),
    ("fit-robot: a torque column missing", FR + ["--torque", "u"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 1,
     "arm.csv:1: no column 'u1' (columns found: time, q1, q2, dq1, dq2, tau1, tau2)"),
    ("fit-robot: a floating joint", FR, {"arm.urdf": ARM_URDF.replace("'revolute'", "'floating'", 1),
                                         "arm.csv": ARM_REC}, 1,
     "arm.urdf: joint 'j1' is floating: only revolute, continuous, prismatic and fixed joints"),
    ("fit-robot: a description that is not URDF or JSON", FR[:2] + ["arm.yaml"] + FR[3:],
     {"arm.yaml": "robot: x", "arm.csv": ARM_REC}, 1,
     "arm.yaml: unknown robot description type: expected a .urdf (or .xml) or a .json file"),
    ("fit-robot: currents without drive gains", FR + ["--current", "tau"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 1,
     "arm.csv: the record has motor currents: give the drive gains that make them joint torques "
     "(--gains K1,...,Kn in N m/A)"),
    ("fit-robot: one drive gain for two joints", FR + ["--current", "tau", "--gains", "10"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 1, "arm.csv: 1 drive gains for 2 joints"),
    ("fit-robot: layout ur on a two-joint arm", FR + ["--layout", "ur", "--gains", "1,1"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 1,
     "arm.csv: layout ur is the log of a 6-joint UR arm; the robot has 2 joints"),
    ("fit-robot: --out is the record file", FR[:5] + ["--out", "arm.csv"],
     {"arm.urdf": ARM_URDF, "arm.csv": ARM_REC}, 1, "arm.csv: is a file, not a directory"),
    # ---- fit-joint ----
    ("fit-joint: --velocity without --use-velocity", FJ + ["--velocity", "q"], {"j.csv": JOINT_REC},
     USAGE, "--velocity q is read only with --use-velocity (qd = the measured velocity, qdd its "
     "derivative); without it qd and qdd come from --position: add --use-velocity, or drop "
     "--velocity"),
    ("eval-joint: --velocity without --use-velocity", EJ + ["--velocity", "q"],
     {"j.csv": JOINT_REC, "J.json": JOINT}, USAGE, "--velocity q is read only with --use-velocity"),
    ("fit-joint: --resample across a 1000 s gap", FJ + ["--resample", "100"],
     {"j.csv": GAP_JOINT}, 1,
     "j.csv: sample 501: resampling: a gap of 1000 s from t = 4.99 s to t = 1004.99 s"),
    ("fit-joint: header-only record", FJ, {"j.csv": "t,q,u\n"}, 1,
     "j.csv:1: the file has a header line (t, q, u) but no data rows"),
    ("fit-joint: record is a directory", FJ, {"j.csv": None}, 1,
     "j.csv: is a directory, expected a record file (.csv or .mat)"),
    ("fit-joint: missing torque column", FJ[:6] + ["tau"] + FJ[7:], {"j.csv": JOINT_REC}, 1,
     "j.csv:1: no column 'tau' (columns found: t, q, u)"),
    *bad_options("fit-joint", FJ, {"j.csv": JOINT_REC}, [
        (["--decimate", "0"], "--decimate: must be an integer >= 1, got 0"),
        (["--viscous-powers", "9"], "--viscous-powers: must be an integer between 0 and 8, got 9"),
        (["--max-step", "0"], "--max-step: must be a number > 0, got 0")]),
    ("fit-joint: --init with a MODEL.json",
     FJ + ["--method", "oe", "--init", "m.json"], {"j.csv": JOINT_REC, "m.json": LUGRE}, 1,
     "m.json: this is a MODEL.json (a friction model), not a JOINT.json (a joint model) or a "
     "joint_fit.json from `fit-joint`"),
    ("fit-joint: --controller with a fit.json",
     FJ + ["--method", "oe", "--init", "idim", "--closed-loop", "--desired", "d.csv", "--desired-position", "q",
           "--desired-velocity", "qd", "--desired-torque", "u", "--controller", "c.json"],
     {"j.csv": JOINT_REC, "d.csv": "t,q,qd,u\n" + "".join(
         f"{k / 100},{0.01 * k},0.01,{0.1 * (k % 3)}\n" for k in range(60)), "c.json": FIT}, 1,
     "c.json: this is a fit.json from `fit`, not a CONTROLLER.json (PD gains)"),
    ("fit-joint: did you mean --method", FJ + ["--metod", "idim"], {"j.csv": JOINT_REC}, EXTRAS,
     "unknown option --metod for `fit-joint`; did you mean --method?"),
    # ---- eval-joint ----
    *rows_with("eval-joint", EJ, {"J.json": JOINT, "j.csv": JOINT_REC}, "J.json", [
        ("JOINT.json is a directory", None,
         "J.json: is a directory, expected a JOINT.json or joint_fit.json file"),
        ("a fit.json as --joint", FIT, "J.json: this is a fit.json from `fit`, not a JOINT.json"),
        ("joint with negative inertia", '{"joint": {"I": -1, "friction": {"model": "coulomb"}}}',
         "J.json: joint: parameter 'I': must be > 0 kg m^2, got -1"),
        ("joint without friction", '{"joint": {"I": 0.1}}',
         "J.json: joint: parameter 'friction': missing"),
        ("joint with a LuGre (not joint-lugre) friction",
         '{"joint": {"I": 0.1, "friction": ' + LUGRE + "}}", "is not a joint friction model")]),
    # ---- fleet (python3 -m frictionlab.fleet; argparse's usage errors exit with 2) ----
    ("fleet: no subcommand", ["fleet"], {}, 2, "the following arguments are required: command"),
    ("fleet run: neither manifest nor root", ["fleet", "run", "fleet.json"],
     {"fleet.json": FLEET}, 2, "one of the arguments --manifest --root is required"),
    ("fleet run: configuration missing", ["fleet", "run", "none.json", "--root", "r"],
     {"r": None}, 1, "none.json: cannot read the fleet configuration"),
    *rows_with("fleet run", ["fleet", "run", "fleet.json", "--root", "r"],
               {"fleet.json": FLEET, "r": None}, "fleet.json", [
        ("unknown command in the configuration",
         FLEET.replace('"command": "fit"', '"command": "fitt"'),
         "fleet.json:1:80: joint_types.j.command: unknown command \"fitt\""),
        ("NaN in the configuration",
         FLEET.replace('"model": "coulomb"', '"model": "coulomb", "spread": NaN'),
         "fleet.json:1:152: NaN is not JSON"),
        ("a key twice in the configuration",
         FLEET.replace('"version": 1', '"version": 1, "version": 1'),
         "fleet.json:1:58: duplicate key 'version'"),
        ("an option out of its range",
         FLEET.replace('"model": "coulomb"', '"model": "coulomb", "starts": -1'),
         "fleet.json:1:152: joint_types.j.options.starts: must be an integer >= 1, got -1"),
        ("a configuration nested too deep", "[" * 100000,
         "fleet.json:1:65: nesting deeper than 64 levels")]),
    ("fleet run: manifest names a missing file",
     ["fleet", "run", "fleet.json", "--manifest", "m.csv"],
     {"fleet.json": FLEET, "m.csv": "robot,joint,session,files\nr1,j,s1,none.csv\n"}, 1,
     "m.csv:2:4: file 'none.csv' does not exist"),
    ("fleet run: a joint without a type", ["fleet", "run", "fleet.json", "--manifest", "m.csv"],
     {"fleet.json": FLEET, "m.csv": "robot,joint,session,files\nr1,knee,s1,rec.csv\n",
      "rec.csv": REC}, 1, "m.csv:2: joint 'knee' has no joint type in fleet.json"),
    ("fleet status: another application's database", ["fleet", "status", "--db", "app.sqlite"],
     {"app.sqlite": sqlite_tables("a", "b", "c")}, 1,
     "app.sqlite: is not a frictionlab store (it has tables a, b, c); give a new or empty database"),
    ("fleet run: --db is another application's database",
     ["fleet", "run", "fleet.json", "--manifest", "m.csv", "--db", "app.sqlite"],
     {"fleet.json": FLEET, "m.csv": "robot,joint,session,files\nr1,j,s1,rec.csv\n", "rec.csv": REC,
      "app.sqlite": sqlite_tables("a", "b", "c")}, 1,
     "app.sqlite: is not a frictionlab store (it has tables a, b, c); give a new or empty database"),
    ("fleet status: no store", ["fleet", "status", "--db", "none/results.sqlite"], {}, 1,
     "none/results.sqlite"),
    # ---- actuator list / show / check (ACTUATOR.json) ----
    ("actuator: no subcommand", ["actuator"], {}, REQUIRED, "A subcommand is required"),
    ("actuator show: unknown name", ["actuator", "show", "sts9999"], {}, 1,
     "actuator show: unknown actuator 'sts9999' (built in: mx106, mx64, sts3215, sts3215-12v, "
     "xc330m288t, xl320, xl330); to add one, write an ACTUATOR.json"),
    *rows_with("actuator check", CHECK, {"a.json": ACTUATOR, "log.json": LOG}, "a.json", [
        ("unknown drive", ACTUATOR.replace('"drive": "voltage"', '"drive": "pwm"'),
         "a.json:1: key 'drive': unknown drive 'pwm'"),
        ("negative resistance", ACTUATOR.replace('"range": [0.5, 5]', '"range": [-0.5, 5]'),
         "a.json:1: key 'motor.resistance': a physical constant: the range [-0.5, 5] must lie "
         "within the plausible range [1e-06, 1e+06] ohm"),
        ("wrong unit", ACTUATOR.replace('"unit": "ohm"', '"unit": "mohm"'),
         "a.json:1: key 'motor.resistance.unit': unit 'mohm' is not accepted here"),
        ("missing constant",
         ACTUATOR.replace(', "armature": {"range": [0.0001, 0.05], "unit": "kg m^2"}', ''),
         "a.json:1: key 'motor.armature': missing")]),
    ("actuator check: actuator file missing", ["actuator", "check", "none.json", "log.json"],
     {"log.json": LOG}, 1, "actuator check: actuator file 'none.json' does not exist"),
    ("fit-actuator: a log names an unknown actuator", ["fit-actuator", "--logs", "log.json"],
     {"log.json": LOG.replace('"motor": "xl330"', '"motor": "sts9999"')}, 1,
     "log.json: key 'motor': unknown actuator 'sts9999' (built in: mx106, mx64, sts3215, "
     "sts3215-12v, xc330m288t, xl320, xl330); to add one, write an ACTUATOR.json "
     "(docs/actuators.md, \"ACTUATOR.json\") and give its path instead of a name"),
    # ---- fit-actuator / eval-actuator ----
    *rows_with("eval-actuator", EA, {"p.json": SERVO, "log.json": LOG}, "p.json", [
        ("a fit.json as --params", FIT,
         "p.json: this is a fit.json from `fit`, not an actuator parameter file"),
        ("a BAM log as --params", LOG,
         "p.json: this is a BAM servo log, not an actuator parameter file"),
        ("params directory without files", None, "p.json: directory has no .json parameter file"),
        ("negative kt", SERVO.replace('"kt": 0.4', '"kt": -0.4'),
         "p.json: parameter 'kt': -0.4 N m/A is outside the plausible range [1e-06, 1000] N m/A")]),
    *rows_with("eval-actuator", EA, {"p.json": SERVO, "log.json": LOG}, "log.json", [
        ("a parameter file as --logs", SERVO,
         "log.json: this is an actuator parameter file (BAM's keys; fit-actuator writes m1.json "
         ".. m6.json), not a BAM servo log"),
        ("log with one entry", log([ENTRY % "0"]),
         "log.json: key 'entries': needs at least 2 entries, got 1"),
        ("log without mass", log([ENTRY % "0", ENTRY % "0.005"], '"length": 0.1, "kp": 1'),
         "log.json: key 'mass': missing"),
        ("log with a decreasing timestamp", log([ENTRY % "0.01", ENTRY % "0.005"]),
         "log.json: entry 1: key 'timestamp': decreases (0.01 then 0.005)"),
        ("truncated log", LOG[:-20], "log.json:1:")]),
    *bad_options("fit-actuator", FA, {"log.json": LOG}, [
        (["--trials", "0"], "--trials: must be an integer >= 1, got 0"),
        (["--restarts", "-1"], "--restarts: must be an integer >= 0, got -1"),
        # (the ranges of workflows/validate.hpp: 0 threads is the unset value, not a setting)
        (["--threads", "0"], "--threads: must be an integer >= 1, got 0")]),
    ("actuator check: --threads 0", ["actuator", "check", "xl330", "log.json", "--threads", "0"],
     {"log.json": LOG}, USAGE, "--threads: must be an integer >= 1, got 0"),
    ("fit-actuator: a MODEL.json as a log", FA, {"log.json": LUGRE}, 1,
     "log.json: this is a MODEL.json (a friction model), not a BAM servo log"),
    ("fit-actuator: logs directory without logs", FA, {"log.json": None}, 1,
     "log.json: directory has no .json log"),
    # ---- magnitude limits (docs/file-formats.md, "Magnitude limits"): every absurd number is
    # refused when read, with the file, the key and the allowed range ----
    *rows_with("eval-actuator", EA, {"p.json": SERVO, "log.json": LOG}, "p.json", [
        ("kt 1e300 in a parameter file", SERVO.replace('"kt": 0.4', '"kt": 1e300'),
         "p.json: parameter 'kt': |1e+300| is beyond the limit 1e+15 of any number (SI units)"),
        ("kt outside its plausible range", SERVO.replace('"kt": 0.4', '"kt": 4000'),
         "p.json: parameter 'kt': 4000 N m/A is outside the plausible range [1e-06, 1000] N m/A"),
        ("friction_viscous 1e300",
         SERVO.replace('"friction_viscous": 0.004', '"friction_viscous": 1e300'),
         "p.json: parameter 'friction_viscous': |1e+300| is beyond the limit 1e+15")]),
    *rows_with("eval-actuator", EA, {"p.json": SERVO, "log.json": LOG}, "log.json", [
        ("log position 1e300",
         log([ENTRY % "0", ENTRY.replace('"position": 0', '"position": 1e300') % "0.005"]),
         "log.json: entry 1: key 'position': |1e+300| is beyond the limit 1e+15 of any number"),
        ("log goal_position 1e300",
         log([ENTRY.replace('"goal_position": 0.1', '"goal_position": 1e300') % "0",
              ENTRY % "0.005"]),
         "log.json: entry 0: key 'goal_position': |1e+300| is beyond the limit 1e+15"),
        ("log mass 1e300", LOG.replace('"mass": 0.49', '"mass": 1e300'),
         "log.json: key 'mass': |1e+300| is beyond the limit 1e+15 of any number (SI units)"),
        ("log kp 1e300", LOG.replace('"kp": 100', '"kp": 1e300'),
         "log.json: key 'kp': |1e+300| is beyond the limit 1e+15 of any number (SI units)"),
        ("log kp outside its plausible range", LOG.replace('"kp": 100', '"kp": 1e9'),
         "log.json: key 'kp': 1e+09 is outside the plausible range [1e-06, 1e+06]"),
        ("log supply 1e300 V", LOG.replace('"kp": 100', '"kp": 100, "vin": 1e300'),
         "log.json: key 'vin': |1e+300| is beyond the limit 1e+15 of any number (SI units)"),
        ("log supply 5000 V", LOG.replace('"kp": 100', '"kp": 100, "vin": 5000'),
         "log.json: key 'vin': 5000 V is outside the plausible range [0.1, 1000] V"),
        ("log dt 100 s", LOG.replace('"dt": 0.005', '"dt": 100'),
         "log.json: key 'dt': 100 s is outside the plausible range [1e-06, 10] s")]),
    *rows_with("actuator check", CHECK, {"a.json": ACTUATOR, "log.json": LOG}, "a.json", [
        ("control period 1e300 s",
         ACTUATOR.replace('"law": "p"', '"law": "p", "period": {"value": 1e300, "unit": "s"}'),
         "a.json:1: key 'control.period.value': |1e+300| is beyond the limit 1e+15 of any "
         "number"),
        ("control period 100 s",
         ACTUATOR.replace('"law": "p"', '"law": "p", "period": {"value": 100, "unit": "s"}'),
         "a.json:1: key 'control.period': 100 s is outside the plausible range [1e-06, 10] s"),
        ("supply 1e300 V", ACTUATOR.replace('"value": 7.4', '"value": 1e300'),
         "a.json:1: key 'supply_voltage.value': |1e+300| is beyond the limit 1e+15 of any "
         "number"),
        ("supply 5000 V", ACTUATOR.replace('"value": 7.4', '"value": 5000'),
         "a.json:1: key 'supply_voltage': 5000 V is outside the plausible range [0.1, 1000] V"),
        ("resistance range [1e-300, 1e300]",
         ACTUATOR.replace('"range": [0.5, 5]', '"range": [1e-300, 1e300]'),
         "a.json:1: key 'motor.resistance.range': |1e+300| is beyond the limit 1e+15"),
        ("resistance range from 1e-300",
         ACTUATOR.replace('"range": [0.5, 5]', '"range": [1e-300, 5]'),
         "a.json:1: key 'motor.resistance': a physical constant: the range [1e-300, 5] must lie "
         "within the plausible range [1e-06, 1e+06] ohm")]),
    ("fit-actuator: --range kt=1:1e300", FA + ["--range", "kt=1:1e300"], {"log.json": LOG}, 1,
     "--range kt: |1e+300| is beyond the limit 1e+15 of any number (SI units)"),
    ("fit-actuator: --range kt=1:5000", FA + ["--range", "kt=1:5000"], {"log.json": LOG}, 1,
     "--range kt=1:5000: 5000 N m/A is outside the plausible range [1e-06, 1000] N m/A"),
    ("fit-actuator: --tolerance 1e300", FA + ["--tolerance", "1e300"], {"log.json": LOG}, USAGE,
     "--tolerance: |1e+300| is beyond the limit 1e+15 of any number (SI units)"),
    ("fit-actuator: generic --vin 1e6", FA + ["--actuator", "generic", "--error-gain", "0.003",
                                             "--vin", "1e6"], {"log.json": LOG}, 1,
     "--vin: 1e+06 V is outside the plausible range [0.1, 1000] V"),
    ("simulate: sigma0 5e-324 (a denormal)", SIM,
     {"m.json": LUGRE.replace('"sigma0": 1e5', '"sigma0": 5e-324'), "in.csv": REC}, 1,
     "m.json: parameter 'sigma0': must be >= 1e-15 (a positive parameter, not a vanishing one), "
     "got 5e-324"),
    # ---- export ----
    ("export json: a SYSTEM.json", ["export", "json", "--params", "{data}/stick_slip.json",
                                    "--output", "e.json"], {}, 1,
     "stick_slip.json: this is a SYSTEM.json (a coupled system for simulate --system), not a "
     "fit.json from `fit`, a joint_fit.json from `fit-joint`, an ESTIMATOR.json from `export "
     "json`, a MODEL.json (a friction model) or a robot_fit.json from `fit-robot`"),
    ("export json: --km 0", ["export", "json", "--params", "e.json", "--km", "0"],
     {"e.json": ESTIMATOR}, USAGE, "--km: must be a number > 0, got 0"),
    ("export json: params is a directory",
     ["export", "json", "--params", "e.json", "--output", "x.json"], {"e.json": None}, 1,
     "e.json: is a directory, expected a fit.json, joint_fit.json, robot_fit.json, ESTIMATOR.json "
     "or MODEL.json file"),
    ("export json: did you mean --params", ["export", "json", "--param", "e.json"],
     {"e.json": ESTIMATOR}, EXTRAS,
     "unknown option --param for `export json`; did you mean --params?"),
    ("export c: a joint_fit.json of a static friction",
     ["export", "c", "--params", "jf.json", "--km", "1", "--out", "c"], {"jf.json": JOINT_FIT}, 1,
     "jf.json: the estimator needs a lugre model, got 'coulomb' (joint_fit.json, method idim; "
     "fit-joint --method sr3 or oe --init sr3 fits a LuGre friction)"),
    ("export c: a static model", ["export", "c", "--params", "{data}/stribeck.json",
                                  "--km", "1", "--out", "c"], {}, 1,
     "the estimator needs a lugre model, got 'stribeck'"),
    ("export c: a robot_fit.json without --joint",
     ["export", "c", "--params", "r.json", "--km", "1", "--out", "c"], {"r.json": ROBOT_FIT}, 1,
     "r.json: joints: a robot_fit.json holds the friction of 2 joints: choose one with --joint "
     "(Python joint=): q1, q2"),
    ("export json: --joint that the robot_fit.json does not have",
     ["export", "json", "--params", "r.json", "--joint", "q9"], {"r.json": ROBOT_FIT}, 1,
     "r.json: joints: no joint 'q9' (joints: q1, q2)"),
    ("export json: --joint with a fit.json",
     ["export", "json", "--params", "f.json", "--joint", "q1"], {"f.json": FIT}, 1,
     "f.json: --joint (Python joint=) selects a joint of a robot_fit.json; this file has the "
     "friction of one joint"),
    ("export mujoco: a robot's Fc grouped with other parameters",
     ["export", "mujoco", "--params", "r.json", "--joint", "q1"], {"r.json": ROBOT_FIT}, 1,
     "r.json: parameters: Fc_q1: is the combination Fc_q1 + 0.5 Fc_q2 on this record, not the "
     "joint's friction alone"),
    ("export mujoco: a robot joint without friction terms",
     ["export", "mujoco", "--params", "r.json", "--joint", "q2"], {"r.json": ROBOT_FIT}, 1,
     "r.json: joint q2: the fit has no friction terms (Fc_q2, Fv_q2)"),
    ("export mujoco: an actuator parameter file without --kp",
     ["export", "mujoco", "--params", "p.json", "--output", "m.xml"], {"p.json": SERVO}, 1,
     "--kp is required for an actuator"),
    ("export mujoco: --kp 0", ["export", "mujoco", "--params", "p.json", "--kp", "0"],
     {"p.json": SERVO}, USAGE, "--kp: must be a number > 0, got 0"),
    ("export bam: a fit.json", ["export", "bam", "--params", "p.json", "--output", "b.json"],
     {"p.json": FIT}, 1,
     "p.json: this is a fit.json from `fit`, not an actuator parameter file"),
    ("export bam: a directory without summary.json",
     ["export", "bam", "--params", "d", "--output", "b.json"], {"d": None}, 1,
     "d: no summary.json in this directory"),
    ("export xml: a MODEL.json",
     ["export", "xml", "--params", "{data}/lugre.json", "--output", "l.xml"], {}, 1,
     "lugre.json: this is a MODEL.json (a friction model), not a fit.json from `fit`"),
    ("export xml: an ESTIMATOR.json", ["export", "xml", "--params", "e.json"],
     {"e.json": ESTIMATOR}, 1,
     "e.json: this is an ESTIMATOR.json from `export json`, not a fit.json from `fit`"),
    ("export: did you mean json", ["export", "jsn", "--params", "e.json"],
     {"e.json": ESTIMATOR}, EXTRAS, "unknown command 'jsn' for `export`; did you mean json?"),
    # ---- nothing lost: an output that is an input (the input unchanged byte for byte) ----
    ("simulate: --output is the --input", SAME + ["--output", "same.csv"],
     {"m.json": LUGRE, "same.csv": REC}, 1,
     "same.csv: the output (--output) is the input same.csv (--input)" + OI),
    ("simulate: --output is a symbolic link to the --input", SAME + ["--output", "link.csv"],
     {"m.json": LUGRE, "same.csv": REC, "link.csv": symlink("same.csv")}, 1,
     "link.csv: the output (--output) is the input same.csv (--input)" + OI),
    ("simulate: --plot is the --input", SAME + ["--output", "o.csv", "--plot", "./same.csv"],
     {"m.json": LUGRE, "same.csv": REC}, 1,
     "./same.csv: the output (--plot) is the input same.csv (--input)" + OI),
    ("simulate: --output is the --model", SAME + ["--output", "m.json"],
     {"m.json": LUGRE, "same.csv": REC}, 1,
     "m.json: the output (--output) is the input m.json (--model)" + OI),
    *((f"export {fmt}: --output is the --params", ["export", fmt, "--params", f, "--output", f],
       {f: copy(example)}, 1, f"{f}: the output (--output) is the input {f} (--params)" + OI)
      for fmt, f, example in (("json", "f.json", "joint_estimator.json"),
                              ("mujoco", "f.json", "joint_estimator.json"),
                              ("xml", "fit.json", "sensorless_fit.json"))),
    ("fit-joint: --init is the joint_fit.json it would write",
     FJ[:-2] + ["--method", "oe", "--init", "jo/joint_fit.json", "--out", "jo"],
     {"j.csv": JOINT_REC, "jo": None, "jo/joint_fit.json": JOINT_FIT}, 1,
     "jo/joint_fit.json: the output (--out) is the input jo/joint_fit.json (--init)" + OI),
    ("eval-joint: --joint is the joint_eval.json it would write",
     ["eval-joint", "--joint", "jo/joint_eval.json", "--input", "j.csv", "--position", "q",
      "--torque", "u", "--out", "jo"],
     {"j.csv": JOINT_REC, "jo": None, "jo/joint_eval.json": JOINT}, 1,
     "jo/joint_eval.json: the output (--out) is the input jo/joint_eval.json (--joint)" + OI),
    ("eval-actuator: --json is the --params file",
     ["eval-actuator", "--params", "m1.json", "--logs", "log.json", "--json", "m1.json"],
     {"m1.json": SERVO, "log.json": LOG}, 1,
     "m1.json: the output (--json) is the input m1.json (--params)" + OI),
    # ---- nothing lost: output locations, found before any work ----
    ("fit: --out is a regular file", SENSORLESS + ["--out", "afile"],
     {"train.csv": SENSORLESS_REC, "afile": "a regular file\n"}, 1,
     "afile: is a file, not a directory"),
    ("fit: --out below a regular file", SENSORLESS + ["--out", "afile/sub"],
     {"train.csv": SENSORLESS_REC, "afile": "a regular file\n"}, 1,
     "afile/sub: cannot create it: {dir}/afile is not a directory"),
    ("compare: --out is a regular file", ["compare"] + SENSORLESS[1:] + ["--out", "afile"],
     {"train.csv": SENSORLESS_REC, "afile": "a regular file\n"}, 1,
     "afile: is a file, not a directory"),
    ("fit-joint: --out is a regular file", FJ[:-1] + ["afile"],
     {"j.csv": JOINT_REC, "afile": "a regular file\n"}, 1, "afile: is a file, not a directory"),
    ("eval-joint: --out is a regular file", EJ[:-1] + ["afile"],
     {"J.json": JOINT, "j.csv": JOINT_REC, "afile": "a regular file\n"}, 1,
     "afile: is a file, not a directory"),
    ("fit-actuator: --out is a regular file", ["fit-actuator", "--logs", "adir", "--out", "afile"],
     {"adir": None, "afile": "a regular file\n"}, 1, "afile: is a file, not a directory"),
    ("export c: --out is a regular file",
     ["export", "c", "--params", "f.json", "--out", "afile"],
     {"f.json": copy("joint_estimator.json"), "afile": "a regular file\n"}, 1,
     "afile: is a file, not a directory"),
    ("demo: --out is a regular file", ["demo", "--out", "afile"],
     {"afile": "a regular file\n"}, 1, "afile: is a file, not a directory"),
    ("simulate: --output is a directory", SAME + ["--output", "adir"],
     {"m.json": LUGRE, "same.csv": REC, "adir": None}, 1, "adir: is a directory, not a file"),
    ("simulate: --output in a missing directory", SAME + ["--output", "nodir/o.csv"],
     {"m.json": LUGRE, "same.csv": REC}, 1, "nodir/o.csv: the directory nodir does not exist"),
    ("simulate: --output below a regular file", SAME + ["--output", "afile/o.csv"],
     {"m.json": LUGRE, "same.csv": REC, "afile": "a regular file\n"}, 1,
     "afile/o.csv: afile is not a directory"),
    ("export json: --output is a directory",
     ["export", "json", "--params", "f.json", "--output", "adir"],
     {"f.json": copy("joint_estimator.json"), "adir": None}, 1,
     "adir: is a directory, not a file"),
    ("eval-actuator: --json is a directory",
     ["eval-actuator", "--params", "m1.json", "--logs", "log.json", "--json", "adir"],
     {"m1.json": SERVO, "log.json": LOG, "adir": None}, 1, "adir: is a directory, not a file"),
    ("simulate: --output - and --plot - both to the standard output",
     SAME + ["--output", "-", "--plot", "-"], {"m.json": LUGRE, "same.csv": REC}, 1,
     "standard output: two outputs go to it (--output - and --plot -); write one of them to a "
     "file"),
    # ---- nothing lost: validation records, found before the fit ----
    ("fit: --validate without the force column",
     SENSORLESS + ["--validate", "val_nocol.csv", "--out", "fo"],
     {"train.csv": SENSORLESS_REC, "val_nocol.csv": "t,current,velocity\n0,1,1\n1,1,1\n"}, 1,
     "val_nocol.csv:1: no column 'torque' (columns found: t, current, velocity)"),
    ("fit: --validate too short", SENSORLESS + ["--validate", "val_short.csv", "--out", "fo"],
     {"train.csv": SENSORLESS_REC,
      "val_short.csv": "t,current,velocity,torque\n0,1,1,1\n1,1,1,1\n"}, 1,
     "val_short.csv: the record has 2 samples; at least 20 are required"),
    ("fit: --validate missing", SENSORLESS + ["--validate", "nothere.csv", "--out", "fo"],
     {"train.csv": SENSORLESS_REC}, 1, "nothere.csv: cannot open: No such file or directory"),
    ("compare: --validate without the force column",
     ["compare"] + SENSORLESS[1:] + ["--validate", "val_nocol.csv", "--out", "co"],
     {"train.csv": SENSORLESS_REC, "val_nocol.csv": "t,current,velocity\n0,1,1\n1,1,1\n"}, 1,
     "val_nocol.csv:1: no column 'torque' (columns found: t, current, velocity)"),
    ("fit-joint: --validate without the torque column", FJ + ["--validate", "jv.csv"],
     {"j.csv": JOINT_REC, "jv.csv": "t,q\n0,0\n1,1\n"}, 1,
     "jv.csv:1: no column 'u' (columns found: t, q)"),
    # ---- sane bounds: magnitudes and the substep count, found before the simulation ----
    ("simulate: velocity 1e300", SAME[:4] + ["big_v.csv", "--output", "out.csv"],
     {"m.json": LUGRE, "big_v.csv": "t,v\n0,0\n0.01,1e300\n", "out.csv": "previous output\n"},
     1, "big_v.csv line 3: v = 1e+300 is beyond the limit |v| <= 1e+15"),
    ("simulate: sigma0 = sigma1 = 1e308", SAME + ["--output", "out.csv"],
     {"m.json": HUGE_LUGRE, "same.csv": REC, "out.csv": "previous output\n"}, 1,
     "m.json: parameter 'sigma0': |1e+308| is beyond the limit 1e+15 of any parameter"),
    ("simulate: --dt 1e-9 over a 1e6 s gap", SAME[:4] + ["gap.csv", "--output", "out.csv",
                                                          "--dt", "1e-9"],
     {"m.json": LUGRE, "gap.csv": "t,v\n0,0\n1,1\n1000000,1\n",
      "out.csv": "previous output\n"}, 1,
     "into 1e+15 substeps, more than the limit 1e+08; use a larger max_substep (at least "
     "0.01 s) (on the command line: --dt sets max_substep)"),
    ("fit: record value 1e300", SENSORLESS[:4] + ["big_rec.csv"] + SENSORLESS[5:] +
     ["--out", "fo"],
     {"big_rec.csv": "t,current,velocity,torque\n" + "".join(
         f"{k * 0.01},1,{1e300 if k == 5 else 1},1\n" for k in range(30))}, 1,
     "big_rec.csv: sample 6: value 1e+300 in channel 'velocity' is beyond the limit"),
    ("simulate: forward Euler makes the force diverge",
     ["simulate", "--model", "{data}/lugre.json", "--input", "{data}/sine_velocity.csv",
      "--integrator", "euler", "--output", "out.csv"], {"out.csv": "previous output\n"}, 1,
     "the friction force reaches"),
    # ---- report and fit --report ----
    ("report: a compare.json without rows", ["report", "c.json", "--output", "r.html"],
     {"c.json": json.dumps({"format": "frictionlab-compare", "version": 1})}, 1,
     "c.json: key 'rows' is missing"),
    ("report: a joint_fit.json without report data", ["report", "j.json", "--output", "r.html"],
     {"j.json": JOINT_FIT}, 1, "j.json: has no report data (key 'report')"),
    ("fit-actuator: --report in a missing directory (before the fit)",
     FA + ["--report", "nodir/r.html"], {"log.json": LOG}, 1, "nodir/r.html: the directory"),
    ("eval-joint: --report is the input", EJ + ["--report", "j.csv"],
     {"J.json": JOINT, "j.csv": JOINT_REC}, 1, "the output (--report) is the input"),
    ("fit-joint: --report in a missing directory (before the fit)",
     FJ + ["--report", "nodir/r.html"], {"j.csv": JOINT_REC}, 1, "nodir/r.html: the directory"),
    ("compare: --report is the input", CMP_ARGS + ["--report", "r.csv"], {"r.csv": REC}, 1,
     "the output (--report) is the input"),
    ("report: a fit.json without report data", ["report", "f.json", "--output", "r.html"],
     {"f.json": FIT}, 1, "f.json: has no report data (key 'report')"),
    ("report: a MODEL.json", ["report", "m.json", "--output", "r.html"], {"m.json": LUGRE}, 1,
     "m.json: not a result `frictionlab report` draws: this is a MODEL.json (a friction model)"),
    ("report: an eval-actuator file of the old format", ["report", "e.json", "--output", "r.html"],
     {"e.json": json.dumps({"m1": {"file": "m1.json", "per_log": {"a.json": 0.1}, "mean": 0.1}})}, 1,
     "e.json: an eval-actuator --json file of the old format (label-keyed, no report data): "
     "run eval-actuator again"),
    ("report: an eval-actuator file without report data", ["report", "e.json", "--output", "r.html"],
     {"e.json": json.dumps({"format": "frictionlab-actuator-eval", "version": 1, "logs": [],
                            "params": []})}, 1, "e.json: has no report data (key 'report')"),
    ("eval-actuator: --report is the --params file", EA + ["--report", "p.json"],
     {"p.json": SERVO, "log.json": LOG}, 1, "p.json: the output (--report) is the input p.json (--params)"),
    ("eval-actuator: --report is the --json file", EA + ["--report", "mae.json"],
     {"p.json": SERVO, "log.json": LOG}, 1, "the output (--report) is the input mae.json (--json)"),
    ("eval-actuator: --report /dev/stdout with --json -", EA[:-1] + ["-", "--report", "/dev/stdout"],
     {"p.json": SERVO, "log.json": LOG}, 1,
     "/dev/stdout: the output (--report) is the same stream as the output - (--json)"),
    ("eval-actuator: --report in a missing directory (before the work)", EA + ["--report", "nodir/r.html"],
     {"p.json": SERVO, "log.json": LOG}, 1, "nodir/r.html: the directory"),
    ("eval-actuator: a parameter file given twice", EA[:3] + ["p.json"] + EA[3:],
     {"p.json": SERVO, "log.json": LOG}, 1, "p.json: parameter file given twice (also as p.json)"),
    ("report: malformed JSON", ["report", "f.json", "--output", "r.html"], {"f.json": "{\"format\": "},
     1, "f.json:1:"),
    ("report: output is the input", ["report", "f.json", "--output", "f.json"], {"f.json": FIT}, 1,
     "the output (--output) is the input"),
    ("report: output in a missing directory", ["report", "f.json", "--output", "nodir/r.html"],
     {"f.json": FIT}, 1, "nodir/r.html: the directory"),
    ("report: no result", ["report", "--output", "r.html"], {}, REQUIRED, "results is required"),
    ("fit: --report in a missing directory (before the fit)",
     FIT_ARGS + ["--report", "nodir/r.html"], {"r.csv": REC}, 1, "nodir/r.html: the directory"),
    # ---- outputs that are streams, links, read-only files (docs/file-formats.md, "Output files")
    ("simulate: --output a descriptor that is not open", SIM[:-1] + ["/dev/fd/9"],
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n"}, 1,
     "/dev/fd/9: cannot write: No such file or directory"),
    ("simulate: --output /dev/full", SIM[:-1] + ["/dev/full"],
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n"}, 1,
     "/dev/full: cannot write: No space left on device"),
    ("fit: --report a descriptor that is not open", FIT_ARGS + ["--report", "/dev/fd/9"],
     {"r.csv": REC}, 1, "/dev/fd/9: cannot write: No such file or directory"),
    ("simulate: --plot is a link to --output", SIM + ["--plot", "y.svg"],
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n", "y.svg": symlink("out.csv")}, 1,
     "y.svg: the output (--plot) is also the output out.csv (--output)"),
    ("simulate: --output read-only", SIM,
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n", "out.csv": read_only("keep\n")}, 1,
     "out.csv: is read-only (no write permission); remove it or choose another path"),
    ("simulate: --plot /dev/stdout with --output -", SIM[:-1] + ["-", "--plot", "/dev/stdout"],
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n"}, 1,
     "/dev/stdout: the output (--plot) is the same stream as the output - (--output); the two "
     "would interleave on it: write one of them to a file"),
    ("simulate: --plot - with --output /dev/fd/1", SIM[:-1] + ["/dev/fd/1", "--plot", "-"],
     {"m.json": LUGRE, "in.csv": "t,v\n0,0\n1,1\n"}, 1,
     "-: the output (--plot) is the same stream as the output /dev/fd/1 (--output)"),
    # ---- every file of a results directory is checked before the work ----
    ("compare: a model's model.json is a directory (before the fits)",
     CMP_ARGS + ["--models", "coulomb-viscous,stribeck"],
     {"r.csv": REC, "o": None, "o/stribeck": None, "o/stribeck/model.json": None}, 1,
     "o/stribeck/model.json: is a directory, not a file"),
    ("compare: a model's model.json is read-only (before the fits)",
     CMP_ARGS + ["--models", "coulomb-viscous,stribeck"],
     {"r.csv": REC, "o": None, "o/stribeck": None, "o/stribeck/model.json": read_only("keep\n")},
     1, "o/stribeck/model.json: is read-only (no write permission)"),
    ("compare: a model's directory is a file (before the fits)",
     CMP_ARGS + ["--models", "coulomb-viscous,stribeck"],
     {"r.csv": REC, "o": None, "o/coulomb-viscous": "a file\n"}, 1,
     "o/coulomb-viscous/model.json: o/coulomb-viscous: is a file, not a directory"),
    ("compare: a model's model.json is the input",
     ["compare", "--input", "o/stribeck/model.json", "--velocity", "v", "--force", "F", "--out",
      "o", "--models", "coulomb-viscous,stribeck"],
     {"o": None, "o/stribeck": None, "o/stribeck/model.json": REC}, 1,
     "o/stribeck/model.json: the output (--out) is the input o/stribeck/model.json (--input)"),
    ("export c: NAME.h is read-only (before the export)",
     ["export", "c", "--params", "f.json", "--name", "est", "--out", "c"],
     {"f.json": copy("joint_estimator.json"), "c": None, "c/est.h": read_only("keep\n")}, 1,
     "c/est.h: is read-only (no write permission)"),
    ("export c: NAME.c is a directory (before the export)",
     ["export", "c", "--params", "f.json", "--name", "est", "--out", "c"],
     {"f.json": copy("joint_estimator.json"), "c": None, "c/est.c": None}, 1,
     "c/est.c: is a directory, not a file"),
    ("export c: NAME.c is --params",
     ["export", "c", "--params", "c/est.c", "--name", "est", "--out", "c"],
     {"c": None, "c/est.c": copy("joint_estimator.json")}, 1,
     "c/est.c: the output (--out) is the input c/est.c (--params)"),
    ("demo: a file of --out is read-only (before the demo)", ["demo", "--out", "d"],
     {"d": None, "d/fit.json": read_only("keep\n")}, 1,
     "d/fit.json: is read-only (no write permission)"),
    ("demo: a file of --out is a directory (before the demo)", ["demo", "--out", "d"],
     {"d": None, "d/stick_slip_cvode.csv": None}, 1,
     "d/stick_slip_cvode.csv: is a directory, not a file"),
    # ---- every input is protected, also the files named inside input files ----
    ("simulate: --output is the joint's torque_csv",
     ["simulate", "--system", "joint", "--params", "s.json", "--output", "joint_torque.csv"],
     {"s.json": copy("joint_torque_record.json"), "joint_torque.csv": copy("joint_torque.csv")},
     1, "joint_torque.csv: the output (--output) is the input joint_torque.csv"),
    ("simulate: --output links to the joint's torque_csv",
     ["simulate", "--system", "joint", "--params", "s.json", "--output", "l.csv"],
     {"s.json": copy("joint_torque_record.json"), "joint_torque.csv": copy("joint_torque.csv"),
      "l.csv": symlink("joint_torque.csv")},
     1, "l.csv: the output (--output) is the input joint_torque.csv"),
    ("fit-actuator: --out is the --logs directory holding summary.json",
     ["fit-actuator", "--logs", "d", "--out", "d", "--validate", "none"],
     {"d": None, "d/log.json": LOG, "d/summary.json": LOG}, 1,
     "d/summary.json: the output (--out) is the input d/summary.json"),
    ("fit: --report is the results' fit.json", FIT_ARGS + ["--report", "o/fit.json"],
     {"r.csv": REC, "o": None}, 1,
     "o/fit.json: the output (--report) is also the output o/fit.json (--out)"),
    ("compare: --report is the results' compare.json", CMP_ARGS + ["--report", "o/compare.json"],
     {"r.csv": REC, "o": None}, 1,
     "o/compare.json: the output (--report) is also the output o/compare.json (--out)"),
    ("fit-joint: --report is the results' joint_fit.json", FJ + ["--report", "o/joint_fit.json"],
     {"j.csv": "t,q,u\n0,0,0\n1,1,1\n", "o": None}, 1,
     "o/joint_fit.json: the output (--report) is also the output o/joint_fit.json (--out)"),
    ("fit: --report is the input", FIT_ARGS + ["--report", "r.csv"], {"r.csv": REC}, 1,
     "the output (--report) is the input"),
    # ---- demo and the top level ----
    ("demo: did you mean --out", ["demo", "--ot", "d"], {}, EXTRAS,
     "unknown option --ot for `demo`; did you mean --out?"),
    ("demo: stray positional argument", ["demo", "now"], {}, EXTRAS,
     "unexpected argument 'now': `demo` takes no positional arguments"),
    ("did you mean simulate", ["simulat", "--model", "m.json"], {"m.json": LUGRE}, EXTRAS,
     "unknown command 'simulat'; did you mean simulate?"),
    ("unknown command, nothing close", ["frobnicate"], {}, EXTRAS,
     "unknown command 'frobnicate' (known: simulate, fit, compare, export, demo"),
    # ---- inputs that are not regular text files, or too wide, deep or binary ----
    ("simulate: /dev/zero as --input",
     ["simulate", "--model", "m.json", "--input", "/dev/zero", "--output", "out.csv"],
     {"m.json": LUGRE}, 1, "/dev/zero: is a character device, not a regular file: expected a CSV "
     "file (frictionlab reads its inputs from regular files, not from devices, pipes or sockets)"),
    ("fit: /dev/zero as --input", FIT_ARGS[:2] + ["/dev/zero"] + FIT_ARGS[3:], {}, 1,
     "/dev/zero: is a character device, not a regular file: expected a record file (.csv or .mat)"),
    ("fit: /dev/urandom as --input", FIT_ARGS[:2] + ["/dev/urandom"] + FIT_ARGS[3:], {}, 1,
     "/dev/urandom: is a character device, not a regular file"),
    ("fit: a FIFO as --input (not opened: no hang)", FIT_ARGS, {"r.csv": fifo()}, 1,
     "r.csv: is a FIFO (named pipe), not a regular file: expected a record file (.csv or .mat)"),
    ("fit: a symbolic link to /dev/zero as --input", FIT_ARGS, {"r.csv": symlink("/dev/zero")}, 1,
     "r.csv: is a character device, not a regular file"),
    ("simulate: SYSTEM.json naming /dev/zero as torque_csv",
     ["simulate", "--system", "joint", "--params", "s.json", "--output", "out.csv"],
     {"s.json": '{"system": "joint", "torque_csv": "/dev/zero", "friction": {"model": "lugre"}}'},
     1, "/dev/zero: is a character device, not a regular file: expected a CSV file"),
    ("simulate: a header of 1,000,003 columns", SIM, {"m.json": LUGRE, "in.csv": WIDE}, 1,
     "in.csv:1: needs a column 'v' (velocity) or 'x' (displacement); columns found: c0, c1, c2, "
     "c3, c4, c5, c6, c7, ... and 999995 more\n"),
    ("fit: a header of 1,000,003 columns", FIT_ARGS, {"r.csv": WIDE}, 1,
     "r.csv:1: the file has a header line (c0, c1, c2, c3, c4, c5, c6, c7, ... and 999995 more) "
     "but no data rows\n"),
    ("simulate: NUL in a field", SIM, {"m.json": LUGRE, "in.csv": NUL_LATE}, 1,
     f"in.csv:{NUL_LATE.count(chr(10))}:2: not a number: '1\\x00' (column 'v')\n"),
    ("fit: NUL bytes near the start: a binary file", FIT_ARGS, {"r.csv": b"t,v,F\n0,\x00\x00,1\n"},
     1, "r.csv: looks like a binary file (a NUL byte at byte 9), not CSV text"),
    ("fit: a .mat file named .csv", FIT_ARGS, {"r.csv": mat({"t": [0, 1, 2], "v": [0, 1, 2]})}, 1,
     "r.csv: looks like a binary file (MATLAB .mat?), not CSV text; a MATLAB record is read as "
     "one when its name ends in .mat"),
    ("fit: --starts 1000000000000", FIT_ARGS + ["--starts", "1000000000000"], {"r.csv": REC},
     USAGE, "--starts: must be an integer between 1 and 2147483647, got 1000000000000"),
    ("fit-actuator: --seed -1", FA + ["--seed", "-1"], {"log.json": LOG}, USAGE,
     "--seed: must be an integer between 0 and 18446744073709551615 (2^64 - 1), got -1"),
    ("fit-actuator: --seed 2^64", FA + ["--seed", "18446744073709551616"], {"log.json": LOG},
     USAGE, "--seed: must be an integer between 0 and 18446744073709551615 (2^64 - 1), got "
     "18446744073709551616"),
    ("fit: an escape sequence in an option value is printed escaped",
     FIT_ARGS + ["--method", "ls\x1b[31mq"], {"r.csv": REC}, USAGE, "ls\\x1B[31mq"),
    ("fit: an escape sequence in an unknown option is printed escaped",
     FIT_ARGS + ["--no\x1b[2J"], {"r.csv": REC}, EXTRAS, "unknown option --no\\x1B[2J for `fit`"),
    ("actuator check: the actuator file is a directory", ["actuator", "check", "a.json", "log.json"],
     {"a.json": None, "log.json": LOG}, 1, "a.json: is a directory, expected an ACTUATOR.json file"),
    ("simulate: MODEL.json nested 100,000 deep", SIM,
     {"m.json": "[" * 100000 + "]" * 100000, "in.csv": "t,v\n0,0\n1,1\n"}, 1,
     "m.json:1:257: JSON nested deeper than 256 levels of arrays and objects"),
    ("simulate: SYSTEM.json nested 100,000 deep",
     ["simulate", "--system", "joint", "--params", "s.json", "--output", "out.csv"],
     {"s.json": DEEP_SYSTEM}, 1,
     f"s.json:1:{len(DEEP_PREFIX) + 256}: JSON nested deeper than 256 levels"),
    ("actuator check: ACTUATOR.json nested 100,000 deep", ["actuator", "check", "a.json", "log.json"],
     {"a.json": '{"a":' * 100000 + "1" + "}" * 100000, "log.json": LOG}, 1,
     "a.json:1:1281: JSON nested deeper than 256 levels"),
]


def listing(root):
    """Every path under `root` (relative): directories, files with their size and SHA-256, and
    symbolic links with their target (not followed)."""
    out = set()
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out.add((rel, "->", os.readlink(p)))
            elif stat.S_ISFIFO(os.stat(p).st_mode):
                out.add((rel, "fifo"))  # (opening it to hash it would block)
            elif os.path.isdir(p):
                out.add(rel + "/")
            else:
                with open(p, "rb") as f:
                    content = f.read()
                out.add((rel, len(content), hashlib.sha256(content).hexdigest()))
    return out


def subcommands(binary, argv):
    """The names listed under "Subcommands:" by `frictionlab ARGV --help`."""
    text = subprocess.run([binary, *argv, "--help"], capture_output=True, text=True).stdout
    names, inside = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and line.startswith("  ") and not line.startswith("   ") and line.split():
            names.append(line.split()[0])
        elif inside and line.strip() == "":
            break
    if not names:
        raise RuntimeError(f"no subcommands in `{' '.join(argv)} --help`:\n{text}")
    return names


def main():
    cli = Cli(timeout=120)
    data = cli.data
    names = [r[0] for r in ROWS]
    cli.check(f"at least 60 rows ({len(ROWS)})", len(ROWS) >= 60)
    cli.check("row names are unique", len(set(names)) == len(names))
    # every command and export format of `--help` has rows (a new command must add its own)
    covered = {r[1][0] for r in ROWS} | {" ".join(r[1][:2]) for r in ROWS if r[1][0] == "export"}
    for cmd in subcommands(cli.binary, []) + ["export " + f
                                              for f in subcommands(cli.binary, ["export"])]:
        cli.check(f"rows for `{cmd}`", cmd in covered)
    # a build without the Python package (FRICTIONLAB_PYTHON=OFF, the sanitizer build) has no
    # `fleet` engine: its rows are not run there (the Release build runs them)
    no_python = os.environ.get("FRICTIONLAB_NO_PYTHON_PACKAGE") == "1"
    for k, (name, argv, files, status, fragment) in enumerate(ROWS):
        if no_python and argv[0] == "fleet":
            print(f"not run (no Python package in this build): {name}")
            continue
        d = os.path.join(cli.work, f"row{k:03d}")
        fresh_dir(d)
        for rel, content in files.items():
            path = os.path.join(d, rel)
            if content is None:
                os.makedirs(path)
            elif callable(content):
                content(path, data)
            elif isinstance(content, bytes):
                with open(path, "wb") as f:
                    f.write(content)
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(content.replace("{data}", data))
        argv = [a.replace("{data}", data) for a in argv]
        fragment = fragment.replace("{dir}", d)
        before = listing(d)
        p = subprocess.run([cli.binary, *argv], cwd=d, capture_output=True, text=True,
                           timeout=cli.timeout)
        after = listing(d)
        detail = (f"argv: {argv}\nexit: {p.returncode} (expected {status})\nstderr:\n{p.stderr}"
                  f"expected fragment:\n{fragment}\nnew paths: {sorted(map(str, after - before))}")
        cli.check(name, p.returncode == status and fragment in p.stderr and
                  "frictionlab: error: " in p.stderr and after == before, detail)
    return cli.finish()


if __name__ == "__main__":
    sys.exit(main())
