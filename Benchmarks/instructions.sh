#!/usr/bin/env bash
# Instructions per request, counted by callgrind: repeatable where wall-clock rates on a shared machine are
# not, so single changes can be compared (user-space instructions only; the kernel's share is not counted).
#
#   [KEEP=DIR] [QUARTET_BIN=PATH] [SYSCALLS=1] Benchmarks/instructions.sh KIND [COUNT]
#                                                   KIND: post | get | query | health | couch-get | couch-put |
#                                                   couch-bulk | couch-bulk-get | backbeam-get | backbeam-query |
#                                                   backbeam-thumb; COUNT default 1000 (couch-bulk: 20,
#                                                   couch-bulk-get: 200)
#
# backbeam-thumb is an unsigned download of the cached 200x200 variant of a 12-megapixel JPEG (made with vips,
# uploaded through a signed multipart POST; its variant made by one GET before the count starts).
#
# SYSCALLS=1 counts the kernel side instead: the server runs without valgrind, `strace -f -c` is attached to
# all its threads for the COUNT requests, and the system calls per request are printed by name (strace
# slows every call, so only the counts mean something, not its times).
#
# couch-bulk is one replicated `_bulk_docs` request of 500 new documents with 3-revision histories; its
# counts are also printed per document. couch-bulk-get is one `_bulk_get` of 100 random seeded documents (the load
# of load/couch-bulk-get.lua), also counted per document.
#
# Builds the release binary, seeds 20,000 Recipe objects (rating indexed) into a throw-away data directory
# (for the couch kinds: 20,000 documents of about 1 KB in the Couch database `bench`; for the backbeam kinds:
# 1,000 users and 20,000 places of the project `bench` with 200 `cat` values, so that a query on `cat` finds
# 100 places as in the benchmark's 100,000 with 1,000 values; every request signed with a fresh nonce),
# starts Quartet under valgrind on a free loopback port, sends 200 warm-up requests and then COUNT requests
# of KIND from one keep-alive client, one at a time (so every write is a commit of its own), and prints the
# instructions per request of each busy thread and of all threads together. Stops the server itself.
set -euo pipefail
cd "$(dirname "$0")/.."
KIND=${1:?usage: Benchmarks/instructions.sh post|get|query|health|couch-get|couch-put|couch-bulk|couch-bulk-get|backbeam-get|backbeam-query|backbeam-thumb [COUNT]}
# A couch-bulk request carries 500 documents: fewer requests, and per-document figures as well.
if [ "$KIND" = couch-bulk ]; then COUNT=${2:-20} WARMUP=4 PER=500
elif [ "$KIND" = couch-bulk-get ]; then COUNT=${2:-200} WARMUP=20 PER=100
else COUNT=${2:-1000} WARMUP=200 PER=1; fi
if [ -n "${SYSCALLS:-}" ]; then
  command -v strace >/dev/null || { echo "installing strace"; apt-get install -y -qq strace >/dev/null; }
else
  command -v valgrind >/dev/null || { echo "installing valgrind"; apt-get install -y -qq valgrind >/dev/null; }
fi
# QUARTET_BIN=path counts another build (an earlier commit's, to compare) instead of building this tree.
[ -n "${QUARTET_BIN:-}" ] || swift build -c release --static-swift-stdlib --product quartet >/dev/null
WORK=$(mktemp -d)
SERVER_PID=""
TRACE_PID=""
trap '[ -n "$TRACE_PID" ] && kill "$TRACE_PID" 2>/dev/null; [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
# valgrind 3.19 cannot read the DWARF 5 debug information Swift writes; symbols stay.
strip --strip-debug -o "$WORK/quartet" "${QUARTET_BIN:-.build/release/quartet}"
export PARSE_APP_ID=benchApp PARSE_REST_KEY=benchRestKey PARSE_MASTER_KEY=benchMasterKey
export QUARTET_PARSE_APP_ID=$PARSE_APP_ID QUARTET_PARSE_REST_API_KEY=$PARSE_REST_KEY QUARTET_PARSE_MASTER_KEY=$PARSE_MASTER_KEY
export COUCH_PASSWORD=benchAdminPassword QUARTET_ADMIN_PASSWORD=benchAdminPassword
export BACKBEAM_KEY=dev_bench_key BACKBEAM_SECRET=dev_bench_secret BACKBEAM_HOST=api-dev-bench.example.com
export QUARTET_BACKBEAM_PROJECTS="{\"bench\":{\"dev\":{\"keys\":[{\"key\":\"$BACKBEAM_KEY\",\"secret\":\"$BACKBEAM_SECRET\"}],\"indexes\":[\"place.cat\"]}}}"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
wait_port() { for _ in $(seq 1 600); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && return 0; sleep 0.1; done; return 1; }
serve() { "$@" serve --host 127.0.0.1 --port "$PORT" --data-dir "$WORK/data" --migrations-dir Migrations --log-level warning \
  >"$WORK/server.log" 2>&1 & SERVER_PID=$!; wait_port; }
mkdir "$WORK/data"
serve "$WORK/quartet"
case "$KIND" in
  couch-*) python3 Benchmarks/load/couch_seed.py --port "$PORT" --count 20000 --ids "$WORK/ids.txt" >/dev/null ;;
  backbeam-thumb)
    vips gaussnoise "$WORK/n.v" 4000 3000 --sigma 40 --mean 128 >/dev/null && vips cast "$WORK/n.v" "$WORK/c.v" uchar \
      && vips jpegsave "$WORK/c.v" "$WORK/photo.jpg" --Q 90 && rm -f "$WORK"/*.v
    python3 Benchmarks/load/backbeam_upload.py --port "$PORT" --host "$BACKBEAM_HOST" --key "$BACKBEAM_KEY" \
      --secret "$BACKBEAM_SECRET" --file "$WORK/photo.jpg" >"$WORK/ids.txt"
    curl -sf -o /dev/null -H "Host: $BACKBEAM_HOST" \
      "http://127.0.0.1:$PORT/data/file/download/$(head -1 "$WORK/ids.txt")/1?width=200&height=200" ;;
  backbeam-*) python3 Benchmarks/load/backbeam_seed.py --port "$PORT" --host "$BACKBEAM_HOST" --key "$BACKBEAM_KEY" \
    --secret "$BACKBEAM_SECRET" --count 20000 --cats 200 --ids "$WORK/ids.txt" --cats-file "$WORK/cats.txt" >/dev/null ;;
  *) python3 Benchmarks/load/parse_seed.py --port "$PORT" --count 20000 --ids "$WORK/ids.txt" >/dev/null ;;
esac
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
client() { python3 Benchmarks/load/instruction_client.py --port "$PORT" --kind "$KIND" --ids "$WORK/ids.txt" \
  --cats "$WORK/cats.txt" --count "$1"; }
if [ -n "${SYSCALLS:-}" ]; then
  serve "$WORK/quartet"
  client "$WARMUP" >/dev/null
  strace -f -c -o "$WORK/strace.txt" -p "$SERVER_PID" 2>/dev/null & TRACE_PID=$!
  sleep 1
  client "$COUNT"
  kill -INT "$TRACE_PID"; wait "$TRACE_PID" 2>/dev/null || true; TRACE_PID=""
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$WORK/strace.txt" "$KEEP"/
  # strace -c: "% time seconds usecs/call calls errors syscall"; errors may be empty.
  awk -v n="$COUNT" -v kind="$KIND" -v per="$PER" '
    $1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" {calls = $4; total += calls; printf "%-16s %8.2f per request\n", $NF, calls / n}
    END {printf "%s: %.2f system calls per request, all threads\n", kind, total / n}' "$WORK/strace.txt"
  exit 0
fi
serve valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$WORK/cg.%p" "$WORK/quartet"
client "$WARMUP" >/dev/null
callgrind_control -z "$SERVER_PID" >/dev/null
client "$COUNT"
callgrind_control -d "$SERVER_PID" >/dev/null
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
# The dump taken after the measured requests is the one numbered .1-<thread>; KEEP=DIR keeps them there for
# callgrind_annotate.
[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$WORK"/cg.*.1-* "$KEEP"/
for f in "$WORK"/cg.*.1-*; do
  awk '/^thread:/ {t=$2} /^summary:/ {print t, $2; exit}' "$f"
done | sort -k2 -n -r | awk -v n="$COUNT" -v kind="$KIND" -v per="$PER" '
  function doc(x) { return per > 1 ? sprintf(" (%.0f per document)", x / n / per) : "" }
  {total += $2; if (NR <= 4) printf "thread %s: %.0f instructions per request%s\n", $1, $2 / n, doc($2)}
  END {printf "%s: %.0f instructions per request%s, all threads\n", kind, total / n, doc(total)}'
