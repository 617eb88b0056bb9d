#!/usr/bin/env python3
"""Seeds a running Quartet with Couch documents of about 1 KB for the Couch benchmarks.

Creates database --db (if needed), then PUTs --count documents with ids doc000000, doc000001, … from
--workers keep-alive connections (each PUT is one write job; concurrent ones share group commits).
Writes the ids to --ids (one per line) and prints one summary line.

    couch_seed.py --port 8080 --count 20000 --ids ids.txt
Credentials: COUCH_USER (default admin) and COUCH_PASSWORD from the environment.
"""
import argparse
import base64
import http.client
import json
import os
import random
import sys
import threading
import time


def auth_header():
    text = f"{os.environ.get('COUCH_USER', 'admin')}:{os.environ['COUCH_PASSWORD']}"
    return "Basic " + base64.b64encode(text.encode()).decode()


def document(i, rng):
    """About 1 KB of JSON: a few fields of each kind, as an app's record would have."""
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
    return {
        "type": "recipe",
        "title": f"Recipe number {i}",
        "rating": rng.randrange(100_000),
        "servings": rng.randrange(1, 12),
        "vegetarian": rng.random() < 0.3,
        "tags": [rng.choice(words) for _ in range(6)],
        "ingredients": [{"name": rng.choice(words) + " " + rng.choice(words), "grams": rng.randrange(1, 500)}
                        for _ in range(8)],
        "steps": " ".join(rng.choice(words) for _ in range(60)),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--db", default="bench")
    ap.add_argument("--count", type=int, default=20_000)
    ap.add_argument("--ids", required=True)
    ap.add_argument("--workers", type=int, default=32)
    args = ap.parse_args()
    auth = auth_header()
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=300)
    conn.request("PUT", f"/couch/{args.db}", headers={"Authorization": auth})
    resp = conn.getresponse()
    resp.read()
    if resp.status not in (201, 412):
        sys.exit(f"PUT /couch/{args.db}: {resp.status}")
    ids = [f"doc{i:06d}" for i in range(args.count)]
    failures = []
    sizes = []
    started = time.time()

    def worker(part):
        rng = random.Random(part)
        c = http.client.HTTPConnection("127.0.0.1", args.port, timeout=300)
        for i in range(part, args.count, args.workers):
            body = json.dumps(document(i, rng), separators=(",", ":"))
            sizes.append(len(body))
            c.request("PUT", f"/couch/{args.db}/{ids[i]}", body=body,
                      headers={"Authorization": auth, "Content-Type": "application/json"})
            r = c.getresponse()
            r.read()
            if r.status != 201:
                failures.append(r.status)

    threads = [threading.Thread(target=worker, args=(p,)) for p in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        sys.exit(f"{len(failures)} PUTs failed, e.g. {failures[:5]}")
    with open(args.ids, "w") as f:
        f.write("\n".join(ids) + "\n")
    elapsed = time.time() - started
    print(f"seeded {args.count} documents (mean body {sum(sizes) // len(sizes)} bytes) "
          f"in {elapsed:.1f} s ({args.count / elapsed:.0f} docs/s)")


if __name__ == "__main__":
    main()
