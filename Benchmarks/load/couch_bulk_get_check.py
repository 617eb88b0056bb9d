#!/usr/bin/env python3
"""Checks the answers of the `_bulk_get` load before it is measured (couch-bulk-get.lua).

Sends --requests POST /couch/{db}/_bulk_get requests of --per-request random ids from --ids, the bodies
the wrk script sends, and checks that each answer is 200 with one result per id, in order, each holding
exactly one `ok` document with that id. Prints one line; exits 1 on the first wrong answer.

    couch_bulk_get_check.py --port 8080 --ids ids.txt
Credentials: COUCH_USER (default admin) and COUCH_PASSWORD from the environment.
"""
import argparse
import base64
import http.client
import json
import os
import random
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--db", default="bench")
    ap.add_argument("--ids", required=True)
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--per-request", type=int, default=100)
    args = ap.parse_args()
    auth = "Basic " + base64.b64encode(
        f"{os.environ.get('COUCH_USER', 'admin')}:{os.environ['COUCH_PASSWORD']}".encode()).decode()
    ids = [line.strip() for line in open(args.ids) if line.strip()]
    rng = random.Random(1)
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
    sizes = []
    for n in range(args.requests):
        wanted = [rng.choice(ids) for _ in range(args.per_request)]
        body = json.dumps({"docs": [{"id": i} for i in wanted]}, separators=(",", ":"))
        conn.request("POST", f"/couch/{args.db}/_bulk_get", body=body,
                     headers={"Authorization": auth, "Content-Type": "application/json"})
        resp = conn.getresponse()
        raw = resp.read()
        if resp.status != 200:
            sys.exit(f"request {n}: status {resp.status}: {raw[:200]!r}")
        results = json.loads(raw).get("results", [])
        if len(results) != len(wanted):
            sys.exit(f"request {n}: {len(results)} results for {len(wanted)} ids")
        for want, result in zip(wanted, results):
            docs = result.get("docs", [])
            oks = [d["ok"] for d in docs if "ok" in d]
            if result.get("id") != want or len(docs) != 1 or len(oks) != 1 or oks[0].get("_id") != want:
                sys.exit(f"request {n}: result for {want} is not one ok document: {json.dumps(result)[:200]}")
        sizes.append(len(raw))
    print(f"checked {args.requests} _bulk_get answers of {args.per_request} ok documents each "
          f"(mean answer {sum(sizes) // len(sizes)} bytes)")


if __name__ == "__main__":
    main()
