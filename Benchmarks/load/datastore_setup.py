#!/usr/bin/env python3
"""Creates N private datastores (bench000, bench001, ...) for one token and writes their handles,
one per line, to --handles. Used by the put_delta benchmark (one datastore per client).

    datastore_setup.py --port 8080 --count 64 --handles handles.txt     (token: DS_TOKEN)
"""
import argparse
import http.client
import json
import os
import urllib.parse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--count", type=int, default=64)
    ap.add_argument("--prefix", default="bench")
    ap.add_argument("--handles", required=True)
    args = ap.parse_args()
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
    handles = []
    for k in range(args.count):
        body = urllib.parse.urlencode({"dsid": f"{args.prefix}{k:03d}"})
        conn.request("POST", "/1/datastores/get_or_create_datastore", body=body,
                     headers={"Authorization": "Bearer " + os.environ["DS_TOKEN"],
                              "Content-Type": "application/x-www-form-urlencoded"})
        resp = conn.getresponse()
        data = json.loads(resp.read())
        if resp.status != 200 or "handle" not in data:
            raise SystemExit(f"get_or_create_datastore: {resp.status} {data}")
        handles.append(data["handle"])
    with open(args.handles, "w") as f:
        f.write("\n".join(handles) + "\n")


if __name__ == "__main__":
    main()
