"""The live map under load: STREAMS idle Server-Sent Events streams spread over the given
instances, then POSTS posts, one every INTERVAL s, through the first; for every post and stream,
the time from sending the post to the stream receiving its event. Prints JSON: p50 and p99 in ms,
streams that missed an event, and the instances' memory before and after the streams opened.

    python3 bench_live.py TOKEN STREAMS POSTS "URL1 URL2 …" "PID1 PID2 …"
"""
import asyncio
import json
import sys
import time
import urllib.request

token, streams, posts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
urls = sys.argv[4].split()
pids = [int(pid) for pid in sys.argv[5].split()]
arrivals = {}  # mapString -> [arrival times]


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


async def stream(url, ready):
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port), limit=1 << 20)
    writer.write(f"GET /v1/StudentLocation/events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    name = None
    announced = False
    while True:
        line = await reader.readline()
        if not line:
            return
        text = line.decode("utf-8", "replace").strip()
        if text.startswith("event: "):
            name = text[7:]
            if name == "ready" and not announced:
                announced = True
                ready.release()
        elif text.startswith("data: ") and name in ("created", "updated"):
            place = json.loads(text[6:]).get("mapString")
            arrivals.setdefault(place, []).append(time.monotonic())


def post(place):
    request = urllib.request.Request(urls[0] + "/v1/StudentLocation", method="POST", data=json.dumps(
        {"mapString": place, "mediaURL": "https://example.com", "latitude": 1, "longitude": 2}).encode())
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()


async def main():
    before = [rss_kb(pid) for pid in pids]
    ready = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(stream(urls[index % len(urls)], ready)) for index in range(streams)]
    for _ in range(streams):
        await asyncio.wait_for(ready.acquire(), timeout=120)
    await asyncio.sleep(2)
    after = [rss_kb(pid) for pid in pids]
    sent = {}
    for number in range(posts):
        place = f"bench-{number}-{time.time()}"
        sent[place] = time.monotonic()
        await asyncio.to_thread(post, place)
        await asyncio.sleep(float(sys.argv[6]) if len(sys.argv) > 6 else 0.5)
    await asyncio.sleep(2)
    delays = sorted((arrival - sent[place]) * 1000 for place in sent for arrival in arrivals.get(place, []))
    missed = streams * posts - len(delays)
    for task in tasks:
        task.cancel()
    percentile = lambda p: delays[min(len(delays) - 1, int(p * len(delays)))] if delays else None
    print(json.dumps({"p50": percentile(0.5), "p99": percentile(0.99), "max": delays[-1] if delays else None,
                      "events": len(delays), "missed": missed,
                      "rss_before_kb": sum(before), "rss_after_kb": sum(after)}))


asyncio.run(main())
