"""A post made without a network waits on the device (IndexedDB), shown as
"Waiting to send" in the list and as a dashed pin, can be cancelled, and is sent when the network
is back, exactly once: even when the server wrote it and the answer was lost on the way back,
the second sending (with the same Idempotency-Key) changes nothing.

The lost answer is made by a proxy in front of the server that passes every byte both ways,
except that it answers nothing to the first post and closes that connection once the server has
answered it."""
import sqlite3

from selenium.webdriver.common.by import By

from browser_case import BrowserTest
from tcp_proxy import InterceptingProxy

KEPT = "You’re offline. Your post is saved on this device and will be sent when you’re back online."
SENT = "Your waiting post was sent."
CANCELLED = "Your waiting post was cancelled."


class AnswerDroppingProxy(InterceptingProxy):
    """A TCP proxy to `port`; the first request starting `POST /v1/StudentLocation` reaches the
    server, but its connection is closed, unanswered, as soon as the server answers. Records the
    Idempotency-Key of every such post."""

    def __init__(self, port):
        self.drop_next_post = True
        self.post_keys = []
        super().__init__(port)

    def connection_state(self):
        return {"dropping": False}

    def intercept(self, data, source, from_client, state):
        if from_client and data.startswith(b"POST /v1/StudentLocation "):
            head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
            self.post_keys.extend(line.split(":", 1)[1].strip() for line in head.split("\r\n")
                                  if line.lower().startswith("idempotency-key:"))
            if self.drop_next_post:
                self.drop_next_post = False
                state["dropping"] = True
        # The server answered: the client never hears it.
        return not from_client and state["dropping"]


class OutboxSteps:
    """Steps of the tests about posts waiting on the device, for a BrowserTest on a server of its own.
    The network is emulated through the DevTools protocol, and is back on after every test. A class
    that names a `proxy_class` gets one in front of its server, as `cls.proxy`, for all its tests."""
    proxy_class = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.driver.execute_cdp_cmd("Network.enable", {})
        if cls.proxy_class:
            cls.proxy = cls.proxy_class(cls.server.port)

    @classmethod
    def tearDownClass(cls):
        if cls.proxy_class:
            cls.proxy.close()
        super().tearDownClass()

    def tearDown(self):
        self.network(True)
        super().tearDown()

    def network(self, online):
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def pins_of(self, first):
        with sqlite3.connect(self.server.database) as connection:
            return connection.execute(
                "SELECT map_string FROM student_locations WHERE first_name = ?", (first,)).fetchall()

    def waiting_on_device(self):
        self.driver.set_script_timeout(10)
        return self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const request = indexedDB.open('onthemap', 1);
            request.onupgradeneeded = () => request.result.createObjectStore('outbox', { keyPath: 'key' });
            request.onsuccess = () => {
              const all = request.result.transaction('outbox').objectStore('outbox').getAll();
              all.onsuccess = () => done(all.result.map((entry) => entry.fields.mapString));
            };""")

    def preview(self, place, link):
        self.by_id("post-button").click()
        # The flow's code may still be loading: wait for the question or the form, whichever comes.
        asked = self.wait.until(lambda d: "question" if d.find_elements(By.CSS_SELECTOR, "#overwrite-dialog[open]")
                                else "form" if d.find_element(By.ID, "post-form").is_displayed() else None)
        if asked == "question":
            self.visible("overwrite-confirm").click()
        self.visible("post-form")
        self.type_into("post-location", place)
        self.type_into("post-link", link)
        self.by_id("find-button").click()
        self.visible("post-preview")
        self.wait.until(lambda d: d.find_element(By.ID, "finish-button").is_enabled())

    def status(self):
        return self.by_id("status").text


class OfflinePosting(OutboxSteps, BrowserTest):
    own_server = True

    def test_1_a_post_made_offline_waits_then_goes_once_online(self):
        self.sign_up_and_log_in("Olga", "Offline", "olga.offline@example.com")
        self.preview("Lyon, France", "https://olga.example.com")
        self.network(False)
        self.by_id("finish-button").click()
        self.visible("app-screen")
        self.wait.until(lambda d: self.status() == KEPT)
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map .pin.waiting"))
        self.assertEqual(self.waiting_on_device(), ["Lyon, France"])
        self.assertEqual(self.pins_of("Olga"), [], "nothing reached the server")
        self.by_id("tab-list").click()
        row = self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#post-list .post-row.waiting"))
        self.assertEqual(row.find_element(By.CSS_SELECTOR, ".waiting-note .badge").get_attribute("textContent"), "Waiting to send")
        self.assertIn("Lyon, France", row.text)
        self.screenshot("offline-waiting")
        self.network(True)
        self.wait.until(lambda d: self.status() == SENT or "Showing" in self.status())
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#post-list .post-row.waiting"))
        self.assertEqual(self.pins_of("Olga"), [("Lyon, France",)])
        self.assertEqual(self.waiting_on_device(), [])

    def test_2_a_waiting_post_can_be_cancelled(self):
        self.driver.delete_all_cookies()
        self.sign_up_and_log_in("Carl", "Cancel", "carl.cancel@example.com")
        self.preview("Quito, Ecuador", "https://carl.example.com")
        self.network(False)
        self.by_id("finish-button").click()
        self.visible("app-screen")
        self.by_id("tab-list").click()
        row = self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#post-list .post-row.waiting"))
        row.find_element(By.CSS_SELECTOR, "[data-cancel-waiting]").click()
        self.wait.until(lambda d: self.status() == CANCELLED)
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#post-list .post-row.waiting"))
        self.assertEqual(self.waiting_on_device(), [])
        self.network(True)
        self.driver.refresh()
        self.wait_for_map()
        self.assertEqual(self.pins_of("Carl"), [], "a cancelled post is never sent")


    def test_3_a_place_typed_offline_is_found_when_the_post_is_sent(self):
        self.driver.delete_all_cookies()
        self.sign_up_and_log_in("Nia", "Nairobi", "nia.nairobi@example.com")
        self.network(False)
        self.by_id("post-button").click()
        self.visible("post-form")
        self.type_into("post-location", "Nairobi, Kenya")
        self.type_into("post-link", "https://nia.example.com")
        self.by_id("find-button").click()
        self.visible("post-later").click()
        self.visible("app-screen")
        self.wait.until(lambda d: self.status() == KEPT)
        self.by_id("tab-list").click()
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#post-list .post-row.waiting"))
        self.assertEqual(self.waiting_on_device(), ["Nairobi, Kenya"])
        self.network(True)
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#post-list .post-row.waiting"))
        with sqlite3.connect(self.server.database) as connection:
            rows = connection.execute(
                "SELECT map_string, latitude, longitude FROM student_locations WHERE first_name = 'Nia'").fetchall()
        self.assertEqual(len(rows), 1)
        place, latitude, longitude = rows[0]
        self.assertEqual(place, "Nairobi, Kenya")
        self.assertAlmostEqual(latitude, -1.29, delta=0.3)
        self.assertAlmostEqual(longitude, 36.82, delta=0.3)


class LostAnswer(OutboxSteps, BrowserTest):
    """The server writes the post, the answer never arrives: sent again with its key, written once."""
    own_server = True
    proxy_class = AnswerDroppingProxy

    def test_the_post_is_written_once(self):
        self.server.sign_up("Lars", "Lost", "lars.lost@example.com")
        self.driver.get(self.proxy.base + "/")
        self.log_in("lars.lost@example.com")
        self.wait_for_map()
        self.preview("Oslo, Norway", "https://lars.example.com")
        self.by_id("finish-button").click()
        self.visible("app-screen")
        # Kept (the answer was lost), sent again at once, then the student's pin as any other.
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map .pin.mine:not(.waiting)"))
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .pin.waiting"))
        self.assertEqual(len(self.proxy.post_keys), 2, "sent twice: the first answer was lost")
        self.assertEqual(self.proxy.post_keys[0], self.proxy.post_keys[1], "with the same Idempotency-Key")
        with sqlite3.connect(self.server.database) as connection:
            rows = connection.execute("SELECT map_string FROM student_locations WHERE first_name = 'Lars'").fetchall()
        self.assertEqual(rows, [("Oslo, Norway",)], "written once")
