#!/usr/bin/env python3
"""One keep-alive client for Benchmarks/instructions.sh: sends N requests of one kind, one at a time.

    instruction_client.py --port P --kind KIND --count N [--ids FILE] [--cats FILE]
KIND: post|get|query|health|couch-get|couch-put|couch-bulk|couch-bulk-get|backbeam-get|backbeam-query|backbeam-thumb
(`backbeam-thumb`: unsigned downloads of the 200x200 variant of the file whose id is the first line of --ids). Keys: PARSE_APP_ID,
PARSE_REST_KEY (Parse kinds), COUCH_PASSWORD (Couch kinds, user COUCH_USER or admin) or BACKBEAM_KEY,
BACKBEAM_SECRET, BACKBEAM_HOST (Backbeam kinds, each request signed with a fresh nonce as
backbeam_requests.py signs them) from the environment. Prints how many answers were not 2xx. `couch-bulk` is
one `_bulk_docs` request with `new_edits:false` and 500 new documents with 3-revision histories (the shape of
load/couch_bulk.py), ids from a seeded generator so that every run writes the same bytes. `couch-bulk-get` is one
`_bulk_get` of 100 random seeded ids (the shape of load/couch-bulk-get.lua).
"""
import argparse
import base64
import http.client
import json
import os
import random
import time
from urllib.parse import quote

from backbeam_sign import signed_query


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--kind", required=True, choices=["post", "get", "query", "health", "couch-get", "couch-put",
                                                     "couch-bulk", "couch-bulk-get", "backbeam-get", "backbeam-query",
                                                     "backbeam-thumb"])
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--ids")
    ap.add_argument("--cats")
    args = ap.parse_args()
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=300)
    if args.kind.startswith("couch"):
        credentials = f"{os.environ.get('COUCH_USER', 'admin')}:{os.environ['COUCH_PASSWORD']}"
        headers = {"Content-Type": "application/json",
                   "Authorization": "Basic " + base64.b64encode(credentials.encode()).decode()}
    elif args.kind.startswith("backbeam"):
        headers = {"Host": os.environ["BACKBEAM_HOST"]}
        key, secret = os.environ["BACKBEAM_KEY"], os.environ["BACKBEAM_SECRET"]
    else:
        headers = {"Content-Type": "application/json", "X-Parse-Application-Id": os.environ["PARSE_APP_ID"],
                   "X-Parse-REST-API-Key": os.environ["PARSE_REST_KEY"]}
    rng = random.Random(7)
    ids = [line.strip() for line in open(args.ids)] if args.ids else []
    # Its own generator, seeded by the count, so that the warm-up requests (another count) write other ids.
    bulk_rng = random.Random(args.count)
    cats = [line.strip() for line in open(args.cats)] if args.cats and os.path.exists(args.cats) else []
    bad = 0
    for i in range(args.count):
        if args.kind == "post":
            body = json.dumps({"name": f"posted {i}", "rating": rng.randrange(100_000),
                               "calories": rng.randrange(100_000), "category": f"c{rng.randrange(100)}"})
            conn.request("POST", "/parse/classes/Recipe", body=body, headers=headers)
        elif args.kind == "get":
            conn.request("GET", "/parse/classes/Recipe/" + ids[rng.randrange(len(ids))], headers=headers)
        elif args.kind == "couch-get":
            conn.request("GET", "/couch/bench/" + ids[rng.randrange(len(ids))], headers=headers)
        elif args.kind == "couch-put":
            body = json.dumps({"name": f"posted {i}", "rating": rng.randrange(100_000), "pad": "x" * 900})
            conn.request("PUT", f"/couch/bench/new{os.getpid()}-{i}", body=body, headers=headers)
        elif args.kind == "couch-bulk-get":
            docs = [{"id": ids[rng.randrange(len(ids))]} for _ in range(100)]
            conn.request("POST", "/couch/bench/_bulk_get", body=json.dumps({"docs": docs}, separators=(",", ":")),
                         headers=headers)
        elif args.kind == "couch-bulk":
            docs = []
            for n in range(500):
                ids = [bulk_rng.randbytes(16).hex() for _ in range(3)]
                docs.append({"_id": bulk_rng.randbytes(12).hex(), "_rev": f"3-{ids[0]}",
                             "_revisions": {"start": 3, "ids": ids}, "type": "item", "n": n, "ok": True})
            body = json.dumps({"new_edits": False, "docs": docs}, separators=(",", ":"))
            conn.request("POST", "/couch/bench/_bulk_docs", body=body, headers=headers)
        elif args.kind == "backbeam-get":
            path = "/data/place/" + ids[rng.randrange(len(ids))]
            conn.request("GET", path + "?" + signed_query([], "GET", path, key, secret, int(time.time() * 1000)),
                         headers=headers)
        elif args.kind == "backbeam-thumb":
            conn.request("GET", f"/data/file/download/{ids[0]}/1?width=200&height=200", headers=headers)
        elif args.kind == "backbeam-query":
            params = [("q", ["where cat=? join author"]), ("params", [cats[rng.randrange(len(cats))]]),
                      ("limit", ["20"])]
            conn.request("GET", "/data/place?" + signed_query(params, "GET", "/data/place", key, secret,
                                                              int(time.time() * 1000)), headers=headers)
        elif args.kind == "query":
            where = json.dumps({"rating": {"$gte": rng.randrange(90_000)}})
            conn.request("GET", "/parse/classes/Recipe?where=" + quote(where) + "&order=rating&limit=20", headers=headers)
        else:
            conn.request("GET", "/health")
        response = conn.getresponse()
        response.read()
        if response.status >= 300:
            bad += 1
    print(f"non-2xx answers: {bad}")


if __name__ == "__main__":
    main()
