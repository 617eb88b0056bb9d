#!/usr/bin/env bash
# Reproducible loopback benchmarks for Quartet and its comparison servers, all measured in one run.
#
#   Benchmarks/run.sh                 # everything, 10 s per wrk run
#   DURATION=30 Benchmarks/run.sh     # longer runs
#   ONLY=health Benchmarks/run.sh     # one section: health | rss | parked | writes
#
# Every server is started here on 127.0.0.1, measured, and stopped by this script. Results (raw wrk
# output and a summary) go to Benchmarks/results/<timestamp>/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
ONLY=${ONLY:-all}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=$ROOT/Benchmarks/results/$STAMP
mkdir -p "$OUT"
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

need() { command -v "$1" >/dev/null 2>&1 || { echo "installing $2"; apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() { for _ in $(seq 1 200); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; return 1; }
rss_kb() { awk '/VmRSS/ {print $2}' /proc/$1/status; }
threads_of() { awk '/Threads/ {print $2}' /proc/$1/status; }
rps() { awk '/Requests\/sec/ {print $2}' "$1"; }

echo "building release binaries..."
swift build -c release --product quartet >/dev/null
QUARTET=$ROOT/.build/release/quartet
if [ -f Benchmarks/hello-hummingbird/Package.swift ]; then
  swift build -c release --package-path Benchmarks/hello-hummingbird >/dev/null
  HB=$(swift build -c release --package-path Benchmarks/hello-hummingbird --show-bin-path)/hello-hummingbird
fi

start_quartet() { # $1 port, $2 data dir, rest: extra args
  local port=$1 dir=$2; shift 2
  "$QUARTET" serve --host 127.0.0.1 --port "$port" --data-dir "$dir" --migrations-dir "$ROOT/Migrations" \
    --log-level warning "$@" >"$OUT/quartet-$port.log" 2>&1 &
  QPID=$!; PIDS+=($QPID)
}

summary() { echo "$*" | tee -a "$OUT/summary.txt"; }
summary "# Quartet benchmarks $STAMP (duration ${DURATION}s, ${CONNECTIONS} connections, wrk -t$THREADS), $(nproc) cores"

if [ "$ONLY" = all ] || [ "$ONLY" = health ] || [ "$ONLY" = rss ]; then
  QP=$(free_port); start_quartet "$QP" "$(mktemp -d)"
  wait_port "$QP"
  sleep 1
  summary "quartet idle RSS: $(rss_kb "$QPID") kB, threads: $(threads_of "$QPID")"
  if [ "$ONLY" != rss ]; then
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" "http://127.0.0.1:$QP/health" >"$OUT/wrk-quartet-health.txt"
    Q_RPS=$(rps "$OUT/wrk-quartet-health.txt")
    summary "quartet GET /health: $Q_RPS req/s"
    if [ -n "${HB:-}" ]; then
      HP=$(free_port); "$HB" "$HP" >"$OUT/hummingbird.log" 2>&1 & PIDS+=($!); HPID=$!
      wait_port "$HP"; sleep 1
      summary "hummingbird idle RSS: $(rss_kb "$HPID") kB"
      wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" "http://127.0.0.1:$HP/health" >"$OUT/wrk-hummingbird-health.txt"
      H_RPS=$(rps "$OUT/wrk-hummingbird-health.txt")
      summary "hummingbird GET /health: $H_RPS req/s"
      summary "ratio quartet/hummingbird: $(python3 -c "print(round($Q_RPS/$H_RPS, 2))")"
      kill "$HPID" || true
    fi
    if command -v nginx >/dev/null; then
      NP=$(free_port); ND=$(mktemp -d)
      mkdir -p "$ND/www" && printf '{"status":"ok"}' >"$ND/www/health"
      cat >"$ND/nginx.conf" <<NGINX
worker_processes 1; daemon off; pid $ND/nginx.pid; error_log $ND/error.log;
events { worker_connections 4096; }
http { access_log off; default_type application/json;
  server { listen 127.0.0.1:$NP; root $ND/www; location = /health { try_files /health =404; } } }
NGINX
      nginx -c "$ND/nginx.conf" -p "$ND" & PIDS+=($!); NPID=$!
      wait_port "$NP"
      wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" "http://127.0.0.1:$NP/health" >"$OUT/wrk-nginx-health.txt"
      N_RPS=$(rps "$OUT/wrk-nginx-health.txt")
      summary "nginx (1 worker, static file) GET /health: $N_RPS req/s; ratio quartet/nginx: $(python3 -c "print(round($Q_RPS/$N_RPS, 2))")"
      kill "$NPID" || true
    fi
  fi
  kill "$QPID" || true
fi

for extra in Benchmarks/sections/*.sh; do
  [ -f "$extra" ] || continue
  name=$(basename "$extra" .sh)
  if [ "$ONLY" = all ] || [ "$ONLY" = "$name" ]; then
    # shellcheck source=/dev/null
    source "$extra"
  fi
done
echo "results in $OUT"
