"""What every browser test shares: one real server for the whole run, a Chromium per test class,
and helpers that read as the steps a student takes.

Every test leaves a screenshot in $SCREENSHOT_DIR (default .build/screenshots) and fails if the
page broke its Content-Security-Policy or a script opened an alert.
"""
import atexit
import os
import sqlite3
import unittest

from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from harness import ROOT, Server, chromium, login_ready

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR", os.path.join(ROOT, ".build", "screenshots"))
BINARY = os.environ.get("ONTHEMAP_BINARY", os.path.join(ROOT, ".build/debug/onthemap"))
PASSWORD = "correct horse battery"
AXE = os.path.join(ROOT, ".build", "axe", "axe.min.js")
# A row as the original service could hold it: a javascript: link, which the API now refuses.
LEGACY_NAME = "Mallory Legacy"
LEGACY_LINK = "javascript:alert(document.cookie)"

_server = None


def shared_server():
    """The one server of the run, started on first use, with the legacy row in its database."""
    global _server
    if _server is None:
        _server = Server(BINARY)
        _server.start(wait_for_geocoder=False)  # creates the schema
        _server.stop()
        with sqlite3.connect(_server.database) as connection:
            connection.execute(
                "INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string,"
                " media_url, latitude, longitude, created_at, updated_at) VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                ("LegacyRow1", "legacy", "Mallory", "Legacy", "Honolulu", LEGACY_LINK,
                 21.31, -157.86, 1_000_000_000_000, 1_000_000_000_000))
        _server.start()
        os.makedirs(SCREENSHOTS, exist_ok=True)
        atexit.register(_server.remove)
    return _server


class BrowserTest(unittest.TestCase):
    """A Chromium window on the shared server. Tests of one class run in name order and share it."""
    width, height, mobile, language = 1280, 800, False, "en-US"
    # The system's colour scheme the page is shown ("dark": prefers-color-scheme matches dark).
    color_scheme = "light"
    # Whether the app may offer itself for the home screen (a notice under the tabs that makes the
    # map shorter): only the tests about it; for the rest the browser's offer never reaches the page.
    offer_install = False
    # A server of the class's own (an empty database, the geocoder loaded) instead of the shared
    # one, for tests whose pins must not meet other classes' pins.
    own_server = False
    # The own server's settings beyond the harness's.
    server_args = ()

    @classmethod
    def setUpClass(cls):
        if cls.own_server:
            cls.server = Server(BINARY, cls.server_args)
            cls.server.start()
        else:
            cls.server = shared_server()
        cls.driver = chromium(cls.width, cls.height, cls.mobile, cls.language)
        cls.emulate_color_scheme(cls.color_scheme)
        if not cls.offer_install:
            cls.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
                addEventListener('beforeinstallprompt', (event) => event.stopImmediatePropagation());"""})
        # Leaflet replaces popups and markers as the view changes: an element found a moment ago
        # may be gone, which only means "look again".
        cls.wait = WebDriverWait(cls.driver, 20, ignored_exceptions=[StaleElementReferenceException])

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        if cls.own_server:
            cls.server.remove()

    @classmethod
    def emulate_color_scheme(cls, scheme):
        """Makes the system prefer `scheme` ("light" or "dark"), as a phone's setting would."""
        cls.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})

    def tearDown(self):
        self.screenshot(self._testMethodName)
        violations = self.driver.execute_script("return window.__cspViolations || []")
        self.assertEqual(violations, [], "the page broke its Content-Security-Policy")
        with self.assertRaises(NoAlertPresentException, msg="a script opened an alert"):
            self.driver.switch_to.alert.text

    def screenshot(self, name):
        prefix = ("phone" if self.mobile else "desktop") + ("-dark" if self.color_scheme == "dark" else "")
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{prefix}-{name}.png"))

    def axe(self, screen):
        """axe-core finds no violation of serious or critical impact, and none about landmarks."""
        with open(AXE, encoding="utf-8") as file:
            self.driver.execute_script(file.read())
        self.driver.set_script_timeout(60)
        violations = self.driver.execute_async_script("""
            const done = arguments[0];
            axe.run(document, {resultTypes: ['violations']}).then((result) => done(result.violations.map((v) => ({
              id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary)}))));""")
        blocking = [v for v in violations if v["impact"] in ("serious", "critical")
                    or v["id"].startswith("landmark") or v["id"] == "region"]
        report = "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in blocking)
        self.assertEqual(blocking, [], f"axe on the {screen} screen:\n{report}")

    def by_id(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def visible(self, element_id):
        return self.wait.until(EC.visibility_of_element_located((By.ID, element_id)))

    def type_into(self, element_id, text):
        field = self.visible(element_id)
        field.clear()
        field.send_keys(text)

    def open_app(self):
        self.driver.get(self.server.base + "/")

    def login_ready(self):
        """Waits for the login form, taken over by the page's script."""
        self.wait.until(login_ready)

    def shown_screen(self):
        """The screen the app settles on, "login-screen" or "app-screen". Both start hidden: right after
        a load the app is still asking whether the session lives, and neither answer is known yet."""
        return self.wait.until(lambda d: "login-screen" if login_ready(d)
                               else "app-screen" if d.find_element(By.ID, "app-screen").is_displayed() else None)

    def log_in(self, email, password=PASSWORD):
        self.login_ready()
        self.type_into("login-email", email)
        self.type_into("login-password", password)
        self.by_id("login-button").click()

    def log_in_afresh(self, email, password=PASSWORD):
        """A new visit without cookies, logged in as `email`."""
        self.driver.delete_all_cookies()
        self.driver.get(self.server.base + "/#/login")
        self.driver.refresh()
        self.log_in(email, password)

    def sign_up_and_log_in(self, first, last, email):
        """A new account made through the API, then logged in through the page."""
        self.server.sign_up(first, last, email)
        self.open_app()
        self.log_in(email)
        self.wait_for_map()

    def wait_for_map(self):
        self.visible("app-screen")
        self.wait.until(lambda d: d.find_element(By.ID, "map").get_attribute("data-ready") == "true")

    def pins_on_map(self):
        """Posts the map shows: single pins plus the counts written on cluster bubbles."""
        return self.driver.execute_script("""
            const singles = document.querySelectorAll('#map .leaflet-marker-icon.pin-marker').length;
            const clustered = [...document.querySelectorAll('#map .marker-cluster span[aria-hidden]')]
              .reduce((sum, node) => sum + Number(node.textContent), 0);
            return singles + clustered;""")

    def pin(self, label_part):
        return self.wait.until(lambda d: next((m for m in d.find_elements(By.CSS_SELECTOR, "#map .pin-marker")
                                               if label_part in (m.get_attribute("aria-label") or "")), None))

    def frame_all_pins(self):
        """Presses the fit button and waits for the zoom and the clusters to settle, after which
        pin elements stay put."""
        self.by_id("fit-button").click()
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".leaflet-zoom-anim, .leaflet-cluster-anim"))

    def open_pin(self, label_part):
        """Frames every pin, taps the one labelled `label_part` (the tests post at places far enough
        apart not to cluster when framed) and returns its popup."""
        self.frame_all_pins()
        self.pin(label_part).click()
        return self.visible_popup(label_part.split(",")[0])

    def visible_popup(self, *containing):
        """The open map popup holding every one of `containing`. Check a popup's text here, inside
        the wait, not on the element it returns: the map may redraw the popup a moment later (a
        live update of the pin just posted), and the old element is then stale."""
        return self.wait.until(lambda d: next((popup for popup in d.find_elements(By.CSS_SELECTOR, "#map .leaflet-popup-content")
                                               if popup.is_displayed() and all(text in popup.text for text in containing)), None))

    def api_list(self):
        status, body = self.server.call("GET", "/v1/StudentLocation")
        self.assertEqual(status, 200)
        return body["results"]

    def opens_in_new_window(self, element, expected_url):
        """Clicks `element` and checks a new window loads `expected_url`; closes it again."""
        main = self.driver.current_window_handle
        before = set(self.driver.window_handles)
        element.click()
        self.wait.until(lambda d: len(d.window_handles) == len(before) + 1)
        (new_window,) = set(self.driver.window_handles) - before
        self.driver.switch_to.window(new_window)
        self.wait.until(lambda d: d.current_url == expected_url)
        # noopener: the new page cannot reach back into the app.
        self.assertIsNone(self.driver.execute_script("return window.opener"))
        self.driver.close()
        self.driver.switch_to.window(main)
