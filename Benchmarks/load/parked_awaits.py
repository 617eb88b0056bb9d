#!/usr/bin/env python3
"""10,000 parked Datastore `await` long polls against a running Quartet, then commit-to-wake latency.

1. Creates --datastores private datastores (wait000, ...) and notes their revisions.
2. Reads the server's thread count and RSS from /proc/PID/status (before).
3. Opens --connections sockets, each sending one `await` on datastore (i mod --datastores) at its
   current revision, so that each parks; waits until /metrics shows them all parked (the
   quartet_datastore_awaits_waiting gauge); reads threads and RSS again (parked).
4. For each datastore in turn: sends one put_delta on a separate connection (t_sent), reads its answer
   (t_acked), and timestamps every await answer of that datastore when its head arrives (t_woken).
   Commits are spaced --gap seconds apart so that wake-up bursts do not overlap.

Latency is measured on the client: the commit happens between t_sent and t_acked (the put_delta answer
is written only once the commit is durable), so t_woken - t_sent is an upper bound of commit-to-response
(it also holds the commit's fsync) and t_woken - t_acked a lower bound (negative when a waiter is answered
before the writer's own client). Prints one summary line; --json writes all numbers.

    parked_awaits.py --port 8080 --pid 1234 --connections 10000 --datastores 100   (token: DS_TOKEN)
"""
import argparse
import asyncio
import http.client
import json
import os
import sys
import time

from parked_common import proc_status, raise_descriptor_limit, read_response, wake_summary
import urllib.parse


def form_request(path, token, params):
    body = urllib.parse.urlencode(params).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


def metric(port, name):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    return None


def create_datastores(port, token, count):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    result = []
    for k in range(count):
        conn.request("POST", "/1/datastores/get_or_create_datastore", body=urllib.parse.urlencode({"dsid": f"wait{k:03d}"}),
                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/x-www-form-urlencoded"})
        resp = conn.getresponse()
        data = json.loads(resp.read())
        if resp.status != 200:
            raise SystemExit(f"get_or_create_datastore: {resp.status} {data}")
        result.append((data["handle"], data["rev"]))
    return result


async def run(args):
    token = os.environ["DS_TOKEN"]
    stores = create_datastores(args.port, token, args.datastores)
    before = proc_status(args.pid)

    woken = {}          # connection index -> arrival time
    early = []          # answers that came before any commit (should be none)
    failed = []
    commits_started = asyncio.Event()
    writers = []
    connect_gate = asyncio.Semaphore(args.connect_concurrency)

    async def waiter(i):
        handle, rev = stores[i % len(stores)]
        params = {"get_deltas": json.dumps({"cursors": {handle: rev}})}
        async with connect_gate:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", args.port)
            except OSError as e:
                failed.append(f"connect: {e}")
                return
        writers.append(writer)
        writer.write(form_request("/1/datastores/await", token, params))
        await writer.drain()
        try:
            status, body, arrived = await read_response(reader)
        except (asyncio.IncompleteReadError, ConnectionError) as e:
            failed.append(f"read: {e!r}")
            return
        if not commits_started.is_set():
            early.append((status, body[:200]))
        elif status != 200 or b"get_deltas" not in body:
            failed.append(f"answer {status} {body[:200]!r}")
        else:
            woken[i] = arrived

    start = time.perf_counter()
    tasks = [asyncio.ensure_future(waiter(i)) for i in range(args.connections)]
    # Parked means the server holds the request: its gauge of waiting awaits counts them.
    parked = 0.0
    deadline = time.perf_counter() + args.park_timeout
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.5)
        parked = metric(args.port, "quartet_datastore_awaits_waiting") or 0.0
        if parked >= args.connections or failed or early:
            break
    park_seconds = time.perf_counter() - start
    await asyncio.sleep(1)  # let the server settle before sampling it
    during = proc_status(args.pid)

    commits_started.set()
    reader, writer = await asyncio.open_connection("127.0.0.1", args.port)
    sent, acked = [], []
    for k, (handle, rev) in enumerate(stores):
        changes = json.dumps([["I", "wake", f"r{k}", {"k": {"I": str(k)}}]])
        request = form_request("/1/datastores/put_delta", token,
                               {"handle": handle, "rev": str(rev), "nonce": f"wake{k}", "changes": changes})
        t_sent = time.perf_counter()
        writer.write(request)
        await writer.drain()
        status, body, t_acked = await read_response(reader)
        if status != 200 or not body.startswith(b'{"rev":'):
            failed.append(f"put_delta {status} {body[:200]!r}")
        sent.append(t_sent)
        acked.append(t_acked)
        await asyncio.sleep(args.gap)
    writer.close()
    done, pending = await asyncio.wait(tasks, timeout=args.wake_timeout)
    for t in pending:
        t.cancel()
    for w in writers:
        w.close()
    after = proc_status(args.pid)

    result = {
        "connections": args.connections, "datastores": len(stores), "parked_seen": parked,
        "park_seconds": round(park_seconds, 2),
    }
    result.update(wake_summary(before, during, after, woken, early, failed, sent, acked, len(stores), "put_delta"))
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
    ap.add_argument("--datastores", type=int, default=100)
    ap.add_argument("--connect-concurrency", type=int, default=256)
    ap.add_argument("--park-timeout", type=float, default=30)
    ap.add_argument("--wake-timeout", type=float, default=10)
    ap.add_argument("--gap", type=float, default=0.05)
    ap.add_argument("--json")
    args = ap.parse_args()
    raise_descriptor_limit(args.connections)
    result = asyncio.run(run(args))
    sys.exit(0 if result["failures"] == 0 and result["woken"] == args.connections else 1)


if __name__ == "__main__":
    main()
