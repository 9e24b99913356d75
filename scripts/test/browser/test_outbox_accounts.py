"""Issue 40: a post waiting on the device is sent only under the account that wrote it.

The session cookie is the browser's, shared by its tabs: when one student's session ends and
another logs in (here in a second tab), a tab still showing the first student must not send the
first student's waiting post with the second student's cookie."""
from selenium.webdriver.common.by import By

from browser_case import BrowserTest
from test_offline_posting import KEPT, OutboxSteps

WAITING_ROW = "#post-list .post-row.waiting"


class WaitingPostAcrossAccounts(OutboxSteps, BrowserTest):
    own_server = True

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.driver.execute_cdp_cmd("Network.enable", {})

    def tearDown(self):
        self.network(True)
        super().tearDown()

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
