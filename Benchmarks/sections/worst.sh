# Section "worst" of Benchmarks/run.sh: the worst body of each write endpoint at the largest size the
# default limits allow (load/worst_bodies.py), each sent alone to a fresh Quartet, with how long it held the
# single writer (from /metrics). Goal: at most 100 ms for every body within the limits (issue 19).
WD=$(new_tmp); datastore_token "$WD"
WP=$(free_port); start_quartet "$WP" "$WD"
python3 "$LOAD/worst_bodies.py" --port "$WP" --repeat "${WORST_REPEAT:-3}" --json "$OUT/worst-bodies.json" \
  >"$OUT/worst-bodies.txt" 2>&1 || summary "  warning: worst_bodies.py failed: $(tail -3 "$OUT/worst-bodies.txt" | tr '\n' ' ')"
while IFS= read -r line; do summary "$line"; done <"$OUT/worst-bodies.txt"
# No job may have held the writer long enough to be logged: grep then finds nothing, which is no failure.
{ grep "held the writer" "$OUT/quartet-$WP.log" || true; } | tail -5 | while IFS= read -r line; do summary "  log: $line"; done
stop "$QPID"
