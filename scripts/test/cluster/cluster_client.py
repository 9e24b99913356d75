"""What the cluster tests share: requests as a native client makes them, sign-up and posting, a
Server-Sent Events reader, and `check`, which prints `ok` or `FAIL` and counts the failures."""
import http.client
import json
import queue
import threading
import time
import urllib.error
import urllib.request
import uuid

PASSWORD = "correct horse battery"
_failures = 0


def check(name, condition, detail=""):
    global _failures
    if condition:
        print(f"  ok    {name}")
    else:
        _failures += 1
        print(f"  FAIL  {name}: {detail}")


def failures():
    """How many checks have failed so far."""
    return _failures


def call(base, method, path, body=None, token=None, headers=None):
    """(status, JSON body) of a request as a native client makes it."""
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, parse(response.read())
    except urllib.error.HTTPError as error:
        return error.code, parse(error.read())
    except (urllib.error.URLError, ConnectionError, TimeoutError, http.client.HTTPException) as error:
        return 0, {"error": str(error)}


def parse(raw):
    """The JSON of an answer, or its text when it is not JSON (nginx's 502 page)."""
    text = raw.decode("utf-8", "replace")
    if text.startswith(")]}'\n"):
        text = text[5:]
    try:
        return json.loads(text) if text else None
    except ValueError:
        return {"text": text}


def sign_up(base, name):
    email = f"{name.lower()}-{uuid.uuid4().hex[:8]}@example.com"
    status, body = call(base, "POST", "/v1/accounts", {"email": email, "password": PASSWORD, "firstName": name, "lastName": "Cluster"})
    assert status == 201, (status, body)
    return email, body["session"]["id"]


def post(base, token, place, latitude=10.0, longitude=20.0, course=""):
    """A pin at `place`, in the default course or under a course's path (`/c/{slug}`)."""
    return call(base, "POST", course + "/v1/StudentLocation", {
        "mapString": place, "mediaURL": "https://example.com", "latitude": latitude, "longitude": longitude}, token)


def newest(base):
    status, body = call(base, "GET", "/v1/StudentLocation?limit=5")
    return body["results"][0]["objectId"] if status == 200 and body["results"] else None


class EventStream:
    """A Server-Sent Events reader on its own thread: events land in `events` with the time they arrived."""

    def __init__(self, base, last_event_id=None, course="", token=None):
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request("GET", course + "/v1/StudentLocation/events", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.events = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        event = {}
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                line = line.decode("utf-8").rstrip("\n")
                if line == "":
                    if "data" in event:
                        event["at"] = time.monotonic()
                        self.events.put(event)
                    event = {}
                elif not line.startswith(":"):
                    field, _, value = line.partition(":")
                    event[field] = value.removeprefix(" ")
        except Exception:  # the stream was closed under the reader: that is its end
            return

    def next(self, name=None, timeout=10):
        """The next event (named `name`, skipping heartbeats and others), or None after `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if name is None and event.get("event") != "heartbeat" or event.get("event") == name:
                return event
        return None

    def close(self):
        self.connection.close()
