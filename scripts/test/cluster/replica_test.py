"""Reads from a standby, started by scripts/test/failover-test.sh before the failover.

Two of its instances share a pg_auto_failover formation (a primary and a synchronous standby), each given
the standby hosts for reads (`--database-replicas`, a short lag bound). The uncached list goes to
the standby while it keeps up; then its replay is paused (`pg_wal_replay_pause()`, replication lag
on demand): a student who writes still reads their write at once, on the instance they wrote
through (it remembers) and on the other (the `otm_wrote` cookie); once the standby is behind by
more than the bound, every read goes to the primary, and another student sees the write too;
replay resumed, reads go back to the standby.
"""
import os
import re
import subprocess
import time
import urllib.request

from cluster_client import call, check, failures, post, sign_up

INSTANCES = os.environ["REPLICA_INSTANCES"].split()
METRICS = os.environ["REPLICA_METRICS"].split()
LOGS = os.environ["REPLICA_LOGS"].split()
FORMATION = os.environ["FAILOVER_FORMATION"]
FORMATION_DIR = os.environ["FAILOVER_FORMATION_DIR"]
LAG_BOUND = int(os.environ["REPLICA_LAG_MS"]) / 1000
# No cache holds it: a standby may answer it.
UNCACHED = "/v1/StudentLocation?limit=200&order=-updatedAt,objectId"


def standby_sql(sql):
    done = subprocess.run([FORMATION, "standby-sql", FORMATION_DIR, sql], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"{sql}: {done.stderr}")
    return done.stdout.strip()


def standby_reads():
    """Reads the standbys answered, over both instances (`onthemap_db_query_seconds{role="standby"}`)."""
    total = 0
    for base in METRICS:
        with urllib.request.urlopen(base + "/metrics", timeout=10) as response:
            text = response.read().decode()
        for line in text.splitlines():
            if line.startswith("onthemap_db_query_seconds_count") and 'role="standby"' in line:
                total += int(float(line.rsplit(" ", 1)[1]))
    return total


def places(base, token=None, cookie=None):
    """The mapStrings the uncached list shows on `base`, as `token` (and with `cookie`) asks."""
    status, body = call(base, "GET", UNCACHED, token=token, headers={"Cookie": cookie} if cookie else None)
    if status != 200:
        raise RuntimeError(f"GET {UNCACHED} on {base}: {status} {body}")
    return {row["mapString"] for row in body["results"]}


def post_with_cookie(base, token, place):
    """Posts, and returns the `otm_wrote` cookie the answer set."""
    request = urllib.request.Request(base + "/v1/StudentLocation", method="POST", data=(
        '{"mapString": "%s", "mediaURL": "https://example.com", "latitude": 1, "longitude": 2}' % place).encode())
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        cookies = response.headers.get_all("Set-Cookie") or []
    wrote = [c.split(";")[0] for c in cookies if c.startswith("otm_wrote=")]
    return wrote[0] if wrote else None


def eventually(condition, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def logged(pattern):
    return any(re.search(pattern, open(path, errors="replace").read()) for path in LOGS)


def test_reads_from_the_standby():
    first, second = INSTANCES
    writer = sign_up(first, "Writer")[1]
    reader = sign_up(second, "Reader")[1]
    check("a post is answered", post(first, writer, "ryw-0")[0] == 200)
    before = standby_reads()
    seen = eventually(lambda: "ryw-0" in places(second, reader) and standby_reads() > before)
    check(f"the uncached list is read from the standby while it keeps up ({standby_reads() - before} standby reads)", seen)

    standby_sql("SELECT pg_wal_replay_pause()")
    check("the standby's replay is paused", standby_sql("SELECT pg_get_wal_replay_pause_state()") in ("paused", "pause requested"))
    fresh_here, fresh_there = [], []
    for n in range(1, 6):
        place = f"ryw-{n}"
        cookie = post_with_cookie(first, writer, place)
        fresh_here.append(place in places(first, writer))
        fresh_there.append(place in places(second, writer, cookie))
    check(f"with replay paused, the writer read each of 5 writes at once through the instance they wrote through "
          f"({sum(fresh_here)} of 5)", all(fresh_here))
    check(f"... and through the other instance, which had their otm_wrote cookie ({sum(fresh_there)} of 5)", all(fresh_there))

    time.sleep(LAG_BOUND + 1)
    behind = standby_reads()
    shown = [("ryw-5" in places(second, reader)) for _ in range(10)]
    check(f"past the {LAG_BOUND:.1f} s bound, another student's reads go to the primary and show the write ({sum(shown)} of 10)",
          all(shown) and standby_reads() == behind, f"standby reads meanwhile: {standby_reads() - behind}")
    check("an instance's log says the standby is out of rotation, and why", logged(r"Reads no longer go to the standby .*replayed only"))

    standby_sql("SELECT pg_wal_replay_resume()")
    back = standby_reads()
    returned = eventually(lambda: "ryw-5" in places(second, reader) and standby_reads() > back)
    check(f"replay resumed, reads go to the standby again ({standby_reads() - back} standby reads)", returned)
    check("an instance's log says so", eventually(lambda: logged(r"Reads go to the standby .* again"), 5))


if __name__ == "__main__":
    print("replicas: 2 instances reading from the standby of a pg_auto_failover formation; replay paused and resumed")
    try:
        test_reads_from_the_standby()
    except RuntimeError as error:
        check("the test's requests ran", False, str(error))
    print(f"replicas: {'all passed' if failures() == 0 else f'{failures()} failed'}")
    raise SystemExit(min(failures(), 100))
