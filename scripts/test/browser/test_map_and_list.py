"""The Map and List tabs: pins, popups, rows, Refresh, hostile text and links, the keyboard."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_case import LEGACY_LINK, LEGACY_NAME, BrowserTest

HOSTILE_NAME = "<img src=x onerror=alert(1)>"


class MapAndList(BrowserTest):
    """A student looking at what others posted (places far apart, so pins do not cluster)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        ada = cls.server.sign_up("Ada", "Lovelace", "ada@example.com")
        cls.ada_link = f"{cls.server.base}/healthz?ada"
        cls.server.post_location(ada, "London, UK", cls.ada_link, 51.5, -0.12)
        grace = cls.server.sign_up("Grace", "Hopper", "grace@example.com")
        cls.grace_link = f"{cls.server.base}/healthz?grace"
        cls.server.post_location(grace, "Arlington, VA", cls.grace_link, 38.88, -77.1)
        hostile = cls.server.sign_up(HOSTILE_NAME, "Hacker", "hostile@example.com")
        cls.server.post_location(hostile, "<b>Tokyo</b>", "https://example.org/hostile", 35.68, 139.69)

    def test_01_the_map_shows_every_post(self):
        self.sign_up_and_log_in("Edith", "Clarke", "edith@example.com")
        posts = len(self.api_list())
        self.assertEqual(self.pins_on_map(), posts)
        self.assertEqual(self.by_id("map").get_attribute("data-pins"), str(posts))
        self.screenshot("map")

    def test_02_a_pin_shows_name_and_link_and_the_popup_opens_it(self):
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
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .leaflet-popup"))

    def test_03_the_list_is_newest_first_and_rows_open_links(self):
        self.by_id("tab-list").click()
        self.visible("list-panel")
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#post-list .post-row")
        expected = [f"{post['firstName']} {post['lastName']}" for post in self.api_list()]
        self.assertEqual([row.find_element(By.CSS_SELECTOR, ".row-name").text for row in rows], expected)
        times = [row.find_element(By.TAG_NAME, "time").get_attribute("datetime") for row in rows]
        self.assertEqual(times, sorted(times, reverse=True))
        grace = next(row for row in rows if "Grace Hopper" in row.text)
        self.assertIn("Arlington, VA", grace.text)
        self.assertEqual(grace.find_element(By.CSS_SELECTOR, ".row-host").text, "127.0.0.1")
        self.assertRegex(grace.find_element(By.TAG_NAME, "time").text, r"^(just now|\d+ minutes? ago)$")
        legacy = next(row for row in rows if LEGACY_NAME in row.text)
        self.assertRegex(legacy.find_element(By.TAG_NAME, "time").text, r"^\d+ years ago$")
        self.screenshot("list")
        self.opens_in_new_window(grace.find_element(By.TAG_NAME, "a"), self.grace_link)

    def test_04_a_post_made_meanwhile_arrives_live_and_refresh_still_works(self):
        self.wait.until(lambda d: "live" in d.find_element(By.ID, "status").text)
        newcomer = self.server.sign_up("Mary", "Jackson", "mary@example.com")
        self.server.post_location(newcomer, "Cape Town", "https://example.net/mary", -33.92, 18.42)
        self.wait.until(lambda d: "Mary Jackson" in d.find_element(By.ID, "post-list").text)
        first = self.driver.find_element(By.CSS_SELECTOR, "#post-list .post-row")
        self.assertEqual(first.find_element(By.CSS_SELECTOR, ".row-name").text, "Mary JacksonNew")
        self.assertIn("fresh", first.get_attribute("class"))
        self.assertIn("1 new just now", self.by_id("status").text)
        self.by_id("refresh-button").click()
        self.wait.until(lambda d: "live" in d.find_element(By.ID, "status").text and d.find_element(By.ID, "refresh-button").get_attribute("aria-busy") != "true")
        first = self.driver.find_element(By.CSS_SELECTOR, "#post-list .post-row .row-name")
        self.assertEqual(first.text, "Mary Jackson")
        self.by_id("tab-map").click()
        self.wait_for_map()
        self.assertEqual(self.pins_on_map(), len(self.api_list()))

    def test_05_hostile_text_stays_text(self):
        self.by_id("tab-list").click()
        row = self.wait.until(lambda d: next(r for r in d.find_elements(By.CSS_SELECTOR, "#post-list .post-row") if "Hacker" in r.text))
        self.assertIn(HOSTILE_NAME, row.text)
        self.assertIn("<b>Tokyo</b>", row.text)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#post-list img, #post-list b"), [])
        self.by_id("tab-map").click()
        popup = self.open_pin("Hacker")
        self.assertIn(HOSTILE_NAME, popup.text)
        self.assertEqual(popup.find_elements(By.TAG_NAME, "img"), [])

    def test_06_a_javascript_link_is_not_clickable(self):
        Select(self.by_id("pin-count")).select_by_value("all")
        self.wait_for_map()
        popup = self.open_pin(LEGACY_NAME)
        self.assertIn(LEGACY_LINK, popup.text)
        self.assertEqual(popup.find_elements(By.TAG_NAME, "a"), [])
        self.assertIn("can’t be opened", popup.text)
        self.by_id("tab-list").click()
        legacy = next(row for row in self.driver.find_elements(By.CSS_SELECTOR, "#post-list .post-row") if LEGACY_NAME in row.text)
        self.assertEqual(legacy.find_elements(By.TAG_NAME, "a"), [])
        for anchor in self.driver.find_elements(By.CSS_SELECTOR, "a[href]"):
            self.assertFalse(anchor.get_attribute("href").lower().startswith("javascript:"))
        self.by_id("tab-map").click()

    def test_07_the_keyboard_reaches_every_action(self):
        self.wait_for_map()
        reached = set()
        self.driver.execute_script("document.activeElement.blur()")
        for _ in range(40):
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
            reached.add(self.driver.switch_to.active_element.get_attribute("id"))
        for action in ("refresh-button", "post-button", "logout-button", "tab-map", "pin-count", "fit-button"):
            self.assertIn(action, reached)
        pins = self.driver.find_elements(By.CSS_SELECTOR, "#map .pin-marker[tabindex='0']")
        self.assertTrue(pins and all(p.get_attribute("aria-label") for p in pins), "pins are focusable and labelled")
        # Enter on a focused pin opens its popup; arrow keys move between the tabs.
        self.frame_all_pins()
        self.pin("Grace Hopper").send_keys(Keys.ENTER)
        self.visible_popup("Grace Hopper")
        self.by_id("tab-map").send_keys(Keys.ARROW_RIGHT)
        self.visible("list-panel")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "tab-list")
        self.by_id("tab-list").send_keys(Keys.ARROW_LEFT)
        self.visible("map-panel")

    def test_08_opening_on_the_list_still_frames_the_map(self):
        self.driver.get(self.server.base + "/#/list")
        self.visible("list-panel")
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#post-list .post-row"))
        self.by_id("tab-map").click()
        self.wait_for_map()
        self.wait.until(lambda d: self.pins_on_map() == len(self.api_list()))
