"""Fixtures for the browser tests (tests/browser/): a real headless Chromium (chromium.py).

Without Chromium (or PIL) the tests are skipped with the apt-get line to run; with
FRICTIONLAB_REQUIRE_BROWSER=1 (set by the CTest registration, so in CI) they fail instead.
"""

import os

import pytest

import chromium


def _unavailable(message):
    if os.environ.get("FRICTIONLAB_REQUIRE_BROWSER") == "1":
        pytest.fail(message + " (FRICTIONLAB_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def chromium_path():
    """The Chromium executable (skips, or fails under FRICTIONLAB_REQUIRE_BROWSER=1, without one)."""
    path = chromium.find_chromium()
    if path is None:
        _unavailable("chromium not found: apt-get install chromium")
    try:
        import PIL  # noqa: F401  (chromium.nonblank reads screenshots with it)
    except ImportError:
        _unavailable("PIL not found: apt-get install python3-pil")
    return path


@pytest.fixture(scope="module")
def browser(chromium_path):
    """One headless Chromium per test module (each Browser.open is a new tab)."""
    with chromium.Browser(chromium_path) as b:
        yield b
