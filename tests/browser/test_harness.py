"""The browser harness (chromium.py) proves itself on small pages written to tmp_path: each
property the report tests rely on is shown both present and absent, so each check can fail."""

import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

import chromium
from chromium import Browser, BrowserError, BrowserTimeout, JSError, nonblank

HERE = pathlib.Path(__file__).resolve().parent


def write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text("<!doctype html><html><head><meta charset=utf-8><title>t</title></head>"
                    f"<body>{body}</body></html>", encoding="utf-8")
    return path


CLEAN = """
<h1 id=title>Fit report</h1>
<svg id=plot width=600 height=300 viewBox="0 0 600 300">
  <rect x=0 y=0 width=600 height=300 fill="#eef"/>
  <polyline points="0,300 150,120 300,200 450,40 600,100" stroke="#c00" stroke-width=4 fill=none/>
  <circle cx=150 cy=120 r=8 fill="#00c"/><circle cx=450 cy=40 r=8 fill="#00c"/>
</svg>
<script>document.getElementById("title").dataset.ready = "yes";</script>
"""


def test_clean_page(browser, tmp_path):
    page = browser.open(write(tmp_path, "clean.html", CLEAN))
    assert page.errors == []
    assert page.console == []
    assert page.requests == [] and page.data_requests == []
    # DOM queries, the inline script ran, and the SVG was laid out at its size.
    assert page.evaluate("document.querySelectorAll('#plot circle').length") == 2
    assert page.evaluate("document.getElementById('title').dataset.ready") == "yes"
    box = page.evaluate("(() => { const r = document.getElementById('plot').getBoundingClientRect();"
                        " return {w: r.width, h: r.height}; })()")
    assert box == {"w": 600, "h": 300}
    assert page.evaluate("innerWidth") == chromium.VIEWPORT[0]
    shot = page.screenshot(tmp_path / "clean.png")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image
    with Image.open(shot) as image:
        assert image.size == chromium.VIEWPORT     # the page is shorter than the viewport
    assert nonblank(shot) > 0.05                   # the 600x300 plot is ~15 % of 1366x900


def test_blank_page_is_blank(browser, tmp_path):
    page = browser.open(write(tmp_path, "blank.html", ""))
    assert nonblank(page.screenshot(tmp_path / "blank.png")) == 0.0


def test_long_page_screenshot_is_full_page(browser, tmp_path):
    page = browser.open(write(tmp_path, "long.html",
                              "<div style='height:2500px;background:#ccc'></div><p>end</p>"))
    from PIL import Image
    with Image.open(page.screenshot(tmp_path / "long.png")) as image:
        assert image.width == chromium.VIEWPORT[0] and image.height > 2500


def test_console_error_and_uncaught_exceptions_reported(browser, tmp_path):
    page = browser.open(write(tmp_path, "errors.html", """
        <p>text</p>
        <script>console.log("hello", 42); console.error("x");</script>
        <script>throw new Error("boom");</script>
        <script>setTimeout(() => { throw new TypeError("late"); }, 50);</script>"""))
    page.wait(0.5)
    assert {"type": "log", "text": "hello 42"} in page.console
    assert page.console_errors == [{"type": "error", "text": "x"}]
    exceptions = [e["text"] for e in page.errors if e["source"] == "exception"]
    assert len(exceptions) == 2, page.errors
    assert exceptions[0].startswith("Error: boom")
    assert exceptions[1].startswith("TypeError: late")


def test_requests_reported_even_when_they_fail(browser, tmp_path):
    png = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8"
           "z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
    page = browser.open(write(tmp_path, "requests.html", f"""
        <link rel=stylesheet href="https://example.invalid/a.css">
        <img src="http://127.0.0.1:9/x.png"><img src="{png}">"""))
    assert sorted(page.requests) == ["http://127.0.0.1:9/x.png", "https://example.invalid/a.css"]
    assert page.data_requests == [png]
    failed = [e["text"] for e in page.errors if e["source"] == "network"]
    assert len(failed) == 2, page.errors


def test_set_value_and_click_dispatch_events(browser, tmp_path):
    page = browser.open(write(tmp_path, "range.html", """
        <input id=k type=range min=0 max=10 step=1 value=2>
        <svg><circle id=c r=2 cx=20 cy=20 /></svg>
        <button id=b>reset</button>
        <script>
          const k = document.getElementById("k"), c = document.getElementById("c");
          k.addEventListener("input", () => c.setAttribute("r", 2 * k.value));
          k.addEventListener("change", () => document.body.dataset.changed = k.value);
          document.getElementById("b").addEventListener("click", () => c.setAttribute("r", "1"));
        </script>"""))
    assert page.evaluate("document.getElementById('c').getAttribute('r')") == "2"
    assert page.set_value("#k", 7) == "7"
    assert page.evaluate("document.getElementById('c').getAttribute('r')") == "14"
    assert page.evaluate("document.body.dataset.changed") == "7"
    assert page.set_value("#k", 99) == "10"          # the browser clamps a range input
    page.click("#b")
    assert page.evaluate("document.getElementById('c').getAttribute('r')") == "1"
    with pytest.raises(JSError, match="no element matches #missing"):
        page.click("#missing")
    assert page.errors == [] and page.console == []


def test_evaluate(browser, tmp_path):
    page = browser.open(write(tmp_path, "eval.html", "<p id=p>a</p>"))
    assert page.evaluate("({a: [1, 2.5, 'x'], b: null, c: true})") == {"a": [1, 2.5, "x"],
                                                                        "b": None, "c": True}
    assert page.evaluate("new Promise(r => setTimeout(() => r(document.title), 20))") == "t"
    with pytest.raises(JSError, match="TypeError: Cannot read properties of null"):
        page.evaluate("document.getElementById('nope').textContent")
    with pytest.raises(JSError, match="rejected"):
        page.evaluate("Promise.reject(new Error('rejected'))")
    assert page.errors == []     # exceptions of evaluate() are its own, not the page's


def test_print_pdf(browser, tmp_path):
    page = browser.open(write(tmp_path, "print.html", CLEAN))
    pdf = page.print_pdf(tmp_path / "page.pdf", printBackground=True)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-64:]
    assert len(data) > 1000


def test_missing_file_is_an_error(browser, tmp_path):
    with pytest.raises(BrowserError, match="ERR_FILE_NOT_FOUND"):
        browser.open(tmp_path / "missing.html")


def _group_alive(pgid):
    """Processes (not zombies) left in the process group ``pgid``."""
    alive = []
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(stat.parent.name)
    return alive


def _assert_cleaned_up(proc, profile, started):
    """After a Browser's `with` block: its process `proc` has ended, its profile directory
    `profile` is removed and no process of its group is left (the group is given 5 s to go),
    all within 60 s of `started` (time.monotonic()): a hung browser leaves nothing behind."""
    assert proc.poll() is not None
    assert not profile.exists()
    deadline = time.monotonic() + 5
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _group_alive(proc.pid) == []
    assert time.monotonic() - started < 60


def test_hung_page_times_out_and_browser_is_cleaned_up(chromium_path, tmp_path):
    started = time.monotonic()
    with Browser(chromium_path, timeout=3) as b:
        page = b.open(write(tmp_path, "hang.html", "<p>x</p>"))
        proc, profile = b.proc, pathlib.Path(b.profile_dir)
        assert profile.is_dir() and proc.poll() is None
        assert _group_alive(proc.pid)
        t0 = time.monotonic()
        with pytest.raises(BrowserTimeout):
            page.evaluate("for (;;) {}")
        assert 2.5 < time.monotonic() - t0 < 10
    _assert_cleaned_up(proc, profile, started)


def test_hung_browser_process_is_killed(chromium_path, tmp_path):
    """A browser process that stops answering (SIGSTOP) fails the call within its timeout and is
    killed with its whole process group on exit."""
    started = time.monotonic()
    with Browser(chromium_path, timeout=3) as b:
        page = b.open(write(tmp_path, "stop.html", "<p>x</p>"))
        proc, profile = b.proc, pathlib.Path(b.profile_dir)
        os.kill(proc.pid, signal.SIGSTOP)
        with pytest.raises(BrowserTimeout):
            page.evaluate("1 + 1")
    assert proc.poll() is not None and proc.returncode == -signal.SIGKILL
    _assert_cleaned_up(proc, profile, started)


def test_browser_that_exits_is_an_error(tmp_path):
    fake = tmp_path / "fake-chromium"
    fake.write_text("#!/bin/sh\necho 'fake chromium: no display' >&2\nexit 3\n")
    fake.chmod(0o755)
    with pytest.raises(BrowserError, match="fake chromium: no display"):
        with Browser(str(fake), start_timeout=10):
            pass


def test_find_chromium_override(monkeypatch, tmp_path):
    monkeypatch.setenv("FRICTIONLAB_CHROMIUM", str(tmp_path / "none"))
    assert chromium.find_chromium() is None
    exe = tmp_path / "my-chromium"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("FRICTIONLAB_CHROMIUM", str(exe))
    assert chromium.find_chromium() == str(exe)


@pytest.mark.parametrize("required", [False, True])
def test_missing_browser_skips_or_fails(required):
    """Without Chromium a browser test is skipped, unless FRICTIONLAB_REQUIRE_BROWSER=1 (CTest, CI)."""
    env = dict(os.environ, FRICTIONLAB_CHROMIUM="/nonexistent/chromium")
    env.pop("FRICTIONLAB_REQUIRE_BROWSER", None)
    if required:
        env["FRICTIONLAB_REQUIRE_BROWSER"] = "1"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rsE", "-p", "no:cacheprovider",
                          f"{HERE / 'test_harness.py'}::test_clean_page"],
                         cwd=HERE, env=env, capture_output=True, text=True, timeout=120)
    assert "chromium not found: apt-get install chromium" in run.stdout, run.stdout + run.stderr
    if required:
        assert run.returncode == 1 and "1 error" in run.stdout, run.stdout
    else:
        assert run.returncode == 0 and "1 skipped" in run.stdout, run.stdout
