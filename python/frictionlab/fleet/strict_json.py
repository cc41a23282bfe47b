"""Strict JSON for the fleet's input files, as strict as the C++ readers (io/json_fields): RFC 8259
only (no NaN, Infinity or -Infinity tokens, no number beyond the double range, no integer of more
than MAX_INT_DIGITS digits), no key twice in an object, no lone UTF-16 surrogate (\\ud800 ...) in
a string, no nesting deeper than MAX_DEPTH; every refusal a FleetInputError (a ValueError) naming
the file, line and column (docs/fleet.md, "The configuration file").

    doc = loads(text, "fleet.json")
    doc.value                       # the parsed JSON (plain dicts, lists, str, int, float, ...)
    doc.where("joint_types", "j")   # "fleet.json:4:10" (the position of that member's value)

Python's pure-Python scanner (json.scanner.py_make_scanner) is used with wrapped object, array
and string parsers: they record where each member's value starts, count the nesting and check
every string, so a refusal says where it is without a second tokenizer.
"""
from __future__ import annotations

import json
import json.decoder
import json.scanner
import math

from .errors import FleetInputError

MAX_DEPTH = 64
"""Deepest nesting of objects and arrays accepted (a fleet configuration needs 4)."""
MAX_INT_DIGITS = 300
"""Longest integer literal accepted [digits] (beyond the double range; Python's own limit is 4300)."""


class _Refused(Exception):
    """Raised inside the scanner: `message` at character offset `offset`."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of character `offset` of `text`."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _surrogate(s: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in s)


class Document:
    """A parsed JSON text and where each object member's value starts in it."""

    def __init__(self, path: str, text: str, value, offsets: dict[int, tuple[object, dict]]):
        self.path = path
        self.text = text
        self.value = value
        self._offsets = offsets     # id(object) -> (the object, {key: offset of its value})

    def offset(self, *keys) -> int | None:
        """Character offset of the value at `keys` (object keys from the top level), or None."""
        node, at = self.value, None
        for k in keys:
            entry = self._offsets.get(id(node)) if isinstance(node, dict) else None
            if entry is None or entry[0] is not node or k not in entry[1]:
                return at
            node, at = node[k], entry[1][k]
        return at

    def where(self, *keys) -> str:
        """"PATH:LINE:COL" of the value at `keys` ("PATH" when unknown): for messages."""
        at = self.offset(*keys)
        if at is None:
            return self.path
        line, col = line_col(self.text, at)
        return f"{self.path}:{line}:{col}"


def _scanner(offsets: dict, last: list):
    """A py_make_scanner over a strict decoder: records member offsets into `offsets`, the
    offset of the value being scanned into last[0]; raises _Refused."""
    depth = [0]
    members: list[list[int]] = []   # the value offsets of each open object's members, in order

    def enter(offset):
        depth[0] += 1
        if depth[0] > MAX_DEPTH:
            raise _Refused(offset, f"nesting deeper than {MAX_DEPTH} levels")

    def parse_object(s_and_end, strict, scan_once, object_hook, pairs_hook, memo=None):
        enter(s_and_end[1] - 1)
        starts: list[int] = []

        def scan(string, idx):
            starts.append(idx)
            last[0] = idx
            return scan_once(string, idx)
        members.append(starts)
        try:
            return json.decoder.JSONObject(s_and_end, strict, scan, object_hook, pairs_hook, memo)
        finally:
            members.pop()
            depth[0] -= 1

    def parse_array(s_and_end, scan_once):
        enter(s_and_end[1] - 1)

        def scan(string, idx):
            last[0] = idx
            return scan_once(string, idx)
        try:
            return json.decoder.JSONArray(s_and_end, scan)
        finally:
            depth[0] -= 1

    def parse_string(string, end, strict):
        s, after = json.decoder.scanstring(string, end, strict)
        if _surrogate(s):
            raise _Refused(end - 1, "a string with a lone UTF-16 surrogate (\\ud800-\\udfff): "
                                    "not Unicode text")
        return s, after

    def pairs_hook(pairs):
        starts = members[-1]
        obj = {}
        for i, (k, v) in enumerate(pairs):
            at = starts[i] if i < len(starts) else last[0]
            if k in obj:
                raise _Refused(at, f"duplicate key '{printable(k)}'")
            if _surrogate(k):
                raise _Refused(at, "a key with a lone UTF-16 surrogate (\\ud800-\\udfff): not "
                                   "Unicode text")
            obj[k] = v
        offsets[id(obj)] = (obj, {k: starts[i] for i, k in enumerate(obj) if i < len(starts)})
        return obj

    def parse_constant(name):
        raise _Refused(last[0], f"{name} is not JSON (RFC 8259 has no NaN or infinity)")

    def parse_float(s):
        x = float(s)
        if not math.isfinite(x):
            raise _Refused(last[0], f"number {s[:40]} is beyond the double range")
        return x

    def parse_int(s):
        if len(s.lstrip("-")) > MAX_INT_DIGITS:
            raise _Refused(last[0], f"integer of {len(s)} digits (at most {MAX_INT_DIGITS})")
        return int(s)

    decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_constant=parse_constant,
                               parse_float=parse_float, parse_int=parse_int)
    decoder.parse_object = parse_object
    decoder.parse_array = parse_array
    decoder.parse_string = parse_string
    inner = json.scanner.py_make_scanner(decoder)

    def scan_once(string, idx):
        last[0] = idx
        return inner(string, idx)
    decoder.scan_once = scan_once
    return decoder


def printable(s: str, limit: int = 60) -> str:
    """`s` for a message: control characters escaped, at most `limit` characters."""
    r = s.encode("unicode_escape").decode("ascii") if not s.isprintable() else s
    return r if len(r) <= limit else r[:limit] + "..."


def loads(text: str, path: str) -> Document:
    """Parse `text` (the contents of file `path`) as strict JSON; FleetInputError
    "PATH:LINE:COL: ..." on any refusal."""
    offsets: dict = {}
    last = [0]
    decoder = _scanner(offsets, last)
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as e:
        raise FleetInputError(f"{path}:{e.lineno}:{e.colno}: JSON syntax error: {e.msg}") from None
    except _Refused as e:
        line, col = line_col(text, e.offset)
        raise FleetInputError(f"{path}:{line}:{col}: {e.message}") from None
    except RecursionError:
        # the nesting limit comes first; this is a caller already deep in its own stack
        line, col = line_col(text, last[0])
        raise FleetInputError(f"{path}:{line}:{col}: nesting too deep for this process's stack "
                              f"(at most {MAX_DEPTH} levels are accepted)") from None
    return Document(path, text, value, offsets)
