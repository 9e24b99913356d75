"""A post waiting on the device is sent only under the account that wrote it, and
logging out with a post waiting asks whether to keep it on the device or discard it (a question
that fits a small phone in every language).

The session cookie is the browser's, shared by its tabs: when one student's session ends and
another logs in (here in a second tab), a tab still showing the first student must not send the
first student's waiting post with the second student's cookie. To keep a post waiting while the
page is online (logging out needs the server), a proxy in front of the server turns every post
away as a server out of service would (503), which leaves it waiting."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_case import BrowserTest
from test_languages import LANGUAGES, OVERFLOWS
from tcp_proxy import InterceptingProxy
from test_offline_posting import KEPT, OutboxSteps

WAITING_ROW = "#post-list .post-row.waiting"
OUT_OF_SERVICE = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 40\r\nConnection: close\r\n\r\n"
                  b'{"status":503,"error":"Out of service."}')


class PostRefusingProxy(InterceptingProxy):
    """A TCP proxy to `port` that, while `refusing`, answers every `POST /v1/StudentLocation`
    itself with a 503 (the server never sees it) and counts them in `refused`."""

    def __init__(self, port):
        self.refusing = True
        self.refused = 0
        super().__init__(port)

    def intercept(self, data, source, from_client, state):
        if from_client and self.refusing and data.startswith(b"POST /v1/StudentLocation "):
            self.refused += 1
            source.sendall(OUT_OF_SERVICE)
            return True
        return False


class WaitingPostAcrossAccounts(OutboxSteps, BrowserTest):
    own_server = True

    def test_a_waiting_post_is_sent_only_as_its_own_account(self):
        self.server.sign_up("Bea", "Second", "bea.second@example.com")
        self.sign_up_and_log_in("Ana", "First", "ana.first@example.com")
        self.preview("Lyon, France", "https://ana.example.com")
        self.network(False)
        self.by_id("finish-button").click()
        self.wait.until(lambda d: self.status() == KEPT)
        self.by_id("tab-list").click()
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, WAITING_ROW))
        # Ana's session ends (the browser's cookies go) and Bea logs in, in another tab.
        first_tab = self.driver.current_window_handle
        self.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        self.driver.switch_to.new_window("tab")
        self.open_app()
        self.log_in("bea.second@example.com")
        self.wait_for_map()
        self.driver.close()
        self.driver.switch_to.window(first_tab)
        # Back online, the first tab still shows Ana, but the browser's session is Bea's.
        self.network(True)
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, WAITING_ROW))
        self.assertEqual(self.pins_of("Bea"), [], "Ana's post was sent as Bea")
        self.assertEqual(self.pins_of("Ana"), [])
        self.assertEqual(self.waiting_on_device(), ["Lyon, France"], "Ana's post waits for her")
        self.screenshot("outbox-other-account")
        # Ana logs in again: her post goes, as hers.
        self.by_id("logout-button").click()
        self.log_in("ana.first@example.com")
        self.wait_for_map()
        self.wait.until(lambda d: self.pins_of("Ana") == [("Lyon, France",)])
        self.wait.until(lambda d: self.waiting_on_device() == [])
        self.assertEqual(self.pins_of("Bea"), [])


class PostsTurnedAway(OutboxSteps, BrowserTest):
    """The page behind the proxy, which turns posts away (`self.proxy.refusing`) at the start of each test."""
    own_server = True
    proxy_class = PostRefusingProxy

    def setUp(self):
        self.proxy.refusing = True

    def post_waiting(self, first, email, place):
        """`first` logs in and posts offline; back online, the server turns the post away, so it waits."""
        self.server.sign_up(first, "Waiting", email)
        self.driver.get(self.proxy.base + "/")
        self.driver.delete_all_cookies()   # whoever an earlier test left logged in
        self.driver.refresh()
        self.log_in(email)
        self.wait_for_map()
        self.preview(place, f"https://{first.lower()}.example.com")
        self.network(False)
        self.by_id("finish-button").click()
        self.wait.until(lambda d: self.status() == KEPT)
        refused = self.proxy.refused
        self.network(True)
        self.wait.until(lambda d: self.proxy.refused > refused)
        self.by_id("tab-list").click()
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, WAITING_ROW))


class LoggingOutWithAPostWaiting(PostsTurnedAway):
    def test_1_logging_out_asks_and_can_keep_the_post(self):
        self.post_waiting("Kai", "kai.keep@example.com", "Lima, Peru")
        self.by_id("logout-button").click()
        self.wait.until(lambda d: "Lima, Peru" in self.visible("logout-dialog").text)
        self.assertEqual(self.driver.switch_to.active_element, self.by_id("logout-keep"))
        self.axe("logout question")
        self.screenshot("logout-question")
        # Escape: the question goes, the student stays logged in, back on Log out.
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.wait.until(lambda d: not d.find_element(By.ID, "logout-dialog").is_displayed())
        self.assertTrue(self.by_id("app-screen").is_displayed())
        self.assertEqual(self.driver.switch_to.active_element, self.by_id("logout-button"))
        self.assertEqual(self.waiting_on_device(), ["Lima, Peru"])
        self.by_id("logout-button").click()
        self.visible("logout-keep").click()
        self.visible("login-screen")
        self.assertEqual(self.waiting_on_device(), ["Lima, Peru"], "kept on the device")
        # Logged in again: the post is there, waiting, and goes once the server takes it.
        self.log_in("kai.keep@example.com")
        self.wait_for_map()
        self.by_id("tab-list").click()
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, WAITING_ROW))
        self.proxy.refusing = False
        self.network(False)
        self.network(True)
        self.wait.until(lambda d: self.pins_of("Kai") == [("Lima, Peru",)])
        self.wait.until(lambda d: self.waiting_on_device() == [])

    def test_2_logging_out_can_discard_the_post(self):
        self.post_waiting("Dee", "dee.discard@example.com", "Accra, Ghana")
        self.by_id("logout-button").click()
        self.visible("logout-discard").click()
        self.visible("login-screen")
        self.assertEqual(self.waiting_on_device(), [], "gone from the device")
        self.proxy.refusing = False
        self.log_in("dee.discard@example.com")
        self.wait_for_map()
        self.by_id("tab-list").click()
        self.visible("list-panel")
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, WAITING_ROW), [])
        self.assertEqual(self.pins_of("Dee"), [], "a discarded post is never sent")


class LogoutQuestionInEveryLanguage(PostsTurnedAway):
    """The question on a small phone, in every language: nothing overflows (test_languages.py)."""
    width, height, mobile = 360, 740, True

    def test_the_question_fits(self):
        self.post_waiting("Pia", "pia.phone@example.com", "Lima, Peru")
        for code in LANGUAGES:
            with self.subTest(code):
                self.driver.execute_script("localStorage.setItem('onthemap.language', arguments[0])", code)
                self.driver.refresh()
                self.wait_for_map()
                self.by_id("logout-button").click()
                self.visible("logout-dialog")
                self.assertEqual(self.driver.execute_script(OVERFLOWS), [], f"{code}: text overflows its box at 360 px")
                if code in ("de", "ar"):
                    self.screenshot(f"logout-question-{code}")
                self.by_id("logout-stay").click()
                self.wait.until(lambda d: not d.find_element(By.ID, "logout-dialog").is_displayed())
        self.assertEqual(self.waiting_on_device(), ["Lima, Peru"], "staying logged in changes nothing")
