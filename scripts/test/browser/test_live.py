"""The live map: two students in two browsers; what one posts, moves or deletes shows in the
other's map and list without Refresh, and the stream comes back after the server restarts."""
from selenium.webdriver.common.by import By

from browser_case import PASSWORD, BrowserTest
from harness import chromium, login_ready


class LiveMap(BrowserTest):
    """Browser A (this class's window) posts through the page; browser B only watches."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.watcher = chromium(cls.width, cls.height, cls.mobile)

    @classmethod
    def tearDownClass(cls):
        cls.watcher.quit()
        super().tearDownClass()

    def watcher_status(self):
        return self.watcher.find_element(By.ID, "status").text

    def watcher_rows(self):
        return self.watcher.find_element(By.ID, "post-list").get_attribute("textContent")

    def watcher_pin_labels(self):
        """The pins the watcher sees after framing them all (pins out of view are not drawn)."""
        self.watcher.find_element(By.ID, "fit-button").click()
        self.wait_in(self.watcher, lambda d: not d.find_elements(By.CSS_SELECTOR, ".leaflet-zoom-anim, .leaflet-cluster-anim"))
        return self.watcher.execute_script(
            "return [...document.querySelectorAll('#map .pin-marker')].map((m) => m.getAttribute('aria-label') || '')")

    def test_01_a_post_in_one_browser_appears_in_the_other_without_refresh(self):
        self.server.sign_up("Watching", "Student", "watcher@example.com")
        self.watcher.get(self.server.base + "/")
        self.wait_in(self.watcher, login_ready)
        self.watcher.find_element(By.ID, "login-email").send_keys("watcher@example.com")
        self.watcher.find_element(By.ID, "login-password").send_keys(PASSWORD)
        self.watcher.find_element(By.ID, "login-button").click()
        self.wait_in(self.watcher, lambda d: "live" in d.find_element(By.ID, "status").text)

        self.sign_up_and_log_in("Posting", "Student", "poster@example.com")
        self.visible("post-button").click()
        self.type_into("post-location", "Reykjavik, Iceland")
        self.type_into("post-link", "https://example.com/reykjavik")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.by_id("finish-button").click()
        self.wait_for_map()

        self.wait_in(self.watcher, lambda d: "Posting Student" in self.watcher_rows())
        # The map's clusters are redrawn a frame after the list (cluster-layer.js): waited for, not sampled.
        self.wait_in(self.watcher, lambda d: any("Posting Student" in label for label in self.watcher_pin_labels()))
        self.assertIn("Reykjavik, Iceland", self.watcher_rows())
        self.assertRegex(self.watcher_status(), r"live · 1 new just now")
        self.assertEqual(len(self.watcher.find_elements(By.CSS_SELECTOR, "#map .pin.fresh")), 1, "the new pin is marked")
        self.assertIn("New", self.watcher.find_element(By.CSS_SELECTOR, "#post-list .post-row.fresh").get_attribute("textContent"))
        # The poster sees their own pin once, not twice (the page's own load and the live event).
        self.wait.until(lambda d: "live" in d.find_element(By.ID, "status").text)
        own = [label for label in self.driver.execute_script(
            "return [...document.querySelectorAll('#map .pin-marker')].map((m) => m.getAttribute('aria-label') || '')")
            if "Posting Student" in label]
        self.assertEqual(len(own), 1)
        self.watcher.save_screenshot(self.screenshot_path("live-watcher"))

    def test_02_a_moved_pin_moves_and_a_deleted_one_disappears(self):
        token = self.server.sign_up("Moving", "Student", "mover@example.com")
        object_id = self.server.post_location(token, "Nairobi, Kenya", "https://example.com/n", -1.29, 36.82)
        self.wait_in(self.watcher, lambda d: "Nairobi, Kenya" in self.watcher_rows())
        status, _ = self.server.call("PUT", f"/v1/StudentLocation/{object_id}", {"mapString": "Mombasa, Kenya", "latitude": -4.04, "longitude": 39.67}, token)
        self.assertEqual(status, 200)
        self.wait_in(self.watcher, lambda d: "Mombasa, Kenya" in self.watcher_rows() and "Nairobi, Kenya" not in self.watcher_rows())
        # The map's clusters are redrawn a frame after the list (cluster-layer.js): waited for, not sampled.
        self.wait_in(self.watcher, lambda d: sum("Moving Student" in label for label in self.watcher_pin_labels()) == 1)
        status, _ = self.server.call("DELETE", f"/v1/StudentLocation/{object_id}", None, token)
        self.assertEqual(status, 200)
        self.wait_in(self.watcher, lambda d: "Moving Student" not in self.watcher_rows())
        self.wait_in(self.watcher, lambda d: not any("Moving Student" in label for label in self.watcher_pin_labels()))

    def test_03_after_the_server_restarts_the_stream_comes_back_and_catches_up(self):
        self.server.stop()
        self.wait_in(self.watcher, lambda d: "reconnecting" in self.watcher_status())
        self.assertRegex(self.watcher_status(), r"updated (at|on) ")
        self.server.start(wait_for_geocoder=False)
        token = self.server.sign_up("Returning", "Student", "returning@example.com")
        self.server.post_location(token, "Hobart, Australia", "https://example.com/h", -42.88, 147.33)
        self.wait_in(self.watcher, lambda d: "Hobart, Australia" in self.watcher_rows(), timeout=60)
        self.wait_in(self.watcher, lambda d: "live" in self.watcher_status())
        # The classes after this one find places on the shared server.
        self.server.wait_until_answering("/readyz")

    def wait_in(self, driver, condition, timeout=30):
        from selenium.webdriver.support.ui import WebDriverWait
        return WebDriverWait(driver, timeout).until(condition)

    def screenshot_path(self, name):
        import os
        from browser_case import SCREENSHOTS
        return os.path.join(SCREENSHOTS, f"desktop-{name}.png")
