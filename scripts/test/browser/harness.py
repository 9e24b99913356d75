"""A real On The Map server on a temporary SQLite file, and a headless Debian Chromium driving it.

Used by the browser tests (`make test`) and the browser benchmark (`make bench`). Run with
Debian's /usr/bin/python3, which sees the python3-selenium package.
"""
import http.server
import json
import os
import struct
import threading
import zlib
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

# The project root: this file is in scripts/test/browser/.
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))

# Records every Content-Security-Policy violation the page reports, before any page script runs.
CSP_RECORDER = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push(event.violatedDirective + ' ' + (event.blockedURI || 'inline'));
});
"""


# Chromium's "slow 4G": 150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up.
SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
# Chromium DevTools' own "Slow 4G" preset (its throttling menu): each request waits 562.5 ms,
# 1.44 Mbit/s down and 675 kbit/s up; what a student on a poor mobile network gets.
CHROMIUM_SLOW_4G = {"offline": False, "latency": 562.5, "downloadThroughput": 1_440_000 / 8, "uploadThroughput": 675_000 / 8}


# The page shows the login form itself when no session came with the request, before its script
# has arrived (WebClient/FirstPage.swift); the form is ready once the script has shown the login
# screen (its mark) and turned the button on.
LOGIN_READY = """
const button = document.getElementById('login-button');
return button.offsetParent !== null && !button.disabled && performance.getEntriesByName('shown-login-screen').length > 0;"""


def login_ready(driver):
    return driver.execute_script(LOGIN_READY)


def as_first_visit(driver):
    """Nothing cached and no service worker: it fetches in a target of its own, which network
    throttling does not reach, and would fill the caches ahead of the page (on a real first visit
    it does not run yet). Network conditions are the caller's."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/sw.js"]})
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`onthemap serve` on its own port and database; `stop()` and `start()` keep the database."""

    def __init__(self, binary, extra_args=()):
        self.binary = binary
        self.extra_args = list(extra_args)
        self.directory = tempfile.mkdtemp(prefix="onthemap-browser-")
        self.database = os.path.join(self.directory, "onthemap.sqlite")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self, wait_for_geocoder=True):
        log = open(os.path.join(self.directory, "server.log"), "ab")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--database", self.database, *self.extra_args],
            stdout=log, stderr=subprocess.STDOUT)
        self.wait_until_answering("/readyz" if wait_for_geocoder else "/healthz")

    def wait_until_answering(self, path):
        """Until `path` answers 200: /healthz once the server listens, /readyz once the geocoder is loaded."""
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log()}")
            try:
                with urllib.request.urlopen(self.base + path, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{path} did not answer 200 within 90 s: {self.log()}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None

    def remove(self):
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def log(self):
        with open(os.path.join(self.directory, "server.log"), "rb") as file:
            return file.read().decode("utf-8", "replace")[-3000:]

    def call(self, method, path, body=None, token=None):
        """A JSON API call as a native client makes it (bearer token, no cookies)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, self._json(response.read())
        except urllib.error.HTTPError as error:
            return error.code, self._json(error.read())

    @staticmethod
    def _json(raw):
        text = raw.decode("utf-8")
        if text.startswith(")]}'\n"):
            text = text[5:]
        return json.loads(text) if text else None

    def sign_up(self, first, last, email, password="correct horse battery"):
        """A new account; returns its session token."""
        status, body = self.call("POST", "/v1/accounts", {"email": email, "password": password, "firstName": first, "lastName": last})
        assert status == 201, (status, body)
        return body["session"]["id"]

    def post_location(self, token, map_string, media_url, latitude, longitude):
        status, body = self.call("POST", "/v1/StudentLocation", {
            "mapString": map_string, "mediaURL": media_url, "latitude": latitude, "longitude": longitude}, token)
        assert status == 200, (status, body)
        return body["objectId"]


def chromium(width=1280, height=800, mobile=False, language="en-US"):
    """Headless Debian Chromium (as root it needs --no-sandbox), recording CSP violations, with
    `language` as the reader's preferred language."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", f"--lang={language}", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    if mobile:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_RECORDER})
    return driver


def solid_png(size=256, rgb=(200, 230, 201)):
    """A one-colour PNG, built with the standard library."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" + bytes(rgb) * size
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * size)) + chunk(b"IEND", b""))


class OneAnswerServer:
    """A web server on its own port (so its own origin) that answers every GET with `body`, and
    counts the requests."""

    def __init__(self, body, content_type):
        counter = self
        self.requests = 0

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                counter.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


class TileServer(OneAnswerServer):
    """Answers every GET with the same map tile and counts the requests, standing in for an online
    tile provider (there is no internet here)."""

    def __init__(self):
        super().__init__(solid_png(), "image/png")


class CoursePage(OneAnswerServer):
    """Another site's page (its own origin) that frames `frames`, one iframe each, as a school's
    course page would frame a course's map."""

    def __init__(self, frames):
        body = "".join(f'<iframe id="frame{index}" src="{src}" title="frame {index}" width="800" height="480"></iframe>'
                       for index, src in enumerate(frames))
        super().__init__(f"<!doctype html><html lang=en><head><title>A course page</title></head><body>{body}</body></html>".encode(),
                         "text/html; charset=utf-8")
