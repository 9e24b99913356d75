"""The app installs like one (a manifest, its icons, the service worker), and a
pin's link is shared through the system's share sheet, or copied where there is none."""
import json
import struct
import urllib.request

from selenium.webdriver.common.by import By

from browser_case import BrowserTest


def png_size(data):
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


class Installable(BrowserTest):
    """A student on a phone-sized window who wants the app on the home screen."""
    width, height, mobile = 390, 844, True
    offer_install = True
    # Its pin must not cluster with other classes' pins on the shared server's map.
    own_server = True

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.sharer = cls.server.sign_up("Sam", "Sharer", "sam.sharer@example.com")
        cls.link = f"{cls.server.base}/healthz?sam"
        cls.server.post_location(cls.sharer, "Reykjavik, Iceland", cls.link, 64.15, -21.94)

    def get(self, path):
        with urllib.request.urlopen(self.server.base + path) as answer:
            return answer.headers.get("Content-Type"), answer.read()

    def test_01_chromium_finds_nothing_that_stops_an_install(self):
        self.open_app()
        self.login_ready()
        # The worker claims the page once active; installability asks for a worker with a fetch handler.
        self.wait.until(lambda d: d.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"))
        manifest = self.driver.execute_cdp_cmd("Page.getAppManifest", {})
        self.assertEqual(manifest.get("errors"), [], manifest)
        self.assertTrue(manifest["url"].endswith("/manifest.webmanifest"))
        errors = self.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
        self.assertEqual(errors.get("installabilityErrors"), [], errors)
        self.screenshot("install-ready")

    def test_02_the_manifest_says_what_platforms_ask_and_its_icons_are_served(self):
        content_type, body = self.get("/manifest.webmanifest")
        self.assertTrue(content_type.startswith("application/manifest+json"), content_type)
        manifest = json.loads(body)
        for key in ("id", "name", "short_name", "start_url", "scope", "display", "theme_color", "background_color"):
            self.assertIn(key, manifest)
        self.assertEqual(manifest["display"], "standalone")
        purposes = {}
        for icon in manifest["icons"]:
            icon_type, data = self.get(icon["src"])
            self.assertEqual(icon_type.split(";")[0], icon["type"], icon["src"])
            if icon["type"] == "image/png":
                width, height = png_size(data)
                self.assertEqual(f"{width}x{height}", icon["sizes"], icon["src"])
                purposes.setdefault(icon["purpose"], set()).add(icon["sizes"])
        # What Android and Chromium ask for: 192 and 512, plain and maskable.
        self.assertEqual(purposes.get("any"), {"192x192", "512x512"})
        self.assertEqual(purposes.get("maskable"), {"192x192", "512x512"})
        _, touch = self.get("/icons/apple-touch-icon.png")
        self.assertEqual(png_size(touch), (180, 180))

    def open_own_popup(self):
        self.open_app()
        if self.shown_screen() == "login-screen":
            self.log_in("sam.sharer@example.com")
        self.wait_for_map()
        popup = self.open_pin("Sam Sharer")
        return popup.find_element(By.CSS_SELECTOR, ".popup-share")

    def test_03_a_link_goes_to_the_share_sheet_where_there_is_one(self):
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            navigator.share = async (data) => { window.__shared = data; };"""})
        button = self.open_own_popup()
        button.click()
        shared = self.wait.until(lambda d: d.execute_script("return window.__shared"))
        self.assertEqual(shared["url"], self.link)
        self.assertIn("Sam", shared["title"])
        self.screenshot("share")

    def test_04_without_one_the_link_is_copied(self):
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": self.server.base, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        button = self.open_own_popup()
        # No share sheet here (the one test 03 put in goes too).
        self.driver.execute_script("navigator.share = undefined;")
        button.click()
        popup = self.driver.find_element(By.CSS_SELECTOR, "#map .leaflet-popup-content")
        self.wait.until(lambda d: "Link copied." in popup.text or "Copy it from here" in popup.text)
        if "Link copied." in popup.text:
            self.driver.set_script_timeout(10)
            copied = self.driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](null));")
            self.assertEqual(copied, self.link)
        else:
            # A browser that refuses the clipboard still gets the link to copy by hand.
            self.assertIn(self.link, popup.text)

    def test_05_the_app_offers_itself_for_the_home_screen_and_not_now_is_remembered(self):
        # Counts the browser's offers, so that "not shown" is checked after one came.
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.__offers = 0; addEventListener('beforeinstallprompt', () => { window.__offers += 1; });"""})
        self.open_app()
        self.driver.execute_script("localStorage.removeItem('onthemap.installDismissed')")
        if self.shown_screen() == "login-screen":
            self.log_in("sam.sharer@example.com")
        self.wait_for_map()
        # Chromium offers the install (beforeinstallprompt) once the app is installable.
        notice = self.visible("install-notice")
        self.assertIn("home screen", notice.text)
        self.screenshot("install-prompt")
        self.axe("map with the install notice")
        self.by_id("install-dismiss").click()
        self.wait.until(lambda d: not d.find_element(By.ID, "install-notice").is_displayed())
        self.driver.refresh()
        self.wait_for_map()
        # The browser offers again on the new page: the notice stays away.
        self.wait.until(lambda d: d.execute_script("return window.__offers") > 0)
        self.assertFalse(self.by_id("install-notice").is_displayed(), "Not now is remembered")
