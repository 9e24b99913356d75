"""The screens at 360 px wide with touch: everything usable, nothing overflowing sideways."""
from browser_case import BrowserTest


class PhoneLayout(BrowserTest):
    width, height, mobile = 360, 740, True

    def assert_fits(self):
        self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"), 360)

    def test_phone_screens(self):
        token = self.server.sign_up("Dorothy", "Vaughan", "dorothy@example.com")
        self.server.post_location(token, "Kansas City, MO", f"{self.server.base}/healthz?dorothy", 39.1, -94.58)
        self.open_app()
        self.visible("login-screen")
        self.assert_fits()
        self.screenshot("login")
        self.log_in("dorothy@example.com")
        self.wait_for_map()
        self.assertEqual(self.pins_on_map(), len(self.api_list()), "every post is on the map, framed")
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
        self.assertEqual(self.by_id("preview-name").text, "Seattle, Washington, United States")
        self.assert_fits()
        self.screenshot("post-preview")
        self.by_id("post-cancel").click()
        self.visible("app-screen")
