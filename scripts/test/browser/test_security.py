"""Safe by construction: headers on every response, no inline code, XSRF on writes."""
import base64
import hashlib
import re
import urllib.error
import urllib.request

from browser_case import BrowserTest


class SafeByConstruction(BrowserTest):

    def test_every_response_carries_the_security_headers(self):
        for path in ("/", "/js/main.js", "/sw.js", "/v1/StudentLocation", "/vendor/leaflet/leaflet.js", "/nope"):
            request = urllib.request.Request(self.server.base + path)
            try:
                response = urllib.request.urlopen(request)
            except urllib.error.HTTPError as error:
                response = error
            with response:
                policy = response.headers["Content-Security-Policy"]
                self.assertIn("default-src 'self'", policy, path)
                self.assertIn("frame-ancestors 'none'", policy)
                self.assertIn("script-src 'self'", policy)
                self.assertNotIn("unsafe-inline", policy)
                self.assertEqual(response.headers["X-Content-Type-Options"], "nosniff")
                self.assertEqual(response.headers["Referrer-Policy"], "no-referrer")

    def test_the_page_has_no_inline_code(self):
        with urllib.request.urlopen(self.server.base + "/") as response:
            page = response.read().decode()
            policy = response.headers["Content-Security-Policy"]
        # A data block (the client's settings, type="application/json") is never run.
        self.assertNotRegex(page, r"<script(?![^>]*\bsrc=)(?![^>]*\btype=\"application/json\")[^>]*>", "no inline scripts")
        self.assertNotRegex(page, r"\sstyle=|\son[a-z]+=", "no inline style attributes or handlers")
        # The page's one <style> (its styles, carried with it) is allowed by its digest alone.
        styles = re.findall(r"<style>(.*?)</style>", page, re.S)
        self.assertEqual(len(styles), 1)
        digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
        self.assertIn(f"style-src 'self' 'sha256-{digest}';", policy)
        self.assertNotIn("unsafe-inline", policy)

    def test_writes_need_the_xsrf_header_the_app_sends(self):
        self.sign_up_and_log_in("Mary", "Winston", "winston@example.com")
        post = """
            return fetch('/v1/StudentLocation', {method: 'POST', headers: arguments[0],
              body: JSON.stringify({mapString: 'Oslo', mediaURL: 'https://x.example', latitude: 59.9, longitude: 10.7})})
              .then(r => r.status)"""
        self.assertEqual(self.driver.execute_script(post, {"Content-Type": "application/json"}), 403)
        token = self.driver.execute_script(
            "return decodeURIComponent(document.cookie.split('; ').find(c => c.startsWith('XSRF-TOKEN=')).slice(11))")
        self.assertEqual(self.driver.execute_script(post, {"Content-Type": "application/json", "X-XSRF-TOKEN": token}), 200)
