"""frictionlab.fleet: identification of every joint of every robot of a fleet on Dask, with the
results in a database (SQLite or PostgreSQL), drift, slow trends and outliers flagged (docs/fleet.md).

    from frictionlab import fleet
    summary = fleet.run("fleet.json", manifest="fleet.csv", db="results.sqlite")
    with fleet.open_store("results.sqlite") as store:
        params = store.parameters()
    flagged = fleet.drift(params)
"""
from .config import FleetConfig, FleetInputError, Session, discover, read_config, read_manifest
from .engine import RunSummary, plan, run, sessions_of, status
from .store import open_store
from .analysis import (DriftRule, current_results, drift, drift_counts, history, shared_check,
                       shared_recommendation, spread, trend, undetermined)
from .report import write_report
from . import synthetic

__all__ = ["FleetConfig", "FleetInputError", "Session", "discover", "read_config", "read_manifest",
           "RunSummary", "plan", "run", "sessions_of", "status", "open_store", "DriftRule",
           "current_results", "drift",
           "drift_counts", "history", "shared_check", "shared_recommendation", "spread", "trend",
           "undetermined", "write_report", "synthetic"]
