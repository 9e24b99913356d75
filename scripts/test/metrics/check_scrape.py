"""Reads two scrapes of /metrics (before and after the test's requests) and checks, with the
Prometheus client library's own parser, that every family the README promises is there and that
the counters moved by what the test did. Usage: check_scrape.py ENGINE BEFORE AFTER; prints one
line per check and exits 1 if any failed."""
import sys
from prometheus_client.parser import text_string_to_metric_families

engine, before_path, after_path = sys.argv[1:4]


def samples(path):
    """{(sample name, frozenset of labels): value} of one scrape."""
    with open(path) as handle:
        families = list(text_string_to_metric_families(handle.read()))
    found = {}
    for family in families:
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found, {family.name: family for family in families}


before, _ = samples(before_path)
after, families = samples(after_path)
failures = 0


def check(name, ok):
    global failures
    print(f"  {'ok  ' if ok else 'FAIL'}  {engine}: {name}")
    failures += 0 if ok else 1


def total(scrape, name, **labels):
    """The sum of a sample over every series that has `labels`."""
    wanted = set(labels.items())
    return sum(value for (sample, series), value in scrape.items() if sample == name and wanted <= series)


def moved(name, by, **labels):
    return total(after, name, **labels) - total(before, name, **labels) >= by


# prometheus_client names counter families without their _total suffix.
for family, kind in [
    ("onthemap_http_requests", "counter"), ("onthemap_http_request_duration_seconds", "histogram"),
    ("onthemap_list_cache", "counter"), ("onthemap_list_cache_lists", "gauge"), ("onthemap_list_cache_bytes", "gauge"),
    ("onthemap_logins", "counter"),
    ("onthemap_geocode_duration_seconds", "histogram"), ("onthemap_live_streams", "gauge"),
    ("onthemap_db_connection_wait_seconds", "histogram"), ("onthemap_db_query_seconds", "histogram"),
    ("onthemap_db_writes_per_commit", "histogram"), ("onthemap_idempotency_keys", "gauge"),
]:
    check(f"{family} is a {kind} with help", family in families and families[family].type == kind and families[family].documentation)

check("a login, a sign-up and a post are counted by family, route and status",
      moved("onthemap_http_requests_total", 1, family="udacity", route="/v1/session", method="POST", status="200")
      and moved("onthemap_http_requests_total", 1, family="native", route="/v1/accounts", method="POST", status="201")
      and moved("onthemap_http_requests_total", 1, family="v1-locations", route="/v1/StudentLocation", method="POST", status="200"))
check("Parse-family reads are counted under their own family",
      moved("onthemap_http_requests_total", 2, family="parse", route="/parse/classes/StudentLocation", method="GET", status="200"))
check("an unknown path is counted under the route NotFound, never by its raw path",
      moved("onthemap_http_requests_total", 1, route="NotFound", status="404")
      and not any("no-such-page" in dict(series).get("route", "") for (_, series) in after))
check("the object id of a route is not a label",
      moved("onthemap_http_requests_total", 1, family="v1-locations", route="/v1/StudentLocation/{objectId}", method="GET"))
check("latency histograms count each request",
      moved("onthemap_http_request_duration_seconds_count", 1, family="udacity", route="/v1/session", method="POST"))
check("logins: ok, failed and throttled",
      moved("onthemap_logins_total", 1, outcome="ok") and moved("onthemap_logins_total", 3, outcome="failed")
      and moved("onthemap_logins_total", 1, outcome="throttled"))
check("the cached list: a miss after the write, then hits",
      moved("onthemap_list_cache_total", 1, result="miss") and moved("onthemap_list_cache_total", 2, result="hit"))
check("geocoding is timed by kind of input",
      moved("onthemap_geocode_duration_seconds_count", 1, input="place") or moved("onthemap_geocode_duration_seconds_count", 1))
check(f"reads and writes on {engine} are timed, waits and queries",
      moved("onthemap_db_connection_wait_seconds_count", 1, engine=engine, role="read")
      and moved("onthemap_db_connection_wait_seconds_count", 1, engine=engine, role="write")
      and moved("onthemap_db_query_seconds_count", 1, engine=engine, role="read")
      and moved("onthemap_db_query_seconds_count", 1, engine=engine, role="write"))
check(f"commits on {engine} report how many writes they held",
      moved("onthemap_db_writes_per_commit_count", 1, engine=engine) and moved("onthemap_db_writes_per_commit_sum", 1, engine=engine))
sys.exit(1 if failures else 0)
