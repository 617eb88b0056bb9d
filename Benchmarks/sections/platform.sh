# Section "platform" of Benchmarks/run.sh: GET /health at CONNECTIONS connections on Quartet, on the
# Hummingbird 2 hello-JSON server and on nginx (one worker, static file), one after the other in the same
# run; Quartet's idle RSS and thread count. Sourced by run.sh (uses its helpers and variables).
QP=$(free_port); start_quartet "$QP" "$(new_tmp)"
sleep 1   # let start-up allocations settle before sampling the idle process
summary "quartet idle RSS: $(rss_kb "$QPID") kB ($(( $(rss_kb "$QPID") / 1024 )) MB), threads: $(threads_of "$QPID")"
wrk_run quartet-health "http://127.0.0.1:$QP/health"
Q_RPS=$(rps "$OUT/wrk-quartet-health.txt")
summary "quartet GET /health: $Q_RPS req/s (p99 $(p99 "$OUT/wrk-quartet-health.txt")); RSS after load: $(rss_kb "$QPID") kB, threads: $(threads_of "$QPID")"
stop "$QPID"

hummingbird_rps
if [ -n "$H_RPS" ]; then
  summary "ratio quartet/hummingbird GET /health: $(ratio "$Q_RPS" "$H_RPS") (target >= 2)"
fi

if command -v nginx >/dev/null; then
  NP=$(free_port); ND=$(new_tmp)
  mkdir -p "$ND/www" && printf '{"status":"ok"}' >"$ND/www/health"
  cat >"$ND/nginx.conf" <<NGINX
worker_processes 1; daemon off; pid $ND/nginx.pid; error_log $ND/error.log;
events { worker_connections 4096; }
http { access_log off; default_type application/json;
  client_body_temp_path $ND/tmp; proxy_temp_path $ND/tmp; fastcgi_temp_path $ND/tmp;
  uwsgi_temp_path $ND/tmp; scgi_temp_path $ND/tmp;
  server { listen 127.0.0.1:$NP; root $ND/www; location = /health { try_files /health =404; } } }
NGINX
  # nginx started as root serves through an unprivileged worker: the files must be world-readable.
  mkdir -p "$ND/tmp" && chmod -R a+rX "$ND"
  nginx -c "$ND/nginx.conf" -p "$ND" >"$OUT/nginx.log" 2>&1 & NPID=$!; PIDS+=("$NPID")
  wait_port "$NP"
  wrk_run nginx-health "http://127.0.0.1:$NP/health"
  N_RPS=$(rps "$OUT/wrk-nginx-health.txt")
  summary "nginx (1 worker, static file) GET /health: $N_RPS req/s (p99 $(p99 "$OUT/wrk-nginx-health.txt")); ratio quartet/nginx: $(ratio "$Q_RPS" "$N_RPS")"
  stop "$NPID"
else
  summary "nginx: not installed, comparison skipped"
fi
