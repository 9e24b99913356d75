"""axe-core (4.12.1, from PyPI's axe-playwright-python wheel, fetched by
scripts/setup/install-deps.sh test into .build/axe) finds no violation of serious or critical impact,
and none about landmarks, on any screen, at desktop and at phone size, in the light and the dark theme."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_case import BrowserTest


class Accessibility(BrowserTest):
    """Every screen a student meets, in order, each checked by axe."""
    own_server = True
    first, last, email = "Ada", "Lovelace", "ada.axe@example.com"

    def test_every_screen(self):
        token = self.server.sign_up(self.first, self.last, self.email)
        self.server.post_location(token, "London, UK", "https://ada.example.com", 51.5, -0.12)
        self.open_app()
        self.visible("login-screen")
        self.axe("login")
        self.by_id("signup-link").click()
        self.visible("signup-screen")
        self.axe("sign-up")
        self.open_app()
        self.log_in(self.email)
        self.wait_for_map()
        self.axe("map")
        self.open_pin(f"{self.first} {self.last}")
        # Leaflet fades a popup in: axe would measure the contrast of a half-transparent one.
        self.wait.until(lambda d: d.execute_script(
            "const p = document.querySelector('#map .leaflet-popup'); return p && getComputedStyle(p).opacity === '1'"))
        self.axe("map with a popup")
        self.by_id("tab-list").click()
        self.visible("list-panel")
        self.axe("list")
        self.by_id("post-button").click()
        self.visible("overwrite-dialog")
        self.axe("overwrite question")
        self.visible("overwrite-confirm").click()
        self.visible("post-form")
        self.axe("post form")
        self.type_into("post-location", "10 Downing Street, London SW1A 2AA")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.axe("post preview")


class AccessibilityOnAPhone(Accessibility):
    width, height, mobile = 360, 740, True
    first, last, email = "Grace", "Hopper", "grace.axe@example.com"


class AccessibilityInTheDark(Accessibility):
    """The same screens in the dark theme (the system prefers dark)."""
    color_scheme = "dark"
    first, last, email = "Hedy", "Lamarr", "hedy.axe@example.com"


class AccessibilityOnAPhoneInTheDark(AccessibilityOnAPhone):
    color_scheme = "dark"
    first, last, email = "Radia", "Perlman", "radia.axe@example.com"


class KeyboardPaths(BrowserTest):
    """From the keyboard, focus always lands where the student is working."""
    own_server = True

    def active(self):
        return self.driver.switch_to.active_element

    def test_login_pin_popup_escape_and_post_flow(self):
        token = self.server.sign_up("Katherine", "Johnson", "katherine.keys@example.com")
        self.server.post_location(token, "Hampton, VA", "https://katherine.example.com", 37.03, -76.35)
        self.open_app()
        self.login_ready()
        self.type_into("login-email", "katherine.keys@example.com")
        self.type_into("login-password", "correct horse battery")
        self.by_id("login-password").send_keys(Keys.ENTER)
        self.wait_for_map()
        self.assertEqual(self.active().get_attribute("id"), "main-content", "after login, focus is on the main content")
        # Enter on a pin: its popup, with focus on the link; Escape: closed, focus back on the pin.
        self.frame_all_pins()
        pin = self.pin("Katherine Johnson")
        self.driver.execute_script("arguments[0].focus()", pin)
        self.active().send_keys(Keys.ENTER)
        self.visible_popup("Katherine Johnson")
        self.wait.until(lambda d: "popup-link" in (d.switch_to.active_element.get_attribute("class") or ""))
        self.assertIn("katherine.example.com", self.active().get_attribute("href"))
        self.active().send_keys(Keys.ESCAPE)
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .leaflet-popup"))
        self.assertEqual(self.active(), self.pin("Katherine Johnson"), "Escape returns focus to the pin")
        # The post flow: opened by keyboard, left with Escape, focus back on its button.
        self.by_id("post-button").send_keys(Keys.ENTER)
        self.visible("overwrite-dialog")
        self.active().send_keys(Keys.ESCAPE)
        self.wait.until(lambda d: d.switch_to.active_element.get_attribute("id") == "post-button")
        self.by_id("post-button").send_keys(Keys.ENTER)
        self.visible("overwrite-confirm").send_keys(Keys.ENTER)
        self.visible("post-form")
        self.assertEqual(self.active().get_attribute("id"), "post-location")
        self.active().send_keys(Keys.ESCAPE)
        self.visible("app-screen")
        self.wait.until(lambda d: d.switch_to.active_element.get_attribute("id") == "post-button")
