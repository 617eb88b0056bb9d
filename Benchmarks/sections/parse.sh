# Section "parse" of Benchmarks/run.sh: the Parse REST API on one Quartet seeded with 100,000 Recipe
# objects (rating indexed through /schemas, calories not), compared with the bare-SQLite baseline and
# the Hummingbird /health rate of the same run (the baseline is taken right before and right after the POST run).
PARSE_OBJECTS=${PARSE_OBJECTS:-100000}
# wait_parse_idle: queries whose client has gone keep running to completion (bounded by
# parse.queryTimeoutSeconds), so a measurement right after a slow one would queue behind them. Waits
# until a GET by id answers within 200 ms again (at most 60 s).
wait_parse_idle() {
  python3 - "$QP" "$(head -1 "$PARSE_IDS_FILE")" <<'PY'
import http.client, os, sys, time
port, oid = int(sys.argv[1]), sys.argv[2]
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    t = time.monotonic()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("GET", "/parse/classes/Recipe/" + oid, headers={"X-Parse-Application-Id": os.environ["PARSE_APP_ID"],
                                                           "X-Parse-REST-API-Key": os.environ["PARSE_REST_KEY"]})
    c.getresponse().read()
    c.close()
    if time.monotonic() - t < 0.2:
        break
    time.sleep(1)
PY
}
QP=$(free_port); start_quartet "$QP" "$(new_tmp)"
export PARSE_IDS_FILE=$OUT/parse-ids.txt
python3 "$LOAD/parse_seed.py" --port "$QP" --count "$PARSE_OBJECTS" --ids "$PARSE_IDS_FILE" >"$OUT/parse-seed.txt" 2>&1 \
  || { summary "  parse seeding failed: $(tail -3 "$OUT/parse-seed.txt" | tr '\n' ' ')"; }
summary "parse seed: $(cat "$OUT/parse-seed.txt")"

sqlite_baseline_rps parse-before; BASE_BEFORE=$SQLITE_RPS
wrk_run parse-post "http://127.0.0.1:$QP" -s "$LOAD/parse-post.lua"
sqlite_baseline_rps parse-after; BASE_AFTER=$SQLITE_RPS
P_POST=$(rps "$OUT/wrk-parse-post.txt")
summary "parse POST /parse/classes/Recipe: $P_POST req/s (p99 $(p99 "$OUT/wrk-parse-post.txt"))"
wrk_run parse-get "http://127.0.0.1:$QP" -s "$LOAD/parse-get.lua"
P_GET=$(rps "$OUT/wrk-parse-get.txt")
summary "parse GET /parse/classes/Recipe/:id: $P_GET req/s (p99 $(p99 "$OUT/wrk-parse-get.txt"))"
# One client alone: how long a single query takes when it does not queue behind 63 others.
for field in rating calories; do
  wait_parse_idle
  PARSE_QUERY_FIELD=$field THREADS=1 CONNECTIONS=1 wrk_run "parse-query-$field-1client" "http://127.0.0.1:$QP" \
    -s "$LOAD/parse-query.lua" --timeout 30s
  summary "parse query on $field, 1 client: $(rps "$OUT/wrk-parse-query-$field-1client.txt") req/s, latency p50 $(awk '$1 == "50%" {print $2}' "$OUT/wrk-parse-query-$field-1client.txt") p99 $(p99 "$OUT/wrk-parse-query-$field-1client.txt")"
done
wait_parse_idle
PARSE_QUERY_FIELD=rating wrk_run parse-query-indexed "http://127.0.0.1:$QP" -s "$LOAD/parse-query.lua" --timeout 30s
P_QI=$(rps "$OUT/wrk-parse-query-indexed.txt")
summary "parse query where rating>=R order=rating limit=20 (indexed): $P_QI req/s (p99 $(p99 "$OUT/wrk-parse-query-indexed.txt"))"
wait_parse_idle
PARSE_QUERY_FIELD=calories wrk_run parse-query-unindexed "http://127.0.0.1:$QP" -s "$LOAD/parse-query.lua" --timeout 30s
P_QU=$(rps "$OUT/wrk-parse-query-unindexed.txt")
summary "parse query where calories>=R order=calories limit=20 (no index): $P_QU req/s (p99 $(p99 "$OUT/wrk-parse-query-unindexed.txt"))"
summary "  quartet RSS after the parse runs: $(rss_kb "$QPID") kB, threads: $(threads_of "$QPID")"
stop "$QPID"

hummingbird_rps
baseline_ratio "parse POST" "$P_POST" "$BASE_BEFORE" "$BASE_AFTER"
[ -n "$H_RPS" ] && summary "ratio parse GET by id/hummingbird GET /health: $(ratio "$P_GET" "$H_RPS") (target >= 1.5)"
summary "ratio indexed query/GET by id: $(ratio "$P_QI" "$P_GET") (target >= 0.5)"
summary "ratio unindexed query/GET by id: $(ratio "$P_QU" "$P_GET") (reported; must answer)"
