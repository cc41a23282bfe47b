"""frictionlab.fleet.config: the fleet configuration is read as strictly as the C++ readers read
their JSON (no NaN or infinity, no key twice, no nesting beyond strict_json.MAX_DEPTH, UTF-8), and
every option is checked against the CLI's rules when it is read; each refusal is a FleetInputError
naming the file, line, column and JSON path."""
import json
import os

import pytest

import frictionlab
from frictionlab.fleet import config, options, strict_json


def _text(opts: dict, command: str = "fit") -> str:
    """A configuration with one joint type "j" whose options are `opts`, one key per line."""
    return json.dumps({"format": "frictionlab-fleet", "version": 1,
                       "joint_types": {"j": {"command": command, "options": opts}}}, indent=1)


def _refused(text, pattern):
    with pytest.raises(config.FleetInputError, match=pattern) as e:
        config.parse_config(text, "fleet.json")
    return str(e.value)


def test_a_valid_configuration_is_read():
    c = config.parse_config(_text({"model": "lugre", "starts": 5, "spread": 10.0,
                                   "time": "t", "velocity": "v", "force": "F"}))
    assert c.joint_types["j"].options["starts"] == 5


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_non_json_numbers_are_refused_with_their_position(token):
    text = _text({"model": "lugre", "spread": 12345}).replace("12345", token)
    line = next(i for i, s in enumerate(text.splitlines(), 1) if token in s)
    col = text.splitlines()[line - 1].index(token) + 1
    _refused(text, rf"^fleet\.json:{line}:{col}: {token} is not JSON")


def test_numbers_beyond_double_and_endless_integers_are_refused():
    _refused(_text({"spread": 12345}).replace("12345", "1e400"),
             r"^fleet\.json:\d+:\d+: number 1e400 is beyond the double range")
    _refused(_text({"starts": 12345}).replace("12345", "9" * 5000),
             r"^fleet\.json:\d+:\d+: integer of 5000 digits")


def test_duplicate_keys_are_refused_at_the_second():
    text = ('{"format": "frictionlab-fleet", "version": 1,\n'
            ' "joint_types": {"j": {"command": "fit",\n'
            '   "options": {"starts": 1,\n'
            '               "starts": 2}}}}')
    _refused(text, r"^fleet\.json:4:26: duplicate key 'starts'$")
    _refused('{"format": "frictionlab-fleet", "format": "frictionlab-fleet"}',
             r"^fleet\.json:1:43: duplicate key 'format'")


def test_deep_nesting_is_an_error_with_a_position_not_a_recursion_error():
    for deep in ("[" * 100000, '{"a":' * 100000, '{"description": ' + "[" * 1000 + "]" * 1000 + "}"):
        message = _refused(deep, rf"nesting deeper than {strict_json.MAX_DEPTH} levels")
        assert message.startswith("fleet.json:1:")


def test_not_utf8_and_lone_surrogates_are_refused(tmp_path):
    p = tmp_path / "fleet.json"
    p.write_bytes(_text({"time": "t"}).encode().replace(b'"t"', b'"\xff"'))
    with pytest.raises(config.FleetInputError, match=r"fleet\.json:\d+: not UTF-8 text"):
        config.read_config(str(p))
    _refused(_text({"time": "t"}).replace('"t"', '"\\ud800"'), r"lone UTF-16 surrogate")


@pytest.mark.parametrize("command, name, value, message", [
    ("fit", "starts", -1, "must be an integer >= 1, got -1"),
    ("fit", "starts", 0, "must be an integer >= 1, got 0"),
    ("fit", "starts", 1.5, "must be an integer >= 1, got 1.5"),
    ("fit", "starts", True, "must be an integer >= 1, got true"),
    ("fit", "starts", "3", 'must be an integer >= 1, got "3"'),
    ("fit", "starts", 2**40, "must be an integer >= 1 and <= 2147483647, got 1099511627776"),
    ("fit", "spread", 0.5, "must be a number >= 1, got 0.5"),
    ("fit", "warmup_s", -0.1, "must be a number >= 0, got -0.1"),
    ("fit", "threads", 0, "must be an integer >= 1, got 0"),
    ("fit", "rotary", 1, "must be true or false, got 1"),
    ("fit", "loss", "l2", 'must be one of "none", "huber", "cauchy", got "l2"'),
    ("fit", "hold", "cubic", 'must be one of "linear", "zoh", got "cubic"'),
    ("fit", "time", 5, 'must be a non-empty string, got 5'),
    ("fit", "velocity", "", 'must be a non-empty string, got ""'),
    ("fit", "progress", True, "unknown option of fit"),
    ("fit", "training", "a.csv", "unknown option of fit"),
    ("compare", "validation", "b.csv", "unknown option of compare"),
    ("fit-joint", "desired", "d.csv", "unknown option of fit-joint"),
    ("compare", "models", [], "must be a non-empty string or a non-empty list of names"),
    ("compare", "models", [1.5, None], "must be a non-empty string or a non-empty list of names"),
    ("fit-joint", "n_viscous", 9, "must be an integer >= 0 and <= 8, got 9"),
    ("fit-joint", "delta", [0.5, -1], "must be a non-empty list of numbers > 0"),
    ("fit-joint", "tv_order", 3, "must be one of 1, 2, got 3"),
    ("fit-joint", "controller", 3, "must be a non-empty string or an object, got 3"),
    ("fit-joint", "bogus", 1, "unknown option of fit-joint"),
    ("fit-joint", "temperature_law", "cubic",
     'must be one of "linear", "exponential", got "cubic"'),
    ("fit-joint", "temperature_ref", -300, "must be a number >= -273.15, got -300"),
    ("fit", "temperature", "temp", "unknown option of fit"),
    ("fit-actuator", "trials", 0, "must be an integer >= 1, got 0"),
    ("fit-actuator", "trials", 2**31, "must be an integer >= 1 and <= 2147483647, got 2147483648"),
    ("fit", "loss_scale", 0, "must be a number > 0, got 0"),
    ("fit-actuator", "ranges", {"kt": [1]}, r'must map each parameter to \[LO, HI\]'),
    ("fit-actuator", "ranges", {"kt": ["a", "b"]}, r'must map each parameter to \[LO, HI\]'),
    ("fit-actuator", "logs", "x", "unknown option of fit-actuator"),
])
def test_every_option_is_checked_naming_file_line_and_json_path(command, name, value, message):
    text = _text({name: value}, command)
    line = next(i for i, s in enumerate(text.splitlines(), 1) if f'"{name}":' in s)
    _refused(text, rf"^fleet\.json:{line}:\d+: joint_types\.j\.options\.{name}: {message}")


def test_the_rules_cover_every_option_the_bindings_take():
    """Every keyword option of the bound functions has a rule, and nothing else does: the
    bindings' docstrings list their options ("    NAME: doc")."""
    import re

    import frictionlab as fl
    functions = {"fit": fl.fit, "compare": fl.compare, "fit-joint": fl.fit_joint,
                 "fit-actuator": fl.fit_actuator}
    for command, f in functions.items():
        doc = f.__doc__.split("Options (keyword arguments", 1)[1]
        lines = re.findall(r"^    (\w+(?:, \w+)*):", doc, re.M)
        bound = {n for line in lines for n in line.split(", ")}
        assert bound == set(options.OPTIONS[command]), command


def test_keys_and_structure_errors_name_the_json_path():
    base = json.loads(_text({}))
    base["joint_types"]["j"]["command"] = "fitt"
    _refused(json.dumps(base, indent=1), r"^fleet\.json:\d+:\d+: joint_types\.j\.command: "
                                         r"unknown command \"fitt\"")
    base["joint_types"]["j"]["command"] = "fit"
    base["joints"] = {"left": "k"}
    _refused(json.dumps(base, indent=1), r"^fleet\.json:\d+:\d+: joints\.left: unknown joint type \"k\"")
    _refused(json.dumps(dict(base, version=True)), r"version: unsupported version true")


FUZZ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz")


def test_fuzz_regressions_and_a_short_fuzz_pass(tmp_path):
    """The kept inputs of the fleet_config fuzz target (fuzz/fleet_config/regressions: NAME.error
    refused with FleetInputError, NAME.ok accepted) and a 3 s pass of the fuzzer itself, clean."""
    import glob
    import subprocess
    import sys
    driver = os.path.join(FUZZ, "fuzz_fleet_config.py")
    kept = sorted(glob.glob(os.path.join(FUZZ, "fleet_config", "regressions", "*")))
    assert len(kept) >= 9
    out = subprocess.run([sys.executable, driver, "--replay", *kept], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count(": ok\n") == len(kept)
    out = subprocess.run([sys.executable, driver, "--seconds", "3", "--findings", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "execs" in out.stdout and not os.listdir(tmp_path)


def test_messages_are_printable_and_bounded():
    """Keys and names from the file are shown printable and cut: a 10,000-character key with
    control characters gives a short, printable message."""
    key = "k\x07\t" + "x" * 10000
    for text in (json.dumps({key: 1}),
                 _text({key: 1}),
                 json.dumps({"format": "frictionlab-fleet", "version": 1,
                             "joint_types": {f"t{i}" + "y" * 500: {} for i in range(50)},
                             "joints": {"a": "none"}})):
        with pytest.raises(config.FleetInputError) as e:
            config.parse_config(text)
        m = str(e.value)
        assert m.isprintable() and len(m) < 1000 and m.startswith("fleet.json:"), m


def test_joint_type_references_must_be_names():
    """A joint's type or default_type that is an object or a list (found by the fuzz target:
    TypeError: unhashable type) is a FleetInputError naming its JSON path."""
    base = json.loads(_text({}))
    _refused(json.dumps(dict(base, joints={"left": {"command": "fit"}})),
             r"^fleet\.json:1:\d+: joints\.left: unknown joint type \{\"command\": \"fit\"\}")
    _refused(json.dumps(dict(base, default_type=["j"])),
             r"^fleet\.json:1:\d+: default_type: unknown joint type \[\"j\"\]")


def test_the_numeric_ranges_are_the_library_table():
    """options.py reads the range of every option the library has one for from the library's
    table (workflows/validate.hpp, bound as _option_rule); the bindings check the same."""
    from frictionlab import _frictionlab
    assert _frictionlab._option_rule("n_viscous") == {"integer": True, "lo": 0.0, "lo_open": False,
                                                      "hi": 8.0,
                                                      "description": "an integer between 0 and 8"}
    assert _frictionlab._option_rule("seed") is None
    for command, rules in options.OPTIONS.items():
        for name, rule in rules.items():
            lib = _frictionlab._option_rule(name)
            if lib is None or (command, name) == ("fit-joint", "lowpass_cutoff"):
                continue  # fit_joint's lowpass_cutoff 0 means none (its binding's own rule)
            assert (rule.kind == "int") == lib["integer"], (command, name)
            assert (rule.lo, rule.lo_open) == (lib["lo"], lib["lo_open"]), (command, name)
    # the value the library refuses, refused by the fleet's check with the library's message
    with pytest.raises(frictionlab.Error, match="loss_scale=0: must be a number > 0"):
        frictionlab.fit({"t": [0, 1, 2], "velocity": [0, 1, 0], "force": [0, 1, 0]}, loss_scale=0)
