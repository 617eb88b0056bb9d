#!/usr/bin/env python3
"""10,000 parked Couch `_changes?feed=longpoll` requests against a running Quartet, then commit-to-wake latency.

1. Creates --databases databases (lp000, ...), each with one document, so every feed starts at since=1.
2. Reads the server's thread count and RSS from /proc/PID/status (before).
3. Opens --connections sockets, each sending `GET /couch/lp{i mod databases}/_changes?feed=longpoll&since=1`
   (no heartbeat: the waiter is a parked request, not a stream). Couch has no gauge of waiting feeds, so the
   script waits --settle seconds after the last request was written (any answer before the first commit
   counts as early and is reported); reads threads and RSS again (parked).
4. For each database in turn: PUTs one document on a separate connection (t_sent), reads its answer
   (t_acked), and timestamps every long-poll answer of that database when its head arrives (t_woken).
   Commits are spaced --gap seconds apart so that wake-up bursts do not overlap.

t_woken - t_sent is an upper bound of commit-to-response (it holds the commit's fsync), t_woken - t_acked a
lower bound. Prints one summary line; --json writes all numbers.

    couch_longpoll.py --port 8080 --pid 1234 --connections 10000 --databases 100
Credentials: COUCH_USER (default admin) and COUCH_PASSWORD from the environment.
"""
import argparse
import asyncio
import base64
import http.client
import json
import os
import sys
import time

from parked_common import proc_status, raise_descriptor_limit, read_response, wake_summary


def auth_header():
    text = f"{os.environ.get('COUCH_USER', 'admin')}:{os.environ['COUCH_PASSWORD']}"
    return "Basic " + base64.b64encode(text.encode()).decode()


def create_databases(port, count):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": auth_header(), "Content-Type": "application/json"}
    for k in range(count):
        for method, path in (("PUT", f"/couch/lp{k:03d}"), ("PUT", f"/couch/lp{k:03d}/first")):
            conn.request(method, path, body="{}", headers=headers)
            resp = conn.getresponse()
            resp.read()
            if resp.status not in (201, 412):
                raise SystemExit(f"{method} {path}: {resp.status}")
    conn.close()


async def run(args):
    create_databases(args.port, args.databases)
    before = proc_status(args.pid)
    auth = auth_header()
    woken, early, failed, writers = {}, [], [], []
    commits_started = asyncio.Event()
    gate = asyncio.Semaphore(args.connect_concurrency)

    async def waiter(i):
        request = (f"GET /couch/lp{i % args.databases:03d}/_changes?feed=longpoll&since=1 HTTP/1.1\r\n"
                   f"Host: 127.0.0.1\r\nAuthorization: {auth}\r\n\r\n").encode()
        async with gate:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", args.port)
            except OSError as e:
                failed.append(f"connect: {e}")
                return
        writers.append(writer)
        writer.write(request)
        await writer.drain()
        try:
            status, body, arrived = await read_response(reader)
        except (asyncio.IncompleteReadError, ConnectionError) as e:
            failed.append(f"read: {e!r}")
            return
        if not commits_started.is_set():
            early.append((status, body[:200]))
        elif status != 200 or b'"id":"wake' not in body:
            failed.append(f"answer {status} {body[:200]!r}")
        else:
            woken[i] = arrived

    start = time.perf_counter()
    tasks = [asyncio.ensure_future(waiter(i)) for i in range(args.connections)]
    while len(writers) + len(failed) < args.connections and time.perf_counter() - start < args.park_timeout:
        await asyncio.sleep(0.2)
    park_seconds = time.perf_counter() - start
    await asyncio.sleep(args.settle)
    during = proc_status(args.pid)

    commits_started.set()
    reader, writer = await asyncio.open_connection("127.0.0.1", args.port)
    sent, acked = [], []
    for k in range(args.databases):
        body = b'{"wake":true}'
        writer.write((f"PUT /couch/lp{k:03d}/wake HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {auth}\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
        t_sent = time.perf_counter()
        await writer.drain()
        status, answer, t_acked = await read_response(reader)
        if status != 201:
            failed.append(f"PUT {status} {answer[:200]!r}")
        sent.append(t_sent)
        acked.append(t_acked)
        await asyncio.sleep(args.gap)
    writer.close()
    _, pending = await asyncio.wait(tasks, timeout=args.wake_timeout)
    for t in pending:
        t.cancel()
    for w in writers:
        w.close()
    after = proc_status(args.pid)

    result = {
        "connections": args.connections, "databases": args.databases, "park_seconds": round(park_seconds, 2),
    }
    result.update(wake_summary(before, during, after, woken, early, failed, sent, acked, args.databases, "put"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    print(" ".join(f"{k}={v}" for k, v in result.items()))
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--connections", type=int, default=10_000)
    ap.add_argument("--databases", type=int, default=100)
    ap.add_argument("--connect-concurrency", type=int, default=256)
    ap.add_argument("--park-timeout", type=float, default=30)
    ap.add_argument("--settle", type=float, default=3)
    ap.add_argument("--wake-timeout", type=float, default=10)
    ap.add_argument("--gap", type=float, default=0.05)
    ap.add_argument("--json")
    args = ap.parse_args()
    raise_descriptor_limit(args.connections)
    result = asyncio.run(run(args))
    sys.exit(0 if result["failures"] == 0 and result["woken"] == args.connections else 1)


if __name__ == "__main__":
    main()
