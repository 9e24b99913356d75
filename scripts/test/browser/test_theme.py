"""Dark mode follows the system until the student switches, and the switch is
remembered; the offline basemap is drawn again in the theme's colours. (axe checks every screen
in the dark in test_accessibility.py and test_admin.py.)"""
from browser_case import BrowserTest

# The land's fill in each theme (basemap-drawing.js, PALETTES), as canvas pixels.
LAND = {"light": [244, 241, 232], "dark": [46, 56, 67]}
# The page's ground (app.css, --background).
BACKGROUND = {"light": "rgb(238, 242, 245)", "dark": "rgb(16, 22, 28)"}
THEME_COLOR = {"light": "#0b6e99", "dark": "#10161c"}


class DarkMode(BrowserTest):
    """A student whose phone is set to dark."""
    color_scheme = "dark"
    width, height, mobile = 390, 844, True
    email = "nora.night@example.com"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server.sign_up("Nora", "Night", cls.email)

    def setUp(self):
        self.emulate_color_scheme("dark")
        self.open_app()
        self.driver.execute_script("localStorage.removeItem('onthemap.theme')")
        self.driver.refresh()
        self.login_ready()

    def shown_theme(self):
        return self.driver.execute_script("""
            return { theme: document.documentElement.dataset.theme,
                     background: getComputedStyle(document.documentElement).backgroundColor,
                     themeColor: document.querySelector('meta[name="theme-color"]').content,
                     pressed: [...document.querySelectorAll('.theme-switch')].map((b) => b.getAttribute('aria-pressed')) };""")

    def assert_theme(self, theme):
        self.wait.until(lambda d: self.shown_theme()["theme"] == theme)
        shown = self.shown_theme()
        self.assertEqual(shown["background"], BACKGROUND[theme])
        self.assertEqual(shown["themeColor"], THEME_COLOR[theme], "the browser's bar matches the page")
        self.assertEqual(set(shown["pressed"]), {str(theme == "dark").lower()}, "every switch says whether dark is on")

    def land_pixels(self):
        """How many pixels of the map's drawn tiles have each theme's land colour."""
        return self.driver.execute_script("""
            const land = arguments[0];
            const counts = { light: 0, dark: 0 };
            for (const canvas of document.querySelectorAll('#map canvas.leaflet-tile-loaded')) {
              if (!canvas.width) continue;
              const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
              for (let i = 0; i < data.length; i += 4) {
                for (const theme of ['light', 'dark']) {
                  const [r, g, b] = land[theme];
                  if (data[i] === r && data[i + 1] === g && data[i + 2] === b) counts[theme] += 1;
                }
              }
            }
            return counts;""", LAND)

    def test_1_the_system_decides_until_the_student_does(self):
        self.assert_theme("dark")
        self.emulate_color_scheme("light")
        self.assert_theme("light")
        self.emulate_color_scheme("dark")
        self.assert_theme("dark")

    def test_2_the_switch_is_remembered_over_the_system(self):
        self.driver.find_element("css selector", "#login-screen .theme-switch").click()
        self.assert_theme("light")
        self.driver.refresh()
        self.login_ready()
        self.assert_theme("light")
        # The system changing no longer overrides the student's choice.
        self.emulate_color_scheme("light")
        self.emulate_color_scheme("dark")
        self.assert_theme("light")
        self.screenshot("login-switched-to-light")

    def test_3_the_map_is_drawn_again_in_the_new_colours(self):
        self.log_in(self.email)
        self.wait_for_map()
        self.wait.until(lambda d: d.find_element("id", "map").get_attribute("data-basemap") == "ready")
        self.wait.until(lambda d: self.land_pixels()["dark"] > 1000)
        self.assertEqual(self.land_pixels()["light"], 0, "no tile keeps the light land")
        self.screenshot("map")
        self.by_id("theme-button").click()
        self.assert_theme("light")
        self.wait.until(lambda d: self.land_pixels()["light"] > 1000 and self.land_pixels()["dark"] == 0)
        self.by_id("theme-button").click()
        self.assert_theme("dark")
        self.wait.until(lambda d: self.land_pixels()["dark"] > 1000 and self.land_pixels()["light"] == 0)
