"""Fixtures shared by the test modules: one throw-away PostgreSQL server for the whole session
(python/tests/_postgres.py)."""
from _postgres import postgres_server_url, postgres_url  # noqa: F401 (pytest fixtures)
