#!/usr/bin/env python3
"""Seeds a running Quartet with Recipe objects for the Parse benchmarks.

Objects are created through POST /parse/batch (1,000 creations per batch, a few batches in flight; each
batch is sent with "transaction": true so that it is one write job and one commit), then
the `rating` field gets a schema index through PUT /parse/schemas/Recipe with the master key; `calories`
stays unindexed. Writes the created object ids to --ids (one per line) and prints one summary line.

    parse_seed.py --port 8080 --count 100000 --ids ids.txt
Keys: PARSE_APP_ID, PARSE_REST_KEY, PARSE_MASTER_KEY from the environment.
"""
import argparse
import http.client
import json
import os
import random
import sys
import threading
import time

BATCH = 1000  # the server's default parse.batchMaxRequests


def headers(master=False):
    h = {"Content-Type": "application/json", "X-Parse-Application-Id": os.environ["PARSE_APP_ID"]}
    if master:
        h["X-Parse-Master-Key"] = os.environ["PARSE_MASTER_KEY"]
    else:
        h["X-Parse-REST-API-Key"] = os.environ["PARSE_REST_KEY"]
    return h


def call(conn, method, path, body, master=False):
    conn.request(method, path, body=json.dumps(body), headers=headers(master))
    resp = conn.getresponse()
    data = resp.read()
    if resp.status >= 300:
        raise RuntimeError(f"{method} {path}: {resp.status} {data[:300]!r}")
    return json.loads(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--ids", required=True)
    ap.add_argument("--workers", type=int, default=4)
    args = ap.parse_args()

    batches = [range(start, min(start + BATCH, args.count)) for start in range(0, args.count, BATCH)]
    ids, errors, lock = [], [], threading.Lock()
    rng = random.Random(42)
    # Values are drawn up front so that every run seeds the same data.
    values = [(rng.randrange(100_000), rng.randrange(100_000), rng.randrange(100)) for _ in range(args.count)]

    def worker(mine):
        conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=300)
        for batch in mine:
            requests = [{"method": "POST", "path": "/parse/classes/Recipe",
                         "body": {"name": f"recipe {i}", "rating": values[i][0], "calories": values[i][1],
                                  "category": f"c{values[i][2]}"}} for i in batch]
            try:
                result = call(conn, "POST", "/parse/batch", {"requests": requests, "transaction": True})
            except Exception as e:  # reported below; the benchmark stops on a failed seed
                with lock:
                    errors.append(str(e))
                return
            created = [r["success"]["objectId"] for r in result if "success" in r]
            with lock:
                ids.extend(created)
                if len(created) != len(requests):
                    errors.append(f"batch created {len(created)} of {len(requests)}: {result[:2]}")

    start = time.monotonic()
    threads = [threading.Thread(target=worker, args=(batches[k::args.workers],)) for k in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seeded = time.monotonic() - start
    if errors:
        print("seed failed:", errors[0], file=sys.stderr)
        sys.exit(1)

    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=600)
    call(conn, "PUT", "/parse/schemas/Recipe", {"className": "Recipe", "indexes": {"rating_1": {"rating": 1}}},
         master=True)
    indexed = time.monotonic() - start
    with open(args.ids, "w") as f:
        f.write("\n".join(ids) + "\n")
    print(f"seeded {len(ids)} objects in {seeded:.1f}s ({len(ids) / seeded:.0f} objects/s through /parse/batch), "
          f"index on rating built in {indexed:.1f}s")


if __name__ == "__main__":
    main()
