"""The fleet configuration file and the list of sessions to identify (docs/fleet.md).

A configuration (JSON, "format": "frictionlab-fleet") says, per joint type, which identification
to run on a session's records: the command (`fit`, `compare`, `fit-joint`, `fit-actuator`,
`fit-robot`), its options (the Python keyword arguments of frictionlab.fit / compare / fit_joint /
fit_actuator / fit_robot, which are the CLI's options) and the validation. A fleet's sessions
come from a manifest (CSV: robot, joint, session, session_time, files, optional joint_type and
tag columns) or from a directory layout ROOT/<robot>/<joint>/<session>/<files> discovered
automatically.

Errors are `FleetInputError` (a ValueError) naming the file, the line and column, and the key
(its JSON path) or the manifest's column. The configuration is strict JSON (strict_json) and every
option is checked against the command's rules (options) when it is read.
"""
from __future__ import annotations

import csv
import hashlib
import json
import os
from dataclasses import dataclass, field

from . import options, strict_json
from .errors import FleetInputError

FORMAT = "frictionlab-fleet"
VERSION = 1
COMMANDS = ("fit", "compare", "fit-joint", "fit-actuator", "fit-robot")
# fit-robot's options that name files: relative to the configuration file's directory
ROBOT_PATHS = ("robot", "loaded")
VALIDATIONS = ("none", "last-file", "last-20%")


@dataclass(frozen=True)
class JointType:
    """What to run on the sessions of one joint type."""
    name: str
    command: str                 # "fit", "compare", "fit-joint", "fit-actuator" or "fit-robot"
    options: dict                # keyword arguments of the frictionlab function
    validation: str = "none"     # "none", "last-file" (the session's last file) or "last-20%"

    def canonical(self) -> str:
        """Canonical JSON of the joint type's configuration (what a task key hashes)."""
        return json.dumps({"command": self.command, "options": self.options,
                           "validation": self.validation}, sort_keys=True, separators=(",", ":"))

    @property
    def hash(self) -> str:
        """sha256 of the canonical configuration (a task key's config_hash; the store's
        config_hash column)."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()


@dataclass
class FleetConfig:
    """A read fleet configuration."""
    path: str
    text: str
    joint_types: dict[str, JointType]
    joints: dict[str, str] = field(default_factory=dict)   # joint name -> joint type
    default_type: str | None = None     # for joints not in `joints` (else the joint's own name)

    @property
    def hash(self) -> str:
        """sha256 of the configuration's canonical JSON (the runs table records it)."""
        canon = json.dumps({k: json.loads(v.canonical()) for k, v in self.joint_types.items()} |
                           {"joints": self.joints, "default_type": self.default_type},
                           sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canon.encode()).hexdigest()

    def joint_type_of(self, joint: str, declared: str | None = None) -> JointType | None:
        """The joint type of a joint: the manifest's, else `joints`, else `default_type`, else a
        type of the joint's own name; None when there is none."""
        name = declared or self.joints.get(joint) or self.default_type or joint
        return self.joint_types.get(name)


def read_config(path: str) -> FleetConfig:
    """Read and check a fleet configuration file (FleetInputError naming file, line and key)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FleetInputError(f"{path}: cannot read the fleet configuration: {e.strerror}") from None
    return parse_config(data, path)


def _text(data: str | bytes, path: str) -> str:
    """The configuration's text: bytes must be UTF-8 (FleetInputError naming the byte offset)."""
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise FleetInputError(f"{path}:{line}: not UTF-8 text (byte {e.start}: {e.reason})") from None


def _json_path(keys) -> str:
    """The JSON path of `keys` for a message: each key printable and at most 40 characters."""
    return ".".join(strict_json.printable(str(k), 40) for k in keys)


def _names(names) -> str:
    """Names for a message: printable, the first 10."""
    names = list(names)
    shown = ", ".join(strict_json.printable(n, 40) for n in names[:10])
    return shown + (f" and {len(names) - 10} more" if len(names) > 10 else "")


def _fail(doc, keys, message: str):
    """FleetInputError "PATH:LINE:COL: JSON.PATH: message" at the value of `keys`."""
    raise FleetInputError(f"{doc.where(*keys)}: {_json_path(keys)}: {message}")


def _show(value) -> str:
    s = json.dumps(value, ensure_ascii=True)
    return s if len(s) <= 60 else s[:57] + "..."


_TOP_KEYS = ("format", "version", "joint_types", "joints", "default_type", "description")


def parse_config(data: str | bytes, path: str = "fleet.json") -> FleetConfig:
    """Parse a fleet configuration's text or bytes (see read_config): strict JSON
    (strict_json.loads), every key known, every option checked (options.check)."""
    text = _text(data, path)
    doc = strict_json.loads(text, path)
    j = doc.value
    if not isinstance(j, dict):
        raise FleetInputError(f"{path}: expected a JSON object (a fleet configuration)")
    for k in j:
        if k not in _TOP_KEYS:
            _fail(doc, (k,), f"unknown key (expected one of: {', '.join(sorted(_TOP_KEYS))})")
    if j.get("format") != FORMAT:
        _fail(doc, ("format",), f"expected \"{FORMAT}\", got {_show(j.get('format'))}")
    if j.get("version") != VERSION or isinstance(j.get("version"), bool):
        _fail(doc, ("version",), f"unsupported version {_show(j.get('version'))} (this frictionlab "
                                 f"reads {VERSION})")
    if "description" in j and not isinstance(j["description"], str):
        _fail(doc, ("description",), f"expected a string, got {_show(j['description'])}")
    types = j.get("joint_types")
    if not isinstance(types, dict) or not types:
        _fail(doc, ("joint_types",), "expected a non-empty object (joint type -> {command, "
                                     "options, validation})")
    joint_types = {name: _joint_type(doc, name, t) for name, t in types.items()}
    joints = j.get("joints", {})
    if not isinstance(joints, dict):
        _fail(doc, ("joints",), "expected an object joint -> joint type of joint_types")
    for joint, v in joints.items():
        if not isinstance(v, str) or v not in joint_types:
            _fail(doc, ("joints", joint), f"unknown joint type {_show(v)} "
                                          f"({_names(joint_types)})")
    default = j.get("default_type")
    if default is not None and (not isinstance(default, str) or default not in joint_types):
        _fail(doc, ("default_type",), f"unknown joint type {_show(default)} "
                                      f"({_names(joint_types)})")
    return FleetConfig(path, text, joint_types, dict(joints), default)


def _joint_type(doc, name: str, t) -> JointType:
    """One entry of joint_types, checked."""
    key = ("joint_types", name)
    if not name:
        _fail(doc, key, "a joint type needs a non-empty name")
    if not isinstance(t, dict):
        _fail(doc, key, "expected an object {command, options, validation}")
    for k in t:
        if k not in ("command", "options", "validation"):
            _fail(doc, key + (k,), "unknown key (expected command, options, validation)")
    command = t.get("command", "fit")
    if command not in COMMANDS:
        _fail(doc, key + ("command",), f"unknown command {_show(command)} ({', '.join(COMMANDS)})")
    opts = t.get("options", {})
    if not isinstance(opts, dict):
        _fail(doc, key + ("options",), "expected an object of the command's options")
    options.check(command, opts, lambda o: (doc.where(*key, "options", o),
                                            _json_path(key + ("options", o))))
    validation = t.get("validation", "none")
    if validation not in VALIDATIONS:
        _fail(doc, key + ("validation",), f"unknown validation {_show(validation)} "
                                          f"({', '.join(VALIDATIONS)})")
    if command == "fit-actuator" and validation == "last-20%":
        _fail(doc, key + ("validation",), "fit-actuator validates on whole logs: use 'none', "
                                          "'last-file' or the option 'validation'")
    if command == "fit-robot":
        opts = _robot_paths(doc, key, opts, validation)
    return JointType(name, command, opts, validation)


def _robot_paths(doc, key, opts: dict, validation: str) -> dict:
    """fit-robot's options with its files made absolute (relative to the configuration file) and
    checked to exist: the robot description is required."""
    if validation == "last-20%":
        _fail(doc, key + ("validation",), "fit-robot validates on whole records: use 'none' or "
                                          "'last-file'")
    if "robot" not in opts:
        _fail(doc, key + ("options",), "fit-robot needs the option 'robot': the arm's .urdf or "
                                       "ROBOT.json (relative to this file)")
    base = os.path.dirname(os.path.abspath(doc.path))
    out = dict(opts)
    for name in ROBOT_PATHS:
        if name in out:
            full = os.path.join(base, out[name])
            if not os.path.isfile(full):
                _fail(doc, key + ("options", name), f"no such file: {full}")
            out[name] = os.path.abspath(full)
    return out


@dataclass(frozen=True)
class Session:
    """One identification to run: a robot's joint in one session."""
    robot: str
    joint: str
    joint_type: str
    session: str
    session_time: str
    files: tuple[str, ...]          # absolute paths, in order
    tags: tuple[tuple[str, str], ...] = ()
    source: str = ""                # where it was listed (manifest line or directory), for messages

    @property
    def tag_dict(self) -> dict[str, str]:
        return dict(self.tags)


_MANIFEST_REQUIRED = ("robot", "joint", "session", "files")


def read_manifest(path: str, config: FleetConfig) -> list[Session]:
    """Sessions of a manifest CSV: columns robot, joint, session, files (';'-separated paths,
    relative to the manifest's directory), optional session_time (ISO 8601; default: the
    session), joint_type (default: the configuration's), any other column a tag. Every listed
    file must exist (FleetInputError naming the manifest's line and column)."""
    base = os.path.dirname(os.path.abspath(path))
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise FleetInputError(f"{path}: cannot read the manifest: {e.strerror}") from None
    except (csv.Error, UnicodeDecodeError) as e:
        raise FleetInputError(f"{path}: not a CSV manifest: {e}") from None
    if not rows:
        raise FleetInputError(f"{path}: empty manifest (expected a header: "
                              f"{', '.join(_MANIFEST_REQUIRED)}, ...)")
    header = [h.strip() for h in rows[0]]
    for h in _MANIFEST_REQUIRED:
        if h not in header:
            raise FleetInputError(f"{path}:1: missing column '{h}' (columns: robot, joint, session, "
                                  "session_time, files, joint_type, tags...)")
    if len(set(header)) != len(header):
        raise FleetInputError(f"{path}:1: a column is named twice")
    col = {h: i for i, h in enumerate(header)}
    tag_cols = [h for h in header if h not in _MANIFEST_REQUIRED + ("session_time", "joint_type")]
    sessions, seen = [], {}
    for line, row in enumerate(rows[1:], start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise FleetInputError(f"{path}:{line}: {len(row)} fields, the header has {len(header)}")
        get = {h: row[i].strip() for h, i in col.items()}
        for h in _MANIFEST_REQUIRED:
            if not get[h]:
                raise FleetInputError(f"{path}:{line}:{col[h] + 1}: column '{h}' is empty")
        files = []
        for p in get["files"].split(";"):
            p = p.strip()
            full = p if os.path.isabs(p) else os.path.join(base, p)
            if not os.path.isfile(full):
                raise FleetInputError(f"{path}:{line}:{col['files'] + 1}: file '{p}' does not exist")
            files.append(os.path.abspath(full))
        jt = config.joint_type_of(get["joint"], get.get("joint_type") or None)
        if jt is None:
            raise FleetInputError(f"{path}:{line}: joint '{get['joint']}' has no joint type in "
                                  f"{config.path} (joint_types: {_names(config.joint_types)})")
        ident = (get["robot"], get["joint"], get["session"])
        if ident in seen:
            raise FleetInputError(f"{path}:{line}: robot '{ident[0]}', joint '{ident[1]}', session "
                                  f"'{ident[2]}' is listed twice (line {seen[ident]})")
        seen[ident] = line
        sessions.append(Session(get["robot"], get["joint"], jt.name, get["session"],
                                get.get("session_time") or get["session"], tuple(files),
                                tuple((t, get[t]) for t in tag_cols if get[t]), f"{path}:{line}"))
    if not sessions:
        raise FleetInputError(f"{path}: the manifest lists no session")
    return sessions


def discover(root: str, config: FleetConfig) -> list[Session]:
    """Sessions of a directory layout ROOT/<robot>/<joint>/<session>/<files>: every regular
    file of a session directory (name order; hidden files skipped) is one of its records.
    Joints without a joint type in the configuration are an error naming the directory."""
    if not os.path.isdir(root):
        raise FleetInputError(f"{root}: not a directory (expected ROOT/<robot>/<joint>/<session>/...)")
    sessions = []

    def dirs(p):
        return sorted(e.name for e in os.scandir(p) if e.is_dir() and not e.name.startswith("."))

    for robot in dirs(root):
        for joint in dirs(os.path.join(root, robot)):
            jt = config.joint_type_of(joint)
            jdir = os.path.join(root, robot, joint)
            if jt is None:
                raise FleetInputError(f"{jdir}: joint '{joint}' has no joint type in {config.path} "
                                      f"(joint_types: {_names(config.joint_types)}; map it in "
                                      "\"joints\")")
            for session in dirs(jdir):
                sdir = os.path.join(jdir, session)
                files = sorted(e.path for e in os.scandir(sdir)
                               if e.is_file() and not e.name.startswith("."))
                if not files:
                    raise FleetInputError(f"{sdir}: session directory without a record")
                sessions.append(Session(robot, joint, jt.name, session, session,
                                        tuple(os.path.abspath(f) for f in files), (), sdir))
    if not sessions:
        raise FleetInputError(f"{root}: no session found (expected ROOT/<robot>/<joint>/<session>/"
                              "<record files>)")
    return sessions
