"""Fleet task identity: what a task is and its key (docs/fleet.md, "Tasks").

A task is one session of one robot's joint: its record files and its joint type's configuration.
Its key is the sha256 of the session's identity (robot, joint, session), the sha256 of every
input file's contents, the joint type's canonical configuration (config.JointType.hash) and the
tool version: the same files, configuration and frictionlab give the same key, so a finished task
is never run twice and any change (a file re-recorded, an option, a new frictionlab) gives a new
one.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

import frictionlab

from .config import JointType, Session

__all__ = ["IDENTITY", "Task", "file_sha256", "make_task", "tool_version"]

# what a task result carries of its payload: the session's identity and the key's ingredients
IDENTITY = ("key", "robot", "joint", "joint_type", "session", "session_time", "tags", "inputs",
            "inputs_hash", "config_hash", "tool_version")


def tool_version() -> str:
    """The frictionlab version the results come from (part of every key)."""
    return "frictionlab " + getattr(frictionlab, "__version__", "unknown")


def file_sha256(path: str) -> tuple[str, int]:
    """sha256 (hex) and size of a file's contents, read in 1 MiB blocks."""
    h = hashlib.sha256()
    n = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
            n += len(block)
    return h.hexdigest(), n


@dataclass(frozen=True)
class Task:
    """A session ready to run: its key and what the worker needs."""
    key: str
    session: Session
    joint_type: JointType
    inputs: tuple[tuple[str, str, int], ...]   # (path, sha256, bytes)
    inputs_hash: str
    config_hash: str
    tool_version: str

    def payload(self, threads: int = 1) -> dict:
        """What a worker gets (plain data: paths, never file contents)."""
        s = self.session
        return {"key": self.key, "robot": s.robot, "joint": s.joint, "joint_type": s.joint_type,
                "session": s.session, "session_time": s.session_time, "tags": s.tag_dict,
                "files": list(s.files),
                "inputs": [{"path": p, "sha256": h, "bytes": b} for p, h, b in self.inputs],
                "inputs_hash": self.inputs_hash, "config_hash": self.config_hash,
                "tool_version": self.tool_version, "command": self.joint_type.command,
                "options": self.joint_type.options, "validation": self.joint_type.validation,
                "threads": threads}


def make_task(session: Session, joint_type: JointType, version: str | None = None) -> Task:
    """The task of a session: hashes its files (OSError naming the file if one cannot be read)."""
    version = version or tool_version()
    inputs = []
    for p in session.files:
        try:
            h, n = file_sha256(p)
        except OSError as e:
            raise OSError(f"{p}: cannot read ({session.source}): {e.strerror}") from None
        inputs.append((p, h, n))
    inputs_hash = hashlib.sha256(
        json.dumps([[os.path.basename(p), h] for p, h, _ in inputs]).encode()).hexdigest()
    config_hash = joint_type.hash
    key = hashlib.sha256(json.dumps(
        {"robot": session.robot, "joint": session.joint, "session": session.session,
         "inputs": inputs_hash, "config": config_hash, "tool": version},
        sort_keys=True).encode()).hexdigest()
    return Task(key, session, joint_type, tuple(inputs), inputs_hash, config_hash, version)
