"""The web client end to end in headless Chromium against a real server and SQLite file.

    /usr/bin/python3 tests/browser/test_web_client.py .build/debug/onthemap

Each test leaves a screenshot in $SCREENSHOT_DIR (default .build/screenshots). The tests of
WebClientFlow run in order: they are one student's session, from sign-up to logout.
"""
import os
import sqlite3
import sys
import time
import unittest
import urllib.request

from selenium.common.exceptions import NoAlertPresentException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from harness import ROOT, Server, TileServer, chromium

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR", os.path.join(ROOT, ".build", "screenshots"))
PASSWORD = "correct horse battery"
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
server = None


def setUpModule():
    global server
    server = Server(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/onthemap"))
    seed_legacy_row(server.database)
    server.start()
    os.makedirs(SCREENSHOTS, exist_ok=True)


def tearDownModule():
    server.remove()


def seed_legacy_row(database):
    """A row as the original service could hold it: a javascript: link, which the API now refuses.
    Written before the server starts, straight into a database the server then migrates."""
    bootstrap = Server(server.binary)
    bootstrap.database = database
    bootstrap.start(wait_for_geocoder=False)
    bootstrap.stop()
    with sqlite3.connect(database) as connection:
        connection.execute(
            "INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string,"
            " media_url, latitude, longitude, created_at, updated_at) VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ("LegacyRow1", "legacy", "Mallory", "Legacy", "Honolulu", "javascript:alert(document.cookie)",
             21.31, -157.86, 1_000_000_000_000, 1_000_000_000_000))


class BrowserTest(unittest.TestCase):
    width, height, mobile = 1280, 800, False

    @classmethod
    def setUpClass(cls):
        cls.driver = chromium(cls.width, cls.height, cls.mobile)
        cls.wait = WebDriverWait(cls.driver, 20)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def tearDown(self):
        self.screenshot(self._testMethodName)
        violations = self.driver.execute_script("return window.__cspViolations || []")
        self.assertEqual(violations, [], "the page broke its Content-Security-Policy")
        with self.assertRaises(NoAlertPresentException, msg="a script opened an alert"):
            self.driver.switch_to.alert.text

    def screenshot(self, name):
        prefix = "phone" if self.mobile else "desktop"
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{prefix}-{name}.png"))

    # Helpers that read as the steps a student takes.
    def by_id(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def visible(self, element_id):
        return self.wait.until(EC.visibility_of_element_located((By.ID, element_id)))

    def type_into(self, element_id, text):
        field = self.visible(element_id)
        field.clear()
        field.send_keys(text)

    def log_in(self, email, password=PASSWORD):
        self.visible("login-email")
        self.type_into("login-email", email)
        self.type_into("login-password", password)
        self.by_id("login-button").click()

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

    def open_pin(self, label_part):
        """Frames every pin, taps the one labelled `label_part` (the seeded places are far enough
        apart not to cluster) and returns its popup."""
        self.by_id("fit-button").click()
        self.pin(label_part).click()
        return self.visible_popup(label_part.split(",")[0])

    def visible_popup(self, containing=""):
        return self.wait.until(lambda d: next((popup for popup in d.find_elements(By.CSS_SELECTOR, "#map .leaflet-popup-content")
                                               if popup.is_displayed() and containing in popup.text), None))

    def api_list(self):
        status, body = server.call("GET", "/v1/StudentLocation")
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


class WebClientFlow(BrowserTest):
    """One student's session, in order."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.ada = server.sign_up("Ada", "Lovelace", "ada@example.com")
        cls.ada_link = f"{server.base}/healthz?ada"
        server.post_location(cls.ada, "London, UK", cls.ada_link, 51.5, -0.12)
        cls.grace = server.sign_up("Grace", "Hopper", "grace@example.com")
        cls.grace_link = f"{server.base}/healthz?grace"
        server.post_location(cls.grace, "Arlington, VA", cls.grace_link, 38.88, -77.1)
        hostile = server.sign_up(HOSTILE_NAME, "Hacker", "hostile@example.com")
        server.post_location(hostile, "<b>Tokyo</b>", "https://example.org/hostile", 35.68, 139.69)

    def test_01_sign_up_lands_on_the_map(self):
        self.driver.get(server.base + "/")
        self.visible("login-screen")
        self.screenshot("login")
        self.by_id("signup-link").click()
        self.visible("signup-screen")
        self.type_into("signup-first", "Katherine")
        self.type_into("signup-last", "Johnson")
        self.type_into("signup-email", "katherine@example.com")
        self.type_into("signup-password", "short")
        self.by_id("signup-button").click()
        self.assertIn("at least 8 characters", self.visible("signup-error").text)
        self.type_into("signup-password", PASSWORD)
        self.by_id("signup-button").click()
        self.wait_for_map()
        self.assertEqual(self.driver.execute_script("return location.hash"), "#/map")

    def test_02_logout_returns_to_login(self):
        self.by_id("logout-button").click()
        self.visible("login-screen")
        # The session cookie is gone: the API no longer knows this browser.
        status = self.driver.execute_script("return fetch('/v1/me').then(r => r.status)")
        self.assertEqual(status, 401)
        self.assertEqual(self.by_id("login-email").get_attribute("value"), "")

    def test_03_wrong_password_says_credentials(self):
        self.log_in("katherine@example.com", "not the password")
        error = self.visible("login-error")
        self.assertIn("don’t match an account", error.text)
        self.assertNotIn("reach the server", error.text)

    def test_03b_too_many_attempts_says_so(self):
        # Throttling counts per email and address: a stranger's email leaves Katherine's login alone.
        for attempt in range(12):
            self.log_in("stranger@example.com", f"guess {attempt}")
            self.wait.until(lambda d: d.find_element(By.ID, "login-button").get_attribute("aria-busy") is None)
            if "Too many attempts" in self.by_id("login-error").text:
                break
        self.assertRegex(self.by_id("login-error").text, r"Too many attempts\. Try again in \d+ seconds?\.")
        self.screenshot("too-many-attempts")

    def test_04_stopped_server_says_network(self):
        server.stop()
        try:
            self.log_in("katherine@example.com")
            self.wait.until(lambda d: "reach the server" in d.find_element(By.ID, "login-error").text)
            self.assertNotIn("match an account", self.by_id("login-error").text)
            self.screenshot("network-error")
        finally:
            server.start()

    def test_05_login_shows_every_pin(self):
        self.log_in("katherine@example.com")
        self.wait_for_map()
        self.assertEqual(self.pins_on_map(), len(self.api_list()))
        self.assertEqual(self.by_id("map").get_attribute("data-pins"), str(len(self.api_list())))
        self.screenshot("map")

    def test_06_pin_popup_shows_name_and_opens_link(self):
        popup = self.open_pin("Grace Hopper")
        self.assertIn("Grace Hopper", popup.text)
        self.assertIn(self.grace_link, popup.text)
        link = popup.find_element(By.CSS_SELECTOR, "a.popup-link")
        self.assertEqual(link.get_attribute("target"), "_blank")
        self.assertEqual(link.get_attribute("rel"), "noopener noreferrer")
        self.screenshot("popup")
        self.opens_in_new_window(popup.find_element(By.CSS_SELECTOR, ".popup-name"), self.grace_link)
        # A tap elsewhere on the map closes the popup.
        self.driver.execute_script("""
            const map = document.getElementById('map'); const box = map.getBoundingClientRect();
            map.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: box.left + 60, clientY: box.bottom - 60}));""")
        self.wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, "#map .leaflet-popup")))

    def test_07_list_is_newest_first_and_rows_open_links(self):
        self.by_id("tab-list").click()
        self.visible("list-panel")
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#post-list .post-row")
        expected = [f"{p['firstName']} {p['lastName']}" for p in self.api_list()]
        self.assertEqual([row.find_element(By.CSS_SELECTOR, ".row-name").text for row in rows], expected)
        times = [row.find_element(By.TAG_NAME, "time").get_attribute("datetime") for row in rows]
        self.assertEqual(times, sorted(times, reverse=True))
        grace = next(row for row in rows if "Grace Hopper" in row.text)
        self.assertIn("127.0.0.1", grace.find_element(By.CSS_SELECTOR, ".row-host").text)
        self.assertRegex(grace.find_element(By.TAG_NAME, "time").text, r"^(just now|\d+ minutes? ago)$")
        legacy = next(row for row in rows if "Mallory Legacy" in row.text)
        self.assertRegex(legacy.find_element(By.TAG_NAME, "time").text, r"^\d+ years ago$")
        self.screenshot("list")
        self.opens_in_new_window(grace.find_element(By.TAG_NAME, "a"), self.grace_link)

    def test_08_refresh_shows_a_post_made_meanwhile(self):
        newcomer = server.sign_up("Mary", "Jackson", "mary@example.com")
        server.post_location(newcomer, "Cape Town", "https://example.net/mary", -33.92, 18.42)
        self.assertNotIn("Mary Jackson", self.by_id("post-list").text)
        self.by_id("refresh-button").click()
        self.wait.until(lambda d: "Mary Jackson" in d.find_element(By.ID, "post-list").text)
        first = self.driver.find_element(By.CSS_SELECTOR, "#post-list .post-row .row-name")
        self.assertEqual(first.text, "Mary Jackson")
        self.by_id("tab-map").click()
        self.wait_for_map()
        self.assertEqual(self.pins_on_map(), len(self.api_list()))

    def test_09_post_flow_explains_failures_then_posts(self):
        self.by_id("post-button").click()
        self.visible("post-form")
        self.assertTrue(self.by_id("overwrite-dialog").get_attribute("open") is None)
        # An empty link.
        self.type_into("post-location", "München")
        self.by_id("find-button").click()
        self.assertIn("Enter a link", self.visible("post-link-error").text)
        # An invalid link.
        self.type_into("post-link", "javascript:alert(1)")
        self.by_id("find-button").click()
        self.wait.until(lambda d: "Only web links" in d.find_element(By.ID, "post-link-error").text)
        self.type_into("post-link", "not a link")
        self.by_id("find-button").click()
        self.wait.until(lambda d: "look like a web address" in d.find_element(By.ID, "post-link-error").text)
        # A place the geocoder cannot find.
        self.type_into("post-location", "Qwxzv Plorbington")
        self.type_into("post-link", "https://katherine.example.com")
        self.by_id("find-button").click()
        self.wait.until(lambda d: "couldn’t find" in d.find_element(By.ID, "post-location-error").text)
        self.assertFalse(self.by_id("post-link-error").is_displayed())
        # Success: the preview with place, precision and candidates.
        self.type_into("post-location", "Paris")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.assertIn("Paris", self.by_id("preview-name").text)
        self.assertEqual(self.by_id("preview-precision").text.lower(), "city level")
        options = self.driver.find_elements(By.CSS_SELECTOR, "#candidate-options input")
        self.assertGreater(len(options), 1, "other candidates are offered")
        options[1].click()
        self.assertNotEqual(self.by_id("preview-name").text, "")
        options[0].click()
        self.screenshot("post-preview")
        self.by_id("finish-button").click()
        self.wait_for_map()
        popup = self.visible_popup()
        self.assertIn("Katherine Johnson (you)", popup.text)
        mine = [p for p in self.api_list() if p["firstName"] == "Katherine"]
        self.assertEqual(len(mine), 1)
        self.assertEqual(mine[0]["mapString"], "Paris")
        self.assertEqual(mine[0]["mediaURL"], "https://katherine.example.com")
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#map .pin.mine"), "your own pin stands out")

    def test_10_posting_again_asks_before_overwriting(self):
        before = self.api_list()
        self.by_id("post-button").click()
        dialog = self.visible("overwrite-dialog")
        self.assertIn("overwrite", dialog.text.lower())
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "overwrite-cancel")
        self.screenshot("overwrite-confirmation")
        dialog.send_keys(Keys.ESCAPE)
        self.wait.until(EC.invisibility_of_element_located((By.ID, "overwrite-dialog")))
        self.visible("app-screen")
        self.assertEqual(self.api_list(), before, "cancelling changes nothing")
        # Cancel from the form changes nothing either.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.visible("post-form")
        self.assertEqual(self.by_id("post-location").get_attribute("value"), "Paris")
        self.by_id("post-cancel").click()
        self.visible("app-screen")
        self.assertEqual(self.api_list(), before)
        # Overwrite for real.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Paris, TX")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.assertIn("Texas", self.by_id("preview-name").text)
        self.by_id("finish-button").click()
        self.wait_for_map()
        mine = [p for p in self.api_list() if p["firstName"] == "Katherine"]
        self.assertEqual(len(mine), 1, "one pin per student: overwritten, not added")
        self.assertEqual(mine[0]["mapString"], "Paris, TX")
        self.assertLess(mine[0]["longitude"], -90)

    def test_10b_a_failed_post_says_why_and_keeps_the_preview(self):
        before = self.api_list()
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Austin, TX")
        self.by_id("find-button").click()
        self.visible("post-preview")
        server.stop()
        try:
            self.by_id("finish-button").click()
            error = self.visible("post-error")
            self.assertIn("wasn’t saved", error.text)
            self.assertIn("reach the server", error.text)
            self.assertTrue(self.by_id("post-preview").is_displayed(), "the preview stays to try again")
            self.screenshot("post-failed")
        finally:
            server.start()
        self.by_id("post-cancel").click()
        self.visible("app-screen")
        self.assertEqual(self.api_list(), before)

    def test_10c_offline_the_app_opens_with_the_saved_posts(self):
        self.wait.until(lambda d: d.execute_script("return Boolean(navigator.serviceWorker.controller)"))
        self.by_id("refresh-button").click()
        self.wait_for_map()
        expected = self.by_id("map").get_attribute("data-pins")
        rows = len(self.driver.find_elements(By.CSS_SELECTOR, "#post-list .post-row"))
        server.stop()
        try:
            self.driver.refresh()
            self.wait_for_map()
            self.assertIn("You’re offline", self.by_id("status").text)
            self.assertEqual(self.by_id("map").get_attribute("data-pins"), expected)
            self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#post-list .post-row")), rows)
            self.screenshot("offline")
        finally:
            server.start()
        self.driver.find_element(By.CSS_SELECTOR, "#status button").click()
        self.wait.until(lambda d: d.find_element(By.ID, "status").text.startswith("Showing"))

    def test_11_hostile_text_stays_text(self):
        self.by_id("tab-list").click()
        row = self.wait.until(lambda d: next(r for r in d.find_elements(By.CSS_SELECTOR, "#post-list .post-row") if "Hacker" in r.text))
        self.assertIn(HOSTILE_NAME, row.text)
        self.assertIn("<b>Tokyo</b>", row.text)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#post-list img, #post-list b"), [])
        self.by_id("tab-map").click()
        popup = self.open_pin("Hacker")
        self.assertIn(HOSTILE_NAME, popup.text)
        self.assertEqual(popup.find_elements(By.TAG_NAME, "img"), [])

    def test_12_javascript_link_is_not_clickable(self):
        Select(self.by_id("pin-count")).select_by_value("all")
        self.wait_for_map()
        popup = self.open_pin("Mallory Legacy")
        self.assertIn("javascript:alert(document.cookie)", popup.text)
        self.assertEqual(popup.find_elements(By.TAG_NAME, "a"), [])
        self.assertIn("can’t be opened", popup.text)
        for anchor in self.driver.find_elements(By.CSS_SELECTOR, "a[href]"):
            self.assertFalse(anchor.get_attribute("href").lower().startswith("javascript:"))

    def test_13_every_response_carries_the_security_headers(self):
        for path in ("/", "/js/main.js", "/v1/StudentLocation", "/vendor/leaflet/leaflet.js"):
            with urllib.request.urlopen(server.base + path) as response:
                policy = response.headers["Content-Security-Policy"]
                self.assertIn("frame-ancestors 'none'", policy)
                self.assertIn("script-src 'self'", policy)
                self.assertNotIn("unsafe-inline", policy)
                self.assertEqual(response.headers["X-Content-Type-Options"], "nosniff")
                self.assertEqual(response.headers["Referrer-Policy"], "no-referrer")
        with urllib.request.urlopen(server.base + "/") as response:
            page = response.read().decode()
        self.assertNotRegex(page, r"<script(?![^>]*\bsrc=)[^>]*>", "no inline scripts")
        self.assertNotRegex(page, r"<style|\sstyle=|\son[a-z]+=", "no inline styles or handlers")

    def test_14_writes_send_the_xsrf_header(self):
        # A cookie-authenticated write without the header is refused: the client must be sending it.
        status = self.driver.execute_script("""
            return fetch('/v1/StudentLocation', {method: 'POST', headers: {'Content-Type': 'application/json'},
              body: JSON.stringify({mapString: 'x', mediaURL: 'https://x.example', latitude: 1, longitude: 1})}).then(r => r.status)""")
        self.assertEqual(status, 403)

    def test_15_keyboard_reaches_every_action(self):
        self.by_id("tab-map").click()
        self.wait_for_map()
        reached = set()
        self.driver.execute_script("document.activeElement.blur()")
        for _ in range(40):
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
            reached.add(self.driver.switch_to.active_element.get_attribute("id"))
        for action in ("refresh-button", "post-button", "logout-button", "tab-map", "pin-count"):
            self.assertIn(action, reached)
        pins = self.driver.find_elements(By.CSS_SELECTOR, "#map .pin-marker[tabindex='0']")
        self.assertTrue(pins and all(p.get_attribute("aria-label") for p in pins), "pins are focusable and labelled")
        # Enter on a focused pin opens its popup; arrow keys move between the tabs.
        mine = self.driver.find_element(By.CSS_SELECTOR, "#map .pin-marker .pin.mine").find_element(By.XPATH, "..")
        mine.send_keys(Keys.ENTER)
        self.assertIn("Katherine Johnson", self.visible_popup("(you)").text)
        self.by_id("tab-map").send_keys(Keys.ARROW_RIGHT)
        self.visible("list-panel")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "tab-list")
        self.by_id("tab-list").send_keys(Keys.ARROW_LEFT)
        self.visible("map-panel")

    def test_16_logout(self):
        self.assertTrue(self.driver.execute_script("return caches.has('onthemap-data-v1')"))
        self.by_id("logout-button").click()
        self.visible("login-screen")
        # The saved profile and posts are forgotten with the session.
        self.wait.until(lambda d: not d.execute_script("return caches.has('onthemap-data-v1')"))
        self.driver.get(server.base + "/#/map")
        self.visible("login-screen")


class OnlineTiles(BrowserTest):
    """An operator's tile server: tiles load over the basemap, credited, within the CSP."""

    @classmethod
    def setUpClass(cls):
        cls.tiles = TileServer()
        cls.tiled = Server(server.binary, ["--tiles-url", cls.tiles.base + "/{z}/{x}/{y}.png",
                                           "--tiles-attribution", "© Test Tiles"])
        cls.tiled.start(wait_for_geocoder=False)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.tiled.remove()
        cls.tiles.stop()

    def test_tiles_are_drawn_and_credited(self):
        self.tiled.sign_up("Tile", "Viewer", "tiles@example.com")
        self.driver.get(self.tiled.base + "/")
        self.log_in("tiles@example.com")
        self.wait_for_map()
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map img.leaflet-tile-loaded"))
        self.assertGreater(self.tiles.requests, 0)
        self.assertIn("© Test Tiles", self.driver.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text)
        self.assertIn("Natural Earth", self.driver.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text)


class PhoneLayout(BrowserTest):
    """The same screens at 360 px wide with touch: nothing overflows sideways."""
    width, height, mobile = 360, 740, True

    def assert_fits(self):
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, 360)

    def test_phone_screens(self):
        token = server.sign_up("Dorothy", "Vaughan", "dorothy@example.com")
        server.post_location(token, "Kansas City, MO", f"{server.base}/healthz?dorothy", 39.1, -94.58)
        self.driver.get(server.base + "/")
        self.visible("login-screen")
        self.assert_fits()
        self.screenshot("login")
        self.log_in("dorothy@example.com")
        self.wait_for_map()
        self.assert_fits()
        self.screenshot("map")
        popup = self.open_pin("Dorothy Vaughan")
        self.assertIn("(you)", popup.text)
        self.screenshot("popup")
        self.by_id("tab-list").click()
        self.visible("list-panel")
        self.assert_fits()
        self.screenshot("list")
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Seattle, WA")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.assertIn("Seattle", self.by_id("preview-name").text)
        self.assert_fits()
        self.screenshot("post-preview")
        self.by_id("post-cancel").click()
        self.visible("app-screen")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
