"""The error of a fleet input (docs/fleet.md): the one exception every input check raises, in a
module of its own so that config, strict_json and options can all raise it without importing
each other."""
from __future__ import annotations


class FleetInputError(ValueError):
    """A problem with a fleet input (configuration, manifest, directory): names the file, line
    and key or column."""
