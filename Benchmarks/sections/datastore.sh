# Section "datastore" of Benchmarks/run.sh: put_delta from 64 clients, each on its own datastore (one
# wrk thread per connection so each client remembers its datastore's revision), vs the bare-SQLite
# baseline measured right before and right after it.
QD=$(new_tmp); datastore_token "$QD"
QP=$(free_port); start_quartet "$QP" "$QD"
export DS_HANDLES_FILE=$OUT/ds-handles.txt
python3 "$LOAD/datastore_setup.py" --port "$QP" --count 64 --handles "$DS_HANDLES_FILE" || summary "  warning: datastore set-up failed"
sqlite_baseline_rps datastore-before; BASE_BEFORE=$SQLITE_RPS
THREADS=64 CONNECTIONS=64 wrk_run put-delta "http://127.0.0.1:$QP" -s "$LOAD/put-delta.lua"
sqlite_baseline_rps datastore-after; BASE_AFTER=$SQLITE_RPS
D_PUT=$(rps "$OUT/wrk-put-delta.txt")
summary "datastore put_delta (64 clients, 64 datastores): $D_PUT req/s (p99 $(p99 "$OUT/wrk-put-delta.txt")); $(grep 'put_delta conflicts' "$OUT/wrk-put-delta.txt")"
stop "$QPID"
baseline_ratio "put_delta" "$D_PUT" "$BASE_BEFORE" "$BASE_AFTER"
