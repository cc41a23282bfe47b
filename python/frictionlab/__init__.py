"""frictionlab: friction models, simulation exact at any sample time, identification from
measured records, model selection and export (docs/python.md).

The compiled core is ``frictionlab._frictionlab``; this package re-exports it and adds the
pure-Python conveniences (pandas DataFrames, progress bars).
"""
import warnings as _warnings

from ._frictionlab import *  # noqa: F401,F403
from . import _frictionlab
from ._frictionlab import FrictionlabWarning
from .robot import (ExcitationCheck, ExcitationDesign, FitRobotOutcome, RobotParameter,
                    RobotValidation, check_excitation, excite, fit_robot)

# Each distinct warning of the package once per process (a Params of the same values built
# again does not repeat its warning). Appended, so that a user's own filter (-W,
# PYTHONWARNINGS, warnings.filterwarnings/simplefilter) takes precedence: docs/python.md,
# "Warnings".
_warnings.filterwarnings("once", category=FrictionlabWarning, append=True)

__version__ = "0.2.0"
