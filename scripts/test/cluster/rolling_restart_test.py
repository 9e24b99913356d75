"""Upgrades without a failed request, started by scripts/test/cluster-test.sh.

deploy/rolling-restart.sh restarts the three instances one at a time, as an operator upgrading
them would, while 8 students overwrite their pins, 8 readers page the list and 3 live-map clients
follow the stream, all through nginx with the deploy/ snippets. Every request must succeed; every
stream must see every acknowledged write exactly once, in order, each of its ends announced with
`reconnect`; the database must hold every acknowledged write.
"""
import os
import subprocess
import threading
import time

from cluster_client import call, check, failures, post, sign_up
from resuming_stream import final_states, open_streams, stop_once_all_show

NGINX = os.environ["CLUSTER_NGINX"]
PORTS = os.environ["CLUSTER_PORTS"].split()
RESTART = os.environ["CLUSTER_RESTART"]
# The project root: this file is in scripts/test/cluster/.
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
# Students, not a benchmark: each client waits a little between requests, so that the restarted
# instances (a debug build on two shared cores) load their geocoder in seconds, not a minute.
PAUSE = 0.1
READS = ["/v1/StudentLocation", "/v1/StudentLocation?limit=20&order=-updatedAt", "/parse/classes/StudentLocation?limit=10&skip=5"]


def test_a_rolling_restart_under_load_fails_no_request():
    writers = [sign_up(NGINX, f"Roller{n}")[1] for n in range(8)]
    streams = open_streams(3)
    check("three live streams are open through nginx", all(stream.last_id is not None for stream in streams))

    lock = threading.Lock()
    acknowledged, failed, answered = [], [], [0]
    stop = threading.Event()

    def record(what, status, body):
        with lock:
            answered[0] += 1
            if status not in (200, 201):
                failed.append(f"{what}: {status} {str(body)[:160]}")

    def write(index, token):
        attempt = 0
        while not stop.is_set():
            attempt += 1
            place = f"roll{index}-{attempt}"
            status, body = post(NGINX, token, place, latitude=index, longitude=attempt % 180)
            record(f"POST {place}", status, body)
            if status == 200:
                with lock:
                    acknowledged.append((index, body["objectId"], place))
            time.sleep(PAUSE)

    def read(index):
        turn = index
        while not stop.is_set():
            path = READS[turn % len(READS)]
            turn += 1
            status, body = call(NGINX, "GET", path)
            record(f"GET {path}", status, body)
            time.sleep(PAUSE)

    threads = [threading.Thread(target=write, args=(index, token)) for index, token in enumerate(writers)]
    threads += [threading.Thread(target=read, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    started = time.monotonic()
    environment = dict(os.environ, ONTHEMAP_RESTART=RESTART)
    rolling = subprocess.run([os.path.join(ROOT, "deploy", "rolling-restart.sh"), *PORTS], env=environment,
                             capture_output=True, text=True, timeout=600)
    took = time.monotonic() - started
    time.sleep(2)
    stop.set()
    for thread in threads:
        thread.join()
    print("      " + "\n      ".join(rolling.stdout.strip().splitlines()))
    check(f"deploy/rolling-restart.sh restarted the 3 instances one at a time ({took:.1f} s)", rolling.returncode == 0,
          rolling.stdout + rolling.stderr)
    check(f"0 of {answered[0]} requests through nginx failed ({len(acknowledged)} writes acknowledged)",
          not failed and len(acknowledged) > 50, f"{len(failed)} failed: {failed[:5]}")

    # Every stream ends with each pin as its student last wrote it, having seen no event twice or
    # out of order. A resumed stream replays only each pin's newest event (the server forgets what
    # a later write replaced), so a write replaced while the stream was reconnecting may not appear.
    last = {}
    for index, object_id, place in acknowledged:
        last[index] = (object_id, place)
    wanted = set(last.values())

    stop_once_all_show(streams, wanted)
    for number, stream in enumerate(streams, 1):
        ids = [event_id for event_id, _, _ in stream.changes]
        missing = wanted - final_states(stream)
        check(f"stream {number} ends with all {len(wanted)} pins as last acknowledged, across {sum(stream.ends.values())} restarts of its instance",
              not missing and stream.reloads == 0, f"missing {len(missing)}: {sorted(missing)[:3]}; reloads {stream.reloads}")
        check(f"stream {number} saw no event twice and none out of order ({len(ids)} events)",
              ids == sorted(set(ids)), f"{len(ids) - len(set(ids))} repeated")
        check(f"stream {number}: each end was announced with `reconnect`, each reopening answered 200",
              stream.ends["abrupt"] == 0 and stream.ends["reconnect"] >= 1 and not stream.refusals,
              f"ends {stream.ends}, refusals {stream.refusals[:3]}")

    # The database holds each student's last acknowledged write.
    status, body = call(NGINX, "GET", "/v1/StudentLocation?limit=1000")
    shown = {(row["objectId"], row["mapString"]) for row in body["results"]} if status == 200 else set()
    check("every student's pin shows their last acknowledged write", set(last.values()) <= shown,
          f"not shown: {sorted(set(last.values()) - shown)[:3]}")


if __name__ == "__main__":
    print("rolling restart: 3 instances behind nginx, restarted one at a time under load")
    test_a_rolling_restart_under_load_fails_no_request()
    print(f"rolling restart: {'all passed' if failures() == 0 else f'{failures()} failed'}")
    raise SystemExit(min(failures(), 100))
