"""A live-map client as the web client is one, for the tests that take the cluster's pieces away
under it (a rolling restart, a database failover): it follows the stream through nginx and, when
the stream ends, opens a new one at once with the last id it saw as `Last-Event-ID`."""
import http.client
import json
import os
import threading
import time

NGINX = os.environ["CLUSTER_NGINX"]


class ResumingStream(threading.Thread):
    """A live-map client as the web client is one: when its stream ends it opens a new one through
    nginx at once, with the last id it saw as `Last-Event-ID`."""

    def __init__(self):
        super().__init__(daemon=True)
        self.changes = []  # (id, event name, data) of created/updated/deleted, in arrival order
        self.last_id = None
        self.ends = {"reconnect": 0, "abrupt": 0}
        self.reloads = 0
        self.refusals = []
        self.stopping = threading.Event()
        self.connection = None

    def run(self):
        while not self.stopping.is_set():
            try:
                self.follow_one_stream()
            except (OSError, http.client.HTTPException, ValueError, AttributeError) as error:
                if not self.stopping.is_set():
                    self.refusals.append(f"{type(error).__name__}: {error}")
                    time.sleep(0.2)

    def follow_one_stream(self):
        host, port = NGINX.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
        headers = {"Accept": "text/event-stream"}
        if self.last_id is not None:
            headers["Last-Event-ID"] = self.last_id
        self.connection.request("GET", "/v1/StudentLocation/events", headers=headers)
        response = self.connection.getresponse()
        if response.status != 200:
            self.refusals.append(f"{response.status} {response.read()[:200]!r}")
            time.sleep(0.5)
            return
        event, announced = {}, False
        while True:
            line = response.readline()
            if not line:
                break
            line = line.decode("utf-8").rstrip("\n")
            if line:
                if not line.startswith(":"):
                    field, _, value = line.partition(":")
                    event[field] = value.removeprefix(" ")
                continue
            if "id" in event:
                self.last_id = event["id"]
            name = event.get("event")
            if name in ("created", "updated", "deleted"):
                self.changes.append((int(event["id"]), name, json.loads(event["data"])))
            elif name == "reconnect":
                announced = True
            elif name == "reload":
                self.reloads += 1
            event = {}
        self.connection.close()
        if not self.stopping.is_set():
            self.ends["reconnect" if announced else "abrupt"] += 1

    def stop(self):
        self.stopping.set()
        if self.connection is not None:
            self.connection.close()


def open_streams(count, within=10):
    """`count` streams, started and given up to `within` seconds to see their first event."""
    streams = [ResumingStream() for _ in range(count)]
    for stream in streams:
        stream.start()
    deadline = time.monotonic() + within
    while any(stream.last_id is None for stream in streams) and time.monotonic() < deadline:
        time.sleep(0.05)
    return streams


def final_states(stream):
    """Each pin's last state as the stream saw it: {(objectId, mapString or None if deleted)}."""
    states = {}
    for _, name, data in stream.changes:
        states[data.get("objectId")] = None if name == "deleted" else data.get("mapString")
    return set(states.items())


def stop_once_all_show(streams, wanted, within=20):
    """Waits up to `within` seconds for every stream to show `wanted` pin states, then stops them."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and not all(wanted <= final_states(stream) for stream in streams):
        time.sleep(0.2)
    for stream in streams:
        stream.stop()
