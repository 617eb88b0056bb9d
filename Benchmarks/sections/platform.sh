# Section "platform" of Benchmarks/run.sh: GET /health at CONNECTIONS connections on Quartet and on the
# Hummingbird 2 hello-JSON server in PLATFORM_ROUNDS alternating rounds, then on nginx (one worker, static
# file), all in the same run; Quartet's idle RSS and thread count. Sourced by run.sh (uses its helpers and
# variables).
QP=$(free_port); start_quartet "$QP" "$(new_tmp)"
sleep 1   # let start-up allocations settle before sampling the idle process
summary "quartet idle RSS: $(rss_kb "$QPID") kB ($(( $(rss_kb "$QPID") / 1024 )) MB), threads: $(threads_of "$QPID")"
start_hummingbird || true
# Both servers run side by side and are measured in alternating rounds; each rate is the median of its
# rounds. On a shared two-core machine one measurement of either server can be off by 20 % or more, so
# single back-to-back runs give ratios that scatter widely; alternating spreads the drift over both.
# Each round also reports the CPU time a request cost the server and wrk: wrk runs on the same two cores, so
# the rates are shared between the two, and the server's own cost per request shows what the rate hides.
Q_ROUNDS=(); H_ROUNDS=(); Q_CPU=(); H_CPU=()
for round in $(seq 1 "$PLATFORM_ROUNDS"); do
  before=$(cpu_ticks "$QPID")
  wrk_run "quartet-health-$round" "http://127.0.0.1:$QP/health"
  cpu_per_request "quartet-health-$round" "$before" "$(cpu_ticks "$QPID")"; Q_CPU+=("$CPU_US")
  Q_ROUNDS+=("$(rps "$OUT/wrk-quartet-health-$round.txt")")
  summary "  round $round: quartet GET /health ${Q_ROUNDS[-1]} req/s (p99 $(p99 "$OUT/wrk-quartet-health-$round.txt")); CPU per request: $CPU_TEXT"
  if [ -n "$HPID" ]; then
    before=$(cpu_ticks "$HPID")
    wrk_run "hummingbird-health-$round" "http://127.0.0.1:$HP/health"
    cpu_per_request "hummingbird-health-$round" "$before" "$(cpu_ticks "$HPID")"; H_CPU+=("$CPU_US")
    H_ROUNDS+=("$(rps "$OUT/wrk-hummingbird-health-$round.txt")")
    summary "  round $round: hummingbird GET /health ${H_ROUNDS[-1]} req/s (p99 $(p99 "$OUT/wrk-hummingbird-health-$round.txt")); CPU per request: $CPU_TEXT"
  fi
done
Q_RPS=$(median "${Q_ROUNDS[@]}")
summary "quartet GET /health: $Q_RPS req/s (median of $PLATFORM_ROUNDS rounds), server CPU $(median "${Q_CPU[@]}") µs per request (median); RSS after load: $(rss_kb "$QPID") kB, threads: $(threads_of "$QPID")"
stop "$QPID"
if [ -n "$HPID" ]; then
  H_RPS=$(median "${H_ROUNDS[@]}")
  summary "hummingbird GET /health: $H_RPS req/s (median of $PLATFORM_ROUNDS rounds), server CPU $(median "${H_CPU[@]}") µs per request (median)"
  summary "ratio quartet/hummingbird GET /health: $(ratio "$Q_RPS" "$H_RPS") (target >= 2)"
  summary "ratio of server CPU per request, hummingbird/quartet: $(ratio "$(median "${H_CPU[@]}")" "$(median "${Q_CPU[@]}")") (reported)"
  stop "$HPID"
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
