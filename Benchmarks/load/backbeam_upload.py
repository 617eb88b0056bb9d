"""Uploads one file to a Backbeam project through a signed multipart POST /data/file/upload (the fields the
browser SDK sends: the signed parameters by their plain names, then the `file` part, which is never signed)
and prints the new file object's id.

  backbeam_upload.py --port P --host H --key K --secret S --file photo.jpg [--type image/jpeg]
"""
import argparse
import http.client
import json
import os
import sys
import time
import urllib.parse

from backbeam_sign import signed_query


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--host", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--secret", required=True)
    ap.add_argument("--file", required=True)
    ap.add_argument("--type", default="image/jpeg")
    args = ap.parse_args()
    path = "/data/file/upload"
    fields = urllib.parse.parse_qsl(signed_query([], "POST", path, args.key, args.secret, int(time.time() * 1000)))
    boundary = "----quartetbench" + os.urandom(6).hex()
    body = b""
    for name, value in fields:
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").encode()
    with open(args.file, "rb") as f:
        data = f.read()
    name = os.path.basename(args.file)
    body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
             f"Content-Type: {args.type}\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=120)
    conn.request("POST", path, body=body, headers={"Host": args.host,
                                                   "Content-Type": f"multipart/form-data; boundary={boundary}"})
    response = conn.getresponse()
    answer = response.read()
    if response.status != 201:
        sys.exit(f"upload failed: {response.status} {answer[:300]!r}")
    print(json.loads(answer)["id"])


if __name__ == "__main__":
    main()
