#!/usr/bin/env python3
"""Peak and settled RSS of a Quartet server while many maximum-size JSON bodies arrive at once (issue 19,
item 3: 64 concurrent maximum-size bodies keep the peak under 1 GB, and RSS returns to within 20% of idle).

    memory_burst.py --port P --pid PID [--clients 64] [--mib 20] [--endpoint parse|datastore|couch|backbeam]
                    [--shape zeros|numbers|dense|docs|attachments|fields|params|values|json|upload] [--deadline 300]
                    [--settle 5] [--json FILE]

The body is the one the issue found, `{"a":[0,0,0,...]}` of --mib MiB (--shape zeros; refused by the
default value limit), or the largest one the default limits accept, 999,000 numbers of 19 digits
(--shape numbers), or the most values it accepts in the fewest bytes, 999,997 zeros in 2 MB (--shape
dense). For Datastore it is a `put_delta` form body whose `changes` parameter holds such JSON,
for Couch a document, or a `_bulk_docs` body of many documents (--shape docs) or of documents with large
inline base64 attachments (--shape attachments). For Backbeam each client sends its own signed body (a nonce
is good once; signed as backbeam_sign.py signs): a url-encoded create of --mib MiB (`backbeam.maxBodyBytes`)
with 250 `set-` text fields (--shape fields: as many parameters as the 256-field limit of an entity lets
name a field, `set-` names may not repeat), with 2,000 parameters of which 250 are `set-` fields (--shape
params: the parameter limit), with eight `set-` text values of about 1 MiB (--shape values: the
value limit), or with `set-` values that are JSON arrays of zeros (--shape json: parsed as JSON and refused
past the value limit), or a multipart file upload of --mib MiB (--shape upload: `backbeam.maxUploadBytes`;
the file part, never signed, is the same bytes for every client). Every client connects, sends its
whole body and reads the answer; all start together. The server's RSS is sampled every 10 ms from
/proc/PID/status while they run; its VmHWM (the kernel's own peak) is read at the end as well. After the
burst the script waits --settle seconds and reads RSS again. Statuses are counted: 413/400 (refused
while parsing), 503 (waited for the decoding budget and gave up), anything else.

"Idle" is read after one small request to the same endpoint (an array of 500 zeros, about 1 KiB) has been answered:
the daemon drops its executable's start-up pages once it listens, and the code that serves the endpoint
comes back into memory with its first request, whatever its size. Measured before that request, idle
would leave out pages any server in service holds, and the settled figure would count them as what the
burst left behind. The anonymous and file-backed parts (/proc/PID/smaps_rollup) are reported for both.

Keys from the environment: PARSE_APP_ID, PARSE_REST_KEY (parse), DS_TOKEN (datastore), COUCH_USER
(default admin) and COUCH_PASSWORD (couch), BACKBEAM_KEY, BACKBEAM_SECRET and BACKBEAM_HOST (backbeam: a
key of the project whose API host is BACKBEAM_HOST).
"""
import argparse
import base64
import json
import os
import socket
import sys
import threading
import time
import urllib.parse

from backbeam_sign import canonical, signature, signed_query


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def memory_parts_kb(pid):
    """Anonymous and file-backed resident memory of PID in kB (from smaps_rollup; (0, 0) without it)."""
    parts = {"Anonymous": 0, "Pss_File": 0}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                key = line.split(":", 1)[0]
                if key in parts:
                    parts[key] = int(line.split()[1])
    except OSError:
        pass
    return parts["Anonymous"], parts["Pss_File"]


def warm_up(port, endpoint, shape, deadline):
    """One small request to the endpoint, so that the code serving it is resident before idle is read."""
    results = [None]
    event = threading.Event()
    event.set()
    payloads = request_payloads(endpoint, 0, shape, 1, small=True)
    client(port, payloads[0], event, results, 0, deadline)
    return results[0]


def json_body(mib, shape):
    if shape == "dense":
        # As many values as the default limit accepts in as few bytes as possible: 999,997 zeros (2 MB),
        # the body that costs the most memory per byte.
        return b'{"a":[' + b"0," * 999_996 + b"0]}"
    if shape == "numbers":
        # The largest body within the default value limit: 999,000 numbers of 19 digits, each too long for
        # Swift's inline strings, so each also takes a heap allocation once parsed.
        n = min(999_000, (mib << 20) // 20 - 8)
        return b'{"a":[' + b",".join(b"%019d" % (1_000_000_000_000_000_000 + i) for i in range(n)) + b"]}"
    # `{"a":[` + "0," * n + `0]}`: two bytes per value, the body of issue 19.
    n = (mib << 20) // 2 - 8
    return b'{"a":[' + b"0," * n + b"0]}"


def couch_auth():
    text = f"{os.environ.get('COUCH_USER', 'admin')}:{os.environ.get('COUCH_PASSWORD', '')}"
    return "Basic " + base64.b64encode(text.encode()).decode()


def couch_bulk_body(mib, shape):
    """A `_bulk_docs` body of about --mib MiB within Couch's default limits, in the two shapes that cost
    the most memory per byte once decoded: `docs`, 10,000 documents (`couch.maxBulkDocs`) of 97 strings of
    a size that fills the body (just under a million values, the value limit); `attachments`, documents
    each with one inline base64 attachment of 12 MiB (16 MiB of base64, the longest string accepted), as
    PouchDB pushes them, which are decoded and stored."""
    target = mib << 20
    docs = []
    if shape == "docs":
        count, fields = 10_000, 97
        per = max(1, (target // count - 40) // fields - 10)
        filler = "x" * per
        for i in range(count):
            doc = {"_id": f"d{i:06d}"}
            for f in range(fields):
                doc[f"f{f:02d}"] = filler
            docs.append(doc)
    else:
        chunk = 12 << 20
        remaining, i = target, 0
        while remaining > 1024:
            raw = min(chunk, remaining * 3 // 4 - 256)
            data = base64.b64encode(os.urandom(raw)).decode()
            docs.append({"_id": f"a{i:04d}", "_attachments": {"blob.bin": {
                "content_type": "application/octet-stream", "data": data}}})
            remaining -= len(data) + 120
            i += 1
    return json.dumps({"docs": docs}, separators=(",", ":")).encode()


def request_bytes(endpoint, mib, shape, small=False):
    body = b'{"a":[' + b"0," * 499 + b"0]}" if small else json_body(mib, shape)
    if endpoint == "parse":
        head = (f"POST /parse/classes/Burst HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"X-Parse-Application-Id: {os.environ['PARSE_APP_ID']}\r\n"
                f"X-Parse-REST-API-Key: {os.environ['PARSE_REST_KEY']}\r\n"
                f"Content-Type: application/json\r\n")
    elif endpoint == "datastore":
        # Percent-encoding doubles "0," ("0%2C"), so the JSON is half the body; the changes are parsed
        # (syntax first) before the handle is looked up.
        n = 499 if small else (mib << 20) // 4 - 64
        changes = b'[["I","t","r",{"a":[' + b"0," * n + b'0]}]]'
        body = b"handle=burst&rev=0&changes=" + urllib.parse.quote_from_bytes(changes, safe="[]\"{}:").encode()
        head = (f"POST /1/datastores/put_delta HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {os.environ.get('DS_TOKEN', '')}\r\n"
                f"Content-Type: application/x-www-form-urlencoded\r\n")
    elif endpoint == "couch" and shape in ("docs", "attachments"):
        # The warm-up's small body is one document holding the 500 zeros.
        body = b'{"docs":[' + body + b']}' if small else couch_bulk_body(mib, shape)
        head = ("POST /couch/burst/_bulk_docs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: {couch_auth()}\r\nContent-Type: application/json\r\n")
    else:
        head = ("PUT /couch/burst/doc HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: {couch_auth()}\r\nContent-Type: application/json\r\n")
    head += f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    return head.encode() + body


def backbeam_env():
    return (os.environ.get("BACKBEAM_KEY", "dev_bench_key"), os.environ.get("BACKBEAM_SECRET", "dev_bench_secret"),
            os.environ.get("BACKBEAM_HOST", "api-dev-bench.example.com"))


def backbeam_create_params(mib, shape, small):
    """The `set-` parameters of a create body of about --mib MiB (before the signature's few hundred bytes)."""
    if small:
        return [("set-name", ["warm-up"])]
    target = (mib << 20) - 1024
    if shape == "json":
        # Percent-encoded, "0," takes four bytes ("0%2C"): eight values of up to 1 MiB decoded.
        count = 8
        per = min(1 << 20, target // count // 2) // 2 - 2
        return [(f"set-j{i}", ["[" + "0," * per + "0]"]) for i in range(count)]
    if shape == "params":
        # 2,000 parameters with the four of the signature (`backbeam.maxParameters`): 250 `set-` fields, the
        # rest names no handler reads (decoded, signed and checked all the same).
        per = target // 1996 - 12
        return ([(f"set-f{i:03d}", ["p" * per]) for i in range(250)]
                + [(f"x{i:04d}", ["q" * per]) for i in range(1746)])
    count = 250 if shape == "fields" else 8
    per = min((1 << 20) - 16, target // count - 16)
    return [(f"set-f{i:03d}", [chr(ord("a") + i % 26) * per]) for i in range(count)]


def backbeam_requests(mib, shape, clients, small):
    """One signed request per client, as lists of byte pieces (what all clients share is one object)."""
    key, secret, host = backbeam_env()
    now = int(time.time() * 1000)
    if shape == "upload":
        path = "/data/file/upload"
        boundary = "----quartetburst" + os.urandom(6).hex()
        size = 500 if small else (mib << 20) - 2048
        data = os.urandom(size)
        tail = f"\r\n--{boundary}--\r\n".encode()
        file_head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"burst.bin\"\r\n"
                     "Content-Type: application/octet-stream\r\n\r\n").encode()
        out = []
        for _ in range(clients):
            fields = urllib.parse.parse_qsl(signed_query([], "POST", path, key, secret, now))
            head = b"".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n".encode()
                            for name, value in fields) + file_head
            length = len(head) + len(data) + len(tail)
            http = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\n"
                    f"Content-Length: {length}\r\nConnection: close\r\n\r\n").encode()
            out.append([http + head, data, tail])
        return out
    path = "/data/burst"
    params = backbeam_create_params(mib, shape, small)
    # The large parameters are encoded once; each client adds its own key, nonce, time and signature
    # (signed_query's signing, without encoding the shared part again).
    shared = "&".join(urllib.parse.quote(n, safe="") + "=" + urllib.parse.quote(v, safe="")
                      for n, values in params for v in values).encode()
    out = []
    for _ in range(clients):
        own = [("key", [key]), ("nonce", [os.urandom(16).hex()]), ("time", [str(now)])]
        own.append(("signature", [signature(secret, canonical(params + own, "POST", path))]))
        suffix = ("&" + "&".join(urllib.parse.quote(n, safe="") + "=" + urllib.parse.quote(v, safe="")
                                 for n, values in own for v in values)).encode()
        http = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                f"Content-Length: {len(shared) + len(suffix)}\r\nConnection: close\r\n\r\n").encode()
        out.append([http, shared, suffix])
    return out


def request_payloads(endpoint, mib, shape, clients, small=False):
    """The request of each client as a list of byte pieces: the same for all, except Backbeam's, which are
    signed one by one."""
    if endpoint == "backbeam":
        return backbeam_requests(mib, shape, clients, small)
    payload = [request_bytes(endpoint, mib, shape, small)]
    return [payload] * clients


def client(port, payload, start, results, index, deadline):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=deadline)
        start.wait()
        for piece in payload:
            s.sendall(piece)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        line = data.split(b"\r\n", 1)[0].decode(errors="replace")
        results[index] = int(line.split()[1]) if len(line.split()) > 1 else -1
    except Exception as e:  # a reset or a time-out is a result too
        results[index] = f"{type(e).__name__}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--mib", type=int, default=20)
    ap.add_argument("--endpoint", default="parse", choices=["parse", "datastore", "couch", "backbeam"])
    ap.add_argument("--deadline", type=float, default=300)
    ap.add_argument("--settle", type=float, default=5)
    ap.add_argument("--shape", default="zeros", choices=["zeros", "numbers", "dense", "docs", "attachments",
                                                         "fields", "params", "values", "json", "upload"])
    ap.add_argument("--json")
    args = ap.parse_args()

    if args.endpoint == "couch":
        # The database the bodies write to (credentials: COUCH_USER, COUCH_PASSWORD).
        s = socket.create_connection(("127.0.0.1", args.port), timeout=30)
        s.sendall(f"PUT /couch/burst HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {couch_auth()}\r\n"
                  "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
        while s.recv(65536):
            pass
        s.close()
    warm_status = warm_up(args.port, args.endpoint, args.shape, args.deadline)
    time.sleep(1)
    idle = status_kb(args.pid, "VmRSS")
    idle_anon, idle_file = memory_parts_kb(args.pid)
    payloads = request_payloads(args.endpoint, args.mib, args.shape, args.clients)
    body_mib = sum(len(piece) for piece in payloads[0]) / 1048576
    start = threading.Event()
    results = [None] * args.clients
    threads = [threading.Thread(target=client, args=(args.port, payloads[i], start, results, i, args.deadline),
                                daemon=True) for i in range(args.clients)]
    for t in threads:
        t.start()
    peak = idle
    began = time.monotonic()
    start.set()
    while any(t.is_alive() for t in threads) and time.monotonic() - began < args.deadline:
        peak = max(peak, status_kb(args.pid, "VmRSS"))
        time.sleep(0.01)
    elapsed = time.monotonic() - began
    timed_out = any(t.is_alive() for t in threads)
    hwm = status_kb(args.pid, "VmHWM")
    after = status_kb(args.pid, "VmRSS")
    time.sleep(args.settle)
    settled = status_kb(args.pid, "VmRSS")
    settled_anon, settled_file = memory_parts_kb(args.pid)
    counts = {}
    for r in results:
        counts[str(r)] = counts.get(str(r), 0) + 1
    report = {"endpoint": args.endpoint, "shape": args.shape, "clients": args.clients, "bodyMiB": args.mib,
              "idleRSSMiB": round(idle / 1024, 1), "peakRSSMiB": round(max(peak, hwm) / 1024, 1),
              "sampledPeakRSSMiB": round(peak / 1024, 1), "rssAtEndMiB": round(after / 1024, 1),
              "settledRSSMiB": round(settled / 1024, 1),
              "settledOverIdle": round(settled / idle, 2) if idle else None,
              "idleAnonMiB": round(idle_anon / 1024, 1), "idleFileMiB": round(idle_file / 1024, 1),
              "settledAnonMiB": round(settled_anon / 1024, 1), "settledFileMiB": round(settled_file / 1024, 1),
              "warmUpStatus": warm_status,
              "seconds": round(elapsed, 1), "timedOut": timed_out, "statuses": counts}
    print(f"{args.endpoint} ({args.shape}): {args.clients} x {body_mib:.1f} MiB: idle {report['idleRSSMiB']} MiB, "
          f"peak {report['peakRSSMiB']} MiB, {args.settle:g} s after {report['settledRSSMiB']} MiB "
          f"({report['settledOverIdle']}x idle; anonymous {report['idleAnonMiB']} -> {report['settledAnonMiB']} MiB, "
          f"file-backed {report['idleFileMiB']} -> {report['settledFileMiB']} MiB), {report['seconds']} s, statuses {counts}"
          + (" (deadline reached)" if timed_out else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return 1 if timed_out else 0


if __name__ == "__main__":
    sys.exit(main())
