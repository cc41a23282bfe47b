"""The fleet configuration file and the list of sessions to identify (docs/fleet.md).

A configuration (JSON, "format": "frictionlab-fleet") says, per joint type, which identification
to run on a session's records: the command (`fit`, `compare`, `fit-joint`, `fit-actuator`), its
options (the Python keyword arguments of frictionlab.fit / compare / fit_joint / fit_actuator,
which are the CLI's options) and the validation. A fleet's sessions come from a manifest (CSV:
robot, joint, session, session_time, files, optional joint_type and tag columns) or from a
directory layout ROOT/<robot>/<joint>/<session>/<files> discovered automatically.

Errors are `FleetInputError` (a ValueError) naming the file, the line (and the key or column).
"""
from __future__ import annotations

import csv
import hashlib
import json
import os
import re
from dataclasses import dataclass, field

FORMAT = "frictionlab-fleet"
VERSION = 1
COMMANDS = ("fit", "compare", "fit-joint", "fit-actuator")
VALIDATIONS = ("none", "last-file", "last-20%")


class FleetInputError(ValueError):
    """A problem with a fleet input (configuration, manifest, directory): names the file, line
    and key or column."""


def _key_line(text: str, key: str) -> int:
    """1-based line of the first `"key":` in `text` (0 when absent): for messages."""
    m = re.search(r'"' + re.escape(key) + r'"\s*:', text)
    return text.count("\n", 0, m.start()) + 1 if m else 0


def _where(path: str, text: str, key: str) -> str:
    line = _key_line(text, key.split(".")[-1])
    return f"{path}:{line}: key '{key}'" if line else f"{path}: key '{key}'"


@dataclass(frozen=True)
class JointType:
    """What to run on the sessions of one joint type."""
    name: str
    command: str                 # "fit", "compare", "fit-joint" or "fit-actuator"
    options: dict                # keyword arguments of the frictionlab function
    validation: str = "none"     # "none", "last-file" (the session's last file) or "last-20%"

    def canonical(self) -> str:
        """Canonical JSON of the joint type's configuration (what a task key hashes)."""
        return json.dumps({"command": self.command, "options": self.options,
                           "validation": self.validation}, sort_keys=True, separators=(",", ":"))


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
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise FleetInputError(f"{path}: cannot read the fleet configuration: {e.strerror}") from None
    return parse_config(text, path)


def parse_config(text: str, path: str = "fleet.json") -> FleetConfig:
    """Parse a fleet configuration's text (see read_config)."""
    try:
        j = json.loads(text)
    except json.JSONDecodeError as e:
        raise FleetInputError(f"{path}:{e.lineno}:{e.colno}: JSON syntax error: {e.msg}") from None
    if not isinstance(j, dict):
        raise FleetInputError(f"{path}: expected a JSON object (a fleet configuration)")
    allowed = {"format", "version", "joint_types", "joints", "default_type", "description"}
    for k in j:
        if k not in allowed:
            raise FleetInputError(f"{_where(path, text, k)}: unknown key (expected one of: "
                                  f"{', '.join(sorted(allowed))})")
    if j.get("format") != FORMAT:
        raise FleetInputError(f"{_where(path, text, 'format')}: expected \"{FORMAT}\", got "
                              f"{json.dumps(j.get('format'))}")
    if j.get("version") != VERSION:
        raise FleetInputError(f"{_where(path, text, 'version')}: unsupported version "
                              f"{json.dumps(j.get('version'))} (this frictionlab reads {VERSION})")
    types = j.get("joint_types")
    if not isinstance(types, dict) or not types:
        raise FleetInputError(f"{_where(path, text, 'joint_types')}: expected a non-empty object "
                              "(joint type -> {command, options, validation})")
    joint_types = {}
    for name, t in types.items():
        key = f"joint_types.{name}"
        if not isinstance(t, dict):
            raise FleetInputError(f"{_where(path, text, name)}: expected an object")
        for k in t:
            if k not in ("command", "options", "validation"):
                raise FleetInputError(f"{_where(path, text, k)} (in {key}): unknown key (expected "
                                      "command, options, validation)")
        command = t.get("command", "fit")
        if command not in COMMANDS:
            raise FleetInputError(f"{_where(path, text, 'command')} (in {key}): unknown command "
                                  f"'{command}' ({', '.join(COMMANDS)})")
        options = t.get("options", {})
        if not isinstance(options, dict):
            raise FleetInputError(f"{_where(path, text, 'options')} (in {key}): expected an object "
                                  "of the command's options")
        validation = t.get("validation", "none")
        if validation not in VALIDATIONS:
            raise FleetInputError(f"{_where(path, text, 'validation')} (in {key}): unknown "
                                  f"validation '{validation}' ({', '.join(VALIDATIONS)})")
        if command == "fit-actuator" and validation == "last-20%":
            raise FleetInputError(f"{_where(path, text, 'validation')} (in {key}): fit-actuator "
                                  "validates on whole logs: use 'none', 'last-file' or the "
                                  "option 'validation'")
        joint_types[name] = JointType(name, command, options, validation)
    joints = j.get("joints", {})
    if not isinstance(joints, dict) or any(v not in joint_types for v in joints.values()):
        bad = [v for v in (joints.values() if isinstance(joints, dict) else [])
               if v not in joint_types]
        raise FleetInputError(f"{_where(path, text, 'joints')}: expected an object joint -> joint "
                              f"type of joint_types" + (f"; unknown type '{bad[0]}'" if bad else ""))
    default = j.get("default_type")
    if default is not None and default not in joint_types:
        raise FleetInputError(f"{_where(path, text, 'default_type')}: unknown joint type "
                              f"'{default}' ({', '.join(joint_types)})")
    return FleetConfig(path, text, joint_types, dict(joints), default)


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
                                  f"{config.path} (joint_types: {', '.join(config.joint_types)})")
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
                                      f"(joint_types: {', '.join(config.joint_types)}; map it in "
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
