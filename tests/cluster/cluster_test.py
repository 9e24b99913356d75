"""Three On The Map instances on one PostgreSQL behind nginx (started by scripts/cluster-test.sh).

Each check prints `ok` or `FAIL` with what it saw; the exit status is the number of failures.
"""
import http.client
import json
import os
import queue
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid

NGINX = os.environ["CLUSTER_NGINX"]
INSTANCES = os.environ["CLUSTER_INSTANCES"].split()
PIDS = [int(pid) for pid in os.environ["CLUSTER_PIDS"].split()]
DATABASE = os.environ["CLUSTER_DATABASE"]
PASSWORD = "correct horse battery"
failures = 0


def check(name, condition, detail=""):
    global failures
    if condition:
        print(f"  ok    {name}")
    else:
        failures += 1
        print(f"  FAIL  {name}: {detail}")


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


def post(base, token, place, latitude=10.0, longitude=20.0):
    return call(base, "POST", "/v1/StudentLocation", {
        "mapString": place, "mediaURL": "https://example.com", "latitude": latitude, "longitude": longitude}, token)


def newest(base):
    status, body = call(base, "GET", "/v1/StudentLocation?limit=5")
    return body["results"][0]["objectId"] if status == 200 and body["results"] else None


class EventStream:
    """A Server-Sent Events reader on its own thread: events land in `events` with the time they arrived."""

    def __init__(self, base, last_event_id=None):
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.connection.request("GET", "/v1/StudentLocation/events", headers=headers)
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


def test_accounts_posts_and_lists_across_instances():
    email, _ = sign_up(INSTANCES[0], "Ada")
    status, body = call(INSTANCES[1], "POST", "/v1/session", {"udacity": {"username": email, "password": PASSWORD}})
    check("an account made on one instance logs in on another", status == 200, f"{status} {body}")
    token = body["session"]["id"]
    status, body = post(INSTANCES[2], token, "Oslo, Norway")
    check("its session posts through a third", status == 200, f"{status} {body}")
    object_id = body["objectId"]
    immediate = [newest(base) == object_id for base in INSTANCES + [NGINX]]
    deadline = time.monotonic() + 1
    while not all(immediate) and time.monotonic() < deadline:
        immediate = [shown or newest(base) == object_id for shown, base in zip(immediate, INSTANCES + [NGINX])]
    check("the latest list through every instance and nginx shows the post (within 1 s of its commit)", all(immediate), str(immediate))


def test_limits_count_across_instances():
    statuses = []
    for attempt in range(7):
        status, _ = call(INSTANCES[attempt % 3], "POST", "/v1/session",
                         {"udacity": {"username": f"nobody{attempt}@example.com", "password": "wrong password"}},
                         headers={"X-Forwarded-For": "203.0.113.7"})
        statuses.append(status)
    check("6 failed logins from one address over three instances, then 429 on any", statuses == [403] * 6 + [429], str(statuses))
    statuses = [call(NGINX, "POST", "/v1/session", {"udacity": {"username": f"x{n}@example.com", "password": "wrong"}})[0] for n in range(7)]
    check("the same through nginx round-robin", statuses == [403] * 6 + [429], str(statuses))


def test_live_stream_across_instances_and_after_a_reconnect():
    stream = EventStream(INSTANCES[0])
    ready = stream.next("ready")
    check("a stream on instance 1 opens with ready", stream.status == 200 and ready is not None, str(ready))
    _, token = sign_up(INSTANCES[1], "Grace")
    delays = []
    last_seen = ready["id"] if ready else "0"
    for place in ("Lima, Peru", "Quito, Ecuador", "Bogotá, Colombia"):
        sent = time.monotonic()
        post(INSTANCES[2], token, place)
        event = stream.next("updated" if delays else "created")
        if event is None or json.loads(event["data"]).get("mapString") != place:
            delays.append(None)
        else:
            delays.append(event["at"] - sent)
            last_seen = event["id"]
    check("posts through instance 3 reach the stream on instance 1 within 1 s",
          all(delay is not None and delay < 1 for delay in delays), f"delays {delays}")
    # The client drops (sleep, a lost network) after its last event; others post meanwhile.
    stream.close()
    missed = []
    for name in ("Hedy", "Katherine", "Dorothy"):
        _, other = sign_up(NGINX, name)
        _, body = post(INSTANCES[1], other, f"{name}ville")
        missed.append(body["objectId"])
    resumed = EventStream(INSTANCES[2], last_event_id=last_seen)
    names, ids = [], []
    while True:
        event = resumed.next(timeout=10)
        if event is None or event["event"] == "ready":
            break
        names.append(event["event"])
        ids.append(json.loads(event["data"])["objectId"])
    check("a reconnect to instance 3 with Last-Event-ID gets exactly what it missed",
          ids == missed and names == ["created"] * 3, f"{names} {ids} expected {missed}")
    resumed.close()
    through_nginx = EventStream(NGINX)
    through_nginx.next("ready")
    sent = time.monotonic()
    post(INSTANCES[0], token, "Santiago, Chile")
    event = through_nginx.next("updated")
    check("the stream passes through nginx unbuffered", event is not None and event["at"] - sent < 1,
          "no event" if event is None else f"{event['at'] - sent:.3f} s")
    through_nginx.close()


def test_kill_9_under_write_load_loses_no_acknowledged_write():
    writers = [sign_up(NGINX, f"Writer{n}")[1] for n in range(8)]
    acknowledged = []
    lock = threading.Lock()
    stop = threading.Event()
    after_kill = [0]
    killed_at = [None]

    def write(index, token):
        attempt = 0
        while not stop.is_set():
            attempt += 1
            place = f"w{index}-{attempt}"
            status, body = post(NGINX, token, place, latitude=index, longitude=attempt % 180)
            if status == 200:
                with lock:
                    acknowledged.append((body["objectId"], place))
                    if killed_at[0] is not None:
                        after_kill[0] += 1

    threads = [threading.Thread(target=write, args=(index, token)) for index, token in enumerate(writers)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    os.kill(PIDS[1], signal.SIGKILL)
    killed_at[0] = time.monotonic()
    time.sleep(2.5)
    stop.set()
    for thread in threads:
        thread.join()
    payloads = subprocess.run(["psql", DATABASE, "--tuples-only", "--no-align", "--command",
                               "SELECT payload FROM location_events WHERE payload IS NOT NULL"],
                              capture_output=True, text=True, check=True).stdout.splitlines()
    recorded = {(event["objectId"], event["mapString"]) for event in map(json.loads, payloads)}
    lost = [write for write in acknowledged if write not in recorded]
    check(f"kill -9 of one instance under load: all {len(acknowledged)} acknowledged writes are in the database",
          acknowledged and not lost, f"lost {lost[:5]}")
    check(f"the other instances keep serving ({after_kill[0]} writes acknowledged after the kill)", after_kill[0] > 20)
    statuses = [call(base, "GET", "/v1/StudentLocation")[0] for base in (INSTANCES[0], INSTANCES[2], NGINX)]
    check("reads through the survivors and nginx answer", statuses == [200, 200, 200], str(statuses))


if __name__ == "__main__":
    print("cluster: 3 instances, one PostgreSQL, nginx")
    test_accounts_posts_and_lists_across_instances()
    test_limits_count_across_instances()
    test_live_stream_across_instances_and_after_a_reconnect()
    test_kill_9_under_write_load_loses_no_acknowledged_write()
    print(f"cluster: {'all passed' if failures == 0 else f'{failures} failed'}")
    raise SystemExit(min(failures, 100))
