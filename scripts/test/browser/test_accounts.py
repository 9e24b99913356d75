"""Sign-up, login and logout, and how each kind of login failure is explained."""
from selenium.webdriver.common.by import By

from browser_case import PASSWORD, BrowserTest


class AccountScreens(BrowserTest):
    """One student, in order: signs up, logs out, fails to log in three ways, logs in."""

    def test_01_sign_up_lands_on_the_map(self):
        self.open_app()
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
        self.assertEqual(self.driver.execute_script("return fetch('/v1/me').then(r => r.status)"), 401)
        self.assertEqual(self.by_id("login-email").get_attribute("value"), "")
        self.driver.get(self.server.base + "/#/map")
        self.visible("login-screen")

    def test_03_wrong_password_says_credentials(self):
        self.log_in("katherine@example.com", "not the password")
        error = self.visible("login-error")
        self.assertIn("don’t match an account", error.text)
        self.assertNotIn("reach the server", error.text)
        self.assertEqual(self.driver.execute_script("return localStorage.length + sessionStorage.length"), 0,
                         "nothing is stored in the browser")

    def test_04_too_many_attempts_says_so(self):
        # Throttling counts per email and address: a stranger's email leaves Katherine's login alone.
        for attempt in range(12):
            self.log_in("stranger@example.com", f"guess {attempt}")
            self.wait.until(lambda d: d.find_element(By.ID, "login-button").get_attribute("aria-busy") is None)
            if "Too many attempts" in self.by_id("login-error").text:
                break
        self.assertRegex(self.by_id("login-error").text, r"Too many attempts\. Try again in \d+ seconds?\.")
        self.screenshot("too-many-attempts")

    def test_05_stopped_server_says_network(self):
        self.server.stop()
        try:
            self.log_in("katherine@example.com")
            self.wait.until(lambda d: "reach the server" in d.find_element(By.ID, "login-error").text)
            self.assertNotIn("match an account", self.by_id("login-error").text)
            self.screenshot("network-error")
        finally:
            self.server.start()

    def test_06_login_shows_every_pin(self):
        self.log_in("katherine@example.com")
        self.wait_for_map()
        posts = len(self.api_list())
        self.assertEqual(self.pins_on_map(), posts)
        self.assertEqual(self.by_id("map").get_attribute("data-pins"), str(posts))
