"""An operator's tile server: tiles are drawn over the basemap, credited, within the CSP."""
from selenium.webdriver.common.by import By

from browser_case import BINARY, BrowserTest
from harness import Server, TileServer


class OnlineTiles(BrowserTest):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tiles = TileServer()
        cls.server = Server(BINARY, ["--tiles-url", cls.tiles.base + "/{z}/{x}/{y}.png", "--tiles-attribution", "© Test Tiles"])
        cls.server.start(wait_for_geocoder=False)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.server.remove()
        cls.tiles.stop()

    def test_tiles_are_drawn_and_credited(self):
        self.sign_up_and_log_in("Tile", "Viewer", "tiles@example.com")
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map img.leaflet-tile-loaded"))
        self.assertGreater(self.tiles.requests, 0)
        credits = self.driver.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
        self.assertIn("© Test Tiles", credits)
        self.assertIn("Natural Earth", credits)
