"""Sign-in with OpenID Connect providers, end to end against real ones (providers.py) and the real
server: what a browser does, step by step, with the provider's own authorization form.

  .build/venv-oidc/bin/python scripts/test/oidc/check_sign_in.py ENGINE SERVER_URL PROVIDERS_JSON ADMIN_EMAIL ADMIN_PASSWORD

Prints one line per check; exits 1 when any failed.
"""
import json
import sys
import urllib.parse

import httpx

engine, base, ports_json, admin_email, admin_password = sys.argv[1:6]
ports = json.loads(ports_json)
provider_url = {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}
failures = 0


def check(name, ok, detail=""):
    global failures
    print(f"  {'ok  ' if ok else 'FAIL'}  {engine}: {name}" + ("" if ok else f"\n        {detail}"))
    if not ok:
        failures += 1


def browser():
    """A fresh browser: its own cookies, redirects looked at one by one."""
    return httpx.Client(base_url=base, follow_redirects=False, timeout=20)


def set_user(provider, sub, claims):
    answer = httpx.put(f"{provider_url[provider]}/users/{urllib.parse.quote(sub, safe='')}", json=claims, timeout=10)
    assert answer.status_code == 204, answer.text


def sign_in(client, provider, sub, *, deny=False, change_authorization=None):
    """Start → the provider's form (answered as the student would) → back to the callback.
    Returns (where the server sent the browser at the end, the callback URL)."""
    start = client.get(f"/v1/oidc/{provider}/start")
    if start.status_code == 303:
        return start.headers["location"], None  # the server said no before the provider (provider down)
    assert start.status_code == 302, f"start answered {start.status_code} {start.headers.get('location')}"
    authorize = start.headers["location"]
    if change_authorization:
        authorize = change_authorization(authorize)
    form = {"action": "deny"} if deny else {"sub": sub}
    answer = httpx.post(authorize, data=form, follow_redirects=False, timeout=10)
    assert answer.status_code in (302, 303), f"the provider answered {answer.status_code}: {answer.text[:300]}"
    callback = answer.headers["location"]
    assert callback.startswith(base + "/v1/oidc/"), callback
    finish = client.get(callback)
    assert finish.status_code == 303, f"callback answered {finish.status_code}"
    return finish.headers["location"], callback


def failure_code(location):
    query = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)
    return query.get("login-error", [None])[0]


def me(client):
    answer = client.get("/v1/me")
    return answer.json() if answer.status_code == 200 else None


def password_login(client, email, password):
    return client.post("/v1/session", json={"udacity": {"username": email, "password": password}}).status_code


# The login page learns the providers from /config.json.
config = httpx.get(base + "/config.json").json()
check("config.json lists every provider with its name and start",
      [(p["id"], p["name"], p["start"]) for p in config["signIn"]][:2]
      == [("school", "School account", "/v1/oidc/school/start"), ("expired", "Expired tokens", "/v1/oidc/expired/start")],
      json.dumps(config["signIn"]))

# First login makes the account, named from the claims; a second, in another browser, finds it.
set_user("school", "ada-1815", {"email": "Ada@School.example", "email_verified": True, "given_name": "Ada", "family_name": "Lovelace"})
first = browser()
location, callback = sign_in(first, "school", "ada-1815")
ada = me(first)
check("a first sign-in makes an account and lands on the map",
      location == base + "/#/map" and ada is not None and ada["account"]["email"] == "ada@school.example"
      and (ada["account"]["firstName"], ada["account"]["lastName"]) == ("Ada", "Lovelace"),
      f"{location} {ada}")
second = browser()
location, _ = sign_in(second, "school", "ada-1815")
check("a second sign-in, elsewhere, is the same account",
      location == base + "/#/map" and me(second) is not None and me(second)["account"]["key"] == ada["account"]["key"],
      f"{location} {me(second)}")
# The session works for the old apps' API too, and the account has no password to guess.
posted = first.post("/v1/StudentLocation", headers={"X-XSRF-TOKEN": first.cookies.get("XSRF-TOKEN"), "Origin": base},
                    json={"mapString": "London", "mediaURL": "https://example.org", "latitude": 51.5, "longitude": -0.12})
check("the signed-in student can post a pin", posted.status_code in (200, 201), posted.text[:200])
check("an account made by a provider's sign-in has no password to log in with",
      password_login(browser(), "ada@school.example", "") == 400 and password_login(browser(), "ada@school.example", "!external") == 403)

# The state went with the first callback: bringing it back, even with the state cookie, is refused.
replay = browser()
parts = urllib.parse.urlparse(callback)
replay.cookies.set("otm_oidc_state", urllib.parse.parse_qs(parts.query)["state"][0], domain="127.0.0.1", path="/v1/oidc/")
answer = replay.get(callback)
check("a replayed state is refused",
      answer.status_code == 303 and failure_code(answer.headers["location"]) == "expired" and me(replay) is None,
      f"{answer.status_code} {answer.headers.get('location')}")

# A callback in a browser that did not start the login (login cross-site request forgery).
victim = browser()
attacker = browser()
start = attacker.get("/v1/oidc/school/start")
answer = httpx.post(start.headers["location"], data={"sub": "ada-1815"}, follow_redirects=False)
stolen = victim.get(answer.headers["location"])
check("a callback in another browser than the one that started is refused",
      failure_code(stolen.headers["location"]) == "expired" and me(victim) is None, stolen.headers.get("location"))

# A password account links to the provider by its verified email.
bob = browser()
created = bob.post("/v1/accounts", json={"email": "bob@school.example", "password": "bob-password-1", "firstName": "Bob", "lastName": "Builder"})
bob_key = created.json()["account"]["key"]
set_user("school", "bob-sub", {"email": "bob@school.example", "email_verified": True, "name": "Robert Builder"})
linked = browser()
location, _ = sign_in(linked, "school", "bob-sub")
check("a sign-in links to the password account with the same verified email",
      location == base + "/#/map" and me(linked)["account"]["key"] == bob_key and me(linked)["account"]["firstName"] == "Bob",
      f"{location} {me(linked)}")
check("and its password still works", password_login(browser(), "bob@school.example", "bob-password-1") == 200)

# No account is made or linked without a verified email.
set_user("school", "carol-sub", {"email": "carol@school.example", "email_verified": False, "name": "Carol"})
location, _ = sign_in(browser(), "school", "carol-sub")
check("an unverified email is refused", failure_code(location) == "email-unverified", location)
set_user("school", "bob-impostor", {"email": "bob@school.example", "name": "Not Bob"})
location, _ = sign_in(browser(), "school", "bob-impostor")
check("an email without email_verified does not take over an account", failure_code(location) == "email-unverified", location)
set_user("school", "nomail", {"name": "No Mail"})
location, _ = sign_in(browser(), "school", "nomail")
check("a sign-in without an email is refused", failure_code(location) == "no-email", location)
carol = browser().post("/v1/accounts", json={"email": "carol@school.example", "password": "carol-password-1", "firstName": "C", "lastName": "C"})
check("the refused sign-ins made no account", carol.status_code == 201, carol.text[:200])

# The student says no at the provider.
location, _ = sign_in(browser(), "school", "ada-1815", deny=True)
check("cancelling at the provider is explained", failure_code(location) == "cancelled", location)


def other_nonce(url):
    parts = urllib.parse.urlparse(url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    query["nonce"] = "a-nonce-of-another-login"
    return parts._replace(query=urllib.parse.urlencode(query)).geturl()


client = browser()
location, _ = sign_in(client, "school", "ada-1815", change_authorization=other_nonce)
check("an ID token with another login's nonce is refused", failure_code(location) == "invalid-token" and me(client) is None, location)
client = browser()
set_user("tampered", "ada-1815", {"email": "ada@school.example", "email_verified": True})
location, _ = sign_in(client, "tampered", "ada-1815")
check("an ID token changed on its way is refused", failure_code(location) == "invalid-token" and me(client) is None, location)
client = browser()
set_user("expired", "ada-1815", {"email": "ada@school.example", "email_verified": True})
location, _ = sign_in(client, "expired", "ada-1815")
check("an expired ID token is refused", failure_code(location) == "invalid-token" and me(client) is None, location)
location, _ = sign_in(browser(), "down", "ada-1815")
check("a provider that does not answer is explained", failure_code(location) == "provider-unavailable", location)
unknown = browser().get("/v1/oidc/nobody/start")
check("an unknown provider is explained", failure_code(unknown.headers.get("location", "")) == "unknown-provider", unknown.headers.get("location"))

# An admin disables Ada: her sessions end and signing in again says why.
admin = browser()
assert password_login(admin, admin_email, admin_password) == 200
disabled = admin.patch(f"/v1/admin/accounts/{ada['account']['key']}", json={"disabled": True},
                       headers={"X-XSRF-TOKEN": admin.cookies.get("XSRF-TOKEN"), "Origin": base})
location, _ = sign_in(browser(), "school", "ada-1815")
check("a disabled account's sign-in is refused and explained",
      disabled.status_code == 200 and failure_code(location) == "disabled" and me(first) is None, f"{disabled.status_code} {location}")

sys.exit(1 if failures else 0)
