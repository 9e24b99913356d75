"""Post my location: failures explained, preview, Finish, the overwrite question, Cancel at every
step, a post that fails, and the app opening offline with what it saw last."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from browser_case import BrowserTest


class PostingFlow(BrowserTest):
    """One student posting, in order: first pin, overwrite, a failed post, offline, logout."""

    def mine(self):
        return [post for post in self.api_list() if post["firstName"] == "Annie"]

    def test_01_failures_are_explained_then_the_pin_is_posted(self):
        self.sign_up_and_log_in("Annie", "Easley", "annie@example.com")
        self.by_id("post-button").click()
        self.visible("post-form")
        self.assertIsNone(self.by_id("overwrite-dialog").get_attribute("open"), "no pin yet: nothing to confirm")
        # An empty link.
        self.type_into("post-location", "München")
        self.by_id("find-button").click()
        self.assertIn("Enter a link", self.visible("post-link-error").text)
        # Invalid links.
        self.type_into("post-link", "javascript:alert(1)")
        self.by_id("find-button").click()
        self.wait.until(lambda d: "Only web links" in d.find_element(By.ID, "post-link-error").text)
        self.type_into("post-link", "not a link")
        self.by_id("find-button").click()
        self.wait.until(lambda d: "look like a web address" in d.find_element(By.ID, "post-link-error").text)
        # A place the geocoder cannot find.
        self.type_into("post-location", "Qwxzv Plorbington")
        self.type_into("post-link", "annie.example.com")
        self.by_id("find-button").click()
        self.wait.until(lambda d: "couldn’t find" in d.find_element(By.ID, "post-location-error").text)
        self.assertFalse(self.by_id("post-link-error").is_displayed())
        # Success: the preview with place, precision and other candidates.
        self.type_into("post-location", "Paris")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.assertEqual(self.by_id("preview-name").text, "Paris, Île-de-France, France")
        self.assertEqual(self.by_id("preview-precision").text.lower(), "city level")
        self.assertFalse(self.by_id("preview-less-sure").is_displayed(), "a place named alone is sure")
        self.assertFalse(self.by_id("preview-doubt").is_displayed())
        options = self.driver.find_elements(By.CSS_SELECTOR, "#candidate-options input")
        self.assertGreater(len(options), 1, "other candidates are offered")
        options[1].click()
        self.assertNotEqual(self.by_id("preview-name").text, "Paris, Île-de-France, France")
        options[0].click()
        self.screenshot("post-preview")
        self.by_id("finish-button").click()
        self.wait_for_map()
        self.visible_popup("Annie Easley (you)", "https://annie.example.com")
        (mine,) = self.mine()
        self.assertEqual(mine["mapString"], "Paris")
        self.assertEqual(mine["mediaURL"], "https://annie.example.com")
        self.assertAlmostEqual(mine["latitude"], 48.85, places=1)
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#map .pin.mine"), "your own pin stands out")

    def test_02_posting_again_asks_before_overwriting(self):
        before = self.api_list()
        self.by_id("post-button").click()
        dialog = self.visible("overwrite-dialog")
        self.assertIn("overwrite", dialog.text.lower())
        self.assertIn("Paris", dialog.text)
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "overwrite-cancel")
        self.screenshot("overwrite-confirmation")
        dialog.send_keys(Keys.ESCAPE)
        self.wait.until(EC.invisibility_of_element_located((By.ID, "overwrite-dialog")))
        self.visible("app-screen")
        self.assertEqual(self.api_list(), before, "cancelling changes nothing")
        # Cancel from the form changes nothing either.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.visible("post-form")
        self.assertEqual(self.by_id("post-location").get_attribute("value"), "Paris")
        self.by_id("post-cancel").click()
        self.visible("app-screen")
        self.assertEqual(self.api_list(), before)
        # Cancel from the preview too.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Lyon")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.by_id("post-cancel").click()
        self.visible("app-screen")
        self.assertEqual(self.api_list(), before)
        # A place read out of a sentence is "less sure", says why, and offers the other place named.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "moved from Lima to Quito last year")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.assertEqual(self.by_id("preview-name").text, "Quito, Pichincha, Ecuador")
        self.assertEqual(self.visible("preview-less-sure").text.lower(), "less sure")
        doubt = self.visible("preview-doubt").text
        self.assertIn("two places", doubt)
        self.assertIn("Pick another match", doubt)
        labels = [label.text for label in self.driver.find_elements(By.CSS_SELECTOR, "#candidate-options label")]
        self.assertTrue(any(label.startswith("Lima, ") for label in labels), labels)
        self.screenshot("post-preview-less-sure")
        lima = next(label for label in self.driver.find_elements(By.CSS_SELECTOR, "#candidate-options label")
                    if label.text.startswith("Lima, "))
        lima.click()
        self.assertTrue(self.by_id("preview-name").text.startswith("Lima, "))
        self.assertFalse(self.by_id("preview-less-sure").is_displayed(), "a place the student picked is theirs")
        self.by_id("post-cancel").click()
        self.visible("app-screen")
        self.assertEqual(self.api_list(), before)
        # Overwrite for real.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Paris, TX")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.assertEqual(self.by_id("preview-name").text, "Paris, Texas, United States")
        self.by_id("finish-button").click()
        self.wait_for_map()
        self.visible_popup("Annie Easley (you)")
        (mine,) = self.mine()
        self.assertEqual(mine["mapString"], "Paris, TX")
        self.assertLess(mine["longitude"], -90)
        self.assertEqual(len(self.api_list()), len(before), "one pin per student: overwritten, not added")

    def test_03_a_post_the_server_cannot_take_now_waits_and_goes_when_it_can(self):
        # A server out of reach loses nothing typed; the post waits on the device.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Austin, TX")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.server.stop()
        try:
            self.by_id("finish-button").click()
            self.visible("app-screen")
            self.wait.until(lambda d: "can’t be reached" in d.find_element(By.ID, "status").text)
            self.assertIn("saved on this device", self.by_id("status").text)
            self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map .pin.waiting"))
            self.screenshot("post-waiting")
        finally:
            self.server.start()
        # The live stream comes back with the server, the page reloads, and the post goes.
        self.wait.until(lambda d: any(item["mapString"] == "Austin, TX" for item in self.mine()))
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .pin.waiting"))

    def test_03b_a_session_that_ended_sends_the_student_to_login(self):
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Austin, TX")
        self.by_id("find-button").click()
        self.visible("post-preview")
        # The session ends behind the page's back (expired, or logged out in another tab).
        self.driver.execute_script("""
            const token = decodeURIComponent(document.cookie.split('; ').find(c => c.startsWith('XSRF-TOKEN=')).slice(11));
            return fetch('/v1/session', {method: 'DELETE', headers: {'X-XSRF-TOKEN': token}}).then(r => r.status)""")
        self.by_id("finish-button").click()
        self.visible("login-screen")
        self.assertIn("wasn’t saved", self.by_id("login-error").text)
        self.assertIn("log in again", self.by_id("login-error").text)
        self.log_in("annie@example.com")
        self.wait_for_map()
        (mine,) = self.mine()
        self.assertEqual(mine["mapString"], "Austin, TX", "test 03's post, not this one")

    def test_03c_an_address_is_shared_as_its_town_unless_the_student_chooses_exact(self):
        # A street address defaults to "only my town", which posts the town's point and name.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Rue de Rivoli 99, 75001 Paris")
        self.by_id("find-button").click()
        self.visible("post-preview")
        privacy = self.visible("preview-privacy")
        town = privacy.find_element(By.CSS_SELECTOR, "input[value=city]")
        self.assertTrue(town.is_selected(), "an address defaults to sharing only the town")
        self.assertEqual(self.by_id("privacy-city").text, "Paris, Île-de-France, France")
        self.assertEqual(self.by_id("privacy-exact").text, "Rue de Rivoli 99, 75001 Paris")
        self.screenshot("post-privacy")
        self.by_id("finish-button").click()
        self.wait_for_map()
        (mine,) = self.mine()
        self.assertEqual(mine["mapString"], "Paris, Île-de-France, France")
        status, answer = self.server.call("GET", "/v1/geocode?q=Paris&limit=1")
        self.assertEqual((mine["latitude"], mine["longitude"]), (answer["results"][0]["latitude"], answer["results"][0]["longitude"]))
        # A US street address: its ZIP's point is more precise than the town; "exact" posts it.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "1600 Amphitheatre Pkwy, Mountain View, CA 94043")
        self.by_id("find-button").click()
        self.visible("preview-privacy")
        self.assertEqual(self.by_id("privacy-city").text, "Mountain View, California, United States")
        town_point = self.driver.execute_script("const p = document.querySelector('#preview-map .pin-marker'); return p && p.style.transform")
        self.by_id("preview-privacy").find_element(By.CSS_SELECTOR, "input[value=exact]").click()
        self.assertEqual(self.by_id("preview-name").text, "94043 Mountain View, California, United States")
        self.wait.until(lambda d: d.execute_script(
            "const p = document.querySelector('#preview-map .pin-marker'); return p && p.style.transform") != town_point)
        self.by_id("finish-button").click()
        self.wait_for_map()
        (mine,) = self.mine()
        self.assertEqual(mine["mapString"], "1600 Amphitheatre Pkwy, Mountain View, CA 94043")
        status, answer = self.server.call("GET", "/v1/geocode?q=94043&limit=1")
        self.assertAlmostEqual(mine["latitude"], answer["results"][0]["latitude"], places=4)
        # A town typed as a town has nothing to hide: no choice.
        self.by_id("post-button").click()
        self.visible("overwrite-confirm").click()
        self.type_into("post-location", "Paris, TX")
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.assertFalse(self.by_id("preview-privacy").is_displayed())
        self.by_id("finish-button").click()
        self.wait_for_map()

    def test_04_offline_the_app_opens_with_the_saved_posts(self):
        self.wait.until(lambda d: d.execute_script("return Boolean(navigator.serviceWorker.controller)"))
        self.by_id("refresh-button").click()
        self.wait_for_map()
        expected = self.by_id("map").get_attribute("data-pins")
        rows = len(self.driver.find_elements(By.CSS_SELECTOR, "#post-list .post-row"))
        self.server.stop()
        try:
            self.driver.refresh()
            self.wait_for_map()
            self.assertIn("You’re offline", self.by_id("status").text)
            self.assertEqual(self.by_id("map").get_attribute("data-pins"), expected)
            self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#post-list .post-row")), rows)
            self.screenshot("offline")
        finally:
            self.server.start()
        # Back online: the live stream reconnects and the app loads the current posts by itself
        # (the status line's Retry button would do the same).
        self.wait.until(lambda d: d.find_element(By.ID, "status").text.startswith("Showing") and "live" in d.find_element(By.ID, "status").text)

    def test_05_logout_forgets_the_saved_posts(self):
        self.assertTrue(self.driver.execute_script("return caches.has('onthemap-data-v1')"))
        self.by_id("logout-button").click()
        self.visible("login-screen")
        self.wait.until(lambda d: not d.execute_script("return caches.has('onthemap-data-v1')"))
