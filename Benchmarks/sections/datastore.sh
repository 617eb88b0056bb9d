# Section "datastore" of Benchmarks/run.sh: put_delta from 64 clients, each on its own datastore, vs the
# bare-SQLite baseline measured right before and right after it. The load comes from delta-load (two
# threads; each connection keeps its datastore's revision), whose output has wrk's layout. The same load
# from wrk needs one wrk thread per connection; it is measured too, for comparison with earlier runs.
QD=$(new_tmp); datastore_token "$QD"
QP=$(free_port); start_quartet "$QP" "$QD"
export DS_HANDLES_FILE=$OUT/ds-handles.txt
python3 "$LOAD/datastore_setup.py" --port "$QP" --count 64 --handles "$DS_HANDLES_FILE" || summary "  warning: datastore set-up failed"
sqlite_baseline_rps datastore-before; BASE_BEFORE=$SQLITE_RPS
"$DELTA_LOAD" --port "$QP" --handles "$DS_HANDLES_FILE" --connections 64 --threads 2 --seconds "$DURATION" \
  >"$OUT/wrk-put-delta.txt" 2>&1 || summary "  warning (put-delta): $(tail -2 "$OUT/wrk-put-delta.txt" | tr '\n' ' ')"
sqlite_baseline_rps datastore-after; BASE_AFTER=$SQLITE_RPS
D_PUT=$(rps "$OUT/wrk-put-delta.txt")
summary "datastore put_delta (64 clients, 64 datastores, delta-load): $D_PUT req/s (p99 $(p99 "$OUT/wrk-put-delta.txt")); $(grep 'put_delta conflicts' "$OUT/wrk-put-delta.txt")"
baseline_ratio "put_delta" "$D_PUT" "$BASE_BEFORE" "$BASE_AFTER"
# For comparison with runs before delta-load: the wrk script (64 wrk threads) on 64 fresh datastores, since
# it starts every datastore at revision 0. Reported, not used in a ratio.
python3 "$LOAD/datastore_setup.py" --port "$QP" --count 64 --prefix wrkbench --handles "$OUT/ds-handles-wrk.txt" \
  || summary "  warning: datastore set-up for wrk failed"
DS_HANDLES_FILE=$OUT/ds-handles-wrk.txt THREADS=64 CONNECTIONS=64 wrk_run put-delta-wrk "http://127.0.0.1:$QP" -s "$LOAD/put-delta.lua"
summary "datastore put_delta with wrk -t64 -c64 (reported only): $(rps "$OUT/wrk-put-delta-wrk.txt") req/s (p99 $(p99 "$OUT/wrk-put-delta-wrk.txt")); $(grep 'put_delta conflicts' "$OUT/wrk-put-delta-wrk.txt")"
stop "$QPID"
