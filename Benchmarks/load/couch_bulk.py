#!/usr/bin/env python3
"""Replicated-write load for the Couch `_bulk_docs` benchmark (what a CouchDB replicator pushing to Quartet sends).

From --clients keep-alive connections, for --seconds, POSTs `_bulk_docs` with `"new_edits":false` and --batch
small documents per request, each with a 3-revision `_revisions` history and a fresh random id (so every
document is a new write, never a no-op). Request bodies are built before the clock starts, so the client's
JSON encoding does not count. Prints one line: documents/s, requests, p50/p99 latency, failures.

    couch_bulk.py --port 8080 --db bulkbench --seconds 10
Credentials: COUCH_USER (default admin) and COUCH_PASSWORD from the environment.
"""
import argparse
import base64
import http.client
import json
import os
import sys
import threading
import time


def auth_header():
    text = f"{os.environ.get('COUCH_USER', 'admin')}:{os.environ['COUCH_PASSWORD']}"
    return "Basic " + base64.b64encode(text.encode()).decode()


def body(batch):
    docs = []
    for _ in range(batch):
        ids = [os.urandom(16).hex() for _ in range(3)]
        docs.append({"_id": os.urandom(12).hex(), "_rev": f"3-{ids[0]}",
                     "_revisions": {"start": 3, "ids": ids}, "type": "item", "n": len(docs), "ok": True})
    return json.dumps({"new_edits": False, "docs": docs}, separators=(",", ":")).encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--db", default="bulkbench")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--batch", type=int, default=500)
    args = ap.parse_args()
    auth = auth_header()
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=300)
    conn.request("PUT", f"/couch/{args.db}", headers={"Authorization": auth})
    resp = conn.getresponse()
    resp.read()
    if resp.status not in (201, 412):
        sys.exit(f"PUT /couch/{args.db}: {resp.status}")
    # Enough distinct bodies that no client runs out at up to 10 requests/s each (5,000 documents/s per
    # client, several times what one writer commits); a warning says when they did.
    per_client = max(4, int(args.seconds * 10))
    bodies = [[body(args.batch) for _ in range(per_client)] for _ in range(args.clients)]
    headers = {"Authorization": auth, "Content-Type": "application/json"}
    lock = threading.Lock()
    latencies, failures, done = [], [], [0]
    deadline = time.monotonic() + args.seconds

    def client(mine):
        c = http.client.HTTPConnection("127.0.0.1", args.port, timeout=300)
        for payload in mine:
            if time.monotonic() >= deadline:
                break
            t0 = time.monotonic()
            c.request("POST", f"/couch/{args.db}/_bulk_docs", body=payload, headers=headers)
            r = c.getresponse()
            answer = r.read()
            with lock:
                if r.status != 201 or answer.strip() != b"[]":
                    failures.append(f"{r.status} {answer[:200]!r}")
                else:
                    latencies.append(time.monotonic() - t0)
                    done[0] += 1

    start = time.monotonic()
    threads = [threading.Thread(target=client, args=(bodies[i],)) for i in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000 if latencies else 0
    docs = done[0] * args.batch
    print(f"docs={docs} requests={done[0]} seconds={elapsed:.2f} docs_per_second={docs / elapsed:.1f} "
          f"p50_ms={p(0.5):.1f} p99_ms={p(0.99):.1f} failures={len(failures)}"
          + (f" first_failure={failures[0]}" if failures else ""))
    if done[0] * args.batch >= sum(len(b) for b in bodies) * args.batch:
        print("warning: the clients ran out of prepared bodies before the deadline", file=sys.stderr)


if __name__ == "__main__":
    main()
