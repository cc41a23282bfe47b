"""File helpers of the fleet package: writing a result or generated file whole or not at all."""
from __future__ import annotations

import os
import tempfile

__all__ = ["atomic_write_text"]


def _umask() -> int:
    m = os.umask(0o022)
    os.umask(m)
    return m


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: a temporary file in the same
    directory, flushed, then ``os.replace``. OSError (naming the file) if it cannot be written."""
    path = os.fspath(path)
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=d)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # what open() would give, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
