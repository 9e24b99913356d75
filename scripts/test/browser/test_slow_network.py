"""A first visit over a throttled "slow 4G" connection (Chromium's network conditions:
150 ms round trips, 1.6 Mbit/s down). The map is drawn from at most about 150 KB of basemap, before
its detail has arrived, and the map and the list say they are loading while they wait."""
from browser_case import BrowserTest
from harness import SLOW_4G, as_first_visit

# Records whether the loading messages were ever shown, from the first moment of the page.
WATCH_LOADING = """
window.__shownLoading = new Set();
new MutationObserver(() => {
  for (const id of ['map-loading', 'list-loading']) {
    const node = document.getElementById(id);
    if (node && !node.hidden) window.__shownLoading.add(id);
  }
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['hidden']});
"""


class SlowFirstVisit(BrowserTest):
    own_server = True

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        token = cls.server.sign_up("Mary", "Jackson", "mary@example.com")
        cls.server.post_location(token, "Hampton, VA", "https://mary.example.com", 37.03, -76.35)

    def throttle(self):
        """A first visit on slow 4G: nothing cached, no service worker, no workers."""
        as_first_visit(self.driver)
        # Like the service worker, the basemap's worker fetches outside the page's conditions: this
        # page has no workers, and fetches the detail itself (as a browser that cannot start one does).
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.Worker;"})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW_4G)

    def unthrottle(self):
        self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        self.driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": False})
        self.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    # What was asked for before `mark`: each request's path, when it started and whether it started
    # late, i.e. after the page had arrived (found by a script, not named by the page).
    ASKED_BEFORE = """
        const mark = performance.getEntriesByName(arguments[0])[0].startTime;
        const page = performance.getEntriesByType('navigation')[0];
        return performance.getEntriesByType('resource').filter((r) => r.startTime < mark).map((r) => ({
          path: new URL(r.name).pathname, late: r.startTime > page.responseEnd + 50 }));"""

    def test_0_the_login_form_comes_one_round_after_the_page(self):
        """Without a session, the page shows the login form itself and names everything that makes
        it work; none of it is found later by a script, no question about a session is asked, no
        Leaflet, and no more requests than a browser sends at once (six connections)."""
        self.throttle()
        try:
            self.open_app()
            self.login_ready()
            asked = self.driver.execute_script(self.ASKED_BEFORE, "shown-login-screen")
            paths = [request["path"] for request in asked]
            self.assertEqual([r["path"] for r in asked if r["late"]], [], "asked for only after the page had come")
            self.assertLessEqual(len(asked), 6, paths)
            self.assertTrue(any(path.endswith(".js") for path in paths), paths)
            self.assertNotIn("/v1/me", paths, "no session cookie: nobody to ask about")
            self.assertFalse([path for path in paths if "leaflet" in path], "no map code before the login screen")
        finally:
            self.unthrottle()

    def test_3_a_logged_in_reload_asks_for_its_rows_with_the_page(self):
        """With a session, the page names the two answers the first screen shows: each is asked for
        once, with the scripts, not after them."""
        self.open_app()
        if self.shown_screen() == "login-screen":
            self.log_in("mary@example.com")
        self.wait_for_map()
        self.throttle()
        try:
            self.driver.get(self.server.base + "/#/list")
            self.driver.refresh()
            self.wait.until(lambda d: d.execute_script("return performance.getEntriesByName('list-rows').length > 0"))
            asked = self.driver.execute_script(self.ASKED_BEFORE, "list-rows")
            for answer in ("/v1/me", "/v1/StudentLocation"):
                self.assertEqual([r["late"] for r in asked if r["path"] == answer], [False], f"{answer}: {asked}")
        finally:
            self.unthrottle()
            self.driver.get(self.server.base + "/#/map")

    def test_2_the_map_is_drawn_before_the_basemap_detail_arrives(self):
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_LOADING})
        self.throttle()
        try:
            self.open_app()
            self.log_in("mary@example.com")
            self.wait_for_map()
            self.wait.until(lambda d: d.find_element("id", "map").get_attribute("data-basemap") == "ready")
            timing = self.driver.execute_script("""
                const ready = performance.getEntriesByName('pins-ready')[0].startTime;   // the first map
                // The page's own basemap fetches, and the detail squares its worker fetched (marked as they arrive).
                const files = performance.getEntriesByType('resource').filter((r) => r.name.includes('/basemap/'));
                const squares = performance.getEntriesByName('basemap-square');
                return {
                  before: files.filter((r) => r.responseEnd <= ready).reduce((sum, r) => sum + r.transferSize, 0)
                    + squares.filter((m) => m.startTime <= ready).reduce((sum, m) => sum + m.detail.bytes, 0),
                  detailAfter: squares.filter((m) => m.startTime > ready).length,
                  detailDurations: files.filter((r) => r.name.includes('/detail/')).map((r) => r.duration),
                  shown: [...window.__shownLoading],
                };""")
            self.assertLessEqual(timing["before"], 150_000, "the first map needs at most about 150 KB of basemap")
            self.assertGreater(timing["before"], 20_000, "the world was loaded")
            self.assertGreater(timing["detailAfter"], 0, "detail arrives after the map is drawn")
            self.assertTrue(timing["detailDurations"], "the page fetched the detail itself")
            self.assertGreaterEqual(min(timing["detailDurations"]), 150, "over the slow connection")
            self.assertIn("map-loading", timing["shown"], "the map said it was loading")
            self.assertIn("list-loading", timing["shown"], "the list said it was loading")
            self.assertTrue(self.driver.find_elements("css selector", "#map canvas"))
            self.screenshot("slow-first-visit")
        finally:
            self.unthrottle()
