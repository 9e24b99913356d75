"""Signing in with an OpenID Connect provider from the login page: the provider's button, its own
authorization form (oidc-provider-mock, a real provider run here), and back on the map; a cancel
at the provider explained on the login page."""
import json
import os
import subprocess
import time
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from browser_case import BINARY, BrowserTest
from harness import ROOT, Server

PROVIDER_PYTHON = os.path.join(ROOT, ".build", "venv-oidc", "bin", "python")


class SignInWithProvider(BrowserTest):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.providers = subprocess.Popen([PROVIDER_PYTHON, os.path.join(ROOT, "scripts", "test", "oidc", "providers.py")],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        ports = json.loads(cls.providers.stdout.readline())
        cls.provider = f"http://127.0.0.1:{ports['school']}"
        cls.server = Server(BINARY)
        cls.server.extra_args = [
            "--public-url", cls.server.base,
            "--oidc-provider", f"id=school,name=School account,issuer={cls.provider},client-id=onthemap,client-secret=s"]
        cls.server.start(wait_for_geocoder=False)
        # What the school's provider knows about the student.
        request = urllib.request.Request(
            f"{cls.provider}/users/grace", method="PUT", headers={"Content-Type": "application/json"},
            data=json.dumps({"email": "grace@school.example", "email_verified": True,
                             "given_name": "Grace", "family_name": "Hopper"}).encode())
        urllib.request.urlopen(request, timeout=10).close()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.server.remove()
        cls.providers.terminate()
        cls.providers.wait(timeout=10)

    def provider_button(self):
        self.open_app()
        return self.wait.until(lambda d: next(
            (link for link in d.find_elements(By.CSS_SELECTOR, "#sign-in-provider-buttons a") if link.is_displayed()), None))

    def test_01_the_providers_button_signs_in_and_lands_on_the_map(self):
        button = self.provider_button()
        self.assertEqual(button.text, "Sign in with School account")
        self.screenshot("login-with-provider")
        self.axe("login with a provider's button")
        button.click()
        # The provider's own page: the student says who they are and authorizes.
        field = self.wait.until(lambda d: d.find_element(By.NAME, "sub"))
        self.assertTrue(self.driver.current_url.startswith(self.provider + "/oauth2/authorize"))
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.driver.current_url).query)
        self.assertEqual(query["code_challenge_method"], ["S256"])
        field.send_keys("grace")
        self.driver.find_element(By.XPATH, "//button[normalize-space()='Authorize']").click()
        self.wait_for_map()
        self.assertTrue(self.driver.current_url.endswith("/#/map"), self.driver.current_url)
        status, body = self.server.call("GET", "/v1/me", token=self.driver.get_cookie("otm_session")["value"])
        self.assertEqual((status, body["account"]["firstName"], body["account"]["email"]), (200, "Grace", "grace@school.example"))
        self.by_id("logout-button").click()
        self.visible("login-screen")

    def test_02_a_cancel_at_the_provider_is_explained_on_the_login_page(self):
        self.provider_button().click()
        self.wait.until(lambda d: d.find_element(By.NAME, "sub"))
        self.driver.find_element(By.XPATH, "//button[normalize-space()='Deny']").click()
        error = self.visible("login-error")
        self.assertIn("Signing in with School account was cancelled", error.text)
        # The reason is read once and taken out of the address: a reload does not say it again.
        self.assertEqual(urllib.parse.urlparse(self.driver.current_url).query, "")
        self.assertTrue(self.driver.current_url.endswith("#/login"))
        self.axe("login page explaining a failed sign-in")
