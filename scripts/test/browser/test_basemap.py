"""The offline basemap reads like a map. Names of countries, regions and cities show at
the zooms they belong to, never overlapping, in the reader's language where the basemap has it;
detail loads by place as the view needs it."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_case import BrowserTest


class BerlinMap(BrowserTest):
    """One student in Berlin, on a server of their own: the map opens framed on the pin at zoom 6."""

    own_server = True

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        token = cls.server.sign_up("Lise", "Meitner", "lise@example.com")
        cls.server.post_location(token, "Berlin, Germany", "https://lise.example.com", 52.52, 13.405)

    def labels(self):
        """Every place name drawn, with its box on the screen."""
        return self.driver.execute_script("""
            return [...document.querySelectorAll('#map .map-label')].map((node) => {
              const box = node.getBoundingClientRect();
              return {kind: node.dataset.kind, text: node.textContent, left: box.left, top: box.top,
                      right: box.right, bottom: box.bottom};
            });""")

    def assert_readable(self, labels):
        self.assertTrue(labels, "the map shows place names")
        for index, a in enumerate(labels):
            self.assertTrue(a["text"].strip(), "no empty label")
            for b in labels[index + 1:]:
                overlap = a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]
                self.assertFalse(overlap, f"“{a['text']}” and “{b['text']}” overlap")

    def settle(self):
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".leaflet-zoom-anim")
                        and d.find_element(By.ID, "map").get_attribute("data-basemap") == "ready"
                        and d.execute_script("return !document.querySelector('#map .leaflet-labels-pane').hidden"))

    def open_on_berlin(self):
        self.open_app()
        self.log_in("lise@example.com")
        self.wait_for_map()
        self.settle()
        self.wait.until(lambda d: any(label["kind"] == "region" for label in self.labels()))


class BasemapLabels(BerlinMap):
    def test_01_city_zoom_names_the_city_its_region_and_country(self):
        self.open_on_berlin()
        labels = self.labels()
        texts = {label["text"] for label in labels}
        self.assertIn("Berlin", texts)
        # Natural Earth's one name for the city is "København": an English reader gets CLDR's.
        self.assertIn("Copenhagen", texts)
        self.assertTrue({"Brandenburg", "Saxony", "Mecklenburg-Vorpommern", "Saxony-Anhalt"} & texts, texts)
        self.assertIn("Poland", {label["text"] for label in labels if label["kind"] == "country"})
        self.assertTrue(any(label["kind"] == "city" for label in labels))
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#map canvas"), "the basemap is drawn")
        squares = self.driver.execute_script("""return {
            arrived: performance.getEntriesByName('basemap-square').length,
            fetchedByPage: performance.getEntriesByType('resource').filter((r) => r.name.includes('/detail/')).length};""")
        self.assertGreater(squares["arrived"], 0, "detail squares arrived")
        self.assertEqual(squares["fetchedByPage"], 0, "the worker fetched and projected them, not the page")
        self.assert_readable(labels)
        self.screenshot("labels-city")

    def test_02_world_zoom_names_countries_without_overlap(self):
        self.driver.execute_script("document.getElementById('map').focus()")
        for _ in range(4):
            self.driver.switch_to.active_element.send_keys(Keys.SUBTRACT)
            self.settle()
        self.settle()
        labels = self.labels()
        kinds = {label["kind"] for label in labels}
        self.assertIn("country", kinds)
        self.assertNotIn("region", kinds, "regions wait until a region fills the screen")
        self.assertIn("Germany", {label["text"] for label in labels if label["kind"] == "country"})
        self.assert_readable(labels)
        self.screenshot("labels-world")


class BasemapLabelsInJapanese(BerlinMap):
    """The same map for a reader whose browser prefers Japanese: the names the basemap has in it."""
    language = "ja"

    def test_names_are_in_the_readers_language(self):
        self.open_on_berlin()
        texts = {label["text"] for label in self.labels()}
        self.assertIn("ドイツ", texts)       # Germany, from Natural Earth's Japanese names
        self.assertIn("ベルリン", texts)     # Berlin, from CLDR's name for its time zone's city
        self.assertNotIn("Berlin", texts)
        self.assertTrue({"ブランデンブルク", "ザクセン", "ブランデンブルク州"} & texts, texts)
        self.assert_readable(self.labels())
        self.screenshot("labels-ja")


class RegionPreview(BerlinMap):
    def test_the_preview_of_a_region_frames_the_region(self):
        self.open_on_berlin()
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Ontario")
        self.type_into("post-link", "lise.example.com")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.assertEqual(self.by_id("preview-name").text, "Ontario, Canada")
        status, answer = self.server.call("GET", "/v1/geocode?q=Ontario&limit=1")
        west, south, east, north = answer["results"][0]["bbox"]
        self.wait.until(lambda d: d.find_element(By.ID, "preview-map").get_attribute("data-view"))
        view = [float(v) for v in self.by_id("preview-map").get_attribute("data-view").split(",")]
        self.assertLessEqual(view[0], west + 0.5)
        self.assertLessEqual(view[1], south + 0.5)
        self.assertGreaterEqual(view[2], east - 0.5)
        self.assertGreaterEqual(view[3], north - 0.5)
        self.assertLess(view[2] - view[0], 3 * (east - west), "framed, not the whole world")
        self.screenshot("preview-region")
        self.by_id("post-cancel").click()
