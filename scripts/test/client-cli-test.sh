# Sourced by cli-test.sh: `onthemap-client`, OnTheMapKit's command-line user, against a real server
# through both of the package's transports, and the getting-started article's example. Uses
# cli-test.sh's $binary, $work, $here, pass and fail.
client="$(dirname "$binary")/onthemap-client"
echo "onthemap-client:"

start_server "$work/client.log" --database "$work/client.sqlite" || exit 1
export ONTHEMAP_SERVER="http://127.0.0.1:$port"
# The geocoder loads in the background; posts that look a place up wait for it.
for _ in $(seq 1 600); do curl -sf -o /dev/null "$ONTHEMAP_SERVER/readyz" && break; sleep 0.1; done

for transport in urlsession asynchttpclient; do
    ada=(--session-file "$work/ada-$transport.json" --transport "$transport")
    grace=(--session-file "$work/grace-$transport.json" --transport "$transport")
    email="ada-$transport@example.com"

    out="$(echo "correct horse battery" | "$client" signup "${ada[@]}" --email "$email" --first-name Ada --last-name Lovelace --password-stdin 2>&1)"
    [[ "$out" == "Logged in as $email"* ]] && pass "$transport: signup logs in" || fail "$transport: signup" "$out"
    [ "$(stat -c %a "$work/ada-$transport.json")" = "600" ] && pass "$transport: the session file is readable by its owner only" \
        || fail "$transport: session file mode $(stat -c %a "$work/ada-$transport.json")"
    out="$("$client" me "${ada[@]}" --json)"
    grep -q "\"email\":\"$email\"" <<<"$out" && grep -q '"location":null' <<<"$out" && pass "$transport: me --json" || fail "$transport: me --json" "$out"

    out="$("$client" post "${ada[@]}" --place "Lima, Peru" --link example.com/ada 2>&1)"
    [[ "$out" == "Posted "*" at -12."* ]] && pass "$transport: post looks the place up with the server's geocoder" || fail "$transport: post" "$out"
    out="$("$client" list "${ada[@]}" --json --where lastName=Lovelace --where firstName=Ada --count)"
    grep -q '"mapString":"Lima, Peru"' <<<"$out" && grep -q '"mediaURL":"https://example.com/ada"' <<<"$out" && tail -1 <<<"$out" | grep -q '"count":'\
        && pass "$transport: list --json --where --count" || fail "$transport: list --json" "$out"
    out="$("$client" list "${ada[@]}" --order nope 2>&1)"; status=$?
    [ "$status" -eq 64 ] && grep -q "not a field" <<<"$out" && pass "$transport: a wrong --order is a usage error" || fail "$transport: --order nope (exit $status)" "$out"

    # Watching: another student's post and Ada's deletion arrive, then the watch stops by itself.
    "$client" watch "${ada[@]}" --json --count 2 >"$work/watch-$transport.txt" 2>&1 &
    watch_pid=$!
    for _ in $(seq 1 100); do grep -q '"event":"ready"' "$work/watch-$transport.txt" && break; sleep 0.1; done
    echo "correct horse battery" | "$client" signup "${grace[@]}" --email "grace-$transport@example.com" --first-name Grace --last-name Hopper --password-stdin >/dev/null
    "$client" post "${grace[@]}" --place "Arlington" --link https://example.com/grace --latitude 38.88 --longitude -77.1 >/dev/null
    "$client" delete "${ada[@]}" >/dev/null
    for _ in $(seq 1 100); do kill -0 "$watch_pid" 2>/dev/null || break; sleep 0.1; done
    wait "$watch_pid"; status=$?
    grep -q '"event":"created".*"mapString":"Arlington"' "$work/watch-$transport.txt" && grep -q '"event":"deleted"' "$work/watch-$transport.txt" \
        && [ "$status" -eq 0 ] && pass "$transport: watch prints another client's post and a deletion, then stops at --count" \
        || fail "$transport: watch (exit $status)" "$(cat "$work/watch-$transport.txt")"

    out="$(ONTHEMAP_PASSWORD="not the password" "$client" login "${ada[@]}" --email "$email" --json 2>&1)"; status=$?
    [ "$status" -eq 4 ] && grep -q '"kind":"wrongCredentials"' <<<"$out" && pass "$transport: a wrong password exits 4 with the error as JSON" \
        || fail "$transport: wrong password (exit $status)" "$out"
    "$client" logout "${ada[@]}" >/dev/null
    out="$("$client" me "${ada[@]}" 2>&1)"; status=$?
    [ "$status" -eq 3 ] && grep -q "logged in" <<<"$out" && pass "$transport: after logout, me exits 3" || fail "$transport: me after logout (exit $status)" "$out"
done

# Courses: a teacher makes one and switches its invite link on; a stranger is refused its map (8),
# an unknown course is 7, a bad invite 9; the student joins by the full link, then again by the
# token alone, and the course's map, list and live changes are its own.
teacher=(--session-file "$work/teacher.json")
sam=(--session-file "$work/sam.json")
echo "correct horse battery" | "$client" signup "${teacher[@]}" --email tess@example.com --first-name Tess --last-name Teacher --password-stdin >/dev/null
echo "correct horse battery" | "$client" signup "${sam[@]}" --email sam@example.com --first-name Sam --last-name Student --password-stdin >/dev/null
out="$("$client" courses create "${teacher[@]}" --slug cs101 --title "CS 101" --json 2>&1)"
grep -q '"slug":"cs101"' <<<"$out" && grep -q '"role":"instructor"' <<<"$out" && pass "courses create makes a course its maker teaches" \
    || fail "courses create" "$out"
out="$("$client" courses create "${teacher[@]}" --slug cs101 --title Again 2>&1)"; status=$?
[ "$status" -eq 1 ] && grep -q "Another course already has this address" <<<"$out" && pass "a slug taken is refused" || fail "slug taken (exit $status)" "$out"
# The instructor switches the link on (the web client's Invite tab), here with the CLI's session.
token="$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$work/teacher.json")"
curl -sf -o /dev/null -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"enabled": true}' \
    "$ONTHEMAP_SERVER/c/cs101/v1/course/invite"
out="$("$client" courses show "${teacher[@]}" --course cs101)"
link="$(grep -oE 'http://[^ ]+/c/cs101/join/[A-Za-z0-9_-]+' <<<"$out")"
[ -n "$link" ] && grep -q "invite link (on)" <<<"$out" && pass "courses show gives its instructor the invite link" || fail "courses show" "$out"

out="$("$client" list "${sam[@]}" --course cs101 2>&1)"; status=$?
[ "$status" -eq 8 ] && grep -q "not a member of this course" <<<"$out" && pass "a course's map to a stranger exits 8" || fail "stranger (exit $status)" "$out"
out="$("$client" list "${sam[@]}" --course no-such-course --json 2>&1)"; status=$?
[ "$status" -eq 7 ] && grep -q '"kind":"courseNotFound"' <<<"$out" && pass "an unknown course exits 7" || fail "unknown course (exit $status)" "$out"
out="$("$client" courses join "${sam[@]}" "${link%/*}/AAAAAAAAAAAAAAAAAAAAAA" 2>&1)"; status=$?
[ "$status" -eq 9 ] && grep -q "no longer works" <<<"$out" && pass "a bad invite exits 9" || fail "bad invite (exit $status)" "$out"
out="$("$client" courses join "${sam[@]}" "${link##*/}" 2>&1)"; status=$?
[ "$status" -eq 64 ] && grep -q "needs --course" <<<"$out" && pass "a token without its course is a usage error" || fail "bare token (exit $status)" "$out"
out="$("$client" courses join "${sam[@]}" "$link" 2>&1)"
[ "$out" = "Joined cs101 — CS 101 as a student." ] && pass "courses join takes the invite link" || fail "courses join" "$out"
out="$("$client" courses join "${sam[@]}" --course cs101 "${link##*/}" --json 2>&1)"
grep -q '"joined":false' <<<"$out" && pass "joining again, by the token and --course: already a member" || fail "join again" "$out"
out="$("$client" courses list "${sam[@]}")"
grep -q "^default — " <<<"$out" && grep -q "^cs101 — CS 101 — you are a student$" <<<"$out" && pass "courses list" || fail "courses list" "$out"

"$client" watch "${teacher[@]}" --course cs101 --json --count 1 >"$work/watch-course.txt" 2>&1 &
watch_pid=$!
for _ in $(seq 1 100); do grep -q '"event":"ready"' "$work/watch-course.txt" && break; sleep 0.1; done
"$client" post "${sam[@]}" --place Quito --link https://example.com/sam --latitude -0.18 --longitude -78.47 >/dev/null
"$client" post "${sam[@]}" --server "$ONTHEMAP_SERVER/c/cs101/" --place Lima --link https://example.com/sam --latitude -12 --longitude -77 >/dev/null
for _ in $(seq 1 100); do kill -0 "$watch_pid" 2>/dev/null || break; sleep 0.1; done
wait "$watch_pid"; status=$?
[ "$status" -eq 0 ] && grep -q '"event":"created".*"mapString":"Lima"' "$work/watch-course.txt" && ! grep -q Quito "$work/watch-course.txt" \
    && pass "watch --course prints its course's changes only" || fail "watch --course (exit $status)" "$(cat "$work/watch-course.txt")"
out="$("$client" list "${sam[@]}" --course cs101 --where firstName=Sam)"
[[ "$out" == *"Sam Student — Lima"* && "$out" != *Quito* ]] && pass "list --course lists the course's pins only (a --server path names it too)" \
    || fail "list --course" "$out"

for transport in urlsession asynchttpclient; do
    started=$SECONDS
    out="$("$client" list --server http://127.0.0.1:1 --session-file "$work/none.json" --transport "$transport" 2>&1)"; status=$?
    # At once: not after the 30 s a call may take.
    [ "$status" -eq 5 ] && grep -q "Could not reach the server" <<<"$out" && [ $((SECONDS - started)) -lt 15 ] \
        && pass "$transport: a server that is not there exits 5 at once" || fail "$transport: unreachable server (exit $status, $((SECONDS - started)) s)" "$out"
done
out="$("$client" list --server ftp://example.com 2>&1)"; status=$?
[ "$status" -eq 64 ] && grep -q "http or https" <<<"$out" && pass "--server must be http or https" || fail "--server ftp (exit $status)" "$out"

# The DocC getting-started article's code is Sources/GettingStarted/main.swift, word for word, and
# does what the article says: signs up, posts, lists, and prints another client's post as it happens.
article="$here/../../Sources/OnTheMapKit/OnTheMapKit.docc/GettingStarted.md"
awk '/<!-- getting-started:start -->/{on=1; next} /<!-- getting-started:end -->/{on=0} on && !/^```/' "$article" >"$work/article.swift"
diff -q "$work/article.swift" "$here/../../Sources/GettingStarted/main.swift" >/dev/null \
    && [ "$(grep -cv '^\s*$' "$work/article.swift")" -lt 20 ] \
    && pass "the getting-started article's code is the built example, in under 20 lines" \
    || fail "the getting-started article and Sources/GettingStarted/main.swift differ, or run to 20 lines"
# On the same server (its geocoder is loaded), with accounts of its own: Ada's is the one the example makes.
echo "correct horse battery" | "$client" signup --session-file "$work/example-grace.json" --email grace@example.com \
    --first-name Grace --last-name Hopper --password-stdin >/dev/null
"$client" post --session-file "$work/example-grace.json" --place Arlington --link https://example.com --latitude 38.88 --longitude -77.1 >/dev/null
# Line-buffered: its output goes to a file, and it is stopped, not ended.
stdbuf -oL "$(dirname "$binary")/getting-started" >"$work/example.out" 2>&1 &
example_pid=$!
for _ in $(seq 1 100); do grep -qs "Grace Hopper is in Arlington" "$work/example.out" && break; sleep 0.1; done
# Its post is on the list before it starts watching.
for _ in $(seq 1 100); do "$client" list --session-file "$work/example-grace.json" | grep -q "Ada Lovelace — Lima, Peru" && break; sleep 0.1; done
sleep 1
# A first pin is "created" (Grace posting again would move hers: "updated").
echo "correct horse battery" | "$client" signup --session-file "$work/example-katherine.json" --email katherine@example.com \
    --first-name Katherine --last-name Johnson --password-stdin >/dev/null
"$client" post --session-file "$work/example-katherine.json" --place "Hampton" --link https://example.com --latitude 37.03 --longitude -76.35 >/dev/null
for _ in $(seq 1 100); do grep -q "New on the map" "$work/example.out" && break; sleep 0.1; done
kill "$example_pid" 2>/dev/null; wait "$example_pid" 2>/dev/null
grep -q "Grace Hopper is in Arlington" "$work/example.out" && "$client" list --session-file "$work/example-grace.json" | grep -q "Ada Lovelace — Lima, Peru" \
    && pass "the getting-started example signs up, posts and lists" || fail "the getting-started example" "$(cat "$work/example.out")"
grep -q "New on the map: Katherine Hampton" "$work/example.out" && pass "the getting-started example prints another client's post as it happens" \
    || fail "the getting-started example's live updates" "$(cat "$work/example.out")"
# The article's "On a server" code is Sources/GettingStartedAsyncHTTPClient/main.swift, word for
# word: it compiles only with OnTheMapKitAsyncHTTPClient's initializer, and lists the same pins.
awk '/<!-- asynchttpclient:start -->/{on=1; next} /<!-- asynchttpclient:end -->/{on=0} on && !/^```/' "$article" >"$work/article-ahc.swift"
diff -q "$work/article-ahc.swift" "$here/../../Sources/GettingStartedAsyncHTTPClient/main.swift" >/dev/null && [ -s "$work/article-ahc.swift" ] \
    && pass "the getting-started article's AsyncHTTPClient code is the built example" \
    || fail "the getting-started article's AsyncHTTPClient code and Sources/GettingStartedAsyncHTTPClient/main.swift differ"
out="$("$(dirname "$binary")/getting-started-asynchttpclient" 2>&1)"
grep -q "Ada Lovelace is in Lima, Peru" <<<"$out" && pass "the AsyncHTTPClient example lists the pins" || fail "the AsyncHTTPClient example" "$out"
unset ONTHEMAP_SERVER
stop_last_server
