"""The web client in twelve languages. Every screen a student meets, in every
language, on a 360-px phone: the page's lang and dir are the language's, no text overflows its box,
and the texts are the catalogue's. Arabic is mirrored and its map is not; the choice is remembered;
errors, plurals, relative times and map names come in the chosen language. (The catalogues' keys,
placeholders and plural forms against English: check_catalogues.mjs, run before these tests.)"""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_case import BrowserTest, PASSWORD

LANGUAGES = ["en", "es", "pt-BR", "fr", "de", "ar", "hi", "zh-CN", "ja", "ru", "tr", "id"]

# Every visible element whose content is wider than its box, and the page wider than the screen.
# Boxes that scroll on purpose, the map's own panes and visually hidden labels are not text boxes.
OVERFLOWS = """
    const found = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) {
      found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    }
    for (const element of document.querySelectorAll('body *')) {
      if (!element.checkVisibility()) continue;
      if (element.closest('.leaflet-container, .visually-hidden, .skip-link, svg')) continue;
      const style = getComputedStyle(element);
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') continue;
      if (element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1) {
        found.push(`${element.tagName.toLowerCase()}${element.id ? '#' + element.id : ''}.${element.className}`
          + ` "${element.textContent.trim().slice(0, 40)}" is ${element.scrollWidth} px in ${element.clientWidth}`);
      }
    }
    return found;"""


class EveryLanguage(BrowserTest):
    """A student on a small phone, trying each language in turn."""
    width, height, mobile = 360, 740, True
    own_server = True
    email = "lena.lang@example.com"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.token = cls.server.sign_up("Lena", "Lang", cls.email)
        cls.server.post_location(cls.token, "Lisbon, Portugal", "https://lena.example.com", 38.72, -9.14)
        cls.messages = {}

    def catalogue(self, code):
        """The catalogue's messages, as the page loads them."""
        if code not in self.messages:
            self.driver.set_script_timeout(20)
            self.messages[code] = self.driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                import(`/js/locales/${arguments[0]}.js`).then((module) => done(module.default.messages));""", code)
        return self.messages[code]

    def message(self, code, key, count=None):
        message = self.catalogue(code)[key]
        if isinstance(message, dict):
            category = self.driver.execute_script("return new Intl.PluralRules(arguments[0]).select(arguments[1])", code, count)
            message = message.get(category, message["other"])
        return message.replace("{count}", str(count)) if count is not None else message

    def choose(self, code):
        """The language remembered on this device, as the switch leaves it, then the page loaded again."""
        self.driver.execute_script("localStorage.setItem('onthemap.language', arguments[0])", code)
        self.driver.refresh()
        self.wait.until(lambda d: d.execute_script("return document.documentElement.lang") == code)

    def test_0_the_overflow_check_sees_an_overflow(self):
        self.open_app()
        self.login_ready()
        self.assertEqual(self.driver.execute_script(OVERFLOWS), [])
        self.driver.execute_script("document.getElementById('login-button').textContent = 'W'.repeat(80)")
        self.assertTrue(any("login-button" in found for found in self.driver.execute_script(OVERFLOWS)))

    def assert_fits(self, code, screen):
        overflows = self.driver.execute_script(OVERFLOWS)
        self.assertEqual(overflows, [], f"{code}, {screen}: text overflows its box at 360 px")

    def assert_direction(self, code):
        expected = "rtl" if code == "ar" else "ltr"
        self.assertEqual(self.driver.execute_script("return document.documentElement.dir"), expected, code)

    def test_1_the_screens_before_login_in_every_language(self):
        self.open_app()
        for code in LANGUAGES:
            with self.subTest(code):
                self.choose(code)
                self.visible("login-screen")
                self.assert_direction(code)
                self.wait.until(lambda d: d.find_element(By.ID, "login-button").text == self.message(code, "login.submit"))
                self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "label[for=login-email]").text,
                                 self.message(code, "login.email"))
                self.assert_fits(code, "login")
                self.by_id("signup-link").click()
                self.visible("signup-screen")
                self.assert_fits(code, "sign-up")
                if code == "ar":
                    self.screenshot("ar-login")
                self.open_app()

    def test_2_the_screens_after_login_in_every_language(self):
        self.open_app()
        self.log_in(self.email)
        self.wait_for_map()
        for code in LANGUAGES:
            with self.subTest(code):
                self.choose(code)
                self.wait_for_map()
                self.assert_direction(code)
                self.assert_fits(code, "map")
                self.by_id("tab-list").click()
                self.visible("list-panel")
                self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#post-list .post-row"))
                self.assert_fits(code, "list")
                self.by_id("post-button").click()
                self.visible("overwrite-dialog")
                self.assert_fits(code, "overwrite question")
                self.visible("overwrite-confirm").click()
                self.visible("post-form")
                self.assert_fits(code, "post form")
                self.by_id("post-cancel").click()
                self.visible("app-screen")
                self.driver.get(self.server.base + "/#/map")

    def test_2b_the_course_pages_in_every_language(self):
        status, _ = self.server.call("POST", "/v1/courses", {"slug": "lang101", "title": "Languages 101"}, self.token)
        self.assertIn(status, (201, 409))
        self.server.call("POST", "/c/lang101/v1/course/invite", {"enabled": True}, self.token)
        self.open_app()
        if self.shown_screen() == "login-screen":
            self.log_in(self.email)
        self.wait_for_map()
        for code in LANGUAGES:
            with self.subTest(code):
                self.choose(code)
                self.driver.get(self.server.base + "/#/courses")
                self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#courses-list [data-course='lang101']"))
                self.assert_fits(code, "courses")
                for section in ("roster", "reports", "hours", "invite", "log", "settings"):
                    self.driver.get(self.server.base + f"/#/course/lang101/{section}")
                    self.wait.until(lambda d, section=section: d.find_element(By.ID, "course-content").get_attribute("data-section") == section
                                    and d.find_element(By.ID, "course-content").get_attribute("aria-busy") is None)
                    self.assert_fits(code, f"course {section}")
                if code == "de":
                    self.screenshot("de-course-settings")
        # Lena is on two maps now: the switcher has a row of its own under the tabs, covering nothing.
        self.driver.get(self.server.base + "/#/map")
        self.wait_for_map()
        switch, tabs = self.visible("course-switch").rect, self.by_id("tab-list").rect
        self.assertGreaterEqual(switch["y"], tabs["y"] + tabs["height"] - 1, "the switcher sits under the tabs on a phone")
        self.assert_fits("en", "map with the course switcher")
        # The tests after this one read the default course's map, as she chooses it.
        Select(self.by_id("course-select")).select_by_value("default")
        self.wait.until(lambda d: d.get_cookie("onthemap-course")["value"] == "default")

    def test_3_arabic_is_mirrored_and_its_map_is_not(self):
        self.open_app()
        self.choose("ar")
        if self.shown_screen() == "login-screen":
            self.log_in(self.email)
        self.wait_for_map()
        title = self.driver.find_element(By.CSS_SELECTOR, "#app-screen .topbar-title").rect
        actions = self.driver.find_element(By.CSS_SELECTOR, "#app-screen .topbar-actions").rect
        self.assertGreater(title["x"], actions["x"], "the title sits at the right, the buttons at the left")
        zoom = self.driver.find_element(By.CSS_SELECTOR, "#map .leaflet-control-zoom").rect
        self.assertLess(zoom["x"], 100, "the map keeps its zoom buttons at its left: the map is not mirrored")
        self.assertEqual(self.driver.execute_script(
            "return getComputedStyle(document.querySelector('#map')).direction"), "ltr")
        self.screenshot("ar-map")
        self.by_id("tab-list").click()
        row = self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#post-list .post-row .row-name"))
        when = self.driver.find_element(By.CSS_SELECTOR, "#post-list .post-row .row-when")
        self.assertLess(when.rect["x"], row.rect["x"], "a row's time is at its left, its name at its right")
        self.screenshot("ar-list")

    def test_4_the_switch_is_remembered_and_names_the_map_in_its_language(self):
        self.open_app()
        # Forgotten on this device: in its storage, and in the cookie that tells the server.
        self.driver.execute_script("localStorage.removeItem('onthemap.language')")
        self.driver.delete_cookie("otm_language")
        self.driver.refresh()
        self.wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "en")
        if self.shown_screen() == "login-screen":
            self.log_in(self.email)
        self.wait_for_map()
        Select(self.by_id("app-language")).select_by_value("de")
        self.wait.until(lambda d: d.find_element(By.ID, "tab-list").text == self.message("de", "app.tabs.list"))
        # The page's numbers and plural: one post, in German.
        self.wait.until(lambda d: self.message("de", "status.showing", 1) in d.find_element(By.ID, "status").text)
        # Places named in German (the browser asks for English).
        self.wait.until(lambda d: "LISSABON" in self.map_labels(), "Lisbon in German")
        self.driver.refresh()
        self.wait_for_map()
        self.assertEqual(self.driver.execute_script("return document.documentElement.lang"), "de", "remembered")
        self.assertEqual(self.driver.execute_script("return localStorage.getItem('onthemap.language')"), "de")
        # The server sent that page in German (data-language is the server's choice): the choice's
        # cookie told it, so the German catalogue came with the page's scripts, not after them.
        self.assertEqual(self.driver.execute_script("return document.documentElement.dataset.language"), "de")
        self.assertEqual(self.driver.get_cookie("otm_language")["value"], "de")
        self.assertFalse(self.driver.execute_script("return document.documentElement.hasAttribute('data-untranslated')"))
        Select(self.by_id("app-language")).select_by_value("fr")
        self.wait.until(lambda d: "LISBONNE" in self.map_labels() and "LISSABON" not in self.map_labels(), "Lisbon in French")

    def map_labels(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#map .map-label')].map((label) => label.textContent.toUpperCase())")

    def test_5_errors_and_times_come_in_the_chosen_language(self):
        self.open_app()
        self.choose("es")
        if self.shown_screen() == "app-screen":
            self.by_id("logout-button").click()
        self.login_ready()
        self.type_into("login-email", self.email)
        self.type_into("login-password", PASSWORD + "?")
        self.by_id("login-button").click()
        self.wait.until(lambda d: d.find_element(By.ID, "login-error").text == self.message("es", "error.credentials"))
        self.type_into("login-password", PASSWORD)
        self.by_id("login-button").click()
        self.wait_for_map()
        self.choose("ja")
        self.wait_for_map()
        self.by_id("tab-list").click()
        when = self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#post-list .post-row .row-when").get_attribute("textContent"))
        expected = self.driver.execute_script("""
            const rtf = new Intl.RelativeTimeFormat('ja', { numeric: 'auto' });
            return [arguments[0], ...[1, 2, 3, 4, 5].map((minutes) => rtf.format(-minutes, 'minute'))];""",
            self.message("ja", "time.justNow"))
        self.assertIn(when, expected, "a post's age is in Japanese")
