"""Three On The Map instances on one PostgreSQL behind nginx (started by scripts/test/cluster-test.sh):
accounts, limits, live streams and two courses across instances, and a kill -9 under write load.

Each check prints `ok` or `FAIL` with what it saw; the exit status is the number of failures.
"""
import json
import os
import signal
import subprocess
import threading
import time

from cluster_client import EventStream, call, check, failures, newest, post, sign_up, PASSWORD

NGINX = os.environ["CLUSTER_NGINX"]
INSTANCES = os.environ["CLUSTER_INSTANCES"].split()
PIDS = [int(pid) for pid in os.environ["CLUSTER_PIDS"].split()]
DATABASE = os.environ["CLUSTER_DATABASE"]


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


def test_two_courses_across_instances():
    """Two courses made through one instance, joined through another, written through a third:
    each course's list and stream, on every instance, carry its pins only."""
    _, teacher = sign_up(INSTANCES[0], "Teacher")
    _, student = sign_up(INSTANCES[1], "Student")
    _, stranger = sign_up(INSTANCES[2], "Stranger")
    paths = {}
    for slug in ("geo-101", "art-202"):
        status, course = call(INSTANCES[0], "POST", "/v1/courses", {"slug": slug, "title": slug.upper()}, teacher)
        _, invited = call(INSTANCES[1], "POST", f"/c/{slug}/v1/course/invite", {"enabled": True}, teacher)
        token = ((invited or {}).get("invite") or {}).get("url", "").rsplit("/", 1)[-1]
        joined, _ = call(INSTANCES[2], "POST", f"/c/{slug}/v1/course/join", {"invite": token}, student)
        check(f"course {slug} made on instance 1, its link on 2, joined through 3", status == 201 and joined == 201, f"{status} {joined}")
        paths[slug] = f"/c/{slug}"
    art_stream = EventStream(INSTANCES[0], course=paths["art-202"], token=student)
    check("a stream of one course opens on instance 1 for its member", art_stream.next("ready") is not None)
    status, geo = post(INSTANCES[1], student, "Nairobi, Kenya", course=paths["geo-101"])
    status_art, art = post(INSTANCES[2], student, "Kyoto, Japan", course=paths["art-202"])
    check("a student posts one pin in each course through different instances", status == 200 and status_art == 200, f"{status} {status_art}")
    event = art_stream.next("created")
    check("the course's stream on instance 1 gets its own pin only",
          event is not None and json.loads(event["data"])["objectId"] == art["objectId"], str(event))
    art_stream.close()
    lists = {}
    for slug in paths:
        lists[slug] = [[o["objectId"] for o in (call(base, "GET", f"{paths[slug]}/v1/StudentLocation", token=student)[1] or {}).get("results", [])]
                       for base in INSTANCES + [NGINX]]
    check("every instance lists each course's pin in that course only",
          all(ids == [geo["objectId"]] for ids in lists["geo-101"]) and all(ids == [art["objectId"]] for ids in lists["art-202"]), str(lists))
    refused = [call(base, "GET", f"{paths['geo-101']}/v1/StudentLocation", token=stranger)[0] for base in INSTANCES]
    check("a non-member is refused the course's map on every instance", refused == [403, 403, 403], str(refused))
    shown = [o["objectId"] for o in call(NGINX, "GET", "/v1/StudentLocation?limit=100")[1]["results"]]
    check("neither course's pin is on the default course's map", geo["objectId"] not in shown and art["objectId"] not in shown)


def test_kill_9_under_write_load_loses_no_acknowledged_write():
    """Each student's pin ends as their last acknowledged write, or a later one whose answer the
    kill cut off. (Earlier writes of a pin leave nothing to check: the pin's row and its one kept
    event are replaced by each write.)"""
    writers = [sign_up(NGINX, f"Writer{n}")[1] for n in range(8)]
    acknowledged = []
    last = {}  # writer index -> (objectId, place) last acknowledged
    attempted = {}  # writer index -> places sent after it
    lock = threading.Lock()
    stop = threading.Event()
    after_kill = [0]
    killed_at = [None]

    def write(index, token):
        attempt = 0
        while not stop.is_set():
            attempt += 1
            place = f"w{index}-{attempt}"
            with lock:
                attempted.setdefault(index, []).append(place)
            status, body = post(NGINX, token, place, latitude=index, longitude=attempt % 180)
            if status == 200:
                with lock:
                    acknowledged.append((body["objectId"], place))
                    last[index] = (body["objectId"], place)
                    attempted[index] = []
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
    rows = subprocess.run(["psql", DATABASE, "--tuples-only", "--no-align", "--field-separator=|", "--command",
                           "SELECT object_id, map_string FROM student_locations"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    stored = dict(row.split("|", 1) for row in rows if "|" in row)
    lost = [(place, stored.get(object_id)) for index, (object_id, place) in last.items()
            if stored.get(object_id) not in [place] + attempted.get(index, [])]
    check(f"kill -9 of one instance under load: every student's pin is their last acknowledged write ({len(acknowledged)} acknowledged)",
          acknowledged and len(last) == len(writers) and not lost, f"(acknowledged, stored) {lost[:5]}")
    check(f"the other instances keep serving ({after_kill[0]} writes acknowledged after the kill)", after_kill[0] > 20)
    statuses = [call(base, "GET", "/v1/StudentLocation")[0] for base in (INSTANCES[0], INSTANCES[2], NGINX)]
    check("reads through the survivors and nginx answer", statuses == [200, 200, 200], str(statuses))


if __name__ == "__main__":
    print("cluster: 3 instances, one PostgreSQL, nginx")
    test_accounts_posts_and_lists_across_instances()
    test_limits_count_across_instances()
    test_live_stream_across_instances_and_after_a_reconnect()
    test_two_courses_across_instances()
    test_kill_9_under_write_load_loses_no_acknowledged_write()
    print(f"cluster: {'all passed' if failures() == 0 else f'{failures()} failed'}")
    raise SystemExit(min(failures(), 100))
