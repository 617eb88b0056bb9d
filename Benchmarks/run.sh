#!/usr/bin/env bash
# Reproducible loopback benchmarks for Quartet and its comparison servers, all measured in one run.
#
#   Benchmarks/run.sh                         # every section, 10 s per measurement
#   DURATION=30 Benchmarks/run.sh             # longer measurements
#   ONLY="parse datastore" Benchmarks/run.sh  # some sections: platform parked writes parse datastore worst couch images backbeam memory
#   QUARTET_BIN=path Benchmarks/run.sh        # measure that quartet binary instead of building this tree
#   PIN=1 ONLY="couch backbeam" Benchmarks/run.sh  # the reads held against Hummingbird with each server on
#                                             # core 0 and wrk on core 1 (see paired_rounds)
#
# Sections (Benchmarks/sections/<name>.sh, sourced in this order):
#   platform   GET /health at 64 connections: Quartet, hello-hummingbird, nginx (1 worker, static file);
#              Quartet's idle RSS and threads
#   parked     10,000 parked Datastore `await` long polls: threads and RSS before/while parked,
#              commit-to-wake latency
#   writes     group commit vs one transaction per job through the Storage module (64 writers)
#   parse      POST /parse/classes/Recipe, GET by id, indexed and unindexed queries over 100,000 objects
#   datastore  put_delta from 64 clients on 64 datastores
#   worst      the worst body of each write endpoint at the limits' maximum size, and how long each held
#              the single writer (goal: 100 ms at most)
#   couch      GET by id, `_bulk_get` of 100 ids and PUT of 1 KB documents over 20,000 seeded Couch
#              documents; replicated `_bulk_docs` of 500 documents per request
#   images     first-time thumbnails of a 12 MP JPEG through the Files module vs vipsthumbnail; peak RSS
#              of 16 at once; the cost of a cache hit
#   backbeam   signed GET by id and a BQL query with a join over 100,000 objects (pre-signed requests)
#   memory     64 maximum-size bodies at once (Parse, Datastore, Couch, Backbeam): peak RSS, and RSS after the burst
# The bare-SQLite baseline (64 writers, one row per durable transaction) is measured right before and
# right after each Quartet write measurement it is compared with. Hummingbird's /health rate is measured in
# rounds alternating with Quartet's: /health in the platform section, and each read held against it in the
# couch and backbeam sections (medians of PAIRED_ROUNDS rounds); the parse section's once per run.
#
# Every server is started here on 127.0.0.1 (ephemeral ports), measured, and stopped by this script.
# Results (raw wrk output, logs, summary.txt) go to Benchmarks/results/<timestamp>/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
# Alternating measurement rounds of Quartet and Hummingbird in the platform section.
PLATFORM_ROUNDS=${PLATFORM_ROUNDS:-3}
# Alternating rounds of each read measured against Hummingbird in the couch and backbeam sections.
PAIRED_ROUNDS=${PAIRED_ROUNDS:-3}
# PIN=1: in those rounds, the measured server's threads run on SERVER_CPU only and wrk on CLIENT_CPU only.
PIN=${PIN:-0}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
ONLY=${ONLY:-all}
SECTIONS="platform parked writes parse datastore worst couch images backbeam memory"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=$ROOT/Benchmarks/results/$STAMP
LOAD=$ROOT/Benchmarks/load
mkdir -p "$OUT"
PIDS=()
TMPDIRS=()
cleanup() {
  for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  for d in "${TMPDIRS[@]:-}"; do [ -n "$d" ] && rm -rf "$d" || true; done
}
trap cleanup EXIT

# need CMD PACKAGE: installs PACKAGE with apt when CMD is missing (refreshing the package lists first when
# the install alone cannot find it, as on a machine whose lists were never downloaded).
need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "installing $2"
  apt-get install -y -qq "$2" >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq "$2" >/dev/null; }
}
need wrk wrk

# 10,000 parked connections need that many descriptors in the server and in the client.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() { for _ in $(seq 1 400); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; return 1; }
rss_kb() { awk '/VmRSS/ {print $2}' /proc/$1/status; }
threads_of() { awk '/Threads/ {print $2}' /proc/$1/status; }
rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1 == "99%" {print $2}' "$1"; }
# median V...: the middle value (the mean of the two middle ones for an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# ratio A B: A/B with two decimals, or three significant digits when it is below 0.1.
ratio() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); r = a / b if b > 0 else None; print('n/a' if r is None else (f'{r:.2f}' if r >= 0.1 else f'{r:.3g}'))" "${1:-0}" "${2:-0}"; }
# cpu_ticks PID: the process's user and system CPU so far, in clock ticks ("user system").
cpu_ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }
# cpu_per_request NAME BEFORE AFTER: the server's CPU per request over the wrk run NAME (BEFORE and AFTER from
# cpu_ticks around it), and wrk's own when OUT/wrk-NAME.cpu exists: puts "server U µs (user A, kernel B)[,
# wrk W µs]" into CPU_TEXT and the server's total into CPU_US (it sets variables: call it outside a subshell).
cpu_per_request() {
  local line
  line=$(python3 - "$(rps "$OUT/wrk-$1.txt")" "$DURATION" "$(getconf CLK_TCK)" $2 $3 "$OUT/wrk-$1.cpu" <<'PY'
import os, sys
rps, seconds, hz = float(sys.argv[1] or 0), float(sys.argv[2]), float(sys.argv[3])
u0, s0, u1, s1 = map(int, sys.argv[4:8])
n = rps * seconds
if n <= 0:
    print("0 n/a"); sys.exit()
us = lambda ticks: ticks * 1e6 / hz / n
out = f"server {us(u1 - u0 + s1 - s0):.1f} µs (user {us(u1 - u0):.1f}, kernel {us(s1 - s0):.1f})"
if os.path.exists(sys.argv[8]):
    parts = open(sys.argv[8]).read().split()
    if len(parts) >= 2:
        out += f", wrk {(float(parts[0]) + float(parts[1])) * 1e6 / n:.1f} µs"
print(f"{us(u1 - u0 + s1 - s0):.2f} {out}")
PY
)
  CPU_US=${line%% *}
  CPU_TEXT=${line#* }
}
new_tmp() { local d; d=$(mktemp -d); TMPDIRS+=("$d"); echo "$d"; }
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
summary() { echo "$*" | tee -a "$OUT/summary.txt"; }
# wrk_run NAME URL [wrk options...]: runs wrk for DURATION with latency percentiles into OUT/wrk-NAME.txt.
# When GNU time is installed, wrk's own CPU time goes to OUT/wrk-NAME.cpu ("user system", seconds).
wrk_run() {
  local name=$1 url=$2; shift 2
  local timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f "%U %S" -o "$OUT/wrk-$name.cpu")
  [ -n "${WRK_CPU:-}" ] && timer=(taskset -c "$WRK_CPU" "${timer[@]}")
  "${timer[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" "$url" >"$OUT/wrk-$name.txt" 2>&1 || summary "  warning ($name): wrk failed: $(tail -2 "$OUT/wrk-$name.txt" | tr "\n" " ")"
  if grep -q "Non-2xx\|Socket errors" "$OUT/wrk-$name.txt"; then
    summary "  warning ($name): $(grep -h 'Non-2xx\|Socket errors' "$OUT/wrk-$name.txt" | tr -s ' ' | tr '\n' ' ')"
  fi
}

# Keys and tokens of the benchmark servers (loopback only, throw-away data directories).
export PARSE_APP_ID=benchApp PARSE_REST_KEY=benchRestKey PARSE_MASTER_KEY=benchMasterKey
QUARTET_ENV=(
  QUARTET_PARSE_APP_ID=$PARSE_APP_ID QUARTET_PARSE_REST_API_KEY=$PARSE_REST_KEY
  QUARTET_PARSE_MASTER_KEY=$PARSE_MASTER_KEY
  # One user holds every parked await of the benchmark; the default per-user cap is 64.
  QUARTET_DATASTORE_MAX_AWAITS_PER_USER=20000 QUARTET_DATASTORE_AWAIT_TIMEOUT_SECONDS=50
)

# start_quartet PORT DATADIR: sets QPID. synchronous=FULL is the default and is stated for clarity.
start_quartet() {
  local port=$1 dir=$2
  env "${QUARTET_ENV[@]}" QUARTET_STORAGE_SYNCHRONOUS=FULL "$QUARTET" serve --host 127.0.0.1 --port "$port" \
    --data-dir "$dir" --migrations-dir "$ROOT/Migrations" --log-level warning >"$OUT/quartet-$port.log" 2>&1 &
  QPID=$!; PIDS+=("$QPID")
  wait_port "$port"
}

# datastore_token DATADIR: issues a Datastore token for user "bench" in DATADIR the way an operator does
# (`quartet datastore token create`), before the server starts on that directory; exports DS_TOKEN.
datastore_token() {
  DS_TOKEN=$("$QUARTET" datastore token create bench --data-dir "$1" --migrations-dir "$ROOT/Migrations" 2>>"$OUT/token.log" | tail -1)
  export DS_TOKEN
  [ -n "$DS_TOKEN" ] || summary "  warning: quartet datastore token create failed: $(tail -2 "$OUT/token.log" | tr '\n' ' ')"
}

selected() { [ "$ONLY" = all ] || [[ " ${ONLY//,/ } " == *" $1 "* ]]; }

echo "building release binaries..."
# Both servers are built the way they are deployed (the Dockerfile links the Swift runtime statically), so
# neither pays for dynamic Swift libraries the other avoids.
STATIC=--static-swift-stdlib
# QUARTET_BIN=path measures another build of quartet (an earlier commit's, to compare) instead of this tree's.
if [ -n "${QUARTET_BIN:-}" ]; then
  QUARTET=$QUARTET_BIN
else
  swift build -c release $STATIC --product quartet >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
  QUARTET=$ROOT/.build/release/quartet
fi
# The Hummingbird comparison server is its own package (Quartet never depends on it).
HB=${HB_BIN:-}
# Comparison programs are built only for the sections that use them.
if [ -z "$HB" ] && [ -f Benchmarks/hello-hummingbird/Package.swift ] && { selected platform || selected parse || selected couch || selected backbeam; }; then
  swift build -c release $STATIC --package-path Benchmarks/hello-hummingbird >>"$OUT/build.log" 2>&1
  HB_DIR=$(swift build -c release $STATIC --package-path Benchmarks/hello-hummingbird --show-bin-path)
  for name in HelloHummingbird hello-hummingbird; do [ -x "$HB_DIR/$name" ] && HB=$HB_DIR/$name; done
fi
# The couch section compares its PUT and `_bulk_docs` rates with the baseline too, and `_bulk_get` with its
# lookup mode.
if selected parse || selected datastore || selected couch; then
  swift build -c release --package-path Benchmarks/sqlite-baseline >>"$OUT/build.log" 2>&1
  SQLITE_BASELINE=$(swift build -c release --package-path Benchmarks/sqlite-baseline --show-bin-path)/SQLiteBaseline
fi
# The put_delta load client: wrk cannot keep a revision per connection (see delta-load/README.md).
if selected datastore; then
  swift build -c release --package-path Benchmarks/delta-load >>"$OUT/build.log" 2>&1
  DELTA_LOAD=$(swift build -c release --package-path Benchmarks/delta-load --show-bin-path)/DeltaLoad
fi

summary "# Quartet benchmarks $STAMP"
summary "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -sr)"
summary "swift: $(swift --version 2>/dev/null | head -1)"
summary "wrk: $(wrk -v 2>&1 | head -1 | cut -c1-40); nginx: $(nginx -v 2>&1 | cut -d/ -f2); python: $(python3 --version | cut -d' ' -f2)"
summary "quartet commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Migrations || echo ' (with local changes)')"
summary "load before run: $(uptime | sed 's/.*load average/load average/')"
summary "settings: DURATION=${DURATION}s, ${CONNECTIONS} connections, wrk -t$THREADS, synchronous=FULL, sections: $ONLY$([ "$PIN" = 1 ] && echo ", PIN=1: paired rounds with the server on core $SERVER_CPU and wrk on core $CLIENT_CPU")"

# Comparison numbers.
# hummingbird_rps: GET /health on hello-hummingbird at CONNECTIONS; sets H_RPS (empty when not built).
hummingbird_rps() {
  [ -n "${H_RPS+x}" ] && return 0
  H_RPS=""
  start_hummingbird || return 0
  wrk_run hummingbird-health "http://127.0.0.1:$HP/health"
  H_RPS=$(rps "$OUT/wrk-hummingbird-health.txt")
  summary "hummingbird GET /health: $H_RPS req/s (p99 $(p99 "$OUT/wrk-hummingbird-health.txt"))"
  stop "$HPID"
}

# start_hummingbird: starts hello-hummingbird on a free port (HP, HPID) and reports its idle RSS; returns 1
# (after saying so) when it was not built.
start_hummingbird() {
  HPID=""
  [ -n "$HB" ] || { summary "hummingbird: not built (Benchmarks/hello-hummingbird missing), comparison skipped"; return 1; }
  HP=$(free_port)
  "$HB" "$HP" >"$OUT/hummingbird.log" 2>&1 & HPID=$!; PIDS+=("$HPID")
  wait_port "$HP"; sleep 1
  summary "hummingbird idle RSS: $(rss_kb "$HPID") kB, threads: $(threads_of "$HPID")"
}
# paired_rounds NAME PID MEASURE [ARGS...]: PAIRED_ROUNDS rounds, each a Quartet measurement (MEASURE called with
# NAME-ROUND and ARGS, which runs wrk into OUT/wrk-NAME-ROUND.txt; PID is the Quartet measured) and then GET
# /health on Hummingbird, started here beside it. Sets PAIR_Q and PAIR_H (the medians of the rounds' req/s) and
# PAIR_Q_CPU and PAIR_H_CPU (the medians of the server CPU µs per request); PAIR_H is empty without Hummingbird.
# Why: a ratio near 1.0x against a Hummingbird rate measured minutes earlier moved by a quarter between two
# runs on this two-core machine, as the machine's own speed drifts; alternating rounds, as the platform section
# does for /health, put both rates of a ratio under the same drift.
#
# PIN=1 runs each measurement with the measured server's threads on SERVER_CPU and wrk on CLIENT_CPU (taskset;
# both servers alike, pinned while measured and given both cores back after). Why: on two cores wrk shares the
# server's CPU, and its cost per request grows with the answer and the script (run E: about 13 µs for a 1 KB
# Couch document picked at random, 14 µs for a 2 KB thumbnail, against 9 µs for Hummingbird's tiny /health), so
# an unpinned ratio counts the client's cost of a larger answer as the server's. Pinned, each server has one
# core of its own and the rate is what that server can answer on it (as long as wrk's core keeps up: the
# summary gives wrk's CPU per request, and wrk's core is saturated when it reaches 1 / rate).
pin_server() { [ "$PIN" = 1 ] && [ -n "$1" ] && taskset -a -p -c "$2" "$1" >/dev/null; return 0; }
paired_rounds() {
  local name=$1 pid=$2 measure=$3 round before; shift 3
  local q=() h=() qc=() hc=()
  PAIR_Q=""; PAIR_H=""; PAIR_Q_CPU=""; PAIR_H_CPU=""
  start_hummingbird || true
  [ "$PIN" = 1 ] && WRK_CPU=$CLIENT_CPU
  for round in $(seq 1 "$PAIRED_ROUNDS"); do
    pin_server "$pid" "$SERVER_CPU"
    before=$(cpu_ticks "$pid")
    "$measure" "$name-$round" "$@"
    cpu_per_request "$name-$round" "$before" "$(cpu_ticks "$pid")"; qc+=("$CPU_US")
    pin_server "$pid" "0-$(( $(nproc) - 1 ))"
    q+=("$(rps "$OUT/wrk-$name-$round.txt")")
    summary "  round $round: $name ${q[-1]} req/s (p99 $(p99 "$OUT/wrk-$name-$round.txt")); CPU per request: $CPU_TEXT"
    if [ -n "$HPID" ]; then
      pin_server "$HPID" "$SERVER_CPU"
      before=$(cpu_ticks "$HPID")
      wrk_run "hummingbird-$name-$round" "http://127.0.0.1:$HP/health"
      cpu_per_request "hummingbird-$name-$round" "$before" "$(cpu_ticks "$HPID")"; hc+=("$CPU_US")
      pin_server "$HPID" "0-$(( $(nproc) - 1 ))"
      h+=("$(rps "$OUT/wrk-hummingbird-$name-$round.txt")")
      summary "  round $round: hummingbird GET /health ${h[-1]} req/s; CPU per request: $CPU_TEXT"
    fi
  done
  WRK_CPU=""
  PAIR_Q=$(median "${q[@]}"); PAIR_Q_CPU=$(median "${qc[@]}")
  if [ -n "$HPID" ]; then
    PAIR_H=$(median "${h[@]}"); PAIR_H_CPU=$(median "${hc[@]}")
    stop "$HPID"
  fi
}
# sqlite_baseline_rps: one row per durable transaction into a bare table from 64 threads, both with a
# connection per thread and with one shared connection; the faster of the two is the baseline (SQLITE_RPS).
# Sections call it right before and right after their own write measurement: what an fsync costs on a
# shared machine drifts within minutes, so the numbers of a ratio are taken back to back.
# The rate is rows / requested seconds: the tool's own figure divides by the elapsed time, which includes
# writers still waiting out busy_timeout after the deadline and would flatter every ratio against it.
sqlite_baseline_rps() {
  local dir mode rows rate; dir=$(new_tmp); SQLITE_RPS=0
  for mode in per-thread shared; do
    "$SQLITE_BASELINE" --threads 64 --seconds "$DURATION" --db "$dir/baseline-$mode.sqlite" --synchronous FULL \
      $([ "$mode" = shared ] && echo --shared) >"$OUT/sqlite-baseline-$1-$mode.txt" 2>&1
    rows=$(sed -n 's/.* rows=\([0-9]*\) .*/\1/p' "$OUT/sqlite-baseline-$1-$mode.txt")
    rate=$(python3 -c "print(round(${rows:-0} / $DURATION, 1))")
    summary "sqlite baseline, 64 writers, $mode connection(s), one row per transaction, synchronous=FULL: $rate rows/s ($(cat "$OUT/sqlite-baseline-$1-$mode.txt"))"
    SQLITE_RPS=$(python3 -c "print(max($SQLITE_RPS, $rate))")
  done
  rm -rf "$dir"
  summary "sqlite baseline ($1, the faster mode): $SQLITE_RPS rows/s"
}
# baseline_ratio NAME RATE BEFORE AFTER: the ratio against the mean of the baselines taken right before
# and right after the measurement, and against each (the spread shows how much fsync cost drifted).
baseline_ratio() {
  local mean; mean=$(python3 -c "print(round(($3 + $4) / 2, 1))")
  summary "ratio $1/sqlite baseline: $(ratio "$2" "$mean") against the mean baseline $mean rows/s ($(ratio "$2" "$3") against the one before, $(ratio "$2" "$4") against the one after) (target >= 2.5)"
}

for section in $SECTIONS; do
  if selected "$section"; then
    summary ""
    summary "## $section ($(date -u +%H:%M:%S), $(uptime | sed 's/.*load average/load average/'))"
    # shellcheck source=/dev/null
    source "Benchmarks/sections/$section.sh"
  fi
done
summary ""
summary "load after run: $(uptime | sed 's/.*load average/load average/')"
echo "results in $OUT"
