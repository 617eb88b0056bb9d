# Section "couch" of Benchmarks/run.sh: the Couch API on one Quartet seeded with 20,000 documents of about
# 1 KB. GET by id (the plain read: the stored winner copied into the answer) against the Hummingbird /health
# rate of the same run; PUT of new documents from 64 clients against the bare-SQLite baseline taken right
# before and right after it.
COUCH_DOCS=${COUCH_DOCS:-20000}
export COUCH_PASSWORD=benchAdminPassword
export COUCH_AUTH="Basic $(printf 'admin:%s' "$COUCH_PASSWORD" | base64)"
export COUCH_IDS_FILE=$OUT/couch-ids.txt
QUARTET_ENV+=(QUARTET_ADMIN_PASSWORD=$COUCH_PASSWORD)
QP=$(free_port); start_quartet "$QP" "$(new_tmp)"
python3 "$LOAD/couch_seed.py" --port "$QP" --count "$COUCH_DOCS" --ids "$COUCH_IDS_FILE" >"$OUT/couch-seed.txt" 2>&1 \
  || { summary "  couch seeding failed: $(tail -3 "$OUT/couch-seed.txt" | tr '\n' ' ')"; }
summary "couch seed: $(cat "$OUT/couch-seed.txt")"

CPU_BEFORE=$(cpu_ticks "$QPID")
wrk_run couch-get "http://127.0.0.1:$QP" -s "$LOAD/couch-get.lua"
cpu_per_request couch-get "$CPU_BEFORE" "$(cpu_ticks "$QPID")"
C_GET=$(rps "$OUT/wrk-couch-get.txt")
summary "couch GET /couch/bench/:id: $C_GET req/s (p99 $(p99 "$OUT/wrk-couch-get.txt")), $CPU_TEXT"

sqlite_baseline_rps couch-before; BASE_BEFORE=$SQLITE_RPS
wrk_run couch-put "http://127.0.0.1:$QP" -s "$LOAD/couch-put.lua"
sqlite_baseline_rps couch-after; BASE_AFTER=$SQLITE_RPS
C_PUT=$(rps "$OUT/wrk-couch-put.txt")
summary "couch PUT /couch/bench/:new-id (1 KB): $C_PUT req/s (p99 $(p99 "$OUT/wrk-couch-put.txt"))"
summary "  quartet RSS after the couch runs: $(rss_kb "$QPID") kB, threads: $(threads_of "$QPID")"
stop "$QPID"

hummingbird_rps
[ -n "$H_RPS" ] && summary "ratio couch GET by id/hummingbird GET /health: $(ratio "$C_GET" "$H_RPS") (target >= 1.0)"
baseline_ratio "couch PUT" "$C_PUT" "$BASE_BEFORE" "$BASE_AFTER"
