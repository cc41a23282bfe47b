#!/usr/bin/env python3
"""Fuzz target of the fleet configuration reader (frictionlab.fleet.config.parse_config, the
reader of `frictionlab fleet run CONFIG`), which is Python: a mutation fuzzer written with the
standard library (atheris is not packaged for Debian 12) in the spirit of the libFuzzer targets
(docs/fuzzing.md, "fleet_config").

    python3 fuzz/fuzz_fleet_config.py --seconds 20 [--seed 1] [--corpus DIR]... [--findings DIR]
    python3 fuzz/fuzz_fleet_config.py --replay fuzz/fleet_config/regressions/*

Inputs are the seeds (fuzz/fleet_config/corpus) and their mutations: byte flips, inserted and
deleted bytes, truncations, splices of two inputs, repeated regions, dictionary tokens (NaN,
Infinity, 1e400, huge integers, lone surrogates, duplicate keys, option names and values of every
type) and deep nesting. For each, the reader must either return a configuration that passes the
checks below or raise FleetInputError whose message starts with the file name, is printable and
at most MAX_MESSAGE characters; any other exception, or an input taking over TIMEOUT_S, is a
finding: the input is written to the findings directory and the exit status is 1.

The reader is imported from the built package (PYTHONPATH, else build/python): the options'
numeric ranges are the compiled module's table. Deterministic for a seed (random.Random(seed));
only the time budget limits the number of inputs.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT_S = 1
MAX_MESSAGE = 1000
MAX_LEN = 8192
NAME = "fleet.json"


def _import_reader():
    """frictionlab.fleet.config and options from the built package (the options' numeric ranges
    are the compiled module's table): PYTHONPATH, else the build tree's build/python."""
    built = os.path.join(ROOT, "build", "python")
    if os.path.isdir(built) and built not in sys.path:
        sys.path.append(built)
    try:
        from frictionlab.fleet import config, options
    except ImportError as e:
        sys.exit(f"fuzz_fleet_config.py: cannot import frictionlab.fleet ({e}): build the Python "
                 "module first (bash scripts/build.sh) or put its directory on PYTHONPATH")
    return config, options


config, options = _import_reader()

TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e400", b"1e-400", b"-0", b"0",
          b"-1", b"1.5", b"2147483648", b"18446744073709551616", b"9" * 400, b"true", b"false",
          b"null", b'""', b'"\\ud800"', b'"\\udc00x"', b'"\\u0000"', b'"\\n"', b"[]", b"{}",
          b"[[[[[[[[", b"]]]]", b"{{", b'"a":', b",", b":", b'"', b"\\", b"\xff", b"\xc3\x28",
          b'"format"', b'"version"', b'"joint_types"', b'"joints"', b'"default_type"',
          b'"command"', b'"options"', b'"validation"', b'"fit"', b'"compare"', b'"fit-joint"',
          b'"fit-actuator"', b'"last-20%"', b'"last-file"', b'"none"', b'"starts"', b'"spread"',
          b'"models"', b'"ranges"', b'"delta"', b'"controller"', b'"kp"', b'"seed"']
for name in sorted({n for rules in options.OPTIONS.values() for n in rules}):
    TOKENS.append(json.dumps(name).encode())


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def check_accepted(c) -> None:
    """What an accepted configuration must satisfy (AssertionError otherwise)."""
    assert isinstance(c, config.FleetConfig)
    assert c.joint_types, "no joint type"
    for name, jt in c.joint_types.items():
        assert jt.command in config.COMMANDS and jt.validation in config.VALIDATIONS
        assert isinstance(jt.options, dict)
        options.check(jt.command, jt.options, lambda o: (NAME, o))  # the rules hold
        json.loads(jt.canonical())  # canonical JSON is strict JSON (allow_nan is not needed)
        json.dumps(jt.options, allow_nan=False)
        name.encode("utf-8")  # stored as text in the results store: no lone surrogate
    for joint, t in c.joints.items():
        assert t in c.joint_types
        joint.encode("utf-8")
    assert c.default_type is None or c.default_type in c.joint_types
    assert len(c.hash) == 64
    c.text.encode("utf-8")


def run_one(data: bytes) -> str | None:
    """None when the reader behaved; else what went wrong (a finding)."""
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT_S)
    try:
        c = config.parse_config(data, NAME)
        signal.setitimer(signal.ITIMER_REAL, 0)
        check_accepted(c)
        return None
    except config.FleetInputError as e:
        signal.setitimer(signal.ITIMER_REAL, 0)
        m = str(e)
        if not m.startswith(NAME):
            return f"message does not name the file: {m[:200]!r}"
        if len(m) > MAX_MESSAGE:
            return f"message of {len(m)} characters (at most {MAX_MESSAGE}): {m[:200]!r}"
        if not m.isprintable():
            return f"message not printable: {m[:200]!r}"
        return None
    except Hang:
        return f"hang: over {TIMEOUT_S} s"
    except BaseException:  # noqa: BLE001: anything else is the finding
        signal.setitimer(signal.ITIMER_REAL, 0)
        return traceback.format_exc(limit=6)


def replay(path: str) -> str | None:
    """A kept input (fuzz/fleet_config/regressions): NAME.error must be refused with a
    FleetInputError, NAME.ok accepted; any other file only run. None when it behaves."""
    with open(path, "rb") as f:
        data = f.read()
    what = run_one(data)
    if what is not None or not path.endswith((".error", ".ok")):
        return what
    try:
        config.parse_config(data, NAME)
        refused = None
    except config.FleetInputError as e:
        refused = str(e)
    if path.endswith(".error") and refused is None:
        return "accepted, but it is kept as an input to refuse (.error)"
    if path.endswith(".ok") and refused is not None:
        return f"refused, but it is kept as an input to accept (.ok): {refused}"
    return None


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    """One to four random mutations of `data`."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        pos = rng.randint(0, len(b))
        if op == 0 and b:                                   # flip a bit
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:                                       # insert random bytes
            b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2 and b:                                 # delete a run
            del b[pos:pos + rng.randint(1, 16)]
        elif op == 3:                                       # truncate
            del b[pos:]
        elif op == 4:                                       # splice with another input
            other = rng.choice(pool)
            cut = rng.randint(0, len(other))
            b = b[:pos] + other[cut:]
        elif op == 5 and b:                                 # repeat a region
            end = min(len(b), pos + rng.randint(1, 64))
            b[pos:pos] = b[pos:end] * rng.randint(1, 8)
        elif op == 6:                                       # insert a dictionary token
            b[pos:pos] = rng.choice(TOKENS)
        elif op == 7:                                       # replace a number by a token
            digits = [i for i, ch in enumerate(b) if chr(ch).isdigit()]
            if digits:
                i = rng.choice(digits)
                j = i
                while j < len(b) and chr(b[j]) in "0123456789.eE+-":
                    j += 1
                b[i:j] = rng.choice(TOKENS)
        else:                                               # deep nesting
            depth = rng.choice([63, 64, 65, 200, 5000, 100000])
            opener = rng.choice([b"[", b'{"a":'])
            b[pos:pos] = opener * depth
    return bytes(b[:MAX_LEN])


def seeds(dirs: list[str]) -> list[bytes]:
    out = []
    for d in dirs:
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if os.path.isfile(p) and os.path.getsize(p) <= MAX_LEN:
                with open(p, "rb") as f:
                    out.append(f.read())
    return out


def save(findings: str, data: bytes, what: str) -> str:
    os.makedirs(findings, exist_ok=True)
    p = os.path.join(findings, "fleet_config-" + hashlib.sha1(data).hexdigest())
    with open(p, "wb") as f:
        f.write(data)
    with open(p + ".txt", "w", encoding="utf-8") as f:
        f.write(what + "\n")
    return p


def main(argv=None) -> int:
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--seconds", type=float, default=60)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--corpus", action="append",
                   default=[], help="seed directories (default fuzz/fleet_config/corpus)")
    a.add_argument("--findings", default=os.path.join(ROOT, "build-fuzz", "findings"))
    a.add_argument("--replay", nargs="+", metavar="FILE", help="run these inputs only")
    args = a.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    if args.replay:
        bad = 0
        for p in args.replay:
            what = replay(p)
            print(f"{p}: {'ok' if what is None else what}")
            bad += what is not None
        return 1 if bad else 0
    pool = seeds(args.corpus or [os.path.join(ROOT, "fuzz", "fleet_config", "corpus")])
    if not pool:
        print("fuzz_fleet_config: no seed", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    start = time.monotonic()
    runs, accepted, messages, findings = 0, 0, set(), []
    for s in pool:  # every seed must be accepted as it is
        what = run_one(s)
        if what is None:
            try:
                config.parse_config(s, NAME)
            except config.FleetInputError as e:
                what = f"a seed is refused: {e}"
        if what is not None:
            findings.append((save(args.findings, s, what), what))
    while not findings and time.monotonic() - start < args.seconds:
        data = mutate(rng, rng.choice(pool), pool)
        what = run_one(data)
        runs += 1
        if what is not None:
            findings.append((save(args.findings, data, what), what))
            break
        try:
            config.parse_config(data, NAME)
            accepted += 1
            if len(pool) < 500:
                pool.append(data)   # accepted inputs seed further mutations
        except config.FleetInputError as e:
            messages.add(str(e).split(": ", 1)[-1][:40])
    seconds = time.monotonic() - start
    print(f"fleet_config     {runs:10d} execs {runs / max(seconds, 1e-9):8.0f} exec/s  "
          f"accepted {accepted}  distinct messages {len(messages)}")
    for p, what in findings:
        print(f"fuzz: FINDING in fleet_config: {p}\n{what}", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
