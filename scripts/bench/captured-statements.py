#!/usr/bin/env python3
"""The statements one request sent, read from a PostgreSQL log written with log_statement=all, made
into a pgbench script (scripts/bench/bench-writes.sh).

    captured-statements.py SERVER_LOG STUDENT OUT_SQL [TEXT=SHARE ...]  > statements.md

SERVER_LOG holds `SELECT 'bench-writes: capture begins'` and `... ends` (sent by psql) around one
request of student STUDENT (account key 1000000000 + STUDENT, session token `bench-token-STUDENT`,
pin `w` + 9 digits). Every statement logged between them by another backend (the server's) is kept,
its parameters written in as literals, and the student's own values replaced by expressions of
pgbench's `:i`, drawn at random: the script runs the same statements for any student.

PostgreSQL does not log an empty query, which the server sends after a lone data-modifying statement
to confirm its commit (PostgresWriter): one is written after each statement that begins with
`WITH written AS` (LocationWriteSQL), as `;`, which pgbench sends as an empty query.

The live map's read of the event log asks for the events after the last id it has seen; replayed
with that id fixed it would return more rows on every run as pgbench's writes add events, so it
asks for those after the Nth newest instead: what it finds in the server, which reads the events
committed since its last read. N is 1 / its share (below: read for a half of the PUTs, it finds
two events), or 32, the clients, when no share is given.

Some statements the server shares between the writes that come together: the change's notification
and the live map's read of the event log (one for every batch of commits), and the session's read
(sessions are cached for a while). Each TEXT=SHARE says that a statement holding TEXT was sent for
SHARE of the requests (counted under load by bench-writes.sh): the script sends it in that share of
its transactions, drawn at random, so that it replays what the server sends per request, not what
one request alone would cost.

Prints the statements as a Markdown list (first line of each, parameters left as written).
"""
import hashlib
import re
import sys

RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[(\d+)\] (\w+):  (.*)$")
PARAMETER = re.compile(r"\$(\d+) = ('(?:[^']|'')*'|NULL)")
PLACEHOLDER = re.compile(r"\$(\d+)\b")


def records(path):
    """(pid, level, text) for each log record, continuation lines joined to their record."""
    current = None
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip("\n")
            match = RECORD.match(line)
            if match:
                if current:
                    yield current
                current = [match.group(1), match.group(2), match.group(3)]
            elif current:
                current[2] += "\n" + line
    if current:
        yield current


def statements(path):
    """The (pid, sql with parameters as literals) between the markers, from other backends."""
    marker_pids, inside, found = set(), False, []
    for pid, level, text in records(path):
        if "bench-writes: capture begins" in text:
            inside = True
            marker_pids.add(pid)
            continue
        if "bench-writes: capture ends" in text:
            marker_pids.add(pid)
            break
        if not inside or pid in marker_pids:
            continue
        if level == "LOG":
            match = re.match(r"(?:statement|execute [^:]*): (.*)$", text, re.S)
            if match:
                found.append([pid, match.group(1)])
        elif level == "DETAIL" and text.startswith("parameters: ") and found and found[-1][0] == pid:
            values = dict(PARAMETER.findall(text))
            found[-1][1] = PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), found[-1][1])
    return [sql for _, sql in found]


def main():
    log, student, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    shares = [(text, float(share)) for text, share in (argument.rsplit("=", 1) for argument in sys.argv[4:])]
    found = statements(log)
    if not found:
        sys.exit("no statements captured")
    token_hash = hashlib.sha256(f"bench-token-{student}".encode()).hexdigest()
    student_values = {
        f"'{token_hash}'": "encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex')",
        f"'{1000000000 + student}'": "(1000000000 + :i)::text",
        f"'w{student:09d}'": "'w' || lpad(:i::text, 9, '0')",
    }
    script = ["\\set i random(1, :students)"]
    listing = []
    for sql in found:
        share = next((fraction for text, fraction in shares if text in sql), None)
        listing.append((sql, share))
        templated = sql
        for literal, expression in student_values.items():
            templated = templated.replace(literal, expression)
        if re.match(r"\s*SELECT id, kind, object_id, payload", sql):
            newest = max(1, round(1 / share)) if share else 32
            templated = re.sub(r"WHERE id > '?-?\d+'?", f"WHERE id > (SELECT id FROM location_events ORDER BY id DESC OFFSET {newest} LIMIT 1)",
                               templated, count=1)
        # pgbench reads a command up to its `;` (over several lines too).
        command = templated.rstrip().rstrip(";") + ";"
        if share is not None:
            script += [f"\\set share random(1, 1000)", f"\\if :share <= {round(share * 1000)}", command, "\\endif"]
        else:
            script.append(command)
        if sql.lstrip().upper().startswith("WITH WRITTEN AS"):
            script.append(";")
            listing.append(("", None))
    with open(out, "w", encoding="utf-8") as file:
        file.write("\n".join(script) + "\n")
    for number, (sql, share) in enumerate(listing, 1):
        first = " ".join(sql.split())
        shown = (first[:150] + " …") if len(first) > 150 else first
        line = f"{number}. `{shown}`" if shown else f"{number}. (the empty query confirming the commit)"
        print(line + (f" (for {share:.2f} of the PUTs)" if share is not None else ""))


if __name__ == "__main__":
    main()
