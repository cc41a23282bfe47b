"""frictionlab.fleet: identification of every joint of every robot of a fleet on Dask, with the
results in a database (SQLite or PostgreSQL), drift and outliers flagged (docs/fleet.md)."""
