"""The worst JSON bodies of each shape at the body limit, sent to a live server: each is refused
with its path family's 400 and costs little of the server's CPU.

    python3 hostile_json.py BASE PID TOKEN            checks; exit status = failures
    python3 hostile_json.py BASE PID TOKEN --bench N  a Markdown table of CPU per request

CPU is the server process's own: the sum over its threads of the time they ran
(/proc/PID/task/*/schedstat, in nanoseconds), before and after a run of the same request.
The shapes are Tests/OnTheMapModelTests/JSONReaderTests.swift's `HostileJSON`, written again here.
"""
import glob
import http.client
import json
import sys
import time
import urllib.parse

LIMIT = 64 * 1024


def repeated(head, unit, tail, size=LIMIT):
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def many_keys(size=LIMIT):
    parts, length, index = ["{"], 1, 0
    while length < size - 16:
        part = f'"k{index}":0,'
        parts.append(part)
        length += len(part)
        index += 1
    return "".join(parts) + '"end":0}'


SHAPES = {
    "deep arrays": lambda: repeated("", "[", ""),
    "deep objects": lambda: repeated("", '{"a":', ""),
    "wide array": lambda: repeated("[", "0,", "0]"),
    "many keys": many_keys,
    "many small objects": lambda: repeated("[", "{},", "{}]"),
    "long string": lambda: repeated('"', "a", '"'),
    "many escapes": lambda: repeated('"', "\\u00e9", '"'),
    "many surrogate pairs": lambda: repeated('"', "\\ud83d\\ude00", '"'),
    "long number": lambda: repeated("1", "7", ""),
    "long exponent": lambda: repeated("1e", "9", ""),
    "whitespace": lambda: repeated("[", " ", "]"),
}

# (family, method, path): where each family reads a JSON body.
ENDPOINTS = [
    ("udacity", "POST", "/v1/session"),
    ("native", "POST", "/v1/accounts"),
    ("v1", "POST", "/v1/StudentLocation"),
    ("parse", "POST", "/parse/classes/StudentLocation"),
]


def cpu_seconds(pid):
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as stat:
                total += int(stat.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that ended meanwhile
    return total / 1e9


def send(base, method, path, body, token):
    url = urllib.parse.urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        connection.request(method, path, body=body.encode(), headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def shaped(family, status, raw):
    """Whether `raw` is the family's error body for `status`."""
    text = raw.decode("utf-8", "replace")
    if family == "udacity":
        if not text.startswith(")]}'\n"):
            return False
        text = text[5:]
    try:
        body = json.loads(text)
    except ValueError:
        return False
    if family == "parse":
        return set(body) >= {"code", "error"} and "status" not in body
    if family == "udacity":
        return body.get("status") == status and body.get("error")
    return body.get("status") == status and "code" in body and body.get("error")


def cost(base, pid, token, method, path, body, count):
    """Seconds of server CPU per request, over `count` requests of `body`, and the last answer."""
    before = cpu_seconds(pid)
    for _ in range(count):
        answer = send(base, method, path, body, token)
    return (cpu_seconds(pid) - before) / count, answer


def check(base, pid, token, limit_ms=100.0, count=5):
    failures = 0
    for shape, make in SHAPES.items():
        body = make()
        assert len(body.encode()) <= LIMIT, (shape, len(body.encode()))
        for family, method, path in ENDPOINTS:
            seconds, (status, raw) = cost(base, pid, token, method, path, body, count)
            ok = status == 400 and shaped(family, status, raw) and seconds * 1000 < limit_ms
            failures += 0 if ok else 1
            verdict = "ok   " if ok else "FAIL "
            print(f"  {verdict} {shape} to {path}: {status} in the family's shape, {seconds * 1000:.2f} ms of server CPU"
                  + ("" if ok else f" (limit {limit_ms} ms): {raw[:160]!r}"))
    return failures


def bench(base, pid, token, count):
    print("| shape (64 KiB) | server CPU per request, `POST /v1/session` | `POST /v1/StudentLocation` |")
    print("|---|---|---|")
    worst = 0.0
    for shape, make in SHAPES.items():
        body = make()
        cells = []
        for _, method, path in (ENDPOINTS[0], ENDPOINTS[2]):
            seconds, _ = cost(base, pid, token, method, path, body, count)
            worst = max(worst, seconds)
            cells.append(f"{seconds * 1000:.2f} ms")
        print(f"| {shape} | " + " | ".join(cells) + " |")
    print()
    print(f"Worst: {worst * 1000:.2f} ms per request (target: under 5 ms), each the mean of {count} requests.")


if __name__ == "__main__":
    base, pid, token = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    # The geocoder loads in the background at start: measure a server at rest.
    for _ in range(600):
        try:
            if send(base, "GET", "/readyz", "", token)[0] == 200:
                break
        except OSError:
            pass
        time.sleep(0.1)
    if len(sys.argv) > 5 and sys.argv[4] == "--bench":
        bench(base, pid, token, int(sys.argv[5]))
    else:
        sys.exit(check(base, pid, token))
