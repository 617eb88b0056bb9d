# Section "parked" of Benchmarks/run.sh: 10,000 Datastore `await` long polls parked on one Quartet, its
# threads and RSS before and while they wait, then one put_delta per watched datastore and the time until
# each parked await is answered (client-side timestamps, see Benchmarks/load/parked_awaits.py).
PARKED=${PARKED:-10000}
QD=$(new_tmp); datastore_token "$QD"
QP=$(free_port); start_quartet "$QP" "$QD"
sleep 1
python3 "$LOAD/parked_awaits.py" --port "$QP" --pid "$QPID" --connections "$PARKED" --datastores 100 \
  --json "$OUT/parked.json" >"$OUT/parked.txt" 2>&1 || summary "  warning: parked_awaits.py failed: $(tail -3 "$OUT/parked.txt" | tr '\n' ' ')"
if [ -s "$OUT/parked.json" ]; then
  eval "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(f"PK_{k}=\"{v}\"" for k, v in d.items() if not isinstance(v, list)))' "$OUT/parked.json")"
  summary "parked awaits: $PK_parked_seen of $PARKED parked in ${PK_park_seconds}s (early answers: $PK_early_answers, failures: $PK_failures)"
  summary "  threads: $PK_threads_before idle -> $PK_threads_parked with $PARKED parked -> $PK_threads_after after (no thread per waiter wanted)"
  summary "  RSS: $PK_rss_kb_before kB idle -> $PK_rss_kb_parked kB parked ($(( PK_rss_kb_parked / 1024 )) MB; target <= 200 MB) -> $PK_rss_kb_after kB after"
  summary "  commit wakes its waiters: $PK_woken of $PARKED answered; from put_delta sent: p50 ${PK_wake_ms_from_sent_p50} ms, p99 ${PK_wake_ms_from_sent_p99} ms, max ${PK_wake_ms_from_sent_max} ms (target p99 <= 20 ms); from put_delta answered: p50 ${PK_wake_ms_from_ack_p50} ms, p99 ${PK_wake_ms_from_ack_p99} ms; put_delta p50 ${PK_put_delta_ms_p50} ms"
fi
stop "$QPID"
