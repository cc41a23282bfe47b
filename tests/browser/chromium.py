"""A small headless-Chromium harness for the browser tests (standard library + PIL only).

Chromium is driven through the Chrome DevTools Protocol (CDP) over ``--remote-debugging-pipe``:
Chromium reads commands from file descriptor 3 and writes responses and events to file
descriptor 4; every message is one JSON object terminated by a NUL byte. No websocket, no
network port, no third-party package.

    from chromium import Browser, find_chromium, nonblank

    with Browser() as browser:                  # starts Chromium, kills it and removes its profile on exit
        page = browser.open("report.html")      # file:// URL, waits for load + readyState "complete"
        assert page.errors == [] and page.console_errors == []
        assert page.requests == []              # nothing fetched besides the page itself (data: URLs
                                                # are in page.data_requests)
        page.evaluate("document.querySelectorAll('svg').length")
        page.set_value("#slider", 3)            # dispatches input + change
        page.screenshot(tmp / "shot.png"); assert nonblank(tmp / "shot.png") > 0.01
        page.print_pdf(tmp / "page.pdf")

Every wait has a deadline (``timeout`` seconds per call, default 30): a hung browser raises
``BrowserTimeout`` instead of blocking the test, and leaving the ``with`` block always kills
Chromium's whole process group and removes the temporary profile directory.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import pathlib
import select
import shutil
import signal
import subprocess
import tempfile
import time

__all__ = ["find_chromium", "Browser", "Page", "BrowserError", "BrowserTimeout", "JSError",
           "nonblank", "VIEWPORT"]

#: The viewport every page is laid out and screenshotted in (a laptop screen), CSS pixels.
VIEWPORT = (1366, 900)

_NAMES = ("chromium", "chromium-browser")


def find_chromium():
    """Path of the Chromium executable, or None.

    ``$FRICTIONLAB_CHROMIUM`` overrides the search (a path, or a name looked up on PATH; if it
    names nothing executable the result is None, so a wrong override is not silently replaced
    by another browser). Otherwise ``chromium`` then ``chromium-browser`` on PATH.
    """
    override = os.environ.get("FRICTIONLAB_CHROMIUM")
    if override:
        if os.path.sep in override:
            return override if os.path.isfile(override) and os.access(override, os.X_OK) else None
        return shutil.which(override)
    for name in _NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    """Chromium failed: it exited, closed the pipe, or answered a command with an error."""


class BrowserTimeout(BrowserError, TimeoutError):
    """A command or wait did not finish before its deadline (the browser is presumed hung)."""


class JSError(BrowserError):
    """``Page.evaluate``'s expression threw; the message is the exception's text."""


def _remote_text(obj):
    """The text of a CDP Runtime.RemoteObject, as a console would print it."""
    if "value" in obj:
        value = obj["value"]
        return value if isinstance(value, str) else json.dumps(value)
    if "unserializableValue" in obj:
        return obj["unserializableValue"]
    if "description" in obj:
        return obj["description"]
    return obj.get("type", "?")


def _exception_text(details):
    """The text of a CDP Runtime.ExceptionDetails (the exception's description when it has one)."""
    exc = details.get("exception")
    if not exc:
        return details.get("text", "exception")
    return exc.get("description") or _remote_text(exc)


class Page:
    """One tab, opened by ``Browser.open``. Its lists fill as the page runs:

    - ``console``: ``{"type", "text"}`` per console API call (log, info, warning, error, assert, ...)
    - ``errors``: ``{"source", "text"}`` per uncaught exception (source ``"exception"``) and per
      browser log entry of level error (e.g. source ``"network"``, "Failed to load resource")
    - ``requests``: URL of every network request the page made, the page's own URL excluded
    - ``data_requests``: the ``data:`` URLs among them (inline content; allowed)

    Events are collected whenever the harness talks to Chromium, so a call such as ``evaluate``
    (or ``wait``) brings the lists up to date; ``open`` returns only after the page has loaded.
    """

    def __init__(self, browser, target_id, session_id, timeout):
        self._browser = browser
        self.target_id = target_id
        self.session_id = session_id
        self.timeout = timeout
        self.url = None
        self.console = []
        self.errors = []
        self.requests = []
        self.data_requests = []
        self._loads = 0
        self.closed = False

    # ---- events ----
    def _on_event(self, method, params):
        if method == "Runtime.consoleAPICalled":
            text = " ".join(_remote_text(a) for a in params.get("args", []))
            self.console.append({"type": params.get("type", "log"), "text": text})
        elif method == "Runtime.exceptionThrown":
            self.errors.append({"source": "exception",
                                "text": _exception_text(params.get("exceptionDetails", {}))})
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") == "error":
                text = entry.get("text", "")
                if entry.get("url"):
                    text += " (" + entry["url"] + ")"
                self.errors.append({"source": entry.get("source", "other"), "text": text})
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if url.startswith("data:"):
                self.data_requests.append(url)
            elif self.url is None or url.split("#")[0] != self.url.split("#")[0]:
                self.requests.append(url)
        elif method == "Page.loadEventFired":
            self._loads += 1

    @property
    def console_errors(self):
        """The console messages of type error or assert (``console.error``, failed ``console.assert``)."""
        return [m for m in self.console if m["type"] in ("error", "assert")]

    # ---- commands ----
    def _send(self, method, params=None, timeout=None):
        if self.closed:
            raise BrowserError("page is closed")
        return self._browser._command(method, params, self.session_id,
                                      self.timeout if timeout is None else timeout)

    def _navigate(self, url, timeout):
        deadline = time.monotonic() + timeout
        self.url = url
        loads = self._loads
        result = self._send("Page.navigate", {"url": url}, timeout)
        if result.get("errorText"):
            raise BrowserError(f"navigation to {url} failed: {result['errorText']}")
        self._browser._pump(lambda: self._loads > loads, deadline,
                            f"load event of {url}")
        # Settle: the document is the one asked for and complete, and two frames have been
        # produced (so layout and first paint have happened before any screenshot).
        while True:
            state = self.evaluate("[document.readyState, location.href]",
                                  timeout=max(0.1, deadline - time.monotonic()))
            if state[0] == "complete" and state[1].split("#")[0] == url.split("#")[0]:
                break
            if time.monotonic() > deadline:
                raise BrowserTimeout(f"{url}: document not complete after {timeout} s ({state})")
            time.sleep(0.05)
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
                      timeout=max(0.1, deadline - time.monotonic()))

    def evaluate(self, js, timeout=None):
        """The value of the JavaScript expression ``js`` (a promise is awaited), as JSON-decoded
        Python data. Raises ``JSError`` with the exception's text if it throws."""
        result = self._send("Runtime.evaluate",
                            {"expression": js, "returnByValue": True, "awaitPromise": True,
                             "userGesture": True}, timeout)
        if "exceptionDetails" in result:
            raise JSError(_exception_text(result["exceptionDetails"]))
        return result.get("result", {}).get("value")

    def wait(self, seconds):
        """Let the page run for ``seconds`` while collecting its events (timers, late errors)."""
        end = time.monotonic() + seconds
        try:
            self._browser._pump(lambda: False, end, "wait")
        except BrowserTimeout:
            pass

    def click(self, selector):
        """``element.click()`` on the first element matching the CSS ``selector``."""
        self.evaluate(f"""(() => {{
            const el = document.querySelector({json.dumps(selector)});
            if (!el) throw new Error("no element matches " + {json.dumps(selector)});
            el.click(); return true; }})()""")

    def set_value(self, selector, value):
        """Set the ``value`` of the first element matching ``selector`` (e.g. a range input) and
        dispatch ``input`` then ``change`` (bubbling), as a user dragging it would. Returns the
        element's value afterwards (as the browser stored it: a range clamps and rounds to step)."""
        return self.evaluate(f"""(() => {{
            const el = document.querySelector({json.dumps(selector)});
            if (!el) throw new Error("no element matches " + {json.dumps(selector)});
            el.value = {json.dumps(str(value))};
            el.dispatchEvent(new Event("input", {{bubbles: true}}));
            el.dispatchEvent(new Event("change", {{bubbles: true}}));
            return el.value; }})()""")

    def screenshot(self, path):
        """Write a PNG of the whole page (beyond the 1366x900 viewport if it is longer); returns the path."""
        metrics = self._send("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        width = max(VIEWPORT[0], int(size["width"] + 0.999))
        height = max(1, int(size["height"] + 0.999))
        result = self._send("Page.captureScreenshot",
                            {"format": "png", "captureBeyondViewport": True,
                             "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
        path = pathlib.Path(path)
        path.write_bytes(base64.b64decode(result["data"]))
        return path

    def print_pdf(self, path, **options):
        """Print the page to PDF (Page.printToPDF; ``options`` are its parameters, e.g.
        ``landscape=True``, ``printBackground=True``); returns the path."""
        result = self._send("Page.printToPDF", options)
        path = pathlib.Path(path)
        path.write_bytes(base64.b64decode(result["data"]))
        return path

    def close(self):
        if not self.closed:
            self._browser._command("Target.closeTarget", {"targetId": self.target_id}, None,
                                   self.timeout)
            self.closed = True


class Browser:
    """Headless Chromium, as a context manager (see the module docstring).

    ``timeout`` bounds every command and wait (seconds); ``start_timeout`` bounds the start.
    ``Browser.flags`` lists the command line used; ``Browser.version`` is Chromium's product string.
    """

    def __init__(self, executable=None, timeout=30.0, start_timeout=30.0):
        self.executable = executable or find_chromium()
        if not self.executable:
            raise BrowserError("chromium not found: apt-get install chromium")
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.proc = None
        self.profile_dir = None
        self.version = None
        self.flags = None
        self._to_chrome = None     # our end of Chromium's fd 3
        self._from_chrome = None   # our end of Chromium's fd 4
        self._buffer = b""
        self._next_id = 0
        self._responses = {}
        self._pages = {}
        self._log = None

    # ---- lifetime ----
    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def start(self):
        self.profile_dir = tempfile.mkdtemp(prefix="frictionlab-chromium-")
        self.flags = [
            "--headless=new",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile_dir}",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-sync",
            "--disable-dev-shm-usage",      # containers often have a 64 MB /dev/shm
            "--metrics-recording-only",
            "--mute-audio",
            "--hide-scrollbars",            # screenshots independent of scrollbar rendering
            f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
        ]
        if os.geteuid() == 0:
            self.flags.append("--no-sandbox")   # Chromium refuses to run as root with its sandbox
        # Chromium reads fd 3 and writes fd 4. Our pipe ends are close-on-exec (PEP 446); the
        # child's copies are dup2'ed onto 3 and 4 (dup2 clears close-on-exec) after first being
        # moved above 9 so that neither dup2 clobbers the other.
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        def child_fds():
            a = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self._log = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                [self.executable, *self.flags, "about:blank"],
                stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                close_fds=False, preexec_fn=child_fds,
                start_new_session=True)     # own process group: close() kills renderers too
        finally:
            os.close(to_r)
            os.close(from_w)
        self._to_chrome, self._from_chrome = to_w, from_r
        os.set_blocking(self._to_chrome, False)
        os.set_blocking(self._from_chrome, False)
        self.version = self._command("Browser.getVersion", None, None,
                                     self.start_timeout).get("product")
        return self

    def close(self):
        """Close Chromium (politely, then SIGKILL to its process group) and remove its profile.
        Safe to call more than once and after any failure."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None and self._to_chrome is not None:
                try:
                    self._write({"id": -1, "method": "Browser.close"}, time.monotonic() + 2)
                    proc.wait(timeout=2)
                except (BrowserError, OSError, subprocess.TimeoutExpired):
                    pass
            try:   # stragglers of the group (renderers, zygote), or everything if it hung
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        for fd in (self._to_chrome, self._from_chrome):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._to_chrome = self._from_chrome = None
        if self._log is not None:
            self._log.close()
            self._log = None
        if self.profile_dir is not None:
            shutil.rmtree(self.profile_dir, ignore_errors=True)
            self.profile_dir = None

    def log_tail(self, limit=4000):
        """The end of Chromium's stdout/stderr (for error messages)."""
        if self._log is None:
            return ""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")[-limit:]

    # ---- pages ----
    def open(self, path, timeout=None):
        """Open ``path`` (a file path, or a URL) in a new tab laid out at 1366x900 and return its
        ``Page`` once loaded: load event fired, ``document.readyState == "complete"`` and two
        animation frames rendered."""
        timeout = self.timeout if timeout is None else timeout
        text = str(path)
        url = text if "://" in text or text.startswith(("about:", "data:")) else \
            pathlib.Path(text).resolve().as_uri()
        target_id = self._command("Target.createTarget", {"url": "about:blank"}, None,
                                  timeout)["targetId"]
        session_id = self._command("Target.attachToTarget",
                                   {"targetId": target_id, "flatten": True}, None,
                                   timeout)["sessionId"]
        page = Page(self, target_id, session_id, timeout)
        self._pages[session_id] = page
        for domain in ("Page", "Runtime", "Network", "Log"):
            page._send(f"{domain}.enable")
        page._send("Emulation.setDeviceMetricsOverride",
                   {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1,
                    "mobile": False})
        page._navigate(url, timeout)
        return page

    # ---- protocol ----
    def _alive_or_raise(self, what):
        if self.proc is None:
            raise BrowserError(f"{what}: browser is closed")
        if self.proc.poll() is not None:
            raise BrowserError(f"{what}: chromium exited with status {self.proc.returncode}:\n"
                               + self.log_tail())

    def _write(self, message, deadline):
        data = json.dumps(message).encode() + b"\0"
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BrowserTimeout(f"writing {message.get('method')}: pipe full (browser hung?)")
            _, writable, _ = select.select([], [self._to_chrome], [], remaining)
            if writable:
                try:
                    data = data[os.write(self._to_chrome, data):]
                except BrokenPipeError:
                    raise BrowserError("chromium closed its command pipe:\n" + self.log_tail())

    def _read_some(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        readable, _, _ = select.select([self._from_chrome], [], [], min(remaining, 0.5))
        if not readable:
            return True
        chunk = os.read(self._from_chrome, 1 << 20)
        if not chunk:
            self.proc.poll()
            raise BrowserError("chromium closed its event pipe (exited?):\n" + self.log_tail())
        self._buffer += chunk
        *messages, self._buffer = self._buffer.split(b"\0")
        for raw in messages:
            message = json.loads(raw)
            if "id" in message:
                self._responses[message["id"]] = message
            else:
                page = self._pages.get(message.get("sessionId"))
                if page is not None:
                    page._on_event(message.get("method"), message.get("params", {}))
        return True

    def _pump(self, done, deadline, what):
        """Read messages until ``done()`` or the deadline (``BrowserTimeout``)."""
        while not done():
            self._alive_or_raise(what)
            if not self._read_some(deadline):
                raise BrowserTimeout(f"timed out waiting for {what} (browser hung?)")

    def _command(self, method, params, session_id, timeout):
        """Send one CDP command and return its result (raising ``BrowserError`` on a protocol error)."""
        deadline = time.monotonic() + timeout
        self._alive_or_raise(method)
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session_id:
            message["sessionId"] = session_id
        self._write(message, deadline)
        ident = self._next_id
        self._pump(lambda: ident in self._responses, deadline, f"{method} ({timeout} s)")
        response = self._responses.pop(ident)
        if "error" in response:
            raise BrowserError(f"{method}: {response['error'].get('message')} "
                               f"{response['error'].get('data', '')}".rstrip())
        return response.get("result", {})


def nonblank(png_path):
    """Fraction of the PNG's pixels whose colour differs from its most common colour (0 for a
    blank page, i.e. a uniform background)."""
    from PIL import Image   # python3-pil; imported here so the harness loads without it

    with Image.open(png_path) as image:
        rgb = image.convert("RGB")
        total = rgb.width * rgb.height
        colours = rgb.getcolors(maxcolors=total)
    return 1.0 - max(count for count, _ in colours) / total
