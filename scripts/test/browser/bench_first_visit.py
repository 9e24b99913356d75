"""A first visit on a slow phone network, in headless Chromium; prints a Markdown section.

    /usr/bin/python3 scripts/test/browser/bench_first_visit.py .build/release/onthemap [runs]

Two networks, each with an empty cache and no service worker yet (as on a first visit): Chromium
DevTools' "Slow 4G" preset (562.5 ms per request, 1.44 Mbit/s down), and a milder one (150 ms per
request, 1.6 Mbit/s down). On each, the time from navigation to the login form (painted by the
page, then usable once its script has taken it over), and, for a logged-in student reloading on
the List tab, to the first paint and to the rows (150 students). Each run is a fresh browser. Times are the page's own marks
(main.js: shown-<screen>, list-rows) and Chromium's first-contentful-paint, from the navigation's start.
"""
import os
import platform
import statistics
import sys
import time

from selenium.webdriver.support.ui import WebDriverWait

from bench_web_client import seed
from harness import CHROMIUM_SLOW_4G, SLOW_4G, Server, as_first_visit, chromium, login_ready

STUDENTS = 150
PASSWORD = "correct horse battery"


def throttled_browser(language="en-US"):
    """A phone-sized Chromium on slow 4G with nothing cached and the service worker kept out (it
    fetches outside the page's throttling, and would not run on a first visit yet)."""
    driver = chromium(390, 844, True, language)
    as_first_visit(driver)
    return driver


def mark(driver, name, timeout=60):
    """When the page made mark `name`, in ms since navigation; waits for it."""
    script = f"const m = performance.getEntriesByName('{name}')[0]; return m ? m.startTime : null"
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(script))


# Bytes over the wire (compressed, headers included) for the page and everything it fetched by `until`.
TRANSFERRED = """
    const until = arguments[0];
    const navigation = performance.getEntriesByType('navigation')[0];
    return navigation.transferSize + performance.getEntriesByType('resource')
      .filter((r) => r.responseEnd <= until).reduce((sum, r) => sum + r.transferSize, 0);"""


# Each network: its name as printed, its conditions, and the targets for the login screen and the rows.
NETWORKS = [
    ("Chromium's Slow 4G preset: 562.5 ms per request, 1.44 Mbit/s down, 675 kbit/s up", CHROMIUM_SLOW_4G, "1,500 ms", "2,500 ms"),
    ("a milder slow 4G: 150 ms per request, 1.6 Mbit/s down, 750 kbit/s up", SLOW_4G, "", ""),
]


def login_screen(base, network, language="en-US"):
    """Times to the first paint and the login screen; then the student logs in after a few seconds
    of typing (the map's code arrives meanwhile): bytes to the login screen and to the first map."""
    driver = throttled_browser(language)
    try:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", network)
        driver.get(base + "/")
        paint, shown = mark(driver, "first-contentful-paint"), mark(driver, "shown-login-screen")
        login_bytes = driver.execute_script(TRANSFERRED, shown)
        time.sleep(3)
        driver.find_element("id", "login-email").send_keys("phone@example.com")
        driver.find_element("id", "login-password").send_keys(PASSWORD)
        driver.find_element("id", "login-button").click()
        ready = mark(driver, "pins-ready")
        map_bytes = driver.execute_script(TRANSFERRED, ready)
        return paint, shown, login_bytes, map_bytes
    finally:
        driver.quit()


def list_reload(base, email, network):
    """Logs in unthrottled, then reloads on the List tab with the cache empty and the network slow."""
    driver = throttled_browser()
    try:
        driver.get(base + "/")
        WebDriverWait(driver, 30).until(login_ready)
        driver.find_element("id", "login-email").send_keys(email)
        driver.find_element("id", "login-password").send_keys(PASSWORD)
        driver.find_element("id", "login-button").click()
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return !!performance.getEntriesByName('list-rows')[0]"))
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", network)
        driver.get(base + "/#/list")
        driver.refresh()
        return mark(driver, "first-contentful-paint"), mark(driver, "list-rows")
    finally:
        driver.quit()


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    server = Server(binary, ["--log-level", "warning"])
    server.start(wait_for_geocoder=False)
    server.stop()
    seed(server.database, STUDENTS)
    server.start(wait_for_geocoder=False)
    try:
        server.sign_up("Phone", "Student", "phone@example.com")
        measured = []
        for name, network, login_target, rows_target in NETWORKS:
            logins = [login_screen(server.base, network) for _ in range(runs)]
            # A French phone: the page comes in French and names the French catalogue too.
            french = [login_screen(server.base, network, "fr-FR") for _ in range(runs)]
            lists = [list_reload(server.base, "phone@example.com", network) for _ in range(runs)]
            measured.append((name, login_target, rows_target, logins, french, lists))
    finally:
        server.remove()
    row = lambda values: f"{statistics.median(values):,.0f} ms | {max(values):,.0f} ms"
    print("## Web client: a first visit on a slow phone network")
    print()
    print(f"- Date: {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}")
    print(f"- Machine: {os.cpu_count()} cores, {platform.system()} {platform.release()}; headless Chromium, 390×844 phone")
    print("- Cache empty, no service worker yet")
    print(f"- Release server on the same machine, SQLite with {STUDENTS} students' posts; {runs} runs, each a fresh browser")
    for name, login_target, rows_target, logins, french, lists in measured:
        print()
        print(f"On {name}:")
        print()
        print("| what | median | worst | target |")
        print("|---|---|---|---|")
        print(f"| navigation → the first paint (the login form, shown by the page) | {row([run[0] for run in logins])} | |")
        print(f"| navigation → the login form usable (its script in) | {row([run[1] for run in logins])} | {login_target} |")
        print(f"| the same on a French phone (its catalogue too) | {row([run[1] for run in french])} | {login_target} |")
        print(f"| reload on the List tab → the first paint (the app icon and a spinner) | {row([paint for paint, _ in lists])} | at once |")
        print(f"| reload on the List tab → the rows | {row([rows for _, rows in lists])} | {rows_target} |")
    logins = measured[0][3]
    print()
    kb = lambda values: f"{statistics.median(values) / 1000:,.0f} KB"
    print("Transferred on a first visit (compressed, as sent; headers included), beside common budgets for a")
    print("phone on a slow network (about 170 KB of critical resources for the first screen; a page")
    print("that loads within 1 MB):")
    print()
    print("| what | transferred | budget |")
    print("|---|---|---|")
    print(f"| to the login screen | {kb([run[2] for run in logins])} | 170 KB |")
    print(f"| to the map with its pins, after logging in (the basemap's world included) | {kb([run[3] for run in logins])} | 1,000 KB |")

if __name__ == "__main__":
    main()
