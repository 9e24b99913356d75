"""The admin area in the browser (reports, hiding, accounts, reset links, the log, the
download), a student reporting a pin from its popup, a hidden pin's notice to its owner, the
reset page, and what a disabled account is told. axe checks the admin sections too.

An admin whose password was last proved (logging in, or typing it again) more
than 10 minutes ago is asked for it in a dialog before an account changes; the dialog fits a small
phone in every language."""
import contextlib
import sqlite3
import subprocess
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_case import BrowserTest, PASSWORD
from test_languages import LANGUAGES, OVERFLOWS

# The server asks for the password again when it was last proved more than 10 minutes ago.
LONG_AGO_MICROS = 11 * 60 * 1_000_000


class AdminSteps:
    """The steps of an admin in the admin area, for the test classes below."""

    @classmethod
    def add_admin(cls, email, first, last):
        """An admin account, made as a server's operator makes one (`onthemap user add --admin`)."""
        subprocess.run([cls.server.binary, "user", "add", "--database", cls.server.database, "--email", email,
                        "--first", first, "--last", last, "--admin"], input=f"{PASSWORD}\n".encode(), check=True, capture_output=True)

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

    def sql(self, statement, parameters=()):
        """Runs `statement` on the running server's database (SQLite lets a second writer in)."""
        with contextlib.closing(sqlite3.connect(self.server.database, timeout=10)) as connection, connection:
            return connection.execute(statement, parameters).fetchall()

    def password_proved_long_ago(self, email):
        """`email`'s sessions as if logged in 11 minutes ago and not confirmed since, without waiting."""
        self.sql("UPDATE sessions SET created_at = created_at - ?, confirmed_at = NULL"
                 " WHERE account_key = (SELECT key FROM accounts WHERE email = ?)", (LONG_AGO_MICROS, email))

    def search_accounts(self, text):
        """The Accounts section, showing only the accounts that match `text`."""
        self.driver.get(self.server.base + "/#/admin/accounts")
        self.open_section("accounts")
        self.type_into("admin-search", text)
        self.by_id("admin-search").submit()
        self.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#admin-content .admin-item")) == 1)


class LearningPlatforms(AdminSteps, BrowserTest):
    """The admin registers a learning platform (LTI 1.3) in the admin area, as `onthemap lti` does:
    a value the server refuses is named, the platform is listed, gets another deployment, the tool's
    key is replaced and the platform removed, each in the log. (Launches from a real platform are
    make lti-test's.)"""
    own_server = True
    admin = "lti.admin@example.com"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.add_admin(cls.admin, "Mary", "Jackson")

    def platform_item(self, text):
        return self.wait.until(lambda d: next((item for item in d.find_elements(By.CSS_SELECTOR, "#lti-platforms .admin-item")
                                               if text in item.text), None))

    def test_the_admin_registers_a_platform_and_removes_it(self):
        self.open_app()
        self.log_in(self.admin)
        self.wait_for_map()
        self.driver.get(self.server.base + "/#/admin/platforms")
        self.open_section("platforms")
        # This server has no --public-url: the values a platform asks for need one.
        self.assertIn("--public-url", self.by_id("admin-content").text)
        values = {"name": "Moodle at Example", "issuer": "https://moodle.example.edu", "clientId": "abc123", "deploymentIds": "1",
                  "authorizationUrl": "https://moodle.example.edu/mod/lti/auth.php", "jwksUrl": "http://moodle.example.edu/mod/lti/certs.php",
                  "tokenUrl": "https://moodle.example.edu/mod/lti/token.php"}
        for name, value in values.items():
            self.type_into(f"lti-{name}", value)
        self.by_id("lti-add-platform").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.status("must start with https://")
        self.assertEqual(self.server.call("GET", "/lti/jwks")[0], 200)
        self.by_id("lti-jwksUrl").clear()
        self.type_into("lti-jwksUrl", "https://moodle.example.edu/mod/lti/certs.php")
        self.by_id("lti-add-platform").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.status("Moodle at Example is registered")
        self.assertIn("Client ID abc123 · deployments 1", self.platform_item("Moodle at Example").text)
        self.screenshot("admin-platforms")
        self.axe("admin platforms")

        field = self.platform_item("Moodle at Example").find_element(By.CSS_SELECTOR, "input[name=deploymentId]")
        field.send_keys("2", Keys.ENTER)
        self.status("Deployment added to Moodle at Example")
        self.wait.until(lambda d: "deployments 1, 2" in self.platform_item("Moodle at Example").text)

        signing = self.by_id("lti-keys").text
        self.by_id("admin-content").find_elements(By.XPATH, "//button[text()='Make a new signing key']")[0].click()
        self.wait.until(lambda d: d.find_elements(By.XPATH, "//button[text()='Press again to replace the key']"))[0].click()
        self.status("A new key signs now")
        self.wait.until(lambda d: d.find_element(By.ID, "lti-keys").text != signing and "replaced" in d.find_element(By.ID, "lti-keys").text)

        remove = self.platform_item("Moodle at Example").find_element(By.XPATH, ".//button[text()='Remove']")
        remove.click()
        self.platform_item("Moodle at Example").find_element(By.XPATH, ".//button[text()='Press again: its launches stop']").click()
        self.status("Moodle at Example was removed")
        self.wait.until(lambda d: "No learning platform is registered yet." in d.find_element(By.ID, "admin-content").text)
        self.open_section("log")
        for words in ("registered a learning platform", "added a deployment", "made a new signing key", "removed a learning platform"):
            self.wait.until(lambda d: words in d.find_element(By.ID, "admin-content").text)


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
        # The map's top bar shows once the route has changed: a loaded machine clicked before it.
        self.visible("logout-button").click()

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
    """The admin screens in the dark theme, axe-clean as in the light one."""
    color_scheme = "dark"


def dialog_open(driver):
    return bool(driver.find_elements(By.CSS_SELECTOR, "#password-dialog[open]"))


class AccountChangesAskForThePassword(AdminSteps, BrowserTest):
    """An admin whose password was proved 11 minutes ago, and a student."""
    admin = "katherine.confirm@example.com"
    student = "dorothy.confirm@example.com"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.add_admin(cls.admin, "Katherine", "Johnson")
        cls.student_token = cls.server.sign_up("Dorothy", "Vaughan", cls.student)

    def student_enabled(self):
        """Disabling ends the student's sessions: theirs still answering means they are enabled."""
        status, _ = self.server.call("GET", "/v1/me", token=self.student_token)
        return status == 200

    def disable_until_asked(self):
        """Presses Disable twice (the first press only arms it) and waits for the password question.
        A button armed by an earlier press is let go first (after 5 s), so that two presses it is."""
        def button():
            return next((b for b in self.item(self.student).find_elements(By.TAG_NAME, "button")
                         if b.text in ("Disable", "Press again to disable")), None)
        self.wait.until(lambda d: button() is not None and button().text == "Disable")
        button().click()
        button().click()
        self.wait.until(dialog_open)

    def test_1_cancelling_the_question_changes_nothing(self):
        self.log_in_afresh(self.admin)
        self.wait_for_map()
        self.password_proved_long_ago(self.admin)
        self.search_accounts("dorothy")
        self.disable_until_asked()
        field = self.by_id("password-again")
        self.assertEqual(self.driver.switch_to.active_element, field)
        self.assertEqual((field.get_attribute("type"), field.get_attribute("autocomplete")), ("password", "current-password"))
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "label[for='password-again']").text, "Your password")
        self.screenshot("password-question")
        self.axe("password question")
        field.send_keys("something")
        self.by_id("password-cancel").click()
        self.wait.until(lambda d: not dialog_open(d))
        self.status("Nothing was changed")
        self.assertIn(self.driver.switch_to.active_element.text, ("Disable", "Press again to disable"), "focus is back on Disable")
        self.assertEqual(self.by_id("password-again").get_attribute("value"), "", "the password is not kept")
        self.assertTrue(self.student_enabled())
        # Escape is Cancel. (The status line is emptied first, so that its message is seen said again.)
        self.driver.execute_script("document.getElementById('admin-status').textContent = ''")
        self.disable_until_asked()
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.wait.until(lambda d: not dialog_open(d))
        self.status("Nothing was changed")
        self.assertIn(self.driver.switch_to.active_element.text, ("Disable", "Press again to disable"))
        self.assertTrue(self.student_enabled())

    def test_2_a_wrong_password_is_refused_and_the_right_one_disables(self):
        self.disable_until_asked()
        self.type_into("password-again", "not my password")
        self.by_id("password-confirm").click()
        self.wait.until(lambda d: "isn’t your password" in d.find_element(By.ID, "password-again-error").text)
        self.assertTrue(dialog_open(self.driver), "the question stays for another try")
        self.assertEqual(self.by_id("password-again").get_attribute("aria-invalid"), "true")
        self.assertEqual(self.driver.switch_to.active_element, self.by_id("password-again"), "ready for another try")
        self.assertTrue(self.student_enabled())
        self.axe("password question with its error")
        self.type_into("password-again", PASSWORD)
        self.by_id("password-confirm").click()
        self.wait.until(lambda d: not dialog_open(d))
        self.status("is disabled and logged out everywhere")
        self.assertFalse(self.student_enabled())
        self.assertEqual(self.by_id("password-again").get_attribute("value"), "")
        # Neither password is kept in the page's storage or written to its console.
        kept = self.driver.execute_script("return JSON.stringify({...localStorage}) + JSON.stringify({...sessionStorage})")
        logged = " ".join(entry["message"] for entry in self.driver.get_log("browser"))
        for password in (PASSWORD, "not my password"):
            self.assertNotIn(password, kept + logged)
        # Proved just now: the next change is not asked about.
        self.press(self.student, "Enable")
        self.status("can log in again")
        self.assertFalse(dialog_open(self.driver))
        # Logged in again: the student's new session is the one the next tests look at.
        AccountChangesAskForThePassword.student_token = self.server.call(
            "POST", "/v1/session", {"udacity": {"username": self.student, "password": PASSWORD}})[1]["session"]["id"]
        self.assertTrue(self.student_enabled())
        self.open_section("log")
        disabled = [row for row in self.driver.find_elements(By.CSS_SELECTOR, "#admin-content tr[data-action='disable-account']")
                    if self.student in row.text]
        self.assertEqual(len(disabled), 1, "the change was made once")

    def test_3_too_many_wrong_passwords_say_when_to_try_again(self):
        self.password_proved_long_ago(self.admin)
        self.search_accounts("dorothy")
        self.disable_until_asked()
        error = self.by_id("password-again-error")
        # The server allows 10 failed logins or confirmations a minute for an email from an address.
        for _ in range(12):
            self.type_into("password-again", "still not it")
            self.by_id("password-confirm").click()
            # Each try clears the last one's message and is busy until answered.
            self.wait.until(lambda d: error.text and self.by_id("password-confirm").get_attribute("aria-busy") is None)
            if "Too many attempts" in error.text:
                break
        self.assertRegex(error.text, r"Too many attempts\. Try again in \d+ seconds?\.")
        self.by_id("password-cancel").click()
        self.wait.until(lambda d: not dialog_open(d))
        self.assertTrue(self.student_enabled())

    def test_4_an_admin_without_a_password_is_told_to_sign_in_again(self):
        """An account made by a provider's sign-in has no password to type: signing in again proves it is them."""
        other = "mary.provider@example.com"
        self.add_admin(other, "Mary", "Jackson")
        self.log_in_afresh(other)
        self.wait_for_map()
        self.sql("UPDATE accounts SET password_hash = '!external' WHERE email = ?", (other,))
        self.password_proved_long_ago(other)
        self.search_accounts("dorothy")
        self.press(self.student, "Disable", times=2)
        self.status("sign in again")
        self.assertFalse(dialog_open(self.driver), "no password to ask for")
        self.assertTrue(self.student_enabled())


class PasswordQuestionInEveryLanguage(AdminSteps, BrowserTest):
    """The question on a small phone, in every language: nothing overflows (test_languages.py)."""
    width, height, mobile = 360, 740, True
    admin = "annie.phone@example.com"
    student = "christine.phone@example.com"

    def test_the_question_fits(self):
        self.add_admin(self.admin, "Annie", "Easley")
        self.server.sign_up("Christine", "Darden", self.student)
        self.log_in_afresh(self.admin)
        self.wait_for_map()
        self.password_proved_long_ago(self.admin)
        for code in LANGUAGES:
            with self.subTest(code):
                self.driver.execute_script("localStorage.setItem('onthemap.language', arguments[0])", code)
                self.driver.refresh()
                self.wait.until(lambda d: d.execute_script("return document.documentElement.lang") == code)
                self.search_accounts("christine")
                # Make admin (the first action, asked about at once): its words are the language's.
                self.item(self.student).find_element(By.CSS_SELECTOR, ".admin-actions button").click()
                self.visible("password-dialog")
                self.assertEqual(self.driver.execute_script(OVERFLOWS), [], f"{code}: text overflows its box at 360 px")
                if code in ("de", "ar"):
                    self.screenshot(f"password-question-{code}")
                self.by_id("password-cancel").click()
                self.wait.until(lambda d: not dialog_open(d))
