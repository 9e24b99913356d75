#!/usr/bin/env bash
# Courses at scale (issue 42, "Scale"), as a Markdown section: a course beside today's single map,
# on SQLite and on PostgreSQL, everything measured in the same run on the same machine.
# 1. one course (course-1, readable by link) of 1,000,000 pins, the default course holding 100,
#    against a single map of 1,000,000 pins: the p50 of every documented query of at most 100 rows
#    (target: at most 1.5 times the single map's);
# 2. one course of 100 pins among 10,000 courses of 100 (1,000,000 pins, and 100 in the default
#    course) against a single map of 100 pins: the same;
# 3. the cached default list (latest 100) at the root and at the course, in both layouts, against the
#    single map's (the same target on the p50);
# 4. the cache's memory among 10,000 courses: the lists of 3,000 read one after another (a busy course
#    read between them), and what /metrics then says the cache holds, against its capacity (1,000).
#   scripts/bench/bench-courses.sh path/to/release/onthemap [seconds per run]
# BENCH_COURSES_ROWS (default 1000000) scales every layout down, to check the script quickly.
set -euo pipefail
source "$(dirname "$0")/bench-helpers.sh"

binary="$(realpath "$1")"
seconds="${2:-3}"
rows="${BENCH_COURSES_ROWS:-1000000}"
pins=100                                      # a class's pins, and the default course's
courses=$((rows / pins))                      # courses in the layout of many
measured="course-$((courses / 2))"            # the one measured among them
reads=$((courses < 3000 ? courses : 3000))    # courses whose lists are read in the sweep
capacity=$((reads / 3))                       # 1,000 at full size: --list-cache-courses' default
started_at="$(date +%s)"
start_postgres_work  # sets work, pids and postgres_url

# The four layouts, each in a SQLite file and in a schema of one PostgreSQL cluster.
cluster="$postgres_url?sslmode=disable"
database_of() {  # database_of ENGINE LAYOUT
    if [ "$1" = sqlite ]; then echo "$work/$2.sqlite"; else echo "$cluster&schema=$2"; fi
}
for engine in sqlite postgres; do
    seed_locations "$binary" "$(database_of "$engine" single_large)" "$rows"
    seed_courses "$binary" "$(database_of "$engine" course_large)" 1 "$rows" "$pins"
    seed_locations "$binary" "$(database_of "$engine" single_small)" "$pins"
    seed_courses "$binary" "$(database_of "$engine" course_small)" "$courses" "$pins" "$pins"
done
# A checkpoint now (as the superuser: the cluster trusts local connections), or PostgreSQL's own, due
# within 5 minutes (checkpoint_timeout), writes the seeded gigabytes out while queries are measured.
psql "${cluster/onthemap:onthemap@/postgres@}" -qc CHECKPOINT
seeded_at="$(date +%s)"

serve() {  # serve DATABASE [ARGS...]: starts the server; sets base and served_pid
    local port
    port="$(free_port)"
    "$binary" serve --port "$port" --database "$1" --log-level warning "${@:2}" >>"$work/server.log" 2>&1 &
    served_pid=$!
    pids+=("$served_pid")
    base="http://127.0.0.1:$port"
    wait_healthy "$base/readyz"  # the gazetteer loaded: nothing else of the server's is using the CPU
}
metric() {  # metric NAME: its value on the metrics address, as a whole number
    curl -s "$metrics/metrics" | awk -v name="$1" '$1 == name { printf "%.0f", $2 }'
}
kept() {  # kept PATH: "kept" when a read of PATH's list at $base is a hit, "read on demand" when a miss
    local hits
    hits="$(metric 'onthemap_list_cache_total{result="hit"}')"
    curl -sf -o /dev/null "$base$1$list"
    if [ "$(metric 'onthemap_list_cache_total{result="hit"}')" -gt "${hits:-0}" ]; then echo "kept"; else echo "read on demand"; fi
}
# anonymous_mb PID: the process's anonymous resident memory (its heap: RssAnon), in MB. Its whole
# resident size would count the pages of a SQLite file it maps as they are read.
anonymous_mb() { awk '/^RssAnon/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
thousands() { sed -E ':a; s/([0-9])([0-9]{3})($|[^0-9])/\1,\2\3/; ta' <<<"$1"; }
declare -A label=([sqlite]=SQLite [postgres]=PostgreSQL)
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
list="/v1/StudentLocation"
# What is measured, "LAYOUT PATH": each list at the layout's server, under PATH.
uncached=("single_large " "course_large /c/course-1" "single_small " "course_small /c/$measured")
cached=("single_large " "course_large " "course_large /c/course-1" "single_small " "course_small " "course_small /c/$measured")

for engine in sqlite postgres; do
    # Every layout's server at once, measured in turn, so that the machine's drift from minute to
    # minute falls on the single map and on the course alike.
    declare -A bases=()
    for layout in single_large course_large single_small course_small; do
        serve "$(database_of "$engine" "$layout")"
        bases[$layout]="$base"
    done

    # 1 and 2: each query at the four, in turn.
    for entry in "${queries[@]}"; do
        for target in "${uncached[@]}"; do
            read -r layout path <<<"$target"
            p50 "${bases[$layout]}$path$list?${entry#*|}" >>"$work/$engine-$layout.p50"
        done
    done

    # 3: the cached default list, 2 threads and 4 connections, five rounds; the middle round's
    #    requests/s and p50 (after a read that fills the cache).
    for _ in 1 2 3 4 5; do
        for target in "${cached[@]}"; do
            read -r layout path <<<"$target"
            key="$engine-$layout${path//\//-}"
            curl -sf -o /dev/null "${bases[$layout]}$path$list"
            out="$(wrk -t2 -c4 -d"${seconds}s" --latency "${bases[$layout]}$path$list")"
            grep -q "Non-2xx" <<<"$out" && { echo "non-2xx answers from ${bases[$layout]}$path$list" >&2; exit 1; }
            awk '/Requests\/sec/ { printf "%.0f\n", $2 }' <<<"$out" >>"$work/$key.rps"
            percentile 50% "$out" 3 >>"$work/$key.cached"; echo >>"$work/$key.cached"
        done
    done

    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    pids=()
    unset bases

    # 4: a server of its own with metrics (the others ran with defaults) and the cache's capacity;
    #    the lists of $reads courses, one after another on one connection, the measured course read
    #    first and after every tenth, as the busiest would be; then whether it and the first read are
    #    still kept.
    metrics="127.0.0.1:$(free_port)"
    serve "$(database_of "$engine" course_small)" --metrics-address "$metrics" --list-cache-courses "$capacity"
    metrics="http://$metrics"
    curl -sf -o /dev/null "$base/c/$measured$list"
    memory_before="$(anonymous_mb "$served_pid")"
    misses_before="$(metric 'onthemap_list_cache_total{result="miss"}')"
    for k in $(seq 1 "$reads"); do
        printf 'url = "%s"\noutput = "/dev/null"\n' "$base/c/course-$k$list"
        [ $((k % 10)) -eq 0 ] && printf 'url = "%s"\noutput = "/dev/null"\n' "$base/c/$measured$list"
    done >"$work/sweep.curl"
    sweep_started="$(date +%s.%N)"
    refused="$(curl -s -w '%{http_code}\n' --config "$work/sweep.curl" | grep -vc '^200$' || true)"
    sweep_seconds="$(awk -v s="$sweep_started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')"
    [ "$refused" = 0 ] || { echo "$refused reads of the sweep were not answered 200" >&2; exit 1; }
    lists="$(metric onthemap_list_cache_lists)"
    bytes="$(metric onthemap_list_cache_bytes)"
    swept_misses=$(($(metric 'onthemap_list_cache_total{result="miss"}') - ${misses_before:-0}))
    memory_after="$(anonymous_mb "$served_pid")"
    busy="$(kept "/c/$measured")"
    first="$(kept /c/course-1)"
    printf -v "memory_$engine" '| %s | %s | %s (at most %s) | %s | %s | %s in %s s | %s | %s | %s → %s MB |' \
        "${label[$engine]}" "$(thousands "$reads")" "$(thousands "$lists")" "$(thousands "$capacity")" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1048576 }')" \
        "$(awk -v b="$bytes" -v n="$lists" 'BEGIN { printf "%.0f", b / n }')" "$swept_misses" "$sweep_seconds" "$busy" "$first" \
        "$memory_before" "$memory_after"
    kill "$served_pid"; wait "$served_pid" 2>/dev/null || true
    pids=()
done

# The tables. uncached_table ENGINE REFERENCE COURSE: the rows comparing two layouts' p50s.
uncached_table() {
    mapfile -t reference <"$work/$1-$2.p50"
    mapfile -t course <"$work/$1-$3.p50"
    p50_comparison reference course  # sets query_rows and missed
}
rows_shown="$(thousands "$rows")"; courses_shown="$(thousands "$courses")"
declare -A described=(
    [single_large]="single map, $rows_shown pins" [course_large]="1 course of $rows_shown pins, $pins in the default course"
    [single_small]="single map, $pins pins" [course_small]="$courses_shown courses of $pins pins, $pins in the default course"
)
cached_rows=""
for engine in sqlite postgres; do
    for target in "${cached[@]}"; do
        read -r layout path <<<"$target"
        key="$engine-$layout${path//\//-}"
        rps="$(median $(cat "$work/$key.rps"))"
        p50_ms="$(median $(cat "$work/$key.cached"))"
        # Each single map comes first and is the reference of the course layout after it.
        if [[ "$layout" == single_* ]]; then reference_ms="$p50_ms"; versus="– | –"; else versus="$(within_target "$p50_ms" "$reference_ms")"; fi
        cached_rows+="| ${label[$engine]} | ${described[$layout]} | \`${path:-/}\` | $rps | $p50_ms ms | $versus |"$'\n'
    done
done

finished_at="$(date +%s)"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "## Courses at scale: a course beside the single map (issue 42)"
echo
cat <<MARKDOWN
- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(free -h | awk '/^Mem:/ {print $2}') memory, $(uname -sr); everything on this one machine
- Servers: release build, defaults, logging at warning. SQLite in WAL through GRDB; PostgreSQL
  $(psql "${cluster%%\?*}" -tAc 'SHOW server_version' | cut -d' ' -f1) with its durable defaults, each layout in its own schema of one cluster, after VACUUM ANALYZE.
- Data: the pins of the other data-path figures (\`seed_locations\`); a course's pins are a single map's of its
  size, objectIds unique across courses. Every course here is readable by link and shows full names.
- Load: wrk on the same machine. Every layout's server of an engine runs at once and they are measured
  in turn, query by query, so that the machine's drift falls on both sides of a ratio alike.
- Run time: $(( (finished_at - started_at) / 60 )) min, $(( (seeded_at - started_at) / 60 )) of it seeding.
MARKDOWN
for engine in sqlite postgres; do
    echo
    echo "### ${label[$engine]}: a course of $rows_shown pins against a single map of $rows_shown (target ≤ 1.5×)"
    echo
    echo "\`$list?…\` on a single map against \`/c/course-1$list?…\` with $pins pins in the default course; one connection, ${seconds} s per query."
    echo
    echo "| query | single map | course | ratio | target |"
    echo "|---|---|---|---|---|"
    uncached_table "$engine" single_large course_large
    printf '%s' "$query_rows"
    echo
    echo "$missed of ${#queries[@]} missed."
    echo
    echo "### ${label[$engine]}: a course of $pins pins among $courses_shown against a single map of $pins (target ≤ 1.5×)"
    echo
    echo "\`$list?…\` on a single map of $pins pins against \`/c/$measured$list?…\` among $courses_shown courses of $pins ($(thousands $((courses * pins + pins))) pins in all)."
    echo
    echo "| query | single map | course | ratio | target |"
    echo "|---|---|---|---|---|"
    uncached_table "$engine" single_small course_small
    printf '%s' "$query_rows"
    echo
    echo "$missed of ${#queries[@]} missed."
done
cat <<MARKDOWN

### The cached default list (latest 100), at the root and at a course (target: p50 ≤ 1.5× the single map's)

wrk with 2 threads and 4 connections, ${seconds} s; the middle of five rounds, each layout measured in turn within
a round. Every list here has 100 pins. A course's list is answered from the cache on the connection's
event loop like the root's (\`CachedListFastPath\`) once its path is remembered.

| engine | layout | list | requests/s | p50 | p50 against the single map | target |
|---|---|---|---|---|---|---|
${cached_rows}
### The cache's memory among $courses_shown courses

A server of its own, with \`--metrics-address\`; the cache holds at most $(thousands "$capacity") lists (\`--list-cache-courses\`,
whose default is 1,000). The lists of $(thousands "$reads") courses read one after another on one connection (\`/c/course-1\`
… \`/c/course-$reads\`), the busiest course (\`/c/$measured\`) read first and after every tenth. Then \`/metrics\`, and one
more read of the busiest course and of the first one read, each counted as a hit (kept) or a miss (read on demand).

| engine | lists read | \`onthemap_list_cache_lists\` | \`onthemap_list_cache_bytes\` | bytes a list | misses in the sweep | busiest course | first course read | server's anonymous memory before → after |
|---|---|---|---|---|---|---|---|---|
$memory_sqlite
$memory_postgres
MARKDOWN
