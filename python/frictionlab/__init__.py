"""frictionlab: friction models, simulation exact at any sample time, identification from
measured records, model selection and export (docs/python.md).

The compiled core is ``frictionlab._frictionlab``; this package re-exports it and adds the
pure-Python conveniences (pandas DataFrames, progress bars).
"""
from ._frictionlab import *  # noqa: F401,F403
from . import _frictionlab

__version__ = "0.1.0"
