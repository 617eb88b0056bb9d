# Section "memory" of Benchmarks/run.sh: 64 maximum-size JSON bodies sent at once (issue 19, item 3), to
# a fresh Quartet per endpoint and body shape: the server's peak RSS (goal: under 1 GB with the default
# configuration) and its RSS five seconds after the burst against its idle RSS (goal: within 20%).
# Bounded in time: each burst gives up after MEMORY_DEADLINE seconds (default 300).
#   MEMORY_ENDPOINTS  parse datastore couch backbeam (default: all four)
#   MEMORY_SHAPES     zeros (the body of the issue, refused while parsing) numbers (the largest accepted);
#                     for couch, `_bulk_docs` at couch.maxJsonRequestSize: docs (10,000 documents of 97
#                     strings) attachments (inline base64 attachments of 12 MiB); for backbeam, signed bodies
#                     at backbeam.maxBodyBytes (8 MiB): fields (a url-encoded create of 250 `set-` fields)
#                     params (2,000 parameters, 250 of them `set-` fields) values (eight `set-` values of
#                     1 MiB) json (`set-` values of JSON zeros), and upload (a
#                     multipart file upload at backbeam.maxUploadBytes, 50 MiB). Default: those per endpoint.
#   MEMORY_CLIENTS    concurrent bodies (default 64)
#   MEMORY_ENV        extra QUARTET_* settings for the server, e.g. to measure without the limits
read -r -a MEMORY_EXTRA_ENV <<<"${MEMORY_ENV:-}"
# Couch's admin (the `_bulk_docs` bodies write as the server admin).
export COUCH_PASSWORD=${COUCH_PASSWORD:-benchAdminPassword}
# Backbeam's project (the bodies are signed with its key; load/backbeam_sign.py).
export BACKBEAM_KEY=dev_bench_key BACKBEAM_SECRET=dev_bench_secret BACKBEAM_HOST=api-dev-bench.example.com
MEMORY_BB_PROJECTS="{\"bench\":{\"dev\":{\"keys\":[{\"key\":\"$BACKBEAM_KEY\",\"secret\":\"$BACKBEAM_SECRET\"}]}}}"
for endpoint in ${MEMORY_ENDPOINTS:-parse datastore couch backbeam}; do
  shapes="zeros numbers"; [ "$endpoint" = couch ] && shapes="docs attachments"
  [ "$endpoint" = backbeam ] && shapes="fields params values json upload"
  for shape in ${MEMORY_SHAPES:-$shapes}; do
    MD=$(new_tmp); [ "$endpoint" = datastore ] && datastore_token "$MD"
    MP=$(free_port)
    SAVED_ENV=("${QUARTET_ENV[@]}"); QUARTET_ENV+=(QUARTET_ADMIN_PASSWORD=$COUCH_PASSWORD QUARTET_BACKBEAM_PROJECTS="$MEMORY_BB_PROJECTS" "${MEMORY_EXTRA_ENV[@]}")
    start_quartet "$MP" "$MD"
    QUARTET_ENV=("${SAVED_ENV[@]}")
    # Let start-up settle, so that "idle" is the idle server.
    sleep 2
    # The largest body each endpoint takes (Parse's maxUploadSize, Datastore's maxBodyBytes); Parse's
    # numbers body is kept under its 16 MiB object limit, so it is stored, not only parsed.
    # Couch's is couch.maxJsonRequestSize (64 MiB); Backbeam's backbeam.maxBodyBytes (8 MiB) and, for
    # uploads, backbeam.maxUploadBytes (50 MiB).
    mib=20; [ "$endpoint" = datastore ] && mib=30
    [ "$endpoint/$shape" = parse/numbers ] && mib=15
    [ "$endpoint" = couch ] && mib=64
    [ "$endpoint" = backbeam ] && mib=8
    [ "$endpoint/$shape" = backbeam/upload ] && mib=50
    python3 "$LOAD/memory_burst.py" --port "$MP" --pid "$QPID" --endpoint "$endpoint" --shape "$shape" \
      --clients "${MEMORY_CLIENTS:-64}" --mib "$mib" --deadline "${MEMORY_DEADLINE:-300}" --settle 5 \
      --json "$OUT/memory-$endpoint-$shape.json" >"$OUT/memory-$endpoint-$shape.txt" 2>&1 \
      || summary "  warning: memory_burst.py ($endpoint, $shape) failed or ran out of time"
    while IFS= read -r line; do summary "  $line"; done <"$OUT/memory-$endpoint-$shape.txt"
    stop "$QPID"
  done
done
