# Section "backbeam" of Benchmarks/run.sh: the Backbeam API on one Quartet seeded with 100,000 places (and
# 1,000 users), every request signed. Compared with the Hummingbird /health rate of the same run:
#   - a signed GET of one object by id (signature check, time window and nonce included), target >= 1.0x;
#   - a BQL list query `where cat=? join author` with limit=20 over the 100,000 places (cat declared as an
#     index; 1,000 cat values, so 100 matches per query and a real count), target >= 0.5x;
#   - a cached 200x200 thumbnail of a 12-megapixel JPEG, downloaded (unsigned), target >= 1.0x.
# wrk cannot sign (its Lua has no HMAC-SHA1) and a nonce is good once, so every request is pre-signed by
# load/backbeam_requests.py right before its run (unique nonce, time = now, inside the 300 s window) and
# load/backbeam-replay.lua sends each line once.
BB_OBJECTS=${BB_OBJECTS:-100000}
BB_KEY=dev_bench_key BB_SECRET=dev_bench_secret BB_HOST=api-dev-bench.example.com
# Enough pre-signed requests for the run at up to BB_MAX_RPS (a run that uses them up is flagged as non-2xx).
BB_MAX_RPS=${BB_MAX_RPS:-90000}
BB_PROJECTS="{\"bench\":{\"dev\":{\"keys\":[{\"key\":\"$BB_KEY\",\"secret\":\"$BB_SECRET\"}],\"indexes\":[\"place.cat\"]}}}"
BP=$(free_port); BDIR=$(new_tmp)
# A 10 s run at tens of thousands of requests/s records hundreds of thousands of nonces (each remembered for
# the 300 s window); the default capacity (2,000,000) could fill up over several runs and answer 503.
SAVED_ENV=("${QUARTET_ENV[@]}")
QUARTET_ENV+=(QUARTET_BACKBEAM_PROJECTS="$BB_PROJECTS" QUARTET_BACKBEAM_NONCE_CACHE_CAPACITY=20000000)
start_quartet "$BP" "$BDIR"
QUARTET_ENV=("${SAVED_ENV[@]}")
export BACKBEAM_HOST=$BB_HOST
python3 "$LOAD/backbeam_seed.py" --port "$BP" --host "$BB_HOST" --key "$BB_KEY" --secret "$BB_SECRET" \
  --count "$BB_OBJECTS" --ids "$OUT/backbeam-ids.txt" --cats-file "$OUT/backbeam-cats.txt" >"$OUT/backbeam-seed.txt" 2>&1 \
  || summary "  backbeam seeding failed: $(tail -3 "$OUT/backbeam-seed.txt" | tr '\n' ' ')"
summary "backbeam seed: $(cat "$OUT/backbeam-seed.txt")"
# backbeam_wrk NAME KIND [wrk options]: pre-signs DURATION x BB_MAX_RPS requests of KIND, then replays them.
backbeam_wrk() {
  local name=$1 kind=$2; shift 2
  local count=$((DURATION * BB_MAX_RPS))
  python3 "$LOAD/backbeam_requests.py" --kind "$kind" --key "$BB_KEY" --secret "$BB_SECRET" --count "$count" \
    --ids "$OUT/backbeam-ids.txt" --cats "$OUT/backbeam-cats.txt" --out "$OUT/backbeam-$name.requests"
  # One file per wrk thread (backbeam-replay.lua reads thread i's from FILE.i).
  awk -v n="$THREADS" -v f="$OUT/backbeam-$name.requests" '{ print > (f "." ((NR - 1) % n + 1)) }' \
    "$OUT/backbeam-$name.requests"
  BACKBEAM_REQUESTS_FILE="$OUT/backbeam-$name.requests" wrk_run "$name" "http://127.0.0.1:$BP" \
    -s "$LOAD/backbeam-replay.lua" "$@"
  rm -f "$OUT/backbeam-$name.requests" "$OUT/backbeam-$name.requests".*
}
# Each read in rounds alternating with Hummingbird's /health (paired_rounds in run.sh); the requests of a
# round are signed before it, while neither server is loaded.
paired_rounds backbeam-get "$QPID" backbeam_wrk get
B_GET=$PAIR_Q B_GET_H=$PAIR_H
summary "backbeam signed GET /data/place/:id: $B_GET req/s (median of $PAIRED_ROUNDS rounds), server CPU $PAIR_Q_CPU µs per request; hummingbird GET /health ${B_GET_H:-n/a} req/s, ${PAIR_H_CPU:-n/a} µs"
paired_rounds backbeam-query "$QPID" backbeam_wrk query --timeout 30s
B_QUERY=$PAIR_Q B_QUERY_H=$PAIR_H
summary "backbeam signed query where cat=? join author limit=20: $B_QUERY req/s (median of $PAIRED_ROUNDS rounds), server CPU $PAIR_Q_CPU µs per request; hummingbird GET /health ${B_QUERY_H:-n/a} req/s, ${PAIR_H_CPU:-n/a} µs"
# A cached thumbnail served: a 12-megapixel JPEG (made now with vips, never committed) uploaded through a
# signed multipart POST, its 200x200 variant made by one GET, then unsigned GETs of that variant (downloads
# are never signed, so wrk sends them as they are), target >= 1.0x Hummingbird /health.
B_THUMB=
if command -v vips >/dev/null; then
  TW=$(new_tmp)
  vips gaussnoise "$TW/n.v" 4000 3000 --sigma 40 --mean 128 >>"$OUT/backbeam-thumb.log" 2>&1 \
    && vips cast "$TW/n.v" "$TW/c.v" uchar >>"$OUT/backbeam-thumb.log" 2>&1 \
    && vips jpegsave "$TW/c.v" "$TW/photo.jpg" --Q 90 >>"$OUT/backbeam-thumb.log" 2>&1
  rm -f "$TW"/*.v
  FILE_ID=$(python3 "$LOAD/backbeam_upload.py" --port "$BP" --host "$BB_HOST" --key "$BB_KEY" --secret "$BB_SECRET" \
            --file "$TW/photo.jpg" 2>>"$OUT/backbeam-thumb.log")
  THUMB_URL="http://127.0.0.1:$BP/data/file/download/$FILE_ID/1?width=200&height=200"
  if [ -n "$FILE_ID" ] && curl -sf -o "$TW/thumb.jpg" -H "Host: $BB_HOST" "$THUMB_URL"; then
    summary "backbeam thumbnail: source $(( $(stat -c %s "$TW/photo.jpg") / 1024 )) KiB, 4000x3000; variant $(stat -c %s "$TW/thumb.jpg") bytes"
    paired_rounds backbeam-thumb "$QPID" wrk_run "$THUMB_URL" -H "Host: $BB_HOST"
    B_THUMB=$PAIR_Q B_THUMB_H=$PAIR_H
    summary "backbeam cached thumbnail GET /data/file/download/:id/1?width=200&height=200: $B_THUMB req/s (median of $PAIRED_ROUNDS rounds), server CPU $PAIR_Q_CPU µs per request; hummingbird GET /health ${B_THUMB_H:-n/a} req/s, ${PAIR_H_CPU:-n/a} µs"
  else
    summary "  warning: backbeam thumbnail upload or first variant failed: $(tail -2 "$OUT/backbeam-thumb.log" | tr '\n' ' ')"
  fi
else
  summary "  backbeam cached thumbnail skipped: vips (libvips-tools) not installed"
fi
summary "  quartet RSS after the backbeam runs: $(rss_kb "$QPID") kB, threads: $(threads_of "$QPID")"
stop "$QPID"

[ -n "$B_GET_H" ] && summary "ratio backbeam signed GET by id/hummingbird GET /health (alternating rounds): $(ratio "$B_GET" "$B_GET_H") (target >= 1.0)"
[ -n "$B_QUERY_H" ] && summary "ratio backbeam query/hummingbird GET /health (alternating rounds): $(ratio "$B_QUERY" "$B_QUERY_H") (target >= 0.5)"
[ -n "$B_THUMB" ] && [ -n "${B_THUMB_H:-}" ] && summary "ratio backbeam cached thumbnail/hummingbird GET /health (alternating rounds): $(ratio "$B_THUMB" "$B_THUMB_H") (target >= 1.0)"
