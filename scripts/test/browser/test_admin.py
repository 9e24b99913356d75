"""Issue 13: the admin area in the browser (reports, hiding, accounts, reset links, the log, the
download), a student reporting a pin from its popup, a hidden pin's notice to its owner, the
reset page, and what a disabled account is told. axe checks the admin sections too."""
import subprocess
import urllib.request

from selenium.webdriver.common.by import By

from browser_case import BrowserTest, PASSWORD


class AdminSteps:
    """The steps of an admin in the admin area, for the test classes below."""

    @classmethod
    def add_admin(cls, email, first, last):
        """An admin account, made as a server's operator makes one (`onthemap user add --admin`)."""
        subprocess.run([cls.server.binary, "user", "add", "--database", cls.server.database, "--email", email,
                        "--first", first, "--last", last, "--admin"], input=f"{PASSWORD}\n".encode(), check=True, capture_output=True)

    def log_in_afresh(self, email, password=PASSWORD):
        """A new visit without cookies, logged in as `email`."""
        self.driver.delete_all_cookies()
        self.driver.get(self.server.base + "/#/login")
        self.driver.refresh()
        self.log_in(email, password)

    def open_section(self, section):
        self.visible(f"admin-tab-{section}").click()
        self.wait.until(lambda d: d.find_element(By.ID, "admin-content").get_attribute("data-section") == section
                        and d.find_element(By.ID, "admin-content").get_attribute("aria-busy") is None)

    def item(self, text):
        return self.wait.until(lambda d: next((item for item in d.find_elements(By.CSS_SELECTOR, "#admin-content .admin-item")
                                               if text in item.text), None))

    def press(self, item_text, label, times=1):
        for _ in range(times):
            button = self.wait.until(lambda d: next((b for b in self.item(item_text).find_elements(By.TAG_NAME, "button")
                                                     if b.text in (label, f"Press again to {label.lower()}")), None))
            button.click()

    def status(self, containing):
        return self.wait.until(lambda d: containing in d.find_element(By.ID, "admin-status").text)


class AdminArea(AdminSteps, BrowserTest):
    """A teacher (admin, made with `onthemap user add --admin`) and two students."""
    own_server = True
    teacher = "teacher.admin@example.com"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.add_admin(cls.teacher, "Grace", "Hopper")
        cls.ada = cls.server.sign_up("Ada", "Lovelace", "ada.admin@example.com")
        cls.ada_pin = cls.server.post_location(cls.ada, "Lyon, France", "https://ada.example.com", 45.75, 4.85)
        cls.alan = cls.server.sign_up("Alan", "Turing", "alan.admin@example.com")
        cls.alan_pin = cls.server.post_location(cls.alan, "Quito, Ecuador", "https://alan.example.com", -0.18, -78.47)

    def test_1_a_student_reports_a_pin_from_its_popup_and_sees_no_admin_area(self):
        self.open_app()
        self.log_in("alan.admin@example.com")
        self.wait_for_map()
        self.assertFalse(self.by_id("admin-link").is_displayed())
        popup = self.open_pin("Ada Lovelace")
        popup.find_element(By.CSS_SELECTOR, ".popup-report summary").click()
        popup.find_element(By.CSS_SELECTOR, ".popup-report select option[value='offensive']").click()
        popup.find_element(By.CSS_SELECTOR, ".popup-report button").click()
        self.wait.until(lambda d: "the map’s admins will look at it" in self.visible_popup("Ada").text)
        self.driver.get(self.server.base + "/#/admin/reports")
        self.wait.until(lambda d: d.current_url.endswith("#/map"))
        self.by_id("logout-button").click()
        self.visible("login-screen")

    def test_2_the_admin_hides_the_reported_pin_and_the_log_says_so(self):
        self.log_in(self.teacher)
        self.wait_for_map()
        self.visible("admin-link").click()
        self.visible("admin-screen")
        self.open_section("reports")
        self.assertIn("1 report: offensive", self.item("Lyon, France").text)
        self.screenshot("admin-reports")
        self.axe("admin reports")
        self.press("Lyon, France", "Hide")
        self.status("is hidden from everyone but them")
        self.assertNotIn(self.ada_pin, [pin["objectId"] for pin in self.api_list()])
        self.open_section("posts")
        self.assertIn("HIDDEN", self.item("Lyon, France").text.upper())
        self.axe("admin posts")
        self.open_section("log")
        self.wait.until(lambda d: "hid a pin: Lyon, France, by Ada Lovelace" in d.find_element(By.ID, "admin-content").text)
        self.axe("admin log")

    def test_3_the_owner_of_a_hidden_pin_is_told(self):
        self.by_id("admin-screen").find_element(By.CSS_SELECTOR, "a[href='#/map']").click()
        self.by_id("logout-button").click()
        self.log_in("ada.admin@example.com")
        self.wait_for_map()
        self.assertIn("only you can see it", self.visible("hidden-notice").text)
        self.by_id("logout-button").click()

    def test_4_the_admin_disables_an_account_and_issues_a_reset_link(self):
        self.log_in(self.teacher)
        self.wait_for_map()
        self.driver.get(self.server.base + "/#/admin/accounts")
        self.open_section("accounts")
        self.type_into("admin-search", "alan")
        self.by_id("admin-search").submit()
        self.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#admin-content .admin-item")) == 1)
        self.screenshot("admin-accounts")
        self.axe("admin accounts")
        self.press("alan.admin@example.com", "Disable", times=2)
        self.status("is disabled and logged out everywhere")
        status, _ = self.server.call("GET", "/v1/me", token=self.alan)
        self.assertEqual(status, 401, "disabling ends the student's sessions")
        self.press("alan.admin@example.com", "Password reset link")
        self.status("#/reset/")
        text = self.by_id("admin-status").text
        AdminArea.reset_link = text[text.index("http"):]
        self.press("alan.admin@example.com", "Enable")
        self.status("can log in again")

    def test_5_the_download_is_the_class_map(self):
        href = self.by_id("admin-export-csv").get_attribute("href")
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in self.driver.get_cookies())
        with urllib.request.urlopen(urllib.request.Request(href, headers={"Cookie": cookies})) as response:
            csv = response.read().decode()
        self.assertIn("Quito, Ecuador", csv)
        self.assertNotIn("Lyon, France", csv, "hidden pins are not in the download")
        self.by_id("admin-screen").find_element(By.CSS_SELECTOR, "a[href='#/map']").click()
        self.by_id("logout-button").click()

    def test_6_the_reset_link_sets_a_new_password(self):
        self.driver.get(self.reset_link)
        self.visible("reset-screen")
        self.axe("reset password")
        self.type_into("reset-password", "a new passphrase for alan")
        self.by_id("reset-button").click()
        self.wait.until(lambda d: "Your new password is set" in self.visible("reset-done").text)
        self.driver.get(self.server.base + "/#/login")
        self.log_in("alan.admin@example.com", "a new passphrase for alan")
        self.wait_for_map()
        self.by_id("logout-button").click()

    def test_7_a_disabled_account_is_told_why_it_cannot_log_in(self):
        status, _ = self.server.call("POST", "/v1/session", {"udacity": {"username": self.teacher, "password": PASSWORD}})
        self.assertEqual(status, 200)
        token = self.server.sign_up("Eve", "Example", "eve.admin@example.com")
        self.log_in_afresh(self.teacher)
        self.wait_for_map()
        self.driver.get(self.server.base + "/#/admin/accounts")
        self.open_section("accounts")
        self.press("eve.admin@example.com", "Disable", times=2)
        self.status("is disabled")
        self.by_id("admin-screen").find_element(By.CSS_SELECTOR, "a[href='#/map']").click()
        self.log_in_afresh("eve.admin@example.com")
        self.wait.until(lambda d: "disabled by an admin" in self.visible("login-error").text)
        self.assertIsNotNone(token)


class AdminAreaInTheDark(AdminArea):
    """Issue 29: the admin screens in the dark theme, axe-clean as in the light one."""
    color_scheme = "dark"
