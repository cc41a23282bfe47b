"""Fixtures shared by the test modules: one throw-away PostgreSQL server for the whole session
(python/tests/_postgres.py), and the demo's records once per module that asks for them."""
import pytest

from _cli import demo_records
from _postgres import postgres_server_url, postgres_url  # noqa: F401 (pytest fixtures)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The directory of the demo's records (_cli.demo_records), made once per test module."""
    return demo_records(tmp_path_factory)
