# Section "couch" of Benchmarks/run.sh: the Couch API on one Quartet seeded with 20,000 documents of about
# 1 KB. GET by id (the plain read: the stored winner copied into the answer) against the Hummingbird /health
# rate of the same run; `_bulk_get` of 100 random documents per request against bare-SQLite primary-key
# lookups taken right before and right after it; PUT of new documents from 64 clients against the
# bare-SQLite baseline taken right before and right after it; replicated `_bulk_docs` (500 new documents
# with 3-revision histories per request, 8 clients) against bare-SQLite transactions of 1000 rows. Then
# 10,000 parked `_changes` long polls on a fresh Quartet.
COUCH_DOCS=${COUCH_DOCS:-20000}
export COUCH_PASSWORD=benchAdminPassword
export COUCH_AUTH="Basic $(printf 'admin:%s' "$COUCH_PASSWORD" | base64)"
export COUCH_IDS_FILE=$OUT/couch-ids.txt
QUARTET_ENV+=(QUARTET_ADMIN_PASSWORD=$COUCH_PASSWORD)
QP=$(free_port); start_quartet "$QP" "$(new_tmp)"
python3 "$LOAD/couch_seed.py" --port "$QP" --count "$COUCH_DOCS" --ids "$COUCH_IDS_FILE" >"$OUT/couch-seed.txt" 2>&1 \
  || { summary "  couch seeding failed: $(tail -3 "$OUT/couch-seed.txt" | tr '\n' ' ')"; }
summary "couch seed: $(cat "$OUT/couch-seed.txt")"

# GET by id in rounds alternating with Hummingbird's /health (paired_rounds in run.sh).
couch_get() { wrk_run "$1" "http://127.0.0.1:$QP" -s "$LOAD/couch-get.lua"; }
paired_rounds couch-get "$QPID" couch_get
C_GET=$PAIR_Q C_GET_H=$PAIR_H
summary "couch GET /couch/bench/:id: $C_GET req/s (median of $PAIRED_ROUNDS rounds), server CPU $PAIR_Q_CPU µs per request; hummingbird GET /health ${C_GET_H:-n/a} req/s, ${PAIR_H_CPU:-n/a} µs"

# `_bulk_get` of 100 random seeded documents per request (the reads of a replicator or PouchDB pull):
# documents/s against bare-SQLite primary-key lookups of 20,000 rows of about 1 KB, taken right before and
# right after. The baseline runs with 2 reader threads (one per core: no thread waits for a core) and with 8
# (Quartet's reader pool, which answers this load), each for half of DURATION; the faster is the baseline,
# as the insert baseline takes the faster of its two modes. The answers are checked first (100 `ok` each).
# The baseline's rows are as large as the seeded documents' mean body (from couch_seed.py's line).
lookup_baseline() {
  local dir threads rate best=0 seconds bytes; dir=$(new_tmp)
  seconds=$(python3 -c "print(max(1, $DURATION / 2))")
  bytes=$(sed -n 's/.*mean body \([0-9]*\) bytes.*/\1/p' "$OUT/couch-seed.txt")
  for threads in 2 8; do
    "$SQLITE_BASELINE" --lookups --threads "$threads" --seconds "$seconds" --rows "$COUCH_DOCS" --row-bytes "${bytes:-1000}" \
      --db "$dir/lookups-$threads.sqlite" >"$OUT/sqlite-lookups-$1-$threads.txt" 2>&1
    rate=$(sed -n 's/.* lookups_per_second=\([0-9.]*\) .*/\1/p' "$OUT/sqlite-lookups-$1-$threads.txt")
    summary "sqlite lookup baseline, $threads readers ($1): ${rate:-failed} lookups/s ($(cat "$OUT/sqlite-lookups-$1-$threads.txt"))"
    best=$(python3 -c "print(max($best, ${rate:-0}))")
  done
  rm -rf "$dir"
  LOOKUP_BASE=$best
  summary "sqlite lookup baseline ($1, the faster): $LOOKUP_BASE lookups/s"
}
python3 "$LOAD/couch_bulk_get_check.py" --port "$QP" --ids "$COUCH_IDS_FILE" >"$OUT/couch-bulk-get-check.txt" 2>&1 \
  || summary "  warning: couch _bulk_get answers are wrong: $(tail -3 "$OUT/couch-bulk-get-check.txt" | tr '\n' ' ')"
summary "couch _bulk_get check: $(cat "$OUT/couch-bulk-get-check.txt")"
lookup_baseline lookups-before; LOOKUP_BEFORE=$LOOKUP_BASE
CPU_BEFORE=$(cpu_ticks "$QPID")
wrk_run couch-bulk-get "http://127.0.0.1:$QP" -s "$LOAD/couch-bulk-get.lua"
cpu_per_request couch-bulk-get "$CPU_BEFORE" "$(cpu_ticks "$QPID")"
lookup_baseline lookups-after; LOOKUP_AFTER=$LOOKUP_BASE
C_BULK_GET_RPS=$(rps "$OUT/wrk-couch-bulk-get.txt")
C_BULK_GET=$(python3 -c "print(round(${C_BULK_GET_RPS:-0} * 100, 1))")
summary "couch POST /couch/bench/_bulk_get, 100 random ids: $C_BULK_GET_RPS req/s = $C_BULK_GET docs/s (p99 $(p99 "$OUT/wrk-couch-bulk-get.txt")), $CPU_TEXT"

# The PUT answers' statuses, from the server's own counters (quartet_http_requests_total by method and
# status), so that the load script needs no per-answer hook (see couch-put.lua).
put_statuses() {
  curl -s "http://127.0.0.1:$QP/metrics" | python3 -c '
import re, sys
for line in sys.stdin:
    if line.startswith("quartet_http_requests_total{") and "method=\"PUT\"" in line:
        status = re.search(r"status=\"([0-9]+)\"", line)
        if status: print(status.group(1), line.rsplit(" ", 1)[1].strip())'
}
sqlite_baseline_rps couch-before; BASE_BEFORE=$SQLITE_RPS
put_statuses >"$OUT/couch-put-statuses-before.txt"
wrk_run couch-put "http://127.0.0.1:$QP" -s "$LOAD/couch-put.lua"
put_statuses >"$OUT/couch-put-statuses-after.txt"
sqlite_baseline_rps couch-after; BASE_AFTER=$SQLITE_RPS
C_PUT=$(rps "$OUT/wrk-couch-put.txt")
C_PUT_STATUSES=$(python3 -c '
import sys
def read(path):
    counts = {}
    for line in open(path):
        status, value = line.split()
        counts[status] = counts.get(status, 0) + float(value)
    return counts
before, after = read(sys.argv[1]), read(sys.argv[2])
print(", ".join("status %s: %d" % (s, after[s] - before.get(s, 0)) for s in sorted(after) if after[s] - before.get(s, 0) > 0) or "none counted")
' "$OUT/couch-put-statuses-before.txt" "$OUT/couch-put-statuses-after.txt")
summary "couch PUT /couch/bench/:new-id (1 KB): $C_PUT req/s (p99 $(p99 "$OUT/wrk-couch-put.txt")); answers counted by the server: $C_PUT_STATUSES"

# `_bulk_docs` with new_edits=false, as a replicator pushes: documents/s against 1000-row transactions into
# a bare table (the faster of the per-thread and shared modes, 8 writers), taken right before and after.
bulk_baseline() {
  local dir mode rows best=0; dir=$(new_tmp)
  for mode in per-thread shared; do
    "$SQLITE_BASELINE" --threads 8 --seconds "$DURATION" --db "$dir/bulk-$mode.sqlite" --synchronous FULL \
      --rows-per-transaction 1000 $([ "$mode" = shared ] && echo --shared) >"$OUT/sqlite-bulk-$1-$mode.txt" 2>&1
    rows=$(sed -n 's/.* rows=\([0-9]*\) .*/\1/p' "$OUT/sqlite-bulk-$1-$mode.txt")
    best=$(python3 -c "print(max($best, round(${rows:-0} / $DURATION, 1)))")
  done
  rm -rf "$dir"
  BULK_BASE=$best
  summary "sqlite baseline, 8 writers, 1000 rows per transaction, synchronous=FULL ($1): $BULK_BASE rows/s"
}
bulk_baseline bulk-before; BULK_BEFORE=$BULK_BASE
python3 "$LOAD/couch_bulk.py" --port "$QP" --seconds "$DURATION" >"$OUT/couch-bulk.txt" 2>&1 \
  || summary "  couch _bulk_docs load failed: $(tail -3 "$OUT/couch-bulk.txt" | tr '\n' ' ')"
bulk_baseline bulk-after; BULK_AFTER=$BULK_BASE
C_BULK=$(sed -n 's/.* docs_per_second=\([0-9.]*\) .*/\1/p' "$OUT/couch-bulk.txt")
summary "couch POST /couch/bulkbench/_bulk_docs new_edits=false, 500 docs x 3 revisions: $(cat "$OUT/couch-bulk.txt")"
summary "  quartet RSS after the couch runs: $(rss_kb "$QPID") kB, threads: $(threads_of "$QPID")"
stop "$QPID"

[ -n "$C_GET_H" ] && summary "ratio couch GET by id/hummingbird GET /health (alternating rounds): $(ratio "$C_GET" "$C_GET_H") (target >= 1.0)"
baseline_ratio "couch PUT" "$C_PUT" "$BASE_BEFORE" "$BASE_AFTER"
BULK_MEAN=$(python3 -c "print(round((${BULK_BEFORE:-0} + ${BULK_AFTER:-0}) / 2, 1))")
summary "ratio couch _bulk_docs docs/sqlite 1000-row transactions: $(ratio "${C_BULK:-0}" "$BULK_MEAN") against the mean baseline $BULK_MEAN rows/s (target >= 0.15)"
LOOKUP_MEAN=$(python3 -c "print(round((${LOOKUP_BEFORE:-0} + ${LOOKUP_AFTER:-0}) / 2, 1))")
summary "ratio couch _bulk_get docs/sqlite primary-key lookups: $(ratio "${C_BULK_GET:-0}" "$LOOKUP_MEAN") against the mean baseline $LOOKUP_MEAN lookups/s (target >= 0.30)"

# 10,000 `_changes?feed=longpoll` waiters on a fresh Quartet (100 databases, 100 waiters each): threads and
# RSS while they are parked, then one PUT per database and the time until each waiter is answered
# (client-side timestamps, see Benchmarks/load/couch_longpoll.py).
COUCH_LONGPOLLS=${COUCH_LONGPOLLS:-10000}
QP=$(free_port); start_quartet "$QP" "$(new_tmp)"
sleep 1
python3 "$LOAD/couch_longpoll.py" --port "$QP" --pid "$QPID" --connections "$COUCH_LONGPOLLS" --databases 100 \
  --json "$OUT/couch-longpoll.json" >"$OUT/couch-longpoll.txt" 2>&1 \
  || summary "  warning: couch_longpoll.py failed: $(tail -3 "$OUT/couch-longpoll.txt" | tr '\n' ' ')"
if [ -s "$OUT/couch-longpoll.json" ]; then
  eval "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(f"LP_{k}=\"{v}\"" for k, v in d.items() if not isinstance(v, list)))' "$OUT/couch-longpoll.json")"
  summary "couch longpolls: $COUCH_LONGPOLLS parked in ${LP_park_seconds}s (early answers: $LP_early_answers, failures: $LP_failures)"
  summary "  threads: $LP_threads_before idle -> $LP_threads_parked parked -> $LP_threads_after after (no thread per waiter wanted)"
  summary "  RSS: $LP_rss_kb_before kB idle -> $LP_rss_kb_parked kB parked ($(( LP_rss_kb_parked / 1024 )) MB; target <= 200 MB)"
  summary "  commit wakes its waiters: $LP_woken answered; from PUT sent: p50 ${LP_wake_ms_from_sent_p50} ms, p99 ${LP_wake_ms_from_sent_p99} ms, max ${LP_wake_ms_from_sent_max} ms (target p99 <= 20 ms); from PUT answered: p50 ${LP_wake_ms_from_ack_p50} ms, p99 ${LP_wake_ms_from_ack_p99} ms; PUT p50 ${LP_put_ms_p50} ms"
fi
stop "$QPID"
