"""LTI 1.3 launches from a real platform (lti_platform.py, on PyPI's lti1p3platform) into the real
server, in headless Chromium with third-party cookies blocked, as a person at a learning platform
would go through them: an instructor's first launch making the course, a learner's launch into it,
a learner before any instructor, and every deliberately broken launch refused with a clear page and
nothing made. The checks of what the server does not do yet are in PENDING: printed as pending,
neither passed nor failed (LTI_RUN_PENDING=1 runs them too, and says whether each passes yet).

  /usr/bin/python3 scripts/test/lti/check_launches.py ENGINE SERVER_URL PLATFORM_JSON ADMIN_EMAIL ADMIN_PASSWORD

Run with Debian's /usr/bin/python3, which sees python3-selenium; it needs nothing else (the
platform runs in .build/venv-lti). Prints `  ok`, `  FAIL` and `  pending` lines; exits 1 when any
check failed.
"""
from http.cookiejar import CookieJar
import json
import os
import re
import shutil
import sys
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# The checks for what the server does not do yet. Take a name out when the server does it.
PENDING = set()

engine, base, platform_json, admin_email, admin_password = sys.argv[1:6]
platform = json.loads(platform_json)
issuer = platform["issuer"]
run_pending = os.environ.get("LTI_RUN_PENDING") == "1"
failures = 0

GEO, HIST = "ctx-geo-101", "ctx-hist-202"
GEO_TITLE = "Geography of Home"
LEA_SUB = "u-1002-lea"
# Chromium's cookie setting (Settings › Privacy › Third-party cookies): 0 allows third-party
# cookies, 1 blocks them. It is the pref this Chromium reads (the older block_third_party_cookies
# is not); set explicitly, not left to the build's default.
BLOCK_THIRD_PARTY = {"profile.cookie_controls_mode": 1}
ALLOW_THIRD_PARTY = {"profile.cookie_controls_mode": 0}


def report(name, ok, detail=""):
    global failures
    print(f"  {'ok  ' if ok else 'FAIL'}  {engine}: {name}" + ("" if ok else f"\n        {detail}"), flush=True)
    if not ok:
        failures += 1


class CheckFailed(Exception):
    pass


def expect(condition, detail):
    if not condition:
        raise CheckFailed(detail)


def check(name, function, pending_name=None):
    """Runs `function`, which raises CheckFailed (or anything) to fail. A pending check is only
    announced, unless LTI_RUN_PENDING=1, when its outcome is said without counting."""
    if pending_name in PENDING:
        if not run_pending:
            print(f"  pending  {engine}: {pending_name}: {name}", flush=True)
            return
        try:
            function()
            print(f"  pending  {engine}: {pending_name}: {name} (passes now: take it out of PENDING)", flush=True)
        except Exception as error:  # noqa: BLE001 - a pending check's failure is reported, never raised
            print(f"  pending  {engine}: {pending_name}: {name} (not yet: {describe(error)})", flush=True)
        return
    try:
        function()
        report(name, True)
    except Exception as error:  # noqa: BLE001
        report(name, False, describe(error))


def describe(error):
    """What went wrong, on one line."""
    if isinstance(error, CheckFailed):
        text = str(error)
    elif isinstance(error, TimeoutException):
        text = "timed out " + page_summary()
    else:
        text = "".join(traceback.format_exception_only(type(error), error)).strip()[:600] + " " + page_summary()
    return " ".join(text.split())


# The server, as its admin (counts of what exists) and as a browser without one (headers).

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def http(method, url, body=None, headers=None, token=None, form=None, opener=None):
    headers = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with (opener or urllib.request.build_opener(NoRedirect)).open(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode("utf-8", "replace")


def parsed(text):
    return json.loads(text[5:] if text.startswith(")]}'\n") else text)


status, _, text = http("POST", base + "/v1/session", {"udacity": {"username": admin_email, "password": admin_password}})
assert status == 200, f"the admin could not log in: {status} {text[:200]}"
admin_token = parsed(text)["session"]["id"]


def counts():
    """(accounts, courses) on the server, as its admin sees them."""
    status, _, accounts = http("GET", base + "/v1/admin/accounts?limit=200", token=admin_token)
    assert status == 200, accounts
    status, _, courses = http("GET", base + "/v1/courses", token=admin_token)
    assert status == 200, courses
    return len(parsed(accounts)["results"]), len(parsed(courses)["results"])


def course_titled(title):
    status, _, courses = http("GET", base + "/v1/courses", token=admin_token)
    return next((course for course in parsed(courses)["results"] if course["title"] == title), None)


def platform_state():
    status, _, text = http("GET", issuer + "/test/state")
    assert status == 200, text
    return json.loads(text)


def launch_url(user, context, **options):
    return issuer + "/test/launch?" + urllib.parse.urlencode({"user": user, "context": context, **options})


# The browser.

def chromium(prefs):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                     "--disable-extensions", "--lang=en-US", "--window-size=1280,900"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-US", **prefs})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


driver = chromium(BLOCK_THIRD_PARTY)
wait = WebDriverWait(driver, 15)


def screenshot(name):
    """With LTI_SCREENSHOTS=DIR, the browser's window as a person sees it, as DIR/ENGINE-NAME.png."""
    folder = os.environ.get("LTI_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        driver.save_screenshot(os.path.join(folder, f"{engine}-{name}.png"))


def page_summary():
    """Where the browser is and what the page says (its heading, or the start of its text)."""
    try:
        driver.switch_to.default_content()
        heading = driver.find_elements(By.TAG_NAME, "h1")
        said = heading[0].text if heading else driver.find_element(By.TAG_NAME, "body").text[:160]
        return f"(at {driver.current_url}: {said!r})"
    except WebDriverException:
        return ""


def fresh_browser():
    """A new visitor: no cookies, no storage, no service worker of the tool or the platform."""
    driver.switch_to.default_content()
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    for origin in (base, issuer, issuer.replace("localhost", "127.0.0.1")):
        driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})


def cookie_probe(browser):
    """What the platform's probe frame (127.0.0.1 inside a localhost page) got back after setting
    an unpartitioned and a partitioned cookie, and the cookies the browser holds for it."""
    browser.get(f"{issuer}/test/cookie-probe?step=set")
    browser.switch_to.frame(WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "probe")))
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "cookies").text == "set")
    browser.switch_to.default_content()
    browser.get(f"{issuer}/test/cookie-probe?step=echo")
    browser.switch_to.frame(WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "probe")))
    echoed = WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "cookies")).text
    browser.switch_to.default_content()
    stored = [(cookie["name"], bool(cookie.get("partitionKey"))) for cookie in browser.execute_cdp_cmd("Storage.getCookies", {})["cookies"]
              if cookie["domain"] == "127.0.0.1" and cookie["name"].startswith("probe_")]
    return echoed, stored


def third_party_cookies_blocked():
    echoed, stored = cookie_probe(driver)
    expect("probe_unpartitioned" not in echoed and ("probe_unpartitioned", False) not in stored,
           f"the unpartitioned cookie of the framed 127.0.0.1 was kept: sent back {echoed!r}, stored {stored}")
    expect("probe_partitioned=1" in echoed, f"the probe itself did not work (its partitioned cookie did not come back): {echoed!r}")
    # The same probe where they are allowed keeps it: what the setting above turned off.
    control = chromium(ALLOW_THIRD_PARTY)
    try:
        allowed_echo, allowed_stored = cookie_probe(control)
    finally:
        control.quit()
    expect("probe_unpartitioned=1" in allowed_echo and ("probe_unpartitioned", False) in allowed_stored,
           f"with third-party cookies allowed the probe's cookie is not kept either ({allowed_echo!r}): it proves nothing")
    fresh_browser()


# What a person sees.

APP_READY = """
const app = document.getElementById('app-screen'), map = document.getElementById('map');
return Boolean(app && !app.hidden && app.getClientRects().length > 0 && map && map.dataset.ready === 'true');"""

WHO_AM_I = """
const done = arguments[arguments.length - 1];
const json = (response) => response.text().then((text) => ({status: response.status,
  body: response.ok ? JSON.parse(text.startsWith(")]}'\\n") ? text.slice(5) : text) : null}));
Promise.all([fetch('/v1/me', {credentials: 'include'}).then(json), fetch('/v1/courses', {credentials: 'include'}).then(json)])
  .then(([me, courses]) => done({me, courses})).catch((error) => done({error: String(error)}));"""


def shown_map(title, framed=False):
    """Waits for the app's map screen, signed in (the app shows it to nobody else), showing the
    course titled `title`. In a window, also returns the course (slug, role) as the signed-in
    person's /v1/courses lists it, and their /v1/me; in a frame, how the app keeps its session there
    is the app's business: the course shown and its slug."""
    try:
        wait.until(lambda d: d.execute_script(APP_READY))
    except TimeoutException:
        raise CheckFailed(f"the map screen did not show, signed in {page_summary()}") from None
    shown_title = ("const s = document.getElementById('course-select'); const n = document.getElementById('course-name');"
                   "return (s.selectedOptions[0] && s.selectedOptions[0].textContent) || n.textContent;")
    try:
        wait.until(lambda d: d.execute_script(shown_title) == title)
    except TimeoutException:
        raise CheckFailed(f"the map shows the course {driver.execute_script(shown_title)!r}, not {title!r}") from None
    shown = driver.execute_script("return document.getElementById('course-select').value")
    if framed:
        return {"slug": shown, "title": title}, None
    answer = driver.execute_async_script(WHO_AM_I)
    expect(answer.get("me", {}).get("status") == 200, f"signed in, yet /v1/me answers {answer}")
    course = next((c for c in answer["courses"]["body"]["results"] if c["slug"] == shown), None)
    expect(course is not None and course["title"] == title, f"the course shown is {shown}, not {title}: {answer['courses']}")
    return course, answer["me"]["body"]


def heading():
    return WebDriverWait(driver, 15).until(lambda d: d.find_element(By.TAG_NAME, "h1")).text


# The checks that the server passes today.

made = {}


def instructor_first_launch():
    before = counts()
    fresh_browser()
    driver.get(launch_url("ines", GEO))
    course, me = shown_map(GEO_TITLE)
    expect(course["role"] == "instructor", f"Ines's role in the course is {course['role']}")
    expect((me["account"]["firstName"], me["account"]["lastName"]) == ("Ines", "Instructor"), f"signed in as {me['account']}")
    after = counts()
    expect(after == (before[0] + 1, before[1] + 1), f"accounts and courses went from {before} to {after}, not one more each")
    made["slug"] = course["slug"]


def learner_launch():
    expect("slug" in made, "the instructor's launch made no course")
    before = counts()
    fresh_browser()
    driver.get(launch_url("lea", GEO))
    course, me = shown_map(GEO_TITLE)
    expect(course["slug"] == made["slug"] and course["role"] == "student", f"Lea is on {course['slug']} as {course['role']}")
    expect((me["account"]["firstName"], me["account"]["lastName"]) == ("Lea", "Learner"), f"signed in as {me['account']}")
    after = counts()
    expect(after == (before[0] + 1, before[1]), f"accounts and courses went from {before} to {after}: one account, no course")


def refused(title, expected_heading, **launch):
    def run():
        before = counts()
        fresh_browser()
        driver.get(launch_url(**launch))
        shown = heading()
        expect(shown == expected_heading, f"the page says {shown!r}, not {expected_heading!r} {page_summary()}")
        answer = driver.execute_async_script(WHO_AM_I)
        expect(answer.get("me", {}).get("status") == 401, f"and yet a session: /v1/me answers {answer.get('me')}")
        after = counts()
        expect(after == before, f"accounts and courses went from {before} to {after}")
    check(title, run)


# The pending checks: what the server is to do.

def frame_launch():
    """Lea on the platform's course page: the map in its iframe, signed in, with third-party cookies
    blocked; the launch's answer lets the platform frame it, the tool's other pages do not."""
    fresh_browser()
    driver.get(issuer + "/test/course?" + urllib.parse.urlencode({"user": "lea", "context": GEO}))
    frame = wait.until(lambda d: d.find_element(By.ID, "tool-frame"))
    driver.switch_to.frame(frame)
    try:
        course, _ = shown_map(GEO_TITLE, framed=True)
        expect(course["slug"] == made.get("slug"), f"the frame shows {course['slug']}")
    finally:
        driver.switch_to.default_content()
    screenshot("frame")
    # The same launch outside the browser, for the headers of the tool's answer to it.
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    status, headers, body = http("GET", launch_url("lea", GEO, presentation="iframe"), opener=opener)
    expect(status == 200 and 'name="id_token"' in body, f"the platform's launch form did not come: {status}")
    fields = dict(re.findall(r'name="(id_token|state)" value="([^"]*)"', body))
    action = re.search(r'action="([^"]+)"', body).group(1)
    # The cookie that ties the launch to the browser that began it (Secure, which Python's jar
    # keeps but sends over https only; a browser sends it to http://127.0.0.1 too).
    binding = "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar if cookie.name.startswith("otm_lti_"))
    expect(binding, "the login initiation set no cookie tying the launch to this browser")
    status, headers, body = http("POST", action, form=fields, opener=opener, headers={"Cookie": binding})
    policy = headers.get("Content-Security-Policy", "")
    expect(status == 200, f"the launch answered {status}")
    ancestors = next((part.split()[1:] for part in policy.split(";") if part.strip().startswith("frame-ancestors")), [])
    expect(issuer in ancestors, f"the launch's frame-ancestors is {ancestors}, not naming {issuer}")
    status, headers, _ = http("GET", base + "/")
    root_policy = headers.get("Content-Security-Policy", "")
    expect("frame-ancestors 'none'" in root_policy or headers.get("X-Frame-Options", "").upper() == "DENY",
           f"the tool's / may be framed: {root_policy!r}")


def course_page(browser, user):
    """`user` on the platform's course page, switched into the tool's frame."""
    browser.get(issuer + "/test/course?" + urllib.parse.urlencode({"user": user, "context": GEO}))
    browser.switch_to.frame(WebDriverWait(browser, 15).until(lambda d: d.find_element(By.ID, "tool-frame")))


def frame_reload_and_window():
    """Third-party cookies blocked: Open in a new window opens the map signed in, in a window of
    its own (the frame's session made that window's cookies); the launch's page gave itself an
    address that loads again without posting the launch twice, and goes on signed in (the frame's
    storage is the platform page's own partition); after Log out in the frame, the frame says to
    open the map from the course, and so it does when loaded again."""
    fresh_browser()
    course_page(driver, "lea")
    try:
        shown_map(GEO_TITLE, framed=True)
        address = driver.execute_script("return location.href")
        expect("/lti/launch?frame=" in address, f"the frame's page is at {address}")
        before = driver.window_handles
        button = wait.until(lambda d: d.find_element(By.ID, "launch-window-button"))
        expect(button.is_displayed(), "no Open in a new window button in the frame")
        button.click()
        WebDriverWait(driver, 10).until(lambda d: len(d.window_handles) > len(before))
        opener = driver.current_window_handle
        driver.switch_to.window(next(handle for handle in driver.window_handles if handle not in before))
        _, me = shown_map(GEO_TITLE)
        expect(me["account"]["firstName"] == "Lea", f"the new window is signed in as {me['account']}")
        screenshot("new-window")
        driver.close()
        driver.switch_to.window(opener)
        driver.switch_to.frame(wait.until(lambda d: d.find_element(By.ID, "tool-frame")))
        driver.execute_script("window.beforeReload = true; location.reload()")
        try:
            wait.until(lambda d: d.execute_script("return !window.beforeReload") and d.execute_script(APP_READY))
        except TimeoutException:
            raise CheckFailed(f"the frame loaded again is not the map signed in {page_summary()}") from None
        wait.until(lambda d: d.find_element(By.ID, "logout-button")).click()
        ended = "return (e => e && !e.hidden && e.getClientRects().length > 0)(document.getElementById('launch-ended-screen'))"
        try:
            wait.until(lambda d: d.execute_script(ended))
            driver.execute_script("window.beforeReload = true; location.reload()")
            wait.until(lambda d: d.execute_script("return !window.beforeReload") and d.execute_script(ended))
        except TimeoutException:
            raise CheckFailed(f"logged out in the frame, it does not say to open the map from the course {page_summary()}") from None
        expect("Open the map again from your course" in driver.find_element(By.ID, "launch-ended-screen").text, "the ended screen's words")
    finally:
        driver.switch_to.default_content()


def deep_linking():
    """Ines adds the map to her platform course by deep linking, choosing the course; Lea's launch
    of the new link opens that course's map."""
    expect("slug" in made, "no course to choose")
    fresh_browser()
    driver.get(launch_url("ines", GEO, kind="deep-linking"))
    form = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "form#lti-deep-link"))
    screenshot("deep-linking-picker")
    choices = [button.get_attribute("value") for button in form.find_elements(By.CSS_SELECTOR, "button[name=course]")]
    expect(choices == [made["slug"]], f"the picker offers {choices}, not the one course Ines teaches")
    expect(form.find_elements(By.CSS_SELECTOR, "input[name=title]") and form.find_elements(By.CSS_SELECTOR, "button[name=create]"),
           "the picker has no title field and create button for a new course")
    form.find_element(By.CSS_SELECTOR, f"button[name=course][value='{made['slug']}']").click()
    WebDriverWait(driver, 15).until(lambda d: d.current_url.startswith(issuer + "/deep-link/return"))
    expect(heading() == "Added to the course", f"the platform says {heading()!r}")
    items = platform_state()["deep_link_items"]
    expect(len(items) == 1 and items[0]["type"] == "ltiResourceLink"
           and (items[0].get("custom") or {}).get("onthemap_course") == made["slug"],
           f"the platform recorded {items}")
    link = items[0]["resource_link"]
    fresh_browser()
    driver.get(launch_url("lea", GEO, link=link))
    course, _ = shown_map(GEO_TITLE)
    expect(course["slug"] == made["slug"], f"the link opened {course['slug']}")
    sent = platform_state()["launches"][-1]
    expect((sent.get("custom") or {}).get("onthemap_course") == made["slug"], f"the launch's custom claim was {sent.get('custom')}")


def post_pin_as_lea():
    """Lea launches and posts her pin through the web client (once)."""
    if made.get("lea posted"):
        return
    deadline = time.time() + 60
    while time.time() < deadline and http("GET", base + "/readyz")[0] != 200:
        time.sleep(0.5)
    fresh_browser()
    driver.get(launch_url("lea", GEO))
    shown_map(GEO_TITLE)
    wait.until(lambda d: d.find_element(By.ID, "post-button")).click()
    for field, text in (("post-location", "Paris"), ("post-link", "lea.example.com")):
        element = wait.until(lambda d: d.find_element(By.ID, field))
        wait.until(lambda d: element.is_displayed())
        element.clear()
        element.send_keys(text)
    driver.find_element(By.ID, "find-button").click()
    wait.until(lambda d: d.find_element(By.ID, "finish-button").is_displayed())
    driver.find_element(By.ID, "finish-button").click()
    wait.until(lambda d: d.execute_script(APP_READY))
    wait.until(lambda d: d.execute_async_script(
        "const done = arguments[0]; fetch('/c/" + made["slug"] + "/v1/me').then((r) => r.text())"
        ".then((t) => done(JSON.parse(t.startsWith(\")]}'\\n\") ? t.slice(5) : t).location !== null)).catch(() => done(false));"))
    made["lea posted"] = True


def grades():
    """Ines turns grading on; the tool makes a line item at the platform; Lea's pin is scored 1/1."""
    expect("slug" in made, "no course")
    fresh_browser()
    driver.get(launch_url("ines", GEO))
    shown_map(GEO_TITLE)
    driver.get(f"{base}/#/course/{made['slug']}/settings")
    grading = wait.until(lambda d: d.find_element(By.ID, "course-grading"))
    if not grading.is_selected():
        grading.click()
    driver.find_element(By.CSS_SELECTOR, "#course-settings [type=submit]").click()
    deadline = time.time() + 10
    while time.time() < deadline and not platform_state()["line_items"].get(GEO):
        time.sleep(0.3)
    items = platform_state()["line_items"].get(GEO)
    expect(items, "the platform has no line item for the course")
    post_pin_as_lea()
    deadline = time.time() + 15
    scores = []
    while time.time() < deadline:
        scores = [score for score in platform_state()["scores"] if score.get("userId") == LEA_SUB]
        if scores:
            break
        time.sleep(0.3)
    expect(scores and scores[-1].get("scoreGiven") == 1 and scores[-1].get("scoreMaximum") == 1,
           f"Lea's scores at the platform: {scores}")


def roster():
    """The platform's class list in the instructor's roster: who never launched shows, not posted."""
    expect("slug" in made, "no course")
    post_pin_as_lea()
    fresh_browser()
    driver.get(launch_url("ines", GEO))
    shown_map(GEO_TITLE)
    driver.get(f"{base}/#/course/{made['slug']}/roster")
    wait.until(lambda d: d.find_element(By.ID, "course-content").get_attribute("data-section") == "roster")

    def row(name):
        return next((item for item in driver.find_elements(By.CSS_SELECTOR, "#course-content li") if name in item.text), None)

    try:
        wait.until(lambda d: row("Bo Neverlaunched") and row("Cy Neverlaunched"))
    except TimeoutException:
        raise CheckFailed("the roster does not list Bo and Cy Neverlaunched: " + driver.find_element(By.ID, "course-content").text[:400]) from None
    for name in ("Bo Neverlaunched", "Cy Neverlaunched"):
        expect(row(name).get_attribute("data-posted") == "false", f"{name}'s row: {row(name).get_attribute('outerHTML')[:300]}")
    screenshot("roster")
    lea = row("Lea Learner")
    expect(lea is not None and lea.get_attribute("data-posted") == "true", "Lea, who posted, is not shown as having posted")
    state = platform_state()
    nrps_scope = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
    expect(any(nrps_scope in token["scopes"] for token in state["tokens"]), f"no token with the NRPS scope: {state['tokens']}")
    expect(any(call["context"] == GEO and call["status"] == 200 for call in state["nrps_calls"]), f"NRPS calls: {state['nrps_calls']}")


try:
    status, _, text = http("POST", issuer + "/test/tool", {"origin": base})
    assert status == 200, text
    check("third-party cookies are blocked in this browser (a frame's cookie of 127.0.0.1 in a localhost page "
          "is neither kept nor sent; a partitioned one is; one allowing them keeps it)", third_party_cookies_blocked)
    check("an instructor's first launch makes the course, titled from the platform's, and opens its map signed in",
          instructor_first_launch)
    check("a learner's launch opens the same course's map, signed in as a student", learner_launch)
    refused("a learner's launch before any instructor's is told to wait, and makes nothing",
            "Your instructor has not set up this map yet", user="lea", context=HIST)
    # Each launch below would make Nia's account and the HIST 202 course, were it taken.
    refusal = dict(user="nia", context=HIST)
    not_checked = "This launch could not be checked"
    refused("a launch whose claims were changed after signing is refused", not_checked, broken="bad-signature", **refusal)
    refused("a launch signed by a key the platform does not publish (under its key's kid) is refused", not_checked,
            broken="foreign-key", **refusal)
    refused("a launch signed by a key the platform's key set does not have (unknown kid) is refused", not_checked,
            broken="unknown-kid", **refusal)
    refused("a launch for another audience is refused", not_checked, broken="wrong-aud", **refusal)
    refused("an expired launch is refused", not_checked, broken="expired", **refusal)
    refused("a launch replaying an earlier launch's nonce is refused", not_checked, broken="replayed-nonce", **refusal)
    refused("a launch posted back with another state is refused", "This launch has expired", broken="wrong-state", **refusal)
    refused("a launch from an unknown deployment is refused", not_checked, broken="unknown-deployment", **refusal)
    refused("a launch without a context is refused", "Open On The Map from a course", broken="no-context", **refusal)
    check("the learner's launch in the platform's course page frame opens the map signed in, third-party cookies blocked",
          frame_launch, "frame")
    check("in the frame: Open in a new window opens the map signed in; loaded again it goes on; logged out, it says to open the map from the course",
          frame_reload_and_window)
    check("the instructor picks the course in the tool's picker; the platform's new link opens it for a learner", deep_linking, "deep-linking")
    check("with grading on, the learner's post is scored 1/1 at the platform", grades, "ags")
    check("the roster lists the platform's class list: who never launched, not posted", roster, "nrps")
finally:
    driver.quit()

sys.exit(1 if failures else 0)
