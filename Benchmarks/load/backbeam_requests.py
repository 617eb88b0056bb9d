"""Pre-signs Backbeam GET requests for a wrk run (wrk's Lua has no HMAC-SHA1, and a nonce may be used only
once): writes COUNT request targets, one per line, each with a fresh random nonce, `time` = now (the server
accepts ±signatureWindowSeconds, 300 s by default, so the file must be used within about five minutes), and
its signature. backbeam-replay.lua sends them in order, each once.

  --kind get    GET /data/place/<id> of random place ids (--ids file)
  --kind query  GET /data/place?q=where cat=? join author&params=<random cat>&limit=20 (--cats file)
"""
import argparse
import os
import random
import time

from backbeam_sign import signed_query


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", choices=["get", "query"], required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--secret", required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--ids")
    ap.add_argument("--cats")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    source = args.ids if args.kind == "get" else args.cats
    with open(source) as f:
        values = [line.strip() for line in f if line.strip()]
    rnd = random.Random(11)
    now = int(time.time() * 1000)
    nonces = os.urandom(16 * args.count).hex()
    with open(args.out, "w") as out:
        for i in range(args.count):
            value = values[rnd.randrange(len(values))]
            nonce = nonces[32 * i:32 * i + 32]
            if args.kind == "get":
                path = "/data/place/" + value
                query = signed_query([], "GET", path, args.key, args.secret, now, nonce)
            else:
                path = "/data/place"
                params = [("q", ["where cat=? join author"]), ("params", [value]), ("limit", ["20"])]
                query = signed_query(params, "GET", path, args.key, args.secret, now, nonce)
            out.write(path + "?" + query + "\n")


if __name__ == "__main__":
    main()
