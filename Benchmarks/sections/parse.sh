# Section "parse" of Benchmarks/run.sh: the Parse REST API on one Quartet seeded with 100,000 Recipe
# objects (rating indexed through /schemas, calories not), compared with the bare-SQLite baseline and
# the Hummingbird /health rate of the same run (the baseline is taken right before the POST run).
PARSE_OBJECTS=${PARSE_OBJECTS:-100000}
QP=$(free_port); start_quartet "$QP" "$(new_tmp)"
export PARSE_IDS_FILE=$OUT/parse-ids.txt
python3 "$LOAD/parse_seed.py" --port "$QP" --count "$PARSE_OBJECTS" --ids "$PARSE_IDS_FILE" >"$OUT/parse-seed.txt" 2>&1 \
  || { summary "  parse seeding failed: $(tail -3 "$OUT/parse-seed.txt" | tr '\n' ' ')"; }
summary "parse seed: $(cat "$OUT/parse-seed.txt")"

sqlite_baseline_rps parse
wrk_run parse-post "http://127.0.0.1:$QP" -s "$LOAD/parse-post.lua"
P_POST=$(rps "$OUT/wrk-parse-post.txt")
summary "parse POST /parse/classes/Recipe: $P_POST req/s (p99 $(p99 "$OUT/wrk-parse-post.txt"))"
wrk_run parse-get "http://127.0.0.1:$QP" -s "$LOAD/parse-get.lua"
P_GET=$(rps "$OUT/wrk-parse-get.txt")
summary "parse GET /parse/classes/Recipe/:id: $P_GET req/s (p99 $(p99 "$OUT/wrk-parse-get.txt"))"
PARSE_QUERY_FIELD=rating wrk_run parse-query-indexed "http://127.0.0.1:$QP" -s "$LOAD/parse-query.lua" --timeout 30s
P_QI=$(rps "$OUT/wrk-parse-query-indexed.txt")
summary "parse query where rating>=R order=rating limit=20 (indexed): $P_QI req/s (p99 $(p99 "$OUT/wrk-parse-query-indexed.txt"))"
PARSE_QUERY_FIELD=calories wrk_run parse-query-unindexed "http://127.0.0.1:$QP" -s "$LOAD/parse-query.lua" --timeout 30s
P_QU=$(rps "$OUT/wrk-parse-query-unindexed.txt")
summary "parse query where calories>=R order=calories limit=20 (no index): $P_QU req/s (p99 $(p99 "$OUT/wrk-parse-query-unindexed.txt"))"
# One client alone: how long a single query takes when it does not queue behind 63 others.
for field in rating calories; do
  PARSE_QUERY_FIELD=$field THREADS=1 CONNECTIONS=1 wrk_run "parse-query-$field-1client" "http://127.0.0.1:$QP" \
    -s "$LOAD/parse-query.lua" --timeout 30s
  summary "parse query on $field, 1 client: $(rps "$OUT/wrk-parse-query-$field-1client.txt") req/s, latency p50 $(awk '$1 == "50%" {print $2}' "$OUT/wrk-parse-query-$field-1client.txt") p99 $(p99 "$OUT/wrk-parse-query-$field-1client.txt")"
done
summary "  quartet RSS after the parse runs: $(rss_kb "$QPID") kB, threads: $(threads_of "$QPID")"
stop "$QPID"

hummingbird_rps
summary "ratio parse POST/sqlite baseline: $(ratio "$P_POST" "$SQLITE_RPS") (target >= 2.5)"
[ -n "$H_RPS" ] && summary "ratio parse GET by id/hummingbird GET /health: $(ratio "$P_GET" "$H_RPS") (target >= 1.5)"
summary "ratio indexed query/GET by id: $(ratio "$P_QI" "$P_GET") (target >= 0.5)"
summary "ratio unindexed query/GET by id: $(ratio "$P_QU" "$P_GET") (reported; must answer)"
